import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpFetchLike, McpTransport } from '@search-mcp/shared';
import type { LegacyErrorReader } from '../connection/protocol-errors.js';
import { recordingRefusals } from './refusal-recording-fetch.js';

/**
 * Every value this package takes from the 1.x SDK (`@modelcontextprotocol/sdk`), in the one module
 * `legacy-client-loader.ts` imports on the first connect of a backend: the SDK's client costs ~240 ms of module
 * loading (ajv included), which `serve` would otherwise pay before it can answer `initialize`. No file outside
 * `src/legacy/` imports the 1.x SDK; what they need of it is this module's exports, typed with our own wire types.
 */
export { createBackendClient } from './legacy-backend-client.js';
/** The SDK's own default environment: `process/inherited-environment.ts` is held equal to it by its test. */
export { getDefaultEnvironment as sdkDefaultEnvironment };

/** What a remote 2025 transport is built with. */
export interface LegacyRemoteTransportInit {
  requestInit: RequestInit;
  fetch?: McpFetchLike | undefined;
}

/** A 1.x Streamable HTTP transport, and the JSON-RPC error a server refused its POST with (as an `McpError`). */
export interface LegacyHttpTransport {
  transport: McpTransport;
  refusal(): Error | undefined;
}

/** The 1.x Streamable HTTP transport (2025 headers, sessions). */
export function createLegacyHttpTransport(url: URL, init: LegacyRemoteTransportInit): LegacyHttpTransport {
  const recording = recordingRefusals(init.fetch);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: init.requestInit, fetch: recording.fetch });
  return {
    transport,
    refusal() {
      const error = recording.refusal();
      return error && new McpError(error.code, error.message, error.data);
    },
  };
}

/** The 1.x SSE transport (servers older than 2025-03-26). */
export function createLegacySseTransport(url: URL, init: LegacyRemoteTransportInit): McpTransport {
  const { requestInit, fetch } = init;
  return new SSEClientTransport(url, { requestInit, ...(fetch ? { fetch } : {}) });
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
