import type { BackendPeer, ProtocolEra } from '../backend-peer.js';
import type { PeerHooks, PeerSettings } from '../peer-settings.js';
import type { ProtocolErrors } from '../protocol-errors.js';

/**
 * What the connection code asks of a protocol era instead of branching on it: each era's SDK module, loaded on
 * first use, and its client for one connection attempt. One object per era (`legacy/legacy-era.ts`,
 * `modern/modern-era.ts`); `eraStrategy(era)` picks it.
 */
export interface EraStrategy {
  readonly era: ProtocolEra;
  /** Loads the era's SDK module (once per process) and adds its error reader to the manager's. */
  load(errors: ProtocolErrors): Promise<void>;
  /** A fresh client of the era for one connection attempt, with its notification relays (after `load`). */
  createPeer(settings: PeerSettings, hooks: PeerHooks): BackendPeer;
}
