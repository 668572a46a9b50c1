import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * What either SDK generation throws, read one way: the 1.x client throws `McpError` for the backend's JSON-RPC
 * errors and for its own timeouts and closed connections (codes -32001, -32000); the 2.x client throws
 * `ProtocolError` for the backend's errors and `SdkError` (string codes) for its own.
 */

/** JSON-RPC code of `-32022` (the backend does not speak the revision we asked for). */
export const unsupportedProtocolVersionCode = -32022;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** The backend's JSON-RPC error (or a 1.x local one carrying a code), or undefined for anything else. */
export function wireErrorOf(error: unknown): WireError | undefined {
  if (error instanceof McpError || ProtocolError.isInstance(error)) {
    const { code, message, data } = error as McpError;
    return { code, message, ...(data !== undefined ? { data } : {}) };
  }
  return undefined;
}

/** The SDK's own request timer fired. */
export function isSdkTimeout(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout;
  return SdkError.isInstance(error) && (error as SdkError).code === SdkErrorCode.RequestTimeout;
}

/** The connection closed while the request was pending. */
export function isConnectionClosed(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return SdkError.isInstance(error) && (error as SdkError).code === SdkErrorCode.ConnectionClosed;
}
