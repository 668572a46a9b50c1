import { isRecord, type McpFetchLike } from '@search-mcp/shared';
import type { WireError } from '../connection/protocol-errors.js';

/** A `fetch` that remembers the JSON-RPC error a server answered a POST with (HTTP 400), for its transport's user. */
export interface RefusalRecordingFetch {
  fetch: McpFetchLike;
  /** The last JSON-RPC error a POST was refused with, or undefined. */
  refusal(): WireError | undefined;
}

/**
 * Wraps the `fetch` of a 2025 Streamable HTTP transport to keep the JSON-RPC error in the body of a refused POST
 * (a 2026-07-28-only server answers `initialize` with 400 and `-32022`). The 1.x transport turns such an answer into
 * a `StreamableHTTPError` holding only the status and the body as text inside its message; reading the body here,
 * from a clone of the response, needs no parsing of the SDK's message (`docs/upstream/streamable-http-error-body.md`
 * describes the hook we would want instead). Only 400 answers are read: nothing changes on the hot path.
 */
export function recordingRefusals(base: McpFetchLike = fetch): RefusalRecordingFetch {
  let last: WireError | undefined;
  return {
    async fetch(url, init) {
      const response = await base(url, init);
      if (response.status === 400 && init?.method === 'POST') last = await jsonRpcErrorIn(response.clone());
      return response;
    },
    refusal: () => last,
  };
}

async function jsonRpcErrorIn(response: Response): Promise<WireError | undefined> {
  try {
    const body: unknown = JSON.parse(await response.text());
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (!error || typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
    return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  } catch {
    return undefined;
  }
}
