import { registerModernErrorReader } from './protocol-errors.js';

type ModernClientModule = typeof import('./modern-backend-client.js');

let loaded: ModernClientModule | undefined;

/**
 * Loads the 2.x SDK client (`@modelcontextprotocol/client`) the first time a backend needs 2026-07-28: it costs
 * ~75 ms of start-up, which a host with only 2025 backends never pays.
 */
export async function loadModernClient(): Promise<ModernClientModule> {
  if (loaded) return loaded;
  const module = await import('./modern-backend-client.js');
  registerModernErrorReader(module.modernErrorReader);
  loaded = module;
  return module;
}

/** The loaded module; only after `loadModernClient()` (every modern connect awaits it first). */
export function loadedModernClient(): ModernClientModule {
  if (!loaded) throw new Error('the 2.x MCP client is not loaded yet (loadModernClient() first)');
  return loaded;
}
