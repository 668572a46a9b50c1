import type { ProtocolEra } from '../backend-peer.js';
import { legacyEra } from '../legacy/legacy-era.js';
import { modernEra } from '../modern/modern-era.js';
import type { EraStrategy } from './era-strategy.js';

/** The strategy of an era. */
export function eraStrategy(era: ProtocolEra): EraStrategy {
  return era === 'modern' ? modernEra : legacyEra;
}
