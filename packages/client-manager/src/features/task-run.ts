import {
  BackendError,
  type InputRequiredResult,
  isRecord,
  type ToolCallResult,
  taskPollDelayMs,
  isTerminalTaskStatus,
} from '@search-mcp/shared';
import type { CallToolOptions } from '../connection/forward-tool-call.js';
import type { TaskStatusParams } from '../backend-notification-params.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { cancelTask, getTask, getTaskResult, updateTask } from './task-forwarding.js';

/** Listens to one server's `notifications/tasks/status`; returns the function that stops listening. */
export type TaskStatusListener = (listener: (params: TaskStatusParams) => void) => () => void;

/**
 * The `requestState` of a task run that waits for input: the backend's task id behind our prefix. It goes to the
 * caller inside an `input_required` answer and comes back with its retry (Search MCP's front side signs it and binds
 * it to the caller and the call before it leaves).
 */
const taskStatePrefix = 'search-mcp-task:';

/** The task a retry continues, when its `requestState` is one of ours. */
export function taskOfRequestState(requestState: unknown): string | undefined {
  if (typeof requestState !== 'string' || !requestState.startsWith(taskStatePrefix)) return undefined;
  const taskId = requestState.slice(taskStatePrefix.length);
  return taskId.length > 0 ? taskId : undefined;
}

/**
 * Runs a tool as a task inside the call, so callers that know nothing of tasks still get its result: a tool whose
 * `execution.taskSupport` is `required`, or one a 2026-07-28 backend serves only as a task (it refused a plain call
 * `-32021`; such calls reach it through the tasks extension, `modern-task-bridge.ts`). `tools/call` with `task`,
 * then `tasks/get` at the backend's poll interval (250 ms to 5 s, woken early by `notifications/tasks/status`), each
 * new status reported as progress. On `completed` (or a 2025 task's `input_required`), `tasks/result`: it blocks
 * until the task ends and carries any queued elicitation. `failed`/`cancelled` become a `BackendError` with the
 * backend's `statusMessage` (a 2026 task's inline error: its message and code); an abort sends `tasks/cancel` (best
 * effort) and rejects with the reason. A backend that answers in the call after all resolves with that result.
 *
 * A 2026 task that asks for input (`input_required` with `inputRequests`) resolves as the manager's other
 * `input_required` answers do: the backend's `inputRequests` and a `requestState` naming the task. The caller's retry
 * (`options.inputResponses` and that `requestState`) answers them with `tasks/update` and follows the same task on.
 */
export async function runToolAsTask(
  connection: ServerConnection,
  toolName: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
  onTaskStatus: TaskStatusListener,
): Promise<ToolCallResult> {
  const { signal, onProgress, origin } = options;
  const resumed = taskOfRequestState(options.requestState);
  let task: Record<string, unknown>;
  if (resumed !== undefined) {
    await updateTask(connection, resumed, options.inputResponses ?? {}, signal ? { signal } : {});
    task = await getTask(connection, resumed, signal ? { signal } : {});
  } else {
    const { inputResponses: _answers, requestState: _state, ...plain } = options;
    const created = await connection.callTool(toolName, args, {
      ...plain,
      onProgress: undefined,
      task: { ttl: options.maxTotalTimeoutMs ?? connection.overallLimitMs() },
    } as CallToolOptions);
    // A 2026-07-28 backend decides per call: it may answer in the call although a task was offered.
    if (!isRecord(created.task)) return created;
    task = created.task;
  }
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
    while (!isTerminalTaskStatus(task.status) && task.status !== 'input_required') {
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
    if (task.status === 'input_required' && isRecord(task.inputRequests)) {
      const asked: InputRequiredResult = {
        resultType: 'input_required',
        inputRequests: task.inputRequests as InputRequiredResult['inputRequests'],
        requestState: `${taskStatePrefix}${taskId}`,
      };
      return asked as unknown as ToolCallResult;
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
