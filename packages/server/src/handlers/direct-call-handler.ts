import type { Caller } from '@search-mcp/catalog';
import { authorizationElicitation } from '../authorization-elicitation.js';
import {
  isRecord,
  JsonRpcErrorCode,
  listsTasksExtension,
  parseToolKey,
  type ToolCallResult,
  type ToolInfo,
} from '@search-mcp/shared';
import { TOOL_DISCOVERY, TOOL_EXECUTE } from '../meta-tool-definitions.js';
import type { RequestExtra } from '../request-extra-types.js';
import { runsAsTask, toCreateTaskResult } from '../tasks/modern-tasks.js';
import { withExposedIds } from '../tasks/exposed-task-ids.js';
import { keepsTaskOwner, taskOwner } from '../tasks/task-handlers.js';
import type { ExposedTask } from '../tasks/task-table.js';
import { JsonRpcWireError, toJsonRpcError } from '../wire-errors.js';
import { type CalledServerWait, type CalledTool, resolveCalledTool } from './called-server-wait.js';
import type { HandlerContext } from './handler-context.js';
import { runToolCall, type ToolCallRun } from './run-tool-call.js';

/**
 * A direct `tools/call` of a backend tool, by tool key (`server:tool`, `server.tool`, `server__tool`) or listed name,
 * in both modes. Failures are JSON-RPC errors (unknown tool -32602, server down or failing -32000, timeout -32001).
 * A call to a server still connecting waits for it (within its call timeout, `called-server-wait.ts`) rather than failing.
 *
 * A 2026-07-28 client that declares the tasks extension gets a task (`resultType: "task"`) for a backend tool that
 * runs as one (`execution.taskSupport` `required` or `optional`), or for any tool of a 2026-07-28 backend that offers
 * tasks (that backend decides, call by call, and a result it answers in the call passes through; SEP-2663). Any
 * other client gets the result in the call (a required task is then run inside the call by the client manager), as
 * does a tokenless caller of a per-request instance (HTTP), which could not find the task again.
 */
export function handleDirectCall(
  context: HandlerContext,
  name: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  // Not an async function: every forwarded call comes this way (see `runToolCall`). Failures become the call's
  // JSON-RPC error, whether they are thrown here (a refused caller fails in `resolveCalledTool` already, and must get
  // its error's code, not -32603) or by the call.
  const fail = (error: unknown): never => {
    if (error instanceof JsonRpcWireError) throw error;
    throw authorizationElicitation(error, extra) ?? toJsonRpcError(error, name);
  };
  try {
    const called = resolveCalledTool(context, name, caller, meta, extra);
    const running =
      called instanceof Promise
        ? called.then((tool) => callResolved(context, tool, args, caller, meta, extra))
        : callResolved(context, called, args, caller, meta, extra);
    return running.catch(fail);
  } catch (error) {
    return Promise.reject(error).catch(fail);
  }
}

/** The call of a resolved tool: as a task for a client that may get one and a tool that runs as one, else in the call. */
function callResolved(
  context: HandlerContext,
  { toolKey, tools, waited }: CalledTool,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  if (offersTasks(context, caller, extra)) {
    const tool = tools.find((entry: ToolInfo) => entry.toolKey === toolKey);
    // The server's status says whether it is a 2026-07-28 backend that offers tasks (any of its tools may answer
    // one); built only here, for 2026 clients that declared the extension, never on the common path.
    const backend = tool && context.manager?.status().find((status) => status.id === tool.serverName);
    if (tool && runsAsTask(tool, backend)) {
      return createTask(context, toolKey, args, caller, meta, extra, undefined, waited).then(
        ({ result, exposed }) =>
          (exposed && isRecord(result.task) ? toCreateTaskResult(result.task, exposed) : result) as ToolCallResult,
      );
    }
  }
  return runToolCall(context, directCallRun(toolKey, args, caller, meta, extra, waited));
}

/** The run of a direct call: after a wait for its server, the call gets what the wait left of its timeout. */
function directCallRun(
  toolKey: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
  waited: CalledServerWait | undefined,
): ToolCallRun {
  return {
    event: 'tools/call',
    toolKey,
    args,
    caller,
    meta,
    extra,
    ...(waited ? { timeoutMs: waited.remainingMs } : {}),
  };
}

/**
 * Whether this call may be answered with a task: a 2026-07-28 client that declared the extension, with a hub to keep
 * the task, and an owner that can find it again (a tokenless caller of a per-request instance could not: it runs in
 * the call).
 */
function offersTasks(context: HandlerContext, caller: Caller, extra: RequestExtra): boolean {
  const { tasks, session } = context;
  return (
    extra.clientEra.tasksBy === 'extension' &&
    listsTasksExtension(extra.clientCapabilities) &&
    tasks !== undefined &&
    session !== undefined &&
    keepsTaskOwner(session, caller)
  );
}

/**
 * A task-augmented direct `tools/call` of a 2025-era client (`params.task`): the backend creates the task and answers
 * at once with it; the client gets it under a task id of ours, owned by its token (else its session), for
 * `tasks/get|result|cancel`. The meta-tools run no tasks (they declare no `execution.taskSupport`): `-32601`.
 */
export async function handleTaskCall(
  context: HandlerContext,
  name: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  task: unknown,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  if (
    !context.tasks ||
    !context.session ||
    (context.mode === 'meta' && (name === TOOL_DISCOVERY || name === TOOL_EXECUTE))
  ) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.MethodNotFound,
      `Tool ${name} does not run as a task; call it without "task"`,
    );
  }
  if (!isRecord(task) || (task.ttl !== undefined && typeof task.ttl !== 'number')) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      'Invalid tools/call params: "task" must be { ttl?: number }',
    );
  }
  const ttl = typeof task.ttl === 'number' ? task.ttl : undefined;
  try {
    const { toolKey, waited } = await resolveCalledTool(context, name, caller, meta, extra);
    const { result, exposed } = await createTask(context, toolKey, args, caller, meta, extra, ttl, waited);
    return (exposed ? withExposedIds(result, exposed) : result) as ToolCallResult;
  } catch (error) {
    throw toJsonRpcError(error, name);
  }
}

/**
 * Asks the backend to run `toolKey` as a task (`ttl` as the client asked, else the backend's choice) and keeps the
 * task it creates in the table, owned by the caller, before the answer goes out. After a wait for the server, the
 * call gets what the wait left of its timeout. `exposed` is absent when the backend
 * answered without a task.
 */
async function createTask(
  context: HandlerContext,
  toolKey: string,
  args: Record<string, unknown>,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
  ttl: number | undefined,
  waited: CalledServerWait | undefined,
): Promise<{ result: ToolCallResult; exposed: ExposedTask | undefined }> {
  const { tasks, session } = context;
  const result = await runToolCall(context, {
    ...directCallRun(toolKey, args, caller, meta, extra, waited),
    task: ttl !== undefined ? { ttl } : {},
  });
  const created = result.task;
  const serverId = parseToolKey(toolKey)?.serverId;
  if (!tasks || !session || !isRecord(created) || typeof created.taskId !== 'string' || serverId === undefined)
    return { result, exposed: undefined };
  const owner = taskOwner(session, caller);
  const kept = ttl ?? (typeof created.ttl === 'number' ? created.ttl : undefined);
  const exposed = tasks.add(serverId, created.taskId, { owner, sessionKey: session.key }, kept);
  // In the cluster store before the client hears of it: any replica can answer it from then on.
  await context.taskRecords?.created(exposed, created);
  return { result, exposed };
}
