import type { ServerConfig } from '@search-mcp/shared';
import type { ProtocolEra } from './backend-peer.js';

/**
 * The protocol era one config entry's backend is connected in: as the config pins it (`protocol`), else unknown
 * until a connect shows it, then remembered so reconnects go straight to it. A config change makes a new
 * connection, so the verdict is per server id and config. A failed connect forgets a learnt verdict (the backend
 * may have been replaced by one of the other era), never a configured one.
 */
export class EraVerdict {
  private readonly configured: ProtocolEra | undefined;
  private learnt: ProtocolEra | undefined;

  constructor(protocol: ServerConfig['protocol']) {
    this.configured = protocol === '2025' ? 'legacy' : protocol === '2026-07-28' ? 'modern' : undefined;
  }

  /** The era to connect in; undefined: try 2025, then 2026-07-28 if refused. */
  get current(): ProtocolEra | undefined {
    return this.configured ?? this.learnt;
  }

  connected(era: ProtocolEra): void {
    this.learnt = era;
  }

  failed(): void {
    this.learnt = undefined;
  }
}
