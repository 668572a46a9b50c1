import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { LegacyErrorReader } from './protocol-errors.js';

/**
 * Every value this package takes from the 1.x SDK (`@modelcontextprotocol/sdk`), in the one module
 * `legacy-client-loader.ts` imports on the first connect of a backend: the SDK's client costs ~240 ms of module
 * loading (ajv included), which `serve` would otherwise pay before it can answer `initialize`. Everything else in
 * this package imports the 1.x SDK as types only.
 */
export { createBackendClient } from './backend-client.js';
export { getDefaultEnvironment, McpError, SSEClientTransport, StreamableHTTPClientTransport, StreamableHTTPError };

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
