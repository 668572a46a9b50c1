import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRecord, type McpFetchLike, type McpTransport } from '@search-mcp/shared';
import type { LegacyErrorReader } from '../connection/protocol-errors.js';

/**
 * Every value this package takes from the 1.x SDK (`@modelcontextprotocol/sdk`), in the one module
 * `legacy-client-loader.ts` imports on the first connect of a backend: the SDK's client costs ~240 ms of module
 * loading (ajv included), which `serve` would otherwise pay before it can answer `initialize`. No file outside
 * `src/legacy/` imports the 1.x SDK; what they need of it is this module's exports, typed with our own wire types.
 */
export { createBackendClient } from './legacy-backend-client.js';
export { getDefaultEnvironment };

/** What a remote 2025 transport is built with. */
export interface LegacyRemoteTransportInit {
  requestInit: RequestInit;
  fetch?: McpFetchLike | undefined;
}

/** The 1.x Streamable HTTP transport (2025 headers, sessions). */
export function createLegacyHttpTransport(url: URL, init: LegacyRemoteTransportInit): McpTransport {
  const { requestInit, fetch } = init;
  return new StreamableHTTPClientTransport(url, { requestInit, ...(fetch ? { fetch } : {}) });
}

/** The 1.x SSE transport (servers older than 2025-03-26). */
export function createLegacySseTransport(url: URL, init: LegacyRemoteTransportInit): McpTransport {
  const { requestInit, fetch } = init;
  return new SSEClientTransport(url, { requestInit, ...(fetch ? { fetch } : {}) });
}

/**
 * The JSON-RPC error a server answered a POST with, as the 1.x `McpError` it is, or undefined. The 1.x transport
 * keeps only the HTTP status and the body's text in its `StreamableHTTPError`, so the body is read back out of it.
 */
export function jsonRpcRefusalOf(error: unknown): Error | undefined {
  if (!(error instanceof StreamableHTTPError) || error.code !== 400) return undefined;
  const start = error.message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const body: unknown = JSON.parse(error.message.slice(start));
    const answer = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (!answer || typeof answer.code !== 'number' || typeof answer.message !== 'string') return undefined;
    return new McpError(answer.code, answer.message, answer.data);
  } catch {
    return undefined;
  }
}

/** Reads the 1.x SDK's errors for `protocol-errors.ts` (registered by the loader). */
export const legacyErrorReader: LegacyErrorReader = {
  wireError(error) {
    if (!(error instanceof McpError)) return undefined;
    const { code, message, data } = error;
    return { code, message, ...(data !== undefined ? { data } : {}) };
  },
  sdkCode(error) {
    if (!(error instanceof McpError)) return undefined;
    if (error.code === ErrorCode.RequestTimeout) return 'timeout';
    if (error.code === ErrorCode.ConnectionClosed) return 'closed';
    return 'other';
  },
  httpStatus(error) {
    // The SDK keeps the HTTP status in `code` only (undefined or ≤ 0 when the failure was not an HTTP answer).
    if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return undefined;
    return error.code !== undefined && error.code > 0 ? error.code : undefined;
  },
};
