import { BackendError, isRecord, listsTasksExtension, type ToolInfo } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../connection/backend-request-options.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { notOffered } from './feature-support.js';

/** A tool that must run as a task: `execution.taskSupport` is `required`. */
export function requiresTask(tool: ToolInfo): boolean {
  const execution = tool.definition?.execution as { taskSupport?: unknown } | undefined;
  return execution?.taskSupport === 'required';
}

/**
 * Whether a server offers tasks: 2025's `tasks` capability, or the 2026-07-28 tasks extension (its tasks are bridged
 * to the same API: `modern-task-bridge.ts`). A server that is not running passes (the request then fails with
 * `ServerNotRunningError` and a reconnect, as a tool call does).
 */
export function offersTasks(connection: ServerConnection): boolean {
  const capabilities = connection.capabilities();
  return capabilities === undefined || capabilities.tasks !== undefined || listsTasksExtension(capabilities);
}

/** A running 2026-07-28 server that lists the tasks extension. */
export function offersTasksExtension(connection: ServerConnection): boolean {
  return listsTasksExtension(connection.capabilities());
}

/**
 * A 2026-07-28 backend's refusal of a call that it can serve only as a task (`-32021`, the tasks extension among the
 * `requiredCapabilities`): the call is then run as a task (`runToolAsTask`).
 */
export function needsTasksExtension(error: unknown): boolean {
  if (!BackendError.isInstance(error) || error.backendCode !== -32021 || !isRecord(error.data)) return false;
  return listsTasksExtension(error.data.requiredCapabilities);
}

function requireTasks(connection: ServerConnection, method: string): void {
  if (!offersTasks(connection)) throw notOffered(connection, method);
}

/** `tasks/get`: the task (`{ taskId, status, … }`) unchanged. */
export async function getTask(
  connection: ServerConnection,
  taskId: string,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireTasks(connection, 'tasks/get');
  return connection.forward('tasks/get', { taskId }, options, {
    operation: `tasks/get ${taskId}`,
    check: (result) => (typeof result.status === 'string' ? undefined : '`status` is not a string'),
  });
}

/**
 * `tasks/result`: blocks until the task is terminal, then the underlying result unchanged. Its idle limit is the
 * server's overall limit (a task may work long without a word), and it registers its `origin`: an elicitation the
 * task queued arrives while it waits.
 */
export async function getTaskResult(
  connection: ServerConnection,
  taskId: string,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireTasks(connection, 'tasks/result');
  return connection.forward(
    'tasks/result',
    { taskId },
    { ...options, timeoutMs: options?.timeoutMs ?? connection.overallLimitMs() },
    { operation: `tasks/result ${taskId}`, name: taskId },
  );
}

/** `tasks/list`: one page unchanged; a server that cannot list tasks answers an empty page. */
export async function listTasks(
  connection: ServerConnection,
  cursor: string | undefined,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  const tasks = connection.capabilities()?.tasks as { list?: unknown } | undefined;
  if (connection.capabilities() !== undefined && tasks?.list === undefined) return { tasks: [] };
  return connection.forward('tasks/list', cursor !== undefined ? { cursor } : {}, options, {
    check: (result) => (Array.isArray(result.tasks) ? undefined : '`tasks` is not an array'),
  });
}

/** `tasks/cancel`: the task as the backend answers. */
export async function cancelTask(
  connection: ServerConnection,
  taskId: string,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireTasks(connection, 'tasks/cancel');
  return connection.forward('tasks/cancel', { taskId }, options, { operation: `tasks/cancel ${taskId}` });
}

/**
 * `tasks/update` of the 2026-07-28 tasks extension: answers the `inputRequests` of a task in `input_required`
 * (keyed as the backend asked). Only a backend that lists the extension has it (2025 has no such method: `-32601`
 * without a round trip). The backend acknowledges at once; the task goes on (read it with `getTask`).
 */
export async function updateTask(
  connection: ServerConnection,
  taskId: string,
  inputResponses: Record<string, unknown>,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  if (connection.capabilities() !== undefined && !offersTasksExtension(connection)) {
    throw notOffered(connection, 'tasks/update');
  }
  return connection.forward('tasks/update', { taskId, inputResponses }, options, {
    operation: `tasks/update ${taskId}`,
  });
}
