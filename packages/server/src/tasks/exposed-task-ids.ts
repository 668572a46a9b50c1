import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';
import type { ExposedTask } from './task-table.js';

/** A backend's task result with its task id replaced by ours, in the result and in its related-task `_meta`. */
export function withExposedIds(result: Record<string, unknown>, task: ExposedTask): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...result };
  if (copy.taskId === task.backendTaskId) copy.taskId = task.exposedId;
  if (isRecord(copy.task) && copy.task.taskId === task.backendTaskId)
    copy.task = { ...copy.task, taskId: task.exposedId };
  if (isRecord(copy._meta) && isRecord(copy._meta[RELATED_TASK_META_KEY])) {
    copy._meta = {
      ...copy._meta,
      [RELATED_TASK_META_KEY]: { ...copy._meta[RELATED_TASK_META_KEY], taskId: task.exposedId },
    };
  }
  return copy;
}
