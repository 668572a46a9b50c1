import type { McpClientCapabilities, McpImplementation, McpServerCapabilities, McpTransport } from '@search-mcp/shared';
import type { z } from 'zod';
import type { RequestOrigin } from '../reverse/reverse-request-types.js';
import type { PeerConnectOptions } from './era/prior-verdict.js';

/** `legacy`: MCP 2025-03-26 … 2025-11-25 (an `initialize` handshake); `modern`: 2026-07-28 (none). */
export type ProtocolEra = 'legacy' | 'modern';

/** What a request to a backend may carry (the part of the SDKs' `RequestOptions` we use; both SDKs read it alike). */
export interface PeerRequestOptions {
  timeout?: number;
  signal?: AbortSignal;
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** 2.x client: an `input_required` result resolves as a value (not fulfilled, not an error). */
  allowInputRequired?: boolean;
  /**
   * 2.x client: the client request this one serves. Its envelope declares what that client can answer (the router's
   * `clientCapabilities(serverId, origin)`) instead of the connection's capabilities. The 1.x client ignores it.
   */
  origin?: RequestOrigin;
  /**
   * 2.x client over Streamable HTTP: more HTTP headers for this request's POST (the SEP-2243 `Mcp-Param-*` headers of
   * a `tools/call`). A transport with one channel (stdio) ignores them; the 1.x client too.
   */
  headers?: Readonly<Record<string, string>>;
}

/**
 * One connection's client, whatever the backend's protocol era: the 1.x SDK client for 2025 backends
 * (`BackendClient`) or the 2.x one for 2026-07-28 backends (`ModernBackendClient`). Everything past the connect
 * (forwarding, paging, health, status) sees only this.
 */
export interface BackendPeer {
  readonly protocolEra: ProtocolEra;
  /** The revision the connection speaks, once connected. */
  readonly protocolVersion: string | undefined;
  /** What this client declared to the backend. */
  readonly declaredCapabilities: McpClientCapabilities;
  /**
   * The 2.x client takes the same transport shape (`start/send/close/onmessage/onclose/onerror`). `prior` is read by
   * the 2.x client only (the era probe's discover result); the 1.x client ignores it.
   */
  connect(transport: McpTransport, options?: PeerConnectOptions): Promise<void>;
  /** A raw request: the result is checked against `resultSchema` only (no SDK result schema, no response cache). */
  request<T extends z.ZodType>(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: T,
    options?: PeerRequestOptions,
  ): Promise<z.output<T>>;
  /** One health round trip: `ping` (2025) or `server/discover` (2026-07-28, which has no `ping`). */
  checkHealth(options: { timeout: number }): Promise<unknown>;
  sendRootsListChanged(): Promise<void>;
  getServerCapabilities(): McpServerCapabilities | undefined;
  getServerVersion(): McpImplementation | undefined;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}
