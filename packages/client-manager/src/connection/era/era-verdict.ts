import { type ServerConfig, TimeoutError } from '@search-mcp/shared';
import type { ProtocolEra } from '../backend-peer.js';
import type { ProtocolErrors } from '../protocol-errors.js';

/**
 * The protocol era one config entry's backend is connected in: as the config pins it (`protocol`), else unknown
 * until a probe or a connect shows it (`auto`), then remembered so reconnects go straight to it, without a probe. A
 * config change makes a new connection, so the verdict is per server id and config. A connect the backend refused
 * forgets a learnt verdict (it may have been replaced by one of the other era), never a configured one; a backend
 * that exited or never answered said nothing about its era, so the verdict stays.
 */
export class EraVerdict {
  private readonly configured: ProtocolEra | undefined;
  private learnt: ProtocolEra | undefined;

  constructor(
    protocol: ServerConfig['protocol'],
    /** How the manager reads its SDKs' errors. */
    private readonly errors: ProtocolErrors,
  ) {
    this.configured = protocol === '2025' ? 'legacy' : protocol === '2026-07-28' ? 'modern' : undefined;
  }

  /** The era to connect in; undefined: probe (`auto`). */
  get current(): ProtocolEra | undefined {
    return this.configured ?? this.learnt;
  }

  /** A probe or a connect showed the era. */
  learn(era: ProtocolEra): void {
    this.learnt = era;
  }

  /** A connect failed with `error` (as `describeStartFailure` made it). */
  failed(error: unknown): void {
    if (!saysNothingAboutEra(error, this.errors)) this.learnt = undefined;
  }
}

/** A start that ended in a closed connection or a timeout: the backend never answered in a way that shows its era. */
function saysNothingAboutEra(error: unknown, errors: ProtocolErrors): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (TimeoutError.isInstance(current) || errors.isConnectionClosed(current) || errors.isSdkTimeout(current))
      return true;
    current = current.cause;
  }
  return false;
}
