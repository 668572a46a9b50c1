import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * What either SDK generation throws, read one way: the 1.x client throws `McpError` for the backend's JSON-RPC
 * errors and for its own timeouts and closed connections (codes -32001, -32000); the 2.x client throws
 * `ProtocolError` for the backend's errors and `SdkError` (string codes) for its own. The 2.x classes are read
 * through `ModernErrorReader`, registered when the 2.x client is first loaded (only for a 2026-07-28 backend), so a
 * host with only 2025 backends never loads that package.
 */

/** JSON-RPC code of `-32022` (the backend does not speak the revision we asked for). */
export const unsupportedProtocolVersionCode = -32022;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** Reads the 2.x SDK's errors (see `modern-backend-client.ts`). */
export interface ModernErrorReader {
  /** The backend's JSON-RPC error (`ProtocolError`), or undefined. */
  wireError(error: unknown): WireError | undefined;
  /** The 2.x client's own error code (`SdkError`: `REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, …), or undefined. */
  sdkCode(error: unknown): 'timeout' | 'closed' | 'other' | undefined;
}

let modernErrors: ModernErrorReader | undefined;

export function registerModernErrorReader(reader: ModernErrorReader): void {
  modernErrors = reader;
}

/** The backend's JSON-RPC error (or a 1.x local one carrying a code), or undefined for anything else. */
export function wireErrorOf(error: unknown): WireError | undefined {
  if (error instanceof McpError) {
    const { code, message, data } = error;
    return { code, message, ...(data !== undefined ? { data } : {}) };
  }
  return modernErrors?.wireError(error);
}

/** The SDK's own request timer fired. */
export function isSdkTimeout(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout;
  return modernErrors?.sdkCode(error) === 'timeout';
}

/** The connection closed while the request was pending. */
export function isConnectionClosed(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return modernErrors?.sdkCode(error) === 'closed';
}
