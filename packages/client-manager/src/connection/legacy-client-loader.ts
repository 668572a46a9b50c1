import { registerLegacyErrorReader } from './protocol-errors.js';

type LegacyClientModule = typeof import('./legacy-client-module.js');

let loaded: LegacyClientModule | undefined;

/**
 * Loads the 1.x SDK client (`@modelcontextprotocol/sdk`) the first time a backend connects in 2025 (or probes for
 * its era): ~240 ms of module loading that `serve` no longer pays before it answers `initialize`.
 */
export async function loadLegacyClient(): Promise<LegacyClientModule> {
  if (loaded) return loaded;
  const module = await import('./legacy-client-module.js');
  registerLegacyErrorReader(module.legacyErrorReader);
  loaded = module;
  return module;
}

/** The loaded module; only after `loadLegacyClient()` (every connect but a pinned 2026-07-28 one awaits it first). */
export function loadedLegacyClient(): LegacyClientModule {
  if (!loaded) throw new Error('the 1.x MCP client is not loaded yet (loadLegacyClient() first)');
  return loaded;
}
