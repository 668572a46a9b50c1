import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BackendError, SearchMcpError, TimeoutError, type ToolCallOptions } from '@search-mcp/shared';
import { z } from 'zod';
import { toBackendFailure } from './backend-error-mapping.js';
import { callToolResultProblem } from './call-result-shape.js';

/** Options of one forwarded call: the shared `ToolCallOptions` and an overall limit. */
export interface CallToolOptions extends ToolCallOptions {
  /**
   * The longest a call may take in all, however often progress restarts `timeoutMs`. Default: the server's
   * setting, else the manager's `maxTotalTimeoutMs`, else ten times `timeoutMs` and at least 10 minutes.
   */
  maxTotalTimeoutMs?: number;
}

/** Results pass through as the backend sent them; the SDK's CallToolResultSchema would strip unknown fields. */
const PassThroughResultSchema = z.looseObject({});

export interface ForwardedCall {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  options: CallToolOptions;
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  /** A remote server's call that fails below MCP means a broken connection. */
  remote: boolean;
  /** Called with such a failure, so the connection is rebuilt. */
  onConnectionFailure: (error: unknown) => void;
  /** How the server process ended, for a connection that closed during the call. */
  connectionDetail: () => string | undefined;
}

/**
 * Sends one `tools/call` as a raw request (so results pass through unchanged, including error results with
 * `structuredContent`), checks the result's shape, and turns failures into the shared errors.
 *
 * Two limits: `timeoutMs` restarts with each progress notification (the SDK's own timer), and `maxTotalTimeoutMs`
 * ends the call however much progress it reports. The overall limit aborts the request's signal, so the backend
 * gets `notifications/cancelled` (the SDK's `maxTotalTimeout` would not tell it, and is only checked when the next
 * progress arrives).
 */
export async function forwardToolCall(client: Client, call: ForwardedCall): Promise<CallToolResult> {
  const { serverId, toolName, options, timeoutMs, maxTotalTimeoutMs } = call;
  const params: Record<string, unknown> = { name: toolName, arguments: call.args };
  if (options.meta) params._meta = { ...options.meta };
  // Only a call that asks for progress can outlive `timeoutMs` (each progress restarts it), so only such a call
  // gets the overall limit, and its timer starts with the first progress: a plain call pays for none of it.
  let signal = options.signal;
  let onprogress = options.onProgress;
  let timer: NodeJS.Timeout | undefined;
  if (options.onProgress) {
    const report = options.onProgress;
    const overall = new AbortController();
    const started = performance.now();
    signal = options.signal ? AbortSignal.any([options.signal, overall.signal]) : overall.signal;
    onprogress = (progress) => {
      timer ??= setTimeout(
        () => overall.abort(overallTimeout(serverId, toolName, maxTotalTimeoutMs)),
        Math.max(0, maxTotalTimeoutMs - (performance.now() - started)),
      );
      report(progress);
    };
  }
  try {
    const result = await client.request({ method: 'tools/call', params }, PassThroughResultSchema, {
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      ...(signal ? { signal } : {}),
      ...(onprogress ? { onprogress } : {}),
    });
    const problem = callToolResultProblem(result);
    if (problem !== undefined) {
      throw new BackendError({
        serverId,
        message: `MCP server '${serverId}' returned a malformed result for tools/call ${toolName}: ${problem}`,
      });
    }
    return result as CallToolResult;
  } catch (error) {
    // MCP errors, our own errors and the caller's cancellation say nothing about the connection.
    const belowMcp = error instanceof Error && !(error instanceof McpError) && !SearchMcpError.isInstance(error);
    if (call.remote && belowMcp && !signal?.aborted) call.onConnectionFailure(error);
    throw toBackendFailure(error, {
      serverId,
      operation: `tools/call ${toolName}`,
      timeoutMs,
      ...(signal ? { signal } : {}),
      connectionDetail: call.connectionDetail,
    });
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function overallTimeout(serverId: string, toolName: string, maxTotalTimeoutMs: number): TimeoutError {
  return new TimeoutError({
    timeoutMs: maxTotalTimeoutMs,
    message: `MCP server '${serverId}' did not finish tools/call ${toolName} within ${maxTotalTimeoutMs} ms in all (maxTotalTimeoutMs), although it kept reporting progress`,
  });
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
