import { BackendError, SearchMcpError, TimeoutError } from '@search-mcp/shared';
import type { ProtocolErrors } from './protocol-errors.js';

export interface BackendFailureContext {
  serverId: string;
  /** What was being done, for the message: `tools/call echo`, `initialize`. */
  operation: string;
  timeoutMs: number;
  /** How this manager reads its SDKs' errors. */
  errors: ProtocolErrors;
  signal?: AbortSignal;
  /** Extra words for a broken connection, e.g. `exited with code 1`. */
  connectionDetail?: () => string | undefined;
}

/**
 * Turns what the SDK throws into the shared error classes, once: the SDK prefixes `MCP error <code>: ` and
 * backends that re-throw an McpError prefix it again, so the prefix is stripped as often as it appears.
 * A caller's own cancellation passes through as the signal's reason.
 */
export function toBackendFailure(error: unknown, context: BackendFailureContext): unknown {
  if (context.signal?.aborted) return context.signal.reason ?? error;
  if (SearchMcpError.isInstance(error)) return error;
  const { serverId, operation, errors } = context;

  if (errors.isSdkTimeout(error)) {
    return new TimeoutError({
      timeoutMs: context.timeoutMs,
      message: `MCP server '${serverId}' did not answer ${operation} within ${context.timeoutMs} ms`,
      cause: error,
    });
  }
  if (errors.isConnectionClosed(error) && stripMcpErrorPrefix((error as Error).message) === 'Connection closed') {
    const detail = context.connectionDetail?.();
    return new BackendError({
      serverId,
      message: `MCP server '${serverId}' closed the connection during ${operation}${detail ? ` (${detail})` : ''}`,
      cause: error,
    });
  }
  const wire = errors.wireErrorOf(error);
  if (wire) {
    return new BackendError({
      serverId,
      message: stripMcpErrorPrefix(wire.message),
      backendCode: wire.code,
      ...(wire.data !== undefined ? { data: wire.data } : {}),
      cause: error,
    });
  }

  let message = stripMcpErrorPrefix(error instanceof Error ? error.message : String(error));
  const status = errors.httpStatusOf(error);
  if (status !== undefined) {
    // The SDK keeps the HTTP status in `code` only; users need to see it.
    const hint = status === 401 || status === 403 ? ' (check the credentials in its `headers`)' : '';
    message = `HTTP ${status}${hint}: ${message}`;
  }
  return new BackendError({ serverId, message: `MCP server '${serverId}': ${message}`, cause: error });
}

const mcpErrorPrefix = /^(?:MCP error -?\d+:\s*)+/;

export function stripMcpErrorPrefix(message: string): string {
  return message.replace(mcpErrorPrefix, '');
}
