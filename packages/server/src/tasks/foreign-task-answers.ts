import { setTimeout as delay } from 'node:timers/promises';
import { JsonRpcErrorCode } from '@search-mcp/shared';
import { JsonRpcWireError } from '../wire-errors.js';
import type { ClusterTaskRecords, ForeignTask } from './cluster-task-records.js';
import { toModernTask } from './modern-tasks.js';
import { withExposedIds } from './exposed-task-ids.js';
import { exposedOfRecord, type TaskRecord, taskOfRecord } from './task-record.js';

/**
 * The answers to task methods for a task this replica does not hold: one another replica runs (or ran), read from
 * its record in the cluster store (packages/server/README.md, "Tasks across replicas"). Its status is as current as
 * that replica keeps it; its result is there once it ended.
 */

/** 2025 `tasks/get` (and `tasks/list`'s entries). */
export function foreignTask(foreign: ForeignTask): Record<string, unknown> {
  return taskOfRecord(foreign.record);
}

/** 2026-07-28 `tasks/get`: the extension's task, its result or error inline once it ended. */
export function foreignModernTask(foreign: ForeignTask): Record<string, unknown> {
  const { record } = foreign;
  const exposed = exposedOfRecord(record);
  if (record.result)
    return toModernTask(taskOfRecord(record), exposed, { result: withExposedIds(record.result, exposed) });
  if (record.error) {
    // A completed task whose result the store could not keep (too large) shows the error that says so.
    const status = record.status === 'completed' ? 'failed' : record.status;
    return toModernTask({ ...taskOfRecord(record), status }, exposed, { error: { ...record.error } });
  }
  return toModernTask(taskOfRecord(record), exposed);
}

/** 2025 `tasks/result` of an ended task: the backend's result under our id, or its error. */
export function foreignResult(record: TaskRecord): Record<string, unknown> {
  if (record.result) return withExposedIds(record.result, exposedOfRecord(record));
  const error = record.error ?? { code: JsonRpcErrorCode.InternalError, message: 'The task ended without a result' };
  throw new JsonRpcWireError(error.code, error.message, error.data);
}

/**
 * 2025 `tasks/result` blocks until the task ended: for a task another replica runs, its record is read again at the
 * task's `pollInterval` until it ended (or its replica stopped, which ends it as `failed`). A task waiting for input
 * cannot get it here: its requests reach only the replica running it.
 */
export async function waitForForeignEnd(
  records: ClusterTaskRecords,
  first: ForeignTask,
  signal: AbortSignal,
): Promise<TaskRecord> {
  let current = first;
  while (current.running) {
    if (current.record.status === 'input_required') {
      throw new JsonRpcWireError(
        JsonRpcErrorCode.InvalidRequest,
        'The task waits for input on the Search MCP replica running it; its requests reach only a client connected there',
      );
    }
    await delay(Math.min(5000, Math.max(250, current.record.pollInterval ?? 1000)), undefined, { signal });
    const next = await records.read(current.record.exposedId, current.record.owner);
    if (!next)
      throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Task not found: ${current.record.exposedId}`);
    current = next;
  }
  return current.record;
}
