/** Options of one request forwarded to a backend (types only). */
import type { InputRetry, ToolProgress } from '@search-mcp/shared';
import type { RequestOrigin } from '../reverse/reverse-request-types.js';

/**
 * `inputResponses` and `requestState` (`InputRetry`) make the request the retry of one that answered
 * `input_required`: only for `tools/call`, `prompts/get` and `resources/read` of a 2026-07-28 backend.
 */
export interface BackendRequestOptions extends InputRetry {
  /** Cancels the request (the backend gets `notifications/cancelled`); the promise rejects with the reason. */
  signal?: AbortSignal;
  /** Idle limit: each progress notification restarts it. Default the server's `timeoutMs`. */
  timeoutMs?: number;
  /** Sent as the request's `_meta` (the manager adds its own progress token when `onProgress` is given). */
  meta?: Record<string, unknown>;
  onProgress?: (progress: ToolProgress) => void;
  /** The client request this one serves: reverse requests of the backend meanwhile are attributed to it. */
  origin?: RequestOrigin;
}
