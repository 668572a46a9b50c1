import type { Caller } from '@search-mcp/catalog';
import { isRecord, JsonRpcErrorCode } from '@search-mcp/shared';
import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { refuseCursor } from '../forwarding/list-cursor.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import type { RequestExtra } from '../search-mcp-server-options.js';
import type { ClientSession } from '../sessions/client-session.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import type { ExposedTask } from './task-table.js';

const relatedTaskKey = 'io.modelcontextprotocol/related-task';

/** Who owns the tasks a caller creates: its token when it has one (any of its sessions), else its session. */
export function taskOwner(session: ClientSession, caller: Caller): string {
  return caller.tokenId ?? session.key;
}

/**
 * `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` for tasks created through direct task-augmented
 * `tools/call`s. Task ids are ours (the backend's stay inside); another caller's task is "not found", never
 * "forbidden". `tasks/result` carries the caller as origin, so an elicitation the task needs reaches it exactly.
 */
export function registerTaskHandlers(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  const forward = async (
    method: 'getTask' | 'getTaskResult' | 'cancelTask',
    taskId: string,
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
  ) => {
    const task = hub.sessions.tasks.get(taskId, taskOwner(context.session, context.callerOf(meta, extra)));
    if (!task) throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Task not found: ${taskId}`);
    const send = hub.gateway[method]?.bind(hub.gateway);
    if (!send)
      throw new JsonRpcWireError(JsonRpcErrorCode.MethodNotFound, 'Tasks are not forwarded by this Search MCP');
    try {
      const result = await send(task.serverId, task.backendTaskId, backendOptions(context, meta, extra));
      if (method === 'getTaskResult') hub.routes.noteLinks(task.serverId, result);
      return withExposedIds(result, task);
    } catch (error) {
      throw toForwardedError(error, 'tasks');
    }
  };
  server.handle('tasks/get', (request, extra) =>
    forward('getTask', request.params.taskId, request.params._meta, extra),
  );
  server.handle('tasks/result', (request, extra) =>
    forward('getTaskResult', request.params.taskId, request.params._meta, extra),
  );
  server.handle('tasks/cancel', (request, extra) =>
    forward('cancelTask', request.params.taskId, request.params._meta, extra),
  );
  server.handle('tasks/list', async (request, extra) => {
    refuseCursor('tasks/list', request.params?.cursor);
    const owner = taskOwner(context.session, context.callerOf(request.params?._meta, extra));
    const tasks = await Promise.all(
      hub.sessions.tasks.list(owner).map(async (task) => {
        try {
          const status = await hub.gateway.getTask?.(task.serverId, task.backendTaskId, { signal: extra.signal });
          if (!status) return [];
          return [withExposedIds(status, task)];
        } catch {
          // The backend no longer knows it (restarted, expired): it is not listed.
          return [];
        }
      }),
    );
    return { tasks: tasks.flat() };
  });
}

/** A backend's task result with its task id replaced by ours, in the result and in its related-task `_meta`. */
export function withExposedIds(result: Record<string, unknown>, task: ExposedTask): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...result };
  if (copy.taskId === task.backendTaskId) copy.taskId = task.exposedId;
  if (isRecord(copy.task) && copy.task.taskId === task.backendTaskId)
    copy.task = { ...copy.task, taskId: task.exposedId };
  if (isRecord(copy._meta) && isRecord(copy._meta[relatedTaskKey])) {
    copy._meta = { ...copy._meta, [relatedTaskKey]: { ...copy._meta[relatedTaskKey], taskId: task.exposedId } };
  }
  return copy;
}
