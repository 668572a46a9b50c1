/** JSON-RPC error codes used on the wire (JSON-RPC 2.0, plus the MCP server range for backend failures). */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  RequestTimeout: -32001,
} as const;
