/**
 * JSON-RPC error codes used on the wire (JSON-RPC 2.0, plus the MCP server range for backend failures, plus
 * 2026-07-28's `HeaderMismatch`: a Streamable HTTP request whose MCP headers disagree with its body, answered with
 * HTTP 400; the 2.x SDK keeps its constant internal).
 */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  RequestTimeout: -32001,
  HeaderMismatch: -32020,
} as const;
