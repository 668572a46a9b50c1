import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { delay, errorMessage, isRecord, type Logger, taskPollDelayMs, isTerminalTaskStatus } from '@search-mcp/shared';
import type { BackendGateway, BackendRequestOptions } from '../forwarding/backend-gateway.js';
import type { ClientOrigin } from '../sessions/client-session.js';
import type { ReverseRequest } from '../sessions/client-sessions.js';
import type { ReverseMethod } from '../sessions/reverse-request-attribution.js';
import type { ExposedTask } from './task-table.js';

/** What the relay needs: the task methods of the gateway, the hub's reverse-request router, a logger. */
export interface TaskInputRelay {
  gateway: Required<Pick<BackendGateway, 'getTask' | 'getTaskResult' | 'updateTask'>>;
  sessions: { route(request: ReverseRequest): Promise<Record<string, unknown>> };
  logger: Logger;
}

const askable = new Set<string>(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/**
 * 2025's `tasks/result` of a 2026-07-28 backend's task, for a 2025-era client. In 2025 a task asks for input by
 * requests to the client while `tasks/result` is open; a 2026 task shows `input_required` with `inputRequests` and
 * waits for `tasks/update`. So the task is followed (`tasks/get` at its poll interval, 250 ms … 5 s) and each
 * request it shows is sent to the client on this `tasks/result`'s stream, with the related-task `_meta` naming our
 * task id, through the hub's reverse-request router (the path a 2025 backend's own requests take: the capability
 * check, the per-method answer timeout, URL elicitations' completion notices). The answers go back with
 * `tasks/update` under the backend's keys; the task's result (or its error) answers `tasks/result` once it ends.
 *
 * A request the client cannot answer (it did not declare the capability, it failed, or its session cannot be asked,
 * e.g. HTTP stateless) is logged as a warning and stays unanswered: 2026 has no way to pass an error for one input
 * request, so the task waits until the backend gives up on it or the client cancels it. Each request is asked once
 * while the task waits; a key the backend asks again after it went on is asked again.
 */
export async function resultWithInput(
  relay: TaskInputRelay,
  task: ExposedTask,
  options: BackendRequestOptions & { origin: ClientOrigin; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  const { gateway } = relay;
  const { signal } = options;
  let asked = new Set<string>();
  for (;;) {
    const status = await gateway.getTask(task.serverId, task.backendTaskId, { signal });
    if (isTerminalTaskStatus(status.status)) return gateway.getTaskResult(task.serverId, task.backendTaskId, options);
    if (status.status === 'input_required' && isRecord(status.inputRequests)) {
      const fresh = Object.entries(status.inputRequests).filter(([key]) => !asked.has(key));
      for (const [key] of fresh) asked.add(key);
      const answers = await askClient(relay, task, fresh, options);
      if (Object.keys(answers).length > 0) {
        await gateway.updateTask(task.serverId, task.backendTaskId, answers, { signal });
        continue;
      }
    } else {
      asked = new Set();
    }
    await delay(taskPollDelayMs(status.pollInterval), signal);
  }
}

/** Asks the client each input request at once; resolves with the answers it gave, by the backend's keys. */
async function askClient(
  relay: TaskInputRelay,
  task: ExposedTask,
  requests: Array<[string, unknown]>,
  options: { origin: ClientOrigin; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  await Promise.all(
    requests.map(async ([key, request]) => {
      const unanswered = (reason: string, method?: string) =>
        relay.logger.warn('a task asks the client for input it cannot answer; the input stays unanswered', {
          server: task.serverId,
          task: task.exposedId,
          key,
          ...(method ? { method } : {}),
          reason,
        });
      if (!isRecord(request) || typeof request.method !== 'string' || !askable.has(request.method)) {
        unanswered('not an elicitation, sampling or roots request');
        return;
      }
      const method = request.method as ReverseMethod;
      const params = isRecord(request.params) ? request.params : {};
      const meta = isRecord(params._meta) ? params._meta : {};
      try {
        answers[key] = await relay.sessions.route({
          serverId: task.serverId,
          method,
          backendRequestId: `${task.backendTaskId}/${key}`,
          // The client knows the task by our id only.
          params: { ...params, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: task.exposedId } } },
          inFlight: [{ origin: options.origin, method: 'tasks/result', name: task.backendTaskId }],
          exactOrigin: options.origin,
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal.aborted) return;
        unanswered(errorMessage(error), method);
      }
    }),
  );
  return answers;
}
