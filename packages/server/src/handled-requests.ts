import type {
  CancelTaskRequest,
  GetTaskPayloadRequest,
  GetTaskRequest,
  ListTasksRequest,
  RequestMethod,
  RequestTypeMap,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { RequestExtra } from './request-extra-types.js';

/**
 * The tasks extension's `tasks/update` (2026-07-28, SEP-2663): not in the SDK, which has no schemas of the extension.
 * Its `inputResponses` are not here: the SDK lifts them out of a 2026 request's params into the request's context
 * (`RequestExtra.inputResponses`), as for a multi-round-trip retry.
 */
export const UpdateTaskRequestSchema = z.object({
  method: z.literal('tasks/update'),
  params: z.object({ taskId: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }),
});
export type UpdateTaskRequest = z.infer<typeof UpdateTaskRequestSchema>;

/**
 * The task methods: the 2.x SDK does not count 2025's as spec methods any more (2026-07-28 moves tasks to an
 * extension), and the extension's `tasks/update` never was one, so they are registered with a params schema of their
 * own.
 */
export interface TaskRequests {
  'tasks/get': GetTaskRequest;
  'tasks/result': GetTaskPayloadRequest;
  'tasks/cancel': CancelTaskRequest;
  'tasks/list': ListTasksRequest;
  'tasks/update': UpdateTaskRequest;
}
export const taskMethods: ReadonlySet<string> = new Set<keyof TaskRequests>([
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
  'tasks/list',
  'tasks/update',
]);

/** Every request the aggregate answers, by method. */
export type HandledRequests = RequestTypeMap & TaskRequests;
export type HandledMethod = RequestMethod | keyof TaskRequests;

/** A handler of ours: the request as validated, and the era-blind view of its context. */
export type ParamsCheckedHandler<M extends HandledMethod> = (
  request: HandledRequests[M],
  extra: RequestExtra,
) => unknown;
