import { lazyModule } from '../connection/lazy-module.js';

/**
 * The 1.x SDK client (`@modelcontextprotocol/sdk`), loaded the first time a backend connects in 2025 (or probes for
 * its era): ~240 ms of module loading that `serve` no longer pays before it answers `initialize`.
 */
const legacyClient = lazyModule(
  { name: 'the 1.x MCP client', loadFirst: 'loadLegacyClient' },
  () => import('./legacy-client-module.js'),
);

export const loadLegacyClient = legacyClient.load;

/** The loaded module; only after `loadLegacyClient()` (every connect but a pinned 2026-07-28 one awaits it first). */
export const loadedLegacyClient = legacyClient.loaded;
