import {
  Client,
  type ClientCapabilities,
  type FetchLike,
  type Implementation,
  type Transport as ModernTransport,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '@search-mcp/shared';
import type { ReverseRequestRouter } from '../reverse/reverse-request-types.js';
import type { BackendPeer } from './backend-peer.js';
import type { ModernErrorReader } from './protocol-errors.js';

// Loaded only through `modern-client-loader.ts` (the 2.x SDK costs start-up time a 2025-only host never pays).

/** The revision a modern backend is reached in. */
export const modernProtocolVersion = '2026-07-28';

/**
 * The 2.x SDK client of a backend that speaks MCP 2026-07-28 (no `initialize`: `server/discover`, then version,
 * client info and capabilities in every request's `_meta`). The version is pinned: this client is used only for a
 * backend that refused the 2025 handshake (`-32022`) or is configured `protocol: "2026-07-28"`.
 *
 * It declares (in every request's envelope) the capabilities a 2025 backend is told in `initialize`: a 2026 backend
 * asks for input only within them (else its SDK refuses with `-32021`). It asks with `input_required` results,
 * which are never fulfilled here: `forwardRequest` hands them to the caller as they are, and the caller retries with
 * the answers (plan §4: the front side decides who answers).
 */
export class ModernBackendClient extends Client implements BackendPeer {
  readonly protocolEra = 'modern';

  constructor(
    info: Implementation,
    /** What this client declares in each request's `io.modelcontextprotocol/clientCapabilities`. */
    readonly declaredCapabilities: ClientCapabilities = {},
  ) {
    super(info, {
      capabilities: declaredCapabilities,
      versionNegotiation: { mode: { pin: modernProtocolVersion } },
      // No input_required round trips are fulfilled here (see above); such a result reaches the caller as it is.
      inputRequired: { autoFulfill: false },
    });
  }

  get protocolVersion(): string | undefined {
    return this.getNegotiatedProtocolVersion();
  }

  /** Our transports implement the 1.x `Transport`, the same shape the 2.x client drives. */
  override connect(transport: Transport | ModernTransport, options?: Parameters<Client['connect']>[1]) {
    return super.connect(transport as ModernTransport, options);
  }

  /** `ping` is gone in 2026-07-28: `server/discover` is the round trip that proves the backend answers. */
  checkHealth(options: { timeout: number }): Promise<unknown> {
    return this.discover(options);
  }
}

export interface ModernBackendClientSettings {
  clientInfo: Implementation;
  logger: Logger;
  /** Which capabilities can be served, asked for `serverId` (none without a router, as for a 2025 backend). */
  router?: ReverseRequestRouter | undefined;
  serverId?: string;
  /** The connection closed (crash, remote close). */
  onClose: () => void;
}

/** A 2.x client for one connection attempt to a 2026-07-28 backend, declaring what the router can serve. */
export function createModernBackendClient(settings: ModernBackendClientSettings): ModernBackendClient {
  // The router types them with the 1.x SDK's schema: the same JSON object.
  const { router, serverId } = settings;
  const capabilities = (
    router && serverId !== undefined ? router.clientCapabilities(serverId) : {}
  ) as ClientCapabilities;
  const client = new ModernBackendClient(settings.clientInfo, capabilities);
  client.onerror = (error) => settings.logger.debug('transport error', { error: error.message });
  client.onclose = () => settings.onClose();
  return client;
}

/**
 * The 2.x Streamable HTTP transport for a 2026-07-28 backend (it sends the revision's `Mcp-Method`/`Mcp-Name`
 * headers), typed as the transport shape our clients take.
 */
export function createModernHttpTransport(url: URL, init: { headers: Record<string, string>; fetch?: FetchLike }) {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: init.headers },
    ...(init.fetch ? { fetch: init.fetch } : {}),
  });
  return transport as unknown as Transport;
}

/** How `protocol-errors.ts` reads the 2.x SDK's errors. */
export const modernErrorReader: ModernErrorReader = {
  wireError(error) {
    if (!ProtocolError.isInstance(error)) return undefined;
    const { code, message, data } = error as ProtocolError;
    return { code, message, ...(data !== undefined ? { data } : {}) };
  },
  sdkCode(error) {
    if (!SdkError.isInstance(error)) return undefined;
    const { code } = error as SdkError;
    if (code === SdkErrorCode.RequestTimeout) return 'timeout';
    if (code === SdkErrorCode.ConnectionClosed) return 'closed';
    return 'other';
  },
};
