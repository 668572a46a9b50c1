import type { Caller } from '@search-mcp/catalog';
import { ClusterStoreError } from '@search-mcp/cluster';
import { errorMessage, isRecord, JsonRpcErrorCode, listsTasksExtension, TASKS_EXTENSION } from '@search-mcp/shared';
import type { BackendGateway } from '../forwarding/backend-gateway.js';
import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { refuseCursor } from '../forwarding/list-cursor.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientSession } from '../sessions/client-session.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import type { ForeignTask } from './cluster-task-records.js';
import { foreignModernTask, foreignResult, foreignTask, waitForForeignEnd } from './foreign-task-answers.js';
import { tasksExtensionCapabilities, toModernTask } from './modern-tasks.js';
import { resultWithInput } from './task-input-relay.js';
import { withExposedIds } from './exposed-task-ids.js';
import { clientEraOf } from '../eras/client-era-of.js';

/** What a client is told when the cluster store fails during a task method (the detail is logged). */
const storeUnavailableMessage =
  'Search MCP cannot reach the task state its replicas share right now (temporary; try again shortly)';
/** The shape of our task ids (`randomUUID()` in `task-table.ts`). */
const taskIdShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who owns the tasks a caller creates: its token when it has one (any of its sessions), else its session. */
export function taskOwner(session: ClientSession, caller: Caller): string {
  return caller.tokenId ?? session.key;
}

/**
 * Whether the owner of a task created now can find it again: a token always; a session only if it outlives the
 * request (HTTP stateless and 2026-07-28 HTTP serve each request on a new instance, a new session key).
 */
export function keepsTaskOwner(session: ClientSession, caller: Caller): boolean {
  return caller.tokenId !== undefined || !session.stateless;
}

/**
 * `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` for tasks created through direct task-augmented
 * `tools/call`s. Task ids are ours (the backend's stay inside); another caller's task is "not found", never
 * "forbidden". `tasks/result` carries the caller as origin, so an elicitation the task needs reaches it exactly.
 *
 * A 2026-07-28 client gets the same tasks in the shapes of the tasks extension (`modern-tasks.ts`): `tasks/get` with
 * the result inline once the backend's task completed, `tasks/cancel` and `tasks/update` as empty acknowledgements.
 * `tasks/result` and `tasks/list` are not part of the extension: the SDK answers them -32601 on a 2026 connection.
 *
 * With a cluster store (`hub.taskRecords`), a task this replica does not hold is answered from its record: created
 * through another replica, running there or ended, or `failed` once that replica stopped (`foreign-task-answers.ts`).
 */
