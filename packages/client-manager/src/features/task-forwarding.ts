import { BackendError, isRecord, type ToolCallResult, type ToolInfo } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../connection/backend-request-options.js';
import type { CallToolOptions } from '../connection/forward-tool-call.js';
import type { TaskStatusParams } from '../connection/notification-relays.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { taskPollDelayMs } from '../connection/task-poll-delay.js';
import { listsTasksExtension } from '../connection/tasks-extension.js';
import { notOffered } from './feature-support.js';

/** Listens to one server's `notifications/tasks/status`; returns the function that stops listening. */
export type TaskStatusListener = (listener: (params: TaskStatusParams) => void) => () => void;

/** A tool that must run as a task: `execution.taskSupport` is `required`. */
export function requiresTask(tool: ToolInfo): boolean {
  const execution = tool.definition?.execution as { taskSupport?: unknown } | undefined;
  return execution?.taskSupport === 'required';
}

const terminal = new Set(['completed', 'failed', 'cancelled']);

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
 * Runs a tool whose `execution.taskSupport` is `required` as a task, so callers that know nothing of tasks still get
 * its result: `tools/call` with `task`, then `tasks/get` at the backend's `pollInterval` (250 ms to 5 s, woken early
 * by `notifications/tasks/status`), each new status reported as progress; on `completed` or `input_required`,
 * `tasks/result` (it blocks until the task ends and carries any queued elicitation). `failed`/`cancelled` become a
 * `BackendError` with the backend's `statusMessage` (a 2026 task's inline error: its message and code); an abort
 * sends `tasks/cancel` (best effort) and rejects with the reason. Also the tools a 2026-07-28 backend serves only as
 * a task (it refused a plain call `-32021`): the same calls reach it through the extension (`modern-task-bridge.ts`),
 * and a backend that answers in the call after all resolves with that result.
 */
export async function runToolAsTask(
  connection: ServerConnection,
  toolName: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
  onTaskStatus: TaskStatusListener,
): Promise<ToolCallResult> {
  const { signal, onProgress, origin } = options;
  const created = await connection.callTool(toolName, args, {
    ...options,
    onProgress: undefined,
    task: { ttl: options.maxTotalTimeoutMs ?? connection.overallLimitMs() },
  } as CallToolOptions);
  // A 2026-07-28 backend decides per call: it may answer in the call although a task was offered.
  if (!isRecord(created.task)) return created;
  let task = created.task;
  const taskId = String(task.taskId);
  let reported = '';
  let step = 0;
  const report = () => {
    const message = typeof task.statusMessage === 'string' ? task.statusMessage : String(task.status);
    if (message === reported) return;
    reported = message;
    step += 1;
    onProgress?.({ progress: step, message });
  };
  let wake: (() => void) | undefined;
  const stopListening = onTaskStatus((params) => {
    if (params.taskId === taskId) wake?.();
  });
  try {
    report();
    while (!terminal.has(String(task.status)) && task.status !== 'input_required') {
      await pause(taskPollDelayMs(task.pollInterval), signal, (resume) => {
        wake = resume;
      });
      task = await getTask(connection, taskId, signal ? { signal } : {});
      report();
    }
    if (task.status === 'failed' || task.status === 'cancelled') {
      // A 2026-07-28 task that failed carries its JSON-RPC error: its code is the backend's.
      const error = isRecord(task.error) ? task.error : undefined;
      const detail = typeof error?.message === 'string' ? error.message : task.statusMessage;
      const why = typeof detail === 'string' ? `: ${detail}` : '';
      throw new BackendError({
        serverId: connection.id,
        message: `MCP server '${connection.id}' task ${taskId} of ${toolName} ${task.status}${why}`,
        ...(typeof error?.code === 'number' ? { backendCode: error.code } : {}),
        data: task,
      });
    }
    return (await getTaskResult(connection, taskId, {
      ...(signal ? { signal } : {}),
      ...(origin ? { origin } : {}),
    })) as ToolCallResult;
  } catch (error) {
    if (signal?.aborted) {
      await cancelTask(connection, taskId, {}).catch(() => {});
      throw signal.reason;
    }
    throw error;
  } finally {
    stopListening();
  }
}

/** Waits `ms`, or less when woken or aborted (an abort rejects with the signal's reason). */
function pause(ms: number, signal: AbortSignal | undefined, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    onWake(done);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}
