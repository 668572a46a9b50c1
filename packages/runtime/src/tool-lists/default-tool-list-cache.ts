/**
 * The tool list cache a runtime uses (README, "Discovery before the servers are up"): the host's own, none
 * (`false`), or by default `tool-lists.json` in the state folder. `SEARCH_MCP_TOOL_CACHE=off` turns the default off:
 * the repository's test suites set it, so test runs neither read nor write the lists of the person running them.
 */
import type { ToolListCache } from '@search-mcp/client-manager';
import type { Logger } from '@search-mcp/shared';
import { FileToolListCache } from './file-tool-list-cache.js';

export const TOOL_CACHE_ENV_VARIABLE = 'SEARCH_MCP_TOOL_CACHE';

/** The cache, and how to wait for its writes (a one-shot command's lists must be on disk before it exits). */
export function openToolListCache(
  option: ToolListCache | false | undefined,
  logger: Logger,
  env: Record<string, string | undefined> = process.env,
): { cache: ToolListCache | undefined; flush(): Promise<void> } {
  const none = async () => undefined;
  if (option === false) return { cache: undefined, flush: none };
  // The host's own cache is flushed on close too, when it can be: its last lists must not be lost at exit.
  if (option !== undefined) return { cache: option, flush: async () => option.flush?.() };
  if (env[TOOL_CACHE_ENV_VARIABLE]?.trim().toLowerCase() === 'off') return { cache: undefined, flush: none };
  const cache = new FileToolListCache({ env, logger });
  return { cache, flush: () => cache.flush() };
}
