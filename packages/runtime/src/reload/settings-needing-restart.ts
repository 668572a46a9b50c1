/**
 * Which edited settings a running Search MCP cannot take live. Servers are reconfigured by the client manager; the
 * rest of the config is read in three places:
 *
 * - at start only: `exposure.mode` and `exposure.pinned` (each MCP session is built with them), `audit` (the file is
 *   opened once), `cluster` (the shared store is connected once), and the rankers' own settings `search.cloud`, `search.llm`, `search.hybrid` (built once, and only
 *   for the strategies the config used at start);
 * - by the catalog on every request: `search.strategy`, `search.maxResults`, `projects`, `auth`, `exposure.names`,
 *   and each server's `enabled`, `projects`, `toolPermissions` and `tools` overrides — live when the catalog can be
 *   reconfigured;
 * - by the host: whatever it says it reads only at start (the HTTP app authenticates with the `auth` it started
 *   with).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResolvedConfig, SearchStrategy } from '@search-mcp/shared';
import { strategiesInUse } from '../search/strategy-providers.js';

export interface SettingsNeedingRestartOptions {
  /** The catalog takes a new config live (`ReconfigurableCatalog.reconfigure`). */
  catalogReconfigurable: boolean;
  /** Top-level sections the host reads only at start, e.g. `auth` in the HTTP app. */
  fixedByHost?: readonly string[];
}

/** Rankers built at start for the strategies the config uses; a strategy used only later has none. */
const strategiesWithOwnRanker: readonly SearchStrategy[] = ['cloud', 'llm', 'hybrid'];

/** The JSON paths of settings that differ between `previous` and `next` and apply only after a restart, in order. */
export function settingsNeedingRestart(
  previous: ResolvedConfig,
  next: ResolvedConfig,
  options: SettingsNeedingRestartOptions,
): string[] {
  const paths: string[] = [];
  const differs = (before: unknown, after: unknown) => !isDeepStrictEqual(before, after);
  const fixedByHost = new Set(options.fixedByHost ?? []);
  const live = (section: string) => options.catalogReconfigurable && !fixedByHost.has(section);

  if (differs(previous.exposure.mode, next.exposure.mode)) paths.push('exposure.mode');
  if (differs(previous.exposure.pinned, next.exposure.pinned)) paths.push('exposure.pinned');
  if (differs(previous.audit, next.audit)) paths.push('audit');
  if (differs(previous.cluster, next.cluster)) paths.push('cluster');
  const before = strategiesInUse(previous);
  const newRankers = [...strategiesInUse(next)].filter(
    (strategy) => strategiesWithOwnRanker.includes(strategy) && !before.has(strategy),
  );
  for (const ranker of ['cloud', 'llm', 'hybrid'] as const) {
    // Settings filled in only because a strategy now uses the ranker are told with that strategy, below.
    const filledForNewStrategy = previous.search[ranker] === undefined && newRankers.includes(ranker);
    if (!filledForNewStrategy && differs(previous.search[ranker], next.search[ranker])) paths.push(`search.${ranker}`);
  }
  if (newRankers.length > 0) paths.push(`search.strategy (${newRankers.join(', ')}: its ranker is built at start)`);
  else if (!live('search') && differs(previous.search.strategy, next.search.strategy)) paths.push('search.strategy');
  if (!live('search') && differs(previous.search.maxResults, next.search.maxResults)) paths.push('search.maxResults');
  if (!live('projects') && differs(previous.projects, next.projects)) paths.push('projects');
  if (!live('auth') && differs(previous.auth, next.auth)) paths.push('auth');
  if (!options.catalogReconfigurable && differs(previous.exposure.names, next.exposure.names))
    paths.push('exposure.names');

  // Without a catalog that takes the new config, it keeps checking visibility against the old server entries.
  if (!options.catalogReconfigurable) {
    for (const [id, server] of Object.entries(next.mcpServers)) {
      const old = Object.hasOwn(previous.mcpServers, id) ? previous.mcpServers[id] : undefined;
      if (old === undefined) continue;
      for (const field of ['enabled', 'projects', 'toolPermissions', 'tools'] as const) {
        if (differs(old[field], server[field])) paths.push(`mcpServers.${server.name}.${field}`);
      }
    }
  }
  return paths;
}
