import { lazyModule } from '../lazy-module.js';

/**
 * The 2.x SDK client (`@modelcontextprotocol/client`), loaded the first time a backend needs 2026-07-28: it costs
 * ~75 ms of start-up, which a host with only 2025 backends never pays.
 */
const modernClient = lazyModule(
  { name: 'the 2.x MCP client', loadFirst: 'loadModernClient' },
  () => import('./modern-backend-client.js'),
);

export const loadModernClient = modernClient.load;

/** The loaded module; only after `loadModernClient()` (every modern connect awaits it first). */
export const loadedModernClient = modernClient.loaded;
