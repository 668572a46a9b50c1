/** Options of one request forwarded to a backend (types only). */
import type { ToolProgress } from '@search-mcp/shared';
import type { RequestOrigin } from '../reverse/reverse-request-types.js';

export interface BackendRequestOptions {
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
