import type { AuthInfo, ClientCapabilities, RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { ClientFacingEra } from './eras/client-facing-era.js';

/**
 * What a handler of Search MCP gets with a request, the same in both protocol eras: the request's id, session (2025
 * Streamable HTTP), abort signal, and ways to notify and ask the client on the request's own stream.
 */
export interface RequestExtra {
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly sessionId?: string | undefined;
  /** The caller's credentials, when the HTTP entry verified them. */
  readonly authInfo?: AuthInfo | undefined;
  /** The request's `_meta` (progress token, project id); 2026-07-28 envelope keys are in `envelope`. */
  readonly _meta?: Record<string, unknown> | undefined;
  /** 2026-07-28: the client's protocol version, info and capabilities this request carried. */
  readonly envelope?: Record<string, unknown> | undefined;
  /** `legacy` = 2025 revisions (`initialize` handshake), `modern` = 2026-07-28 (per-request envelope). */
  readonly era: 'legacy' | 'modern';
  /** What differs in this era, by rule (`eras/`): handlers ask these instead of comparing `era`. */
  readonly clientEra: ClientFacingEra;
  /**
   * What the client can be asked (sampling, elicitation, roots): 2026-07-28 = this request's envelope, 2025 = its
   * `initialize`.
   */
  readonly clientCapabilities?: ClientCapabilities | undefined;
  /**
   * A retried multi-round-trip request (2026-07-28, or the SDK's legacy shim re-entering the handler): the client's
   * answers to our `inputRequests`, by key, and our `requestState` echoed (unverified: see `input/`).
   */
  readonly inputResponses?: Record<string, unknown> | undefined;
  readonly requestState?: string | undefined;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** A request to the client on this request's stream (2025 era only: a 2026 client is asked by `input_required`). */
  sendRequest(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: StandardSchemaV1,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>>;
}
