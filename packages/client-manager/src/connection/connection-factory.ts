import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import type { Logger, McpFetchLike, McpImplementation, ServerConfig, ServerTransportKind } from '@search-mcp/shared';
import type { ProcessTransport } from '../process/process-transport.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ProtocolErrors } from './protocol-errors.js';

/** What the connection state machine asks of a factory for one connection attempt. */
export interface ConnectionRequest {
  config: ServerConfig;
  /**
   * A fresh SDK client of an era, whose handlers (close, list_changed) belong to this attempt. Without an era: the
   * requested one, `legacy` when that is `auto`.
   */
  createClient: (era?: ProtocolEra) => BackendPeer;
  /**
   * The SDK client module of the era (`auto`: the 1.x one), still loading when the factory is called so that a local
   * server's start overlaps it: awaited before `createClient`.
   */
  clientLoaded: Promise<void>;
  /**
   * The era to connect in: `legacy` (1.x client, 2025 transports), `modern` (2.x client; a remote server is reached
   * with the 2.x Streamable HTTP transport, which sends the 2026-07-28 headers) or `auto`: probe with
   * `server/discover` first and connect in 2026-07-28 when the backend offers it, else in 2025 on the same
   * connection (a factory that cannot probe, such as a test's in-memory one, may connect in 2025 straight away).
   */
  protocolEra: ProtocolEra | 'auto';
  /** Who we are, for the probe's envelope. */
  clientInfo: McpImplementation;
  /** Called with what a probe showed, before the connect in that era (which may still fail). */
  onProbed?: (era: ProtocolEra) => void;
  /** Budget of the whole attempt (spawn, initialize); `signal` aborts at its end. */
  timeoutMs: number;
  signal: AbortSignal;
  /** The server's logger (already tagged with its id, secrets masked). */
  logger: Logger;
  /**
   * Called as soon as a local process exists, before `initialize`: its pid shows in `status()` while starting,
   * `stop()` can end it at once, and a failed start is explained with its exit and stderr.
   */
  onProcess: (process: ProcessTransport) => void;
  /** Streamable HTTP only: learns which of our requests a server→client request came with (exact attribution). */
  originTracker?: OriginTracker;
  /** Remote servers: wraps the fetch of the probe and the transports (OAuth: bearer token, refresh, authorization). */
  wrapFetch?: (next: McpFetchLike) => McpFetchLike;
  /** How the manager reads its SDKs' errors: a factory that loads an SDK adds its reader. */
  errors: ProtocolErrors;
}

/** A connected client. */
export interface OpenedConnection {
  client: BackendPeer;
  kind: ServerTransportKind;
  /** The server's process, for a local server. */
  process?: ProcessTransport;
}

/**
 * Opens one connection to a server: spawns and connects a stdio server, or connects a remote one. Injected into the
 * state machine, so the state machine is tested over the SDK's `InMemoryTransport` with a real `McpServer`.
 * On failure the factory closes what it opened and throws.
 */
export type ConnectionFactory = (request: ConnectionRequest) => Promise<OpenedConnection>;
