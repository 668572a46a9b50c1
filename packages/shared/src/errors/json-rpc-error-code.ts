/**
 * JSON-RPC error codes used on the wire (JSON-RPC 2.0, plus the MCP server range for backend failures, plus
 * 2026-07-28's `HeaderMismatch`: a Streamable HTTP request whose MCP headers disagree with its body, answered with
 * HTTP 400; the 2.x SDK keeps its constant internal; and 2026-07-28's `MissingRequiredClientCapability`: a request
 * that needs a client capability its envelope did not declare, `data.requiredCapabilities` naming it).
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
  MissingRequiredClientCapability: -32021,
} as const;
