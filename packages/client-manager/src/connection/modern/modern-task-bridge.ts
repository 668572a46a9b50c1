import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import { delay, isRecord, taskPollDelayMs, isTerminalTaskStatus } from '@search-mcp/shared';
import type { PeerRequestOptions } from '../backend-peer.js';
import type { RawRequestChannel } from './raw-request-channel.js';

/** A request as the manager sends it: the 2025 task methods, or `tools/call` with 2025's `params.task`. */
interface BridgedRequest {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * The manager's task API (MCP 2025-11-25's task methods) on a 2026-07-28 backend that lists the tasks extension, so
 * callers see its tasks exactly as a 2025 backend's:
 *
 * - `tools/call` with `params.task` is sent without it, declaring the extension in this request's envelope only (the
 *   backend may then answer a task; it decides), with the call's `Mcp-Param-*` headers (SEP-2243). A created task
 *   (`resultType: "task"`) resolves as 2025's `{ task: { taskId, status, ttl, pollInterval, … } }`; a result in the
 *   call resolves as that result.
 * - `tasks/get` → the extension's `tasks/get`, in 2025's `Task` shape (`ttlMs` → `ttl`, `pollIntervalMs` →
 *   `pollInterval`; the inline result left out; a failed task's `error` and an `input_required` task's
 *   `inputRequests` kept).
 * - `tasks/update` (the extension's own) is sent as it is.
 * - `tasks/result` (gone in 2026) → `tasks/get` at the task's poll interval until it ends: the inline `result`, or
 *   the inline JSON-RPC `error` thrown as the backend's error.
 * - `tasks/cancel` → the extension's `tasks/cancel` (an empty acknowledgement), then the task as `tasks/get` sees it.
 *
 * `tasks/list` is gone in 2026 and never reaches here (the backend announces no `tasks.list`: an empty page).
 */
export class ModernTaskBridge {
  constructor(private readonly channel: RawRequestChannel) {}

  /** The bridged answer, or undefined for a request that is not a task request. */
  handle(request: BridgedRequest, options: PeerRequestOptions | undefined): Promise<unknown> | undefined {
    const params = request.params ?? {};
    switch (request.method) {
      case 'tools/call':
        return params.task === undefined ? undefined : this.callTool(params, options);
      case 'tasks/get':
        return this.get(params, options).then(toLegacyTask);
      case 'tasks/result':
        return this.result(params, options);
      case 'tasks/cancel':
        return this.cancel(params, options);
      case 'tasks/update':
        return this.channel.request('tasks/update', params, withoutProgress(options)).then(withoutResultType);
      default:
        return undefined;
    }
  }

  private async callTool(params: Record<string, unknown>, options: PeerRequestOptions | undefined) {
    const { task: _task, ...rest } = params;
    const answer = await this.channel.request('tools/call', rest, options);
    if (answer.resultType === 'task') return { task: toLegacyTask(answer) };
    if (answer.resultType === 'input_required') return answer;
    return withoutResultType(answer);
  }

  private get(params: Record<string, unknown>, options: PeerRequestOptions | undefined) {
    return this.channel.request('tasks/get', { taskId: params.taskId, ...metaOf(params) }, withoutProgress(options));
  }

  private async result(params: Record<string, unknown>, options: PeerRequestOptions | undefined) {
    const signal = options?.signal;
    for (;;) {
      const task = await this.get(params, options);
      if (isTerminalTaskStatus(task.status)) return finalOf(task);
      await delay(taskPollDelayMs(task.pollIntervalMs), signal);
    }
  }

  private async cancel(params: Record<string, unknown>, options: PeerRequestOptions | undefined) {
    await this.channel.request('tasks/cancel', { taskId: params.taskId, ...metaOf(params) }, withoutProgress(options));
    return toLegacyTask(await this.get(params, options));
  }
}

/**
 * A 2026 task (created, or from `tasks/get`) in 2025's `Task` shape; a failed one keeps its inline `error`, one in
 * `input_required` its `inputRequests` (2025 has the status, not the field).
 */
export function toLegacyTask(task: Record<string, unknown>): Record<string, unknown> {
  // Waiting for input is shown only with the requests it waits for (a caller answers them with `tasks/update`).
  const asks = task.status === 'input_required' && isRecord(task.inputRequests);
  const legacy: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status === 'input_required' && !asks ? 'working' : task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: typeof task.ttlMs === 'number' ? task.ttlMs : null,
  };
  if (typeof task.pollIntervalMs === 'number') legacy.pollInterval = task.pollIntervalMs;
  if (typeof task.statusMessage === 'string') legacy.statusMessage = task.statusMessage;
  else if (task.status === 'input_required') legacy.statusMessage = 'Waiting for input';
  if (task.status === 'failed' && isRecord(task.error)) legacy.error = task.error;
  if (asks) legacy.inputRequests = task.inputRequests;
  return legacy;
}

/** What 2025's `tasks/result` answers for an ended task: its result (with the related-task `_meta`), or its error. */
function finalOf(task: Record<string, unknown>): Record<string, unknown> {
  const taskId = String(task.taskId);
  if (task.status === 'completed' && isRecord(task.result)) {
    const meta = isRecord(task.result._meta) ? task.result._meta : {};
    return { ...task.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }
  if (task.status === 'failed' && isRecord(task.error)) {
    const { code, message, data } = task.error;
    throw ProtocolError.fromError(
      typeof code === 'number' ? code : ProtocolErrorCode.InternalError,
      typeof message === 'string' ? message : `Task ${taskId} failed`,
      data,
    );
  }
  const why = typeof task.statusMessage === 'string' ? `: ${task.statusMessage}` : '';
  const message =
    task.status === 'completed' ? `Task ${taskId} completed without a result` : `Task ${taskId} ${task.status}${why}`;
  throw new ProtocolError(ProtocolErrorCode.InternalError, message);
}

/** A `complete` answer without its discriminator, as the 2.x client hands results over. */
function withoutResultType(answer: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _complete, ...result } = answer;
  return result;
}

/** The caller's `_meta` (the manager's `meta` option) travels on; the envelope is the channel's. */
function metaOf(params: Record<string, unknown>): Record<string, unknown> {
  return isRecord(params._meta) ? { _meta: params._meta } : {};
}

/** `tasks/*` report no progress of their own: no progress token is asked for. */
function withoutProgress(options: PeerRequestOptions | undefined): PeerRequestOptions {
  return options?.signal ? { signal: options.signal } : {};
}
