import type { RemoteServerConfig } from '@search-mcp/shared';
import type { BackendPeer, ProtocolEra } from '../backend-peer.js';
import type { PeerHooks, PeerSettings } from '../peer-settings.js';
import type { ProtocolErrors } from '../protocol-errors.js';
import type { RemoteConnection, RemoteConnectHints, RemoteConnectOptions } from '../remote-connect-options.js';

/**
 * What the connection code asks of a protocol era instead of branching on it: each era's SDK module, loaded on
 * first use, its client for one connection attempt, and its remote transports. One object per era (`legacy/legacy-era.ts`,
 * `modern/modern-era.ts`); `eraStrategy(era)` picks it.
 */
export interface EraStrategy {
  readonly era: ProtocolEra;
  /** Loads the era's SDK module (once per process) and adds its error reader to the manager's. */
  load(errors: ProtocolErrors): Promise<void>;
  /** A fresh client of the era for one connection attempt, with its notification relays (after `load`). */
  createPeer(settings: PeerSettings, hooks: PeerHooks): BackendPeer;
  /** Connects to a remote server in this era (its transports; after `load`). */
  connectRemote(
    config: RemoteServerConfig,
    options: RemoteConnectOptions,
    hints: RemoteConnectHints,
  ): Promise<RemoteConnection>;
}
