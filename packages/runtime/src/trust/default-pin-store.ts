/**
 * The pin store a runtime uses (docs/trust.md, "Pinning and quarantine"): the host's own, none (`false`), or by
 * default the pin file in the state folder. `SEARCH_MCP_PINNING=off` turns the default off: the repository's test
 * suites set it, so test runs neither read nor write the pins of the person running them.
 */
import type { ToolPinStore } from '@search-mcp/catalog';
import type { Logger } from '@search-mcp/shared';
import { FilePinStore } from './file-pin-store.js';

export const PINNING_ENV_VARIABLE = 'SEARCH_MCP_PINNING';

/** The store, and how to stop it (the default one polls its file and writes in the background). */
export function openPinStore(
  option: ToolPinStore | false | undefined,
  logger: Logger,
  env: Record<string, string | undefined> = process.env,
): { store: ToolPinStore | undefined; close(): Promise<void> } {
  const none = async () => undefined;
  if (option === false) return { store: undefined, close: none };
  if (option !== undefined) return { store: option, close: none };
  if (env[PINNING_ENV_VARIABLE]?.trim().toLowerCase() === 'off') return { store: undefined, close: none };
  const store = new FilePinStore({ env, logger });
  return {
    store,
    // The pins of this run's listings are written before the process may exit (`doctor`, `search`, `call`).
    close: async () => {
      store.close();
      await store.flush();
    },
  };
}