export function registerTaskHandlers(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  // On 2026-07-28, `tasks/get|update|cancel` exist only for a client that declares the extension (in this request's
  // envelope): anyone else is told what is missing (-32021), not that the task is unknown (SEP-2663, SEP-2575).
  const requireExtension = (extra: RequestExtra, method: string) => {
    if (extra.clientEra.tasksBy === 'extension' && !listsTasksExtension(extra.clientCapabilities))
      throw missingTasksExtension(method);
  };
  const records = hub.taskRecords;
  const ownerOf = (meta: Record<string, unknown> | undefined, extra: RequestExtra) =>
    taskOwner(context.session, context.callerOf(meta, extra));
  const notFound = (taskId: string) =>
    new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Task not found: ${taskId}`);
  const held = (taskId: string, meta: Record<string, unknown> | undefined, extra: RequestExtra) =>
    hub.sessions.tasks.get(taskId, ownerOf(meta, extra));
  /**
   * Runs a read or write of the cluster store for a task method: a store failure reaches the client as a generic,
   * temporary error (its text names Redis hosts and keys: logged here, never sent).
   */
  const fromStore = async <Result>(work: () => Promise<Result>): Promise<Result> => {
    try {
      return await work();
    } catch (error) {
      if (!ClusterStoreError.isInstance(error)) throw error;
      hub.logger.warn('a task method could not use the cluster store', { error: errorMessage(error) });
      throw new JsonRpcWireError(JsonRpcErrorCode.ServerError, storeUnavailableMessage);
    }
  };
  /** A task this replica does not hold, from the cluster store; "not found" without one, or for anyone else. */
  const findElsewhere = async (
    taskId: string,
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
  ): Promise<ForeignTask> => {
    // Our ids are UUIDs (`task-table.ts`): anything else is unknown without a store read.
    if (!records || !taskIdShape.test(taskId)) throw notFound(taskId);
    const foreign = await fromStore(() => records.read(taskId, ownerOf(meta, extra)));
    if (!foreign) throw notFound(taskId);
    return foreign;
  };
  const gatewayMethod = (method: 'getTask' | 'getTaskResult' | 'cancelTask') => {
    const send = hub.gateway[method]?.bind(hub.gateway);
    if (!send)
      throw new JsonRpcWireError(JsonRpcErrorCode.MethodNotFound, 'Tasks are not forwarded by this Search MCP');
    return send;
  };
  const forward = async (
    method: 'getTask' | 'getTaskResult' | 'cancelTask',
    taskId: string,
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
  ) => {
    const task = held(taskId, meta, extra);
    if (!task) return forwardElsewhere(method, taskId, meta, extra);
    const send = gatewayMethod(method);
    try {
      const result = await send(task.serverId, task.backendTaskId, backendOptions(context, meta, extra));
      if (method === 'getTaskResult') hub.routes.noteLinks(task.serverId, result);
      else records?.noteStatus(task, isRecord(result.task) ? result.task : result);
      return withExposedIds(result, task);
    } catch (error) {
      throw toForwardedError(error, 'tasks');
    }
  };
  /** `forward` for a task another replica runs or ran: its record's status and result. */
  const forwardElsewhere = async (
    method: 'getTask' | 'getTaskResult' | 'cancelTask',
    taskId: string,
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
  ): Promise<Record<string, unknown>> => {
    const foreign = await findElsewhere(taskId, meta, extra);
    if (method === 'getTask') return foreignTask(foreign);
    if (method === 'cancelTask') {
      // Only the replica running it can reach its backend: it is asked (publish/subscribe) and records `cancelled`.
      if (foreign.running) await fromStore(async () => records?.requestCancel(foreign.record));
      return foreignTask(foreign);
    }
    const ended =
      records && foreign.running
        ? await fromStore(() => waitForForeignEnd(records, foreign, extra.signal))
        : foreign.record;
    hub.routes.noteLinks(ended.serverId, ended.result ?? {});
    return foreignResult(ended);
  };
  /** 2026 `tasks/get`: the backend's task in the extension's shape; its result fetched once it completed. */
  const getModern = async (taskId: string, meta: Record<string, unknown> | undefined, extra: RequestExtra) => {
    const task = held(taskId, meta, extra);
    if (!task) return foreignModernTask(await findElsewhere(taskId, meta, extra));
    const getTask = gatewayMethod('getTask');
    const getTaskResult = gatewayMethod('getTaskResult');
    try {
      let status = await getTask(task.serverId, task.backendTaskId, backendOptions(context, meta, extra));
      if (status.status === 'input_required' && !speaksTasksExtension(hub.gateway, task.serverId)) {
        // A 2025 backend pushes what it asks while a tasks/result is open: parked, shown as the task's inputRequests.
        const owner = hub.sessions.get(task.sessionKey);
        const inputRequests = await hub.sessions.taskInputs.look(task, {
          inputs: context.inputs,
          session: owner && clientEraOf(owner.era).asksClientBy === 'park' ? owner : context.session,
          extra,
          openResult: (options) => getTaskResult(task.serverId, task.backendTaskId, options),
          logger: hub.logger,
        });
        if (inputRequests) return toModernTask({ ...status, inputRequests }, task);
        // None came: the task may have gone on, or ended, meanwhile.
        status = await getTask(task.serverId, task.backendTaskId, backendOptions(context, meta, extra));
      }
      records?.noteStatus(task, status);
      if (status.status !== 'completed') return toModernTask(status, task);
      const result = await getTaskResult(task.serverId, task.backendTaskId, backendOptions(context, meta, extra));
      hub.routes.noteLinks(task.serverId, result);
      return toModernTask(status, task, { result: withExposedIds(result, task) });
    } catch (error) {
      throw toForwardedError(error, 'tasks');
    }
  };
  server.handle('tasks/get', (request, extra) => {
    requireExtension(extra, 'tasks/get');
    return extra.clientEra.tasksBy === 'extension'
      ? getModern(request.params.taskId, request.params._meta, extra)
      : forward('getTask', request.params.taskId, request.params._meta, extra);
  });
  /**
   * 2025 `tasks/result`: a 2026-07-28 backend's task asks for input by `inputRequests`, which are sent to this client
   * as the requests a 2025 backend would push (`task-input-relay.ts`); a 2025 backend's task is forwarded as it is.
   */
  const result = async (taskId: string, meta: Record<string, unknown> | undefined, extra: RequestExtra) => {
    const task = held(taskId, meta, extra);
    if (!task) return forwardElsewhere('getTaskResult', taskId, meta, extra);
    const { getTask, getTaskResult, updateTask } = hub.gateway;
    if (!getTask || !getTaskResult || !updateTask || !speaksTasksExtension(hub.gateway, task.serverId))
      return forward('getTaskResult', taskId, meta, extra);
    const gateway = {
      getTask: getTask.bind(hub.gateway),
      getTaskResult: getTaskResult.bind(hub.gateway),
      updateTask: updateTask.bind(hub.gateway),
    };
    try {
      const answer = await resultWithInput({ gateway, sessions: hub.sessions, logger: hub.logger }, task, {
        ...backendOptions(context, meta, extra),
        signal: extra.signal,
      });
      hub.routes.noteLinks(task.serverId, answer);
      return withExposedIds(answer, task);
    } catch (error) {
      throw toForwardedError(error, 'tasks');
    }
  };
  server.handle('tasks/result', (request, extra) => result(request.params.taskId, request.params._meta, extra));
  server.handle('tasks/cancel', async (request, extra) => {
    requireExtension(extra, 'tasks/cancel');
    const answer = await forward('cancelTask', request.params.taskId, request.params._meta, extra);
    // A tasks/result held open for the task's input (a 2025 backend's, for a 2026 client) ends with it.
    const task = held(request.params.taskId, request.params._meta, extra);
    if (task) hub.sessions.taskInputs.close(task, 'the task was cancelled');
    // The extension acknowledges with an empty result; the task's state is read with tasks/get.
    return extra.clientEra.tasksBy === 'extension' ? {} : answer;
  });
  server.handle('tasks/list', async (request, extra) => {
    refuseCursor('tasks/list', request.params?.cursor);
    const owner = taskOwner(context.session, context.callerOf(request.params?._meta, extra));
    const own = hub.sessions.tasks.list(owner);
    const elsewhere = records
      ? fromStore(() => records.list(owner, new Set(own.map((task) => task.exposedId))))
      : Promise.resolve([]);
    // Awaited after the own tasks' polls: a store failure meanwhile must not count as an unhandled rejection.
    elsewhere.catch(() => undefined);
    const tasks = await Promise.all(
      own.map(async (task) => {
        try {
          const status = await hub.gateway.getTask?.(task.serverId, task.backendTaskId, { signal: extra.signal });
          if (!status) return [];
          records?.noteStatus(task, status);
          return [withExposedIds(status, task)];
        } catch {
          // The backend no longer knows it (restarted, expired): it is not listed.
          return [];
        }
      }),
    );
    return { tasks: [...tasks.flat(), ...(await elsewhere).map(foreignTask)] };
  });
  if (clientEraOf(context.session.era).tasksBy === 'extension') {
    // Direct `tools/call`s of 2026 clients that declare the extension may answer with a task (`handlers/
    // direct-call-handler.ts`); the extension is listed in `server/discover` only where the tasks can be followed.
    if (hub.gateway.getTask && hub.gateway.getTaskResult) server.registerCapabilities(tasksExtensionCapabilities);
    // `tasks/update` answers the `inputRequests` of a task. A 2026-07-28 backend's task shows its own (keyed as it
    // asked): the answers go on to it. A 2025 backend's task shows the requests it pushed, parked under keys of ours
    // (`parked-task-input.ts`): the answers go back to those requests. A key not outstanding is ignored, as the
    // extension says: the known task is acknowledged, an unknown one is an error.
    server.handle('tasks/update', async (request, extra) => {
      requireExtension(extra, 'tasks/update');
      // The SDK lifts a 2026 request's `inputResponses` out of its params (multi-round-trip requests use the same
      // name), so they are read from the request's context.
      const answers = extra.inputResponses;
      if (!isRecord(answers)) {
        throw new JsonRpcWireError(
          JsonRpcErrorCode.InvalidParams,
          'Invalid tasks/update params: inputResponses: expected an object of responses by request key',
        );
      }
      const task = held(request.params.taskId, request.params._meta, extra);
      if (!task) {
        // An ended task is acknowledged; a running one waits for input on the replica running it, out of reach here.
        const foreign = await findElsewhere(request.params.taskId, request.params._meta, extra);
        if (!foreign.running) return {};
        throw new JsonRpcWireError(
          JsonRpcErrorCode.InvalidRequest,
          'The task runs on another Search MCP replica: its input can be answered only there',
        );
      }
      const update = hub.gateway.updateTask?.bind(hub.gateway);
      if (!speaksTasksExtension(hub.gateway, task.serverId)) {
        hub.sessions.taskInputs.answer(task, extra, answers);
      } else if (update) {
        try {
          await update(
            task.serverId,
            task.backendTaskId,
            answers,
            backendOptions(context, request.params._meta, extra),
          );
        } catch (error) {
          throw toForwardedError(error, 'tasks');
        }
      }
      return {};
    });
  }
}

/**
 * 2026-07-28's "missing required client capability" for a task method of a client that did not declare the tasks
 * extension; `data.requiredCapabilities` is a `ClientCapabilities` object naming what to declare.
 */
function missingTasksExtension(method: string): JsonRpcWireError {
  return new JsonRpcWireError(
    JsonRpcErrorCode.MissingRequiredClientCapability,
    `${method} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/**
 * Whether a task's backend speaks 2026-07-28: its tasks are the extension's (the client manager bridges them), which
 * show their `inputRequests` and take `tasks/update`. A 2025 backend's task asks for input by pushed requests.
 */
export function speaksTasksExtension(gateway: Pick<BackendGateway, 'status'>, serverId: string): boolean {
  return gateway.status().find((status) => status.id === serverId)?.protocolEra === 'modern';
}
