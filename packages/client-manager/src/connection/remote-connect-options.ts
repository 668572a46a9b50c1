import type { Logger, McpFetchLike, McpImplementation, McpTransport } from '@search-mcp/shared';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import type { PriorVerdict } from './era/prior-verdict.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ProtocolErrors } from './protocol-errors.js';

export interface RemoteConnectOptions {
  /** Makes a fresh SDK client of an era; the fallback needs a second one. */
  createClient: (era: ProtocolEra) => BackendPeer;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * `modern`: the 2.x Streamable HTTP transport (2026-07-28 headers, no session, no SSE fallback). `auto` (a config
   * without `type`, or `type: "http"`): a `server/discover` probe decides; an SSE server is 2025 by definition.
   */
  protocolEra?: ProtocolEra | 'auto';
  /** Who we are, for the probe's envelope. */
  clientInfo: McpImplementation;
  /** Called with what a probe showed. */
  onProbed?: (era: ProtocolEra) => void;
  fetch?: McpFetchLike;
  logger: Logger;
  /** Tags server→client requests with the request of ours whose POST stream they came on (Streamable HTTP). */
  originTracker?: OriginTracker;
  /** How the manager reads its SDKs' errors (a probe's 2026-07-28 verdict adopts the 2.x reader). */
  errors: ProtocolErrors;
}

export interface RemoteConnection {
  client: BackendPeer;
  transport: McpTransport;
  kind: 'http' | 'sse';
}

/** What an `auto` probe told the era's remote connect. */
export interface RemoteConnectHints {
  /** The probe's discover result, adopted by a 2026-07-28 client without a second round trip. */
  prior?: PriorVerdict;
  /** The url took no POST at all (this 404/405 to the probe): an SSE-only server, no need to POST `initialize`. */
  sseOnlyStatus?: number;
}
