import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import {
  BackendError,
  errorMessage,
  JsonRpcErrorCode,
  RateLimitError,
  SearchMcpError,
  ToolNotFoundError,
  ValidationError,
  type ToolCallResult,
} from '@search-mcp/shared';

/** MCP's `URLElicitationRequiredError` code. */
const urlElicitationRequired = -32042;

/**
 * An error the SDK's Protocol sends as `{ code, message, data }` with the message exactly as given. (An `McpError`
 * would put its own `MCP error <code>: ` prefix on the wire, and the client would add another.)
 */
export class JsonRpcWireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcWireError';
  }
}

/**
 * Local errors (string codes) become wire errors here, at the edge, and nowhere else.
 *
 * Direct `tools/call` failures are JSON-RPC errors: unknown tool -32602 "Tool not found: <name>", backend not running
 * or failing -32000, timeout -32001, a rate limit -32000 with `data: { retryAfterMs, limit }` (docs/trust.md, "Rate
 * limits").
 */
export function toJsonRpcError(error: unknown, requestedName: string): JsonRpcWireError {
  if (ToolNotFoundError.isInstance(error)) {
    const hint = error.suggestions.length > 0 ? `. Did you mean: ${error.suggestions.join(', ')}?` : '';
    return new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      `Tool not found: ${requestedName}${hint}`,
      suggestionData(error),
    );
  }
  if (ValidationError.isInstance(error)) {
    return new JsonRpcWireError(error.jsonRpcCode, error.message, { issues: error.issues });
  }
  // URL elicitation required: the client needs `data.elicitations` to open the URLs and call again.
  if (BackendError.isInstance(error) && error.backendCode === urlElicitationRequired)
    return new JsonRpcWireError(urlElicitationRequired, error.message, error.data);
  // A 2026 backend that needs a capability the client did not declare (it is told the client's own): the client
  // learns which, as from a server it talks to directly, instead of a -32000.
  if (BackendError.isInstance(error) && error.backendCode === JsonRpcErrorCode.MissingRequiredClientCapability)
    return new JsonRpcWireError(JsonRpcErrorCode.MissingRequiredClientCapability, error.message, error.data);
  if (RateLimitError.isInstance(error)) return rateLimitWireError(error);
  if (SearchMcpError.isInstance(error)) return new JsonRpcWireError(error.jsonRpcCode, error.message);
  const wire = peerErrorOf(error);
  if (wire) return new JsonRpcWireError(wire.code, wire.message, wire.data);
  return new JsonRpcWireError(JsonRpcErrorCode.InternalError, errorMessage(error));
}

/**
 * The protocol error a meta-tool (`tool_execute`) answers with instead of an `isError` result, or undefined. A rate
 * limit is one (docs/trust.md, "Rate limits"): the client program is the one to wait and retry, and it reads the wait
 * from `data.retryAfterMs`.
 */
export function metaToolProtocolError(error: unknown): JsonRpcWireError | undefined {
  return RateLimitError.isInstance(error) ? rateLimitWireError(error) : undefined;
}

function rateLimitWireError(error: RateLimitError): JsonRpcWireError {
  const data = {
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    ...(error.limit !== undefined ? { limit: error.limit } : {}),
  };
  return new JsonRpcWireError(error.jsonRpcCode, error.message, data);
}

/** A JSON-RPC error as a peer sent it (or as the SDK reports a failed exchange). */
export interface PeerError {
  code: number;
  message: string;
  data?: unknown;
}

const mcpErrorPrefix = /^(?:MCP error -?\d+:\s*)+/;

/**
 * The JSON-RPC error inside what an SDK call threw, or undefined when it is not one. Backend failures reach us already
 * mapped (`BackendError`, by client-manager); what is left is the front client's side of our server→client requests
 * (`elicitInput`, `createMessage`, `listRoots` on the 2.x `Server`):
 * - `ProtocolError` (2.x, brand-checked across bundles): the client answered with an error;
 * - `SdkError` (2.x, string codes): nothing came back — a timeout is -32001 and a closed connection -32000
 *   "Connection closed", the codes the 1.x SDK used on the wire for them;
 * - any other `Error` with an integer `code` (the 1.x `McpError` and look-alikes, read by shape so this package needs
 *   no 1.x SDK): its code, its message without the `MCP error <code>: ` prefixes, its `data`.
 */
export function peerErrorOf(error: unknown): PeerError | undefined {
  if (ProtocolError.isInstance(error)) {
    const { code, message, data } = error as ProtocolError;
    return { code, message: message.replace(mcpErrorPrefix, ''), ...(data !== undefined ? { data } : {}) };
  }
  if (SdkError.isInstance(error)) {
    const { code, message } = error as SdkError;
    if (code === SdkErrorCode.RequestTimeout) return { code: JsonRpcErrorCode.RequestTimeout, message };
    if (code === SdkErrorCode.ConnectionClosed) return { code: JsonRpcErrorCode.ServerError, message };
    return undefined;
  }
  if (!(error instanceof Error)) return undefined;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  return { code, message: error.message.replace(mcpErrorPrefix, ''), ...(data !== undefined ? { data } : {}) };
}

/**
 * A failure of a forwarded request other than `tools/call` (resources, prompts, completions, logging, tasks): the
 * backend's own error code, message and `data` when it answered with an error, else as `toJsonRpcError`.
 */
export function toForwardedError(error: unknown, what: string): JsonRpcWireError {
  if (error instanceof JsonRpcWireError) return error;
  if (BackendError.isInstance(error) && error.backendCode !== undefined)
    return new JsonRpcWireError(error.backendCode, error.message, error.data);
  return toJsonRpcError(error, what);
}

/** Whether a backend said it does not have what was asked for (so the next server may be tried). */
export function isNotFound(error: unknown): boolean {
  if (!BackendError.isInstance(error)) return false;
  return error.backendCode === -32002 || (error.backendCode === -32602 && /not found|unknown/i.test(error.message));
}

/**
 * `tool_execute` and `tool_discovery` failures of the proxy itself come back as `isError` results with one line a
 * model can act on, instead of protocol errors most clients hide from the model.
 */
export function toErrorResult(error: unknown): ToolCallResult {
  let text: string;
  if (ToolNotFoundError.isInstance(error)) {
    text = error.message.includes('Did you mean')
      ? `${error.message} Use tool_discovery to find tools.`
      : `${error.message}. Use tool_discovery to find tools; pass toolKey exactly as it returns it.`;
  } else if (ValidationError.isInstance(error)) {
    text = `${error.message}. Fix the arguments to match the tool's inputSchema and call again.`;
  } else if (SearchMcpError.isInstance(error)) {
    text = error.isRetryable ? `${error.message} (temporary; try again shortly)` : error.message;
  } else {
    text = errorMessage(error);
  }
  return { isError: true, content: [{ type: 'text', text: text.replace(/\s*\n\s*/g, ' ') }] };
}

function suggestionData(error: ToolNotFoundError): { suggestions: readonly string[] } | undefined {
  return error.suggestions.length > 0 ? { suggestions: error.suggestions } : undefined;
}
