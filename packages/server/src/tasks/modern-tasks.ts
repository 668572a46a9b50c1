import { isRecord, type ServerStatus, TASKS_EXTENSION, type ToolInfo } from '@search-mcp/shared';
import type { ExposedTask } from './task-table.js';

/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) as Search MCP shows the backend tasks in
 * its table to 2026 clients. The extension renames and reshapes 2025's core tasks: `ttl` → `ttlMs`, `pollInterval` →
 * `pollIntervalMs`, a created task is the result itself (`resultType: "task"`, not `{ task }`), `tasks/get` carries
 * the final `result` (or `error`) inline instead of a blocking `tasks/result`, `tasks/cancel` and `tasks/update` answer
 * an empty acknowledgement, and `tasks/list` is gone.
 */

/** What a 2026 server lists in its capabilities when it may answer with tasks. */
export const tasksExtensionCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };

/**
 * Whether a direct call of a backend tool may answer a task to a 2026 client that declared the extension. A 2025
 * backend's tool: its listing says `execution.taskSupport` is `required` or `optional`. A 2026-07-28 backend's
 * listing has no `execution` (the 2.x SDK server drops it); when `backend` (its status) shows it speaks 2026-07-28
 * and offers tasks (the extension, bridged by the client manager), any of its tools may: the backend decides per
 * call, and a result it answers in the call passes through. Without `backend`, such tools run in the call for the
 * client (one the backend serves only as a task is run as a task inside the call by the client manager).
 */
export function runsAsTask(tool: ToolInfo, backend?: Pick<ServerStatus, 'protocolEra' | 'features'>): boolean {
  const execution = tool.definition?.execution;
  const support = isRecord(execution) ? execution.taskSupport : undefined;
  if (support === 'required' || support === 'optional') return true;
  return backend?.protocolEra === 'modern' && backend.features?.includes('tasks') === true;
}

const statuses = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/**
 * A backend task in 2025's shape (a 2025 backend's `tasks/get` or created `task`, or a 2026-07-28 backend's as the
 * client manager bridges it) in the extension's `Task` shape, under our id.
 * `final` is what ends it: the backend's `tasks/result` for `completed`, its JSON-RPC error for `failed`.
 *
 * A task waiting for input shows `input_required` with the `inputRequests` it waits for (`backendTask.inputRequests`):
 * a 2026-07-28 backend's under the keys it gave them (a client's `tasks/update` goes to that one backend task with the
 * same keys, so keys of two tasks never meet), or the requests a 2025 backend pushed, parked under keys of ours
 * (`parked-task-input.ts`). Without them it shows as `working` with the backend's status message (an `input_required`
 * task without `inputRequests` would be malformed): a 2025 backend's requests have not come yet.
 */
export function toModernTask(
  backendTask: Record<string, unknown>,
  exposed: ExposedTask,
  final?: { result: Record<string, unknown> } | { error: Record<string, unknown> },
): Record<string, unknown> {
  const status = typeof backendTask.status === 'string' && statuses.has(backendTask.status) ? backendTask.status : '';
  const createdAt = typeof backendTask.createdAt === 'string' ? backendTask.createdAt : iso(exposed.createdAt);
  const asks = status === 'input_required' && isRecord(backendTask.inputRequests);
  const task: Record<string, unknown> = {
    taskId: exposed.exposedId,
    status: (status === 'input_required' && !asks) || status === '' ? 'working' : status,
    createdAt,
    lastUpdatedAt: typeof backendTask.lastUpdatedAt === 'string' ? backendTask.lastUpdatedAt : createdAt,
    ttlMs: typeof backendTask.ttl === 'number' ? backendTask.ttl : null,
  };
  if (typeof backendTask.statusMessage === 'string') task.statusMessage = backendTask.statusMessage;
  else if (status === 'input_required') task.statusMessage = 'Waiting for input';
  if (typeof backendTask.pollInterval === 'number') task.pollIntervalMs = backendTask.pollInterval;
  if (asks) task.inputRequests = backendTask.inputRequests;
  if (task.status === 'completed' && final && 'result' in final) task.result = final.result;
  if (task.status === 'failed') {
    // A 2026-07-28 backend's task carries its JSON-RPC error (the client manager keeps it on the task it bridges).
    task.error =
      final && 'error' in final
        ? final.error
        : isRecord(backendTask.error)
          ? backendTask.error
          : { code: -32603, message: typeof task.statusMessage === 'string' ? task.statusMessage : 'The task failed' };
  }
  return task;
}

/** A created task as the extension answers a `tools/call` with it: the task itself, `resultType: "task"`. */
export function toCreateTaskResult(
  backendTask: Record<string, unknown>,
  exposed: ExposedTask,
): Record<string, unknown> {
  return { resultType: 'task', ...toModernTask(backendTask, exposed) };
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
