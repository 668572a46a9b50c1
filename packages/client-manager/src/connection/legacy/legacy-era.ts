import { loadedLegacyClient, loadLegacyClient } from '../../legacy/legacy-client-loader.js';
import type { EraStrategy } from '../era/era-strategy.js';
import { connectLegacyRemote } from './legacy-remote-connection.js';

/**
 * MCP 2025-03-26 … 2025-11-25 (an `initialize` handshake), on the 1.x SDK client: its module is loaded on the first
 * connect; its client brings the reverse-request handlers and notification relays (`src/legacy/`).
 */
export const legacyEra: EraStrategy = {
  era: 'legacy',
  async load(errors) {
    errors.adoptLegacy((await loadLegacyClient()).legacyErrorReader);
  },
  createPeer(settings, hooks) {
    const { logLevel: _sentInEveryRequestOnlyIn2026, ...shared } = settings;
    return loadedLegacyClient().createBackendClient({ ...shared, ...hooks });
  },
  connectRemote: connectLegacyRemote,
};
