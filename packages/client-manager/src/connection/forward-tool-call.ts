import type { BackendPeer } from './backend-peer.js';
import type { McpCallToolResult, ToolCallOptions } from '@search-mcp/shared';
import { callToolResultProblem } from './call-result-shape.js';
import { forwardRequest } from './forward-request.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ProtocolErrors } from './protocol-errors.js';
import { withTraceContextMeta } from '../telemetry/backend-call-span.js';

/** Options of one forwarded call: the shared `ToolCallOptions` and an overall limit. */
export interface CallToolOptions extends ToolCallOptions {
  /**
   * The longest a call may take in all, however often progress restarts `timeoutMs`. Default: the server's
   * setting, else the manager's `maxTotalTimeoutMs`, else ten times `timeoutMs` and at least 10 minutes.
   */
  maxTotalTimeoutMs?: number;
}

export interface ForwardedCall {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  options: CallToolOptions;
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  inFlight: InFlightRequests;
  originTracker?: OriginTracker;
  /** A remote server's call that fails below MCP means a broken connection. */
  remote: boolean;
  /** Called with such a failure, so the connection is rebuilt. */
  onConnectionFailure: (error: unknown) => void;
  /** How the server process ended, for a connection that closed during the call. */
  connectionDetail: () => string | undefined;
  /** How the manager reads its SDKs' errors. */
  errors: ProtocolErrors;
}

/**
 * A task-augmented call answers `{ task }` (a `CreateTaskResult`) instead of the result; a 2026-07-28 backend may
 * also answer the result itself (the server decides whether a call becomes a task), which is checked as one.
 */
function createTaskResultProblem(result: Record<string, unknown>): string | undefined {
  if (!('task' in result)) return callToolResultProblem(result);
  const task = result.task as { taskId?: unknown } | undefined;
  return typeof task?.taskId === 'string' ? undefined : 'a task-augmented call must answer { task: { taskId, … } }';
}

/**
 * Sends one `tools/call` (results pass through unchanged, including error results with `structuredContent`) and
 * checks the result's shape. With `options.task` the call is task-augmented and resolves with the backend's
 * `{ task }` (or, from a 2026-07-28 backend that answered in the call, the result). Limits, progress, cancellation
 * and error mapping: `forwardRequest`.
 */
export function forwardToolCall(client: BackendPeer, call: ForwardedCall): Promise<McpCallToolResult> {
  const { toolName } = call;
  // The current span's W3C trace context goes with the call in `_meta` (both protocol eras send `params._meta` as
  // it is), so the backend's own spans join the caller's trace; nothing is added without an SDK.
  const meta = withTraceContextMeta(call.options.meta);
  const options = meta !== call.options.meta && meta ? { ...call.options, meta } : call.options;
  const params: Record<string, unknown> = { name: toolName, arguments: call.args };
  if (options.task) params.task = { ...options.task };
  // Returned as it is: no extra await on the hot path.
  return forwardRequest(client, {
    serverId: call.serverId,
    method: 'tools/call',
    params,
    operation: `tools/call ${toolName}`,
    name: toolName,
    options,
    timeoutMs: call.timeoutMs,
    maxTotalTimeoutMs: call.maxTotalTimeoutMs,
    inFlight: call.inFlight,
    ...(call.originTracker ? { originTracker: call.originTracker } : {}),
    check: options.task ? createTaskResultProblem : callToolResultProblem,
    remote: call.remote,
    onConnectionFailure: call.onConnectionFailure,
    connectionDetail: call.connectionDetail,
    errors: call.errors,
  }) as Promise<McpCallToolResult>;
}

/**
 * The overall limit of one call: the call's own, else the server's (a `maxTotalTimeoutMs` field of its config
 * entry), else the manager's, else ten times `timeoutMs` and never under 10 minutes (a job that keeps reporting
 * progress may run long).
 */
export function resolveMaxTotalTimeoutMs(
  options: CallToolOptions,
  config: object,
  managerDefault: number | undefined,
  timeoutMs: number,
): number {
  if (options.maxTotalTimeoutMs !== undefined) return options.maxTotalTimeoutMs;
  const configured = (config as { maxTotalTimeoutMs?: unknown }).maxTotalTimeoutMs;
  if (typeof configured === 'number' && configured > 0) return configured;
  return managerDefault ?? Math.max(10 * timeoutMs, 10 * 60_000);
}
