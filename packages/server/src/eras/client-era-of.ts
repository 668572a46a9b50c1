import type { ClientFacingEra } from './client-facing-era.js';
import { legacyClientEra } from './legacy-client-era.js';
import { modernClientEra } from './modern-client-era.js';

/** The client-facing rules of `era` (fixed per server instance by its serving entry). */
export function clientEraOf(era: 'legacy' | 'modern'): ClientFacingEra {
  return era === 'modern' ? modernClientEra : legacyClientEra;
}
