import type { Logger } from '@search-mcp/shared';
import type { ProtocolEra } from '../backend-peer.js';
import type { ProtocolErrors } from '../protocol-errors.js';
import { eraStrategy } from './era-strategies.js';
import type { EraProbeOutcome } from './era-probe.js';
import type { PriorVerdict } from './prior-verdict.js';

export interface AutoEraContext {
  logger: Logger;
  /** Told what the probe showed, before the connect in that era (which may still fail). */
  onProbed?: ((era: ProtocolEra) => void) | undefined;
  errors: ProtocolErrors;
}

/** The era an `auto` probe chose, with the discover result a 2026-07-28 client adopts (no second round trip). */
export interface AutoEraChoice {
  era: ProtocolEra;
  prior?: PriorVerdict;
}

/**
 * `auto` negotiation, once for every transport: what a `server/discover` probe's outcome (in place on a stdio
 * process, or one POST over HTTP) means. 2026-07-28 offered: that era, its SDK loaded, and the discover result as
 * `prior` (none when the probe was refused with `-32022` listing 2026-07-28: the client asks for it itself).
 * Anything else: 2025 — what to do about a probe that ended the process or met an SSE-only url is the transport's
 * business (`open-connection.ts`, `remote-connection.ts`).
 */
export async function chooseAutoEra(outcome: EraProbeOutcome, context: AutoEraContext): Promise<AutoEraChoice> {
  context.logger.debug(
    'era probe',
    outcome.era === 'modern' ? { era: 'modern' } : { era: 'legacy', why: outcome.reason },
  );
  context.onProbed?.(outcome.era);
  if (outcome.era === 'legacy') return { era: 'legacy' };
  await eraStrategy('modern').load(context.errors);
  return outcome.discover
    ? { era: 'modern', prior: { kind: 'modern', discover: outcome.discover } }
    : { era: 'modern' };
}
