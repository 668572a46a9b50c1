import type { ResolvedConfig } from '@search-mcp/shared';
import { startingServerIds } from './starting-servers.js';
import type { ServerStatusSource } from './search-mcp-server-options.js';

/**
 * How long a 2026-07-28 client may reuse an answer (`ttlMs`) and whether a shared cache may keep it for other callers
 * (`cacheScope`). The spec's field names; 2025-era answers carry neither (the 2.x SDK drops them there).
 */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** The lists of the aggregate, plus `server/discover` (its instructions name the caller's servers). */
export type AggregateListMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'server/discover';

/** A settled aggregate list may be reused this long; list_changed / `subscriptions/listen` announce changes sooner. */
export const settledListTtlMs = 60_000;

/** Meta mode's `tools/list` without pinned tools: `tool_discovery` and `tool_execute`, the same for every caller. */
export const fixedToolListHint: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };

/**
 * What `resources/read` gets when the backend sent no fields of its own (a 2025 backend): not reusable, not
 * shareable. A resource is the backend's data; only the backend can say it may be kept.
 */
export const resourceReadHint: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/**
 * Whether the aggregate's answers depend on who asks: with tokens or projects, two callers may see different servers
 * (docs/projects-and-tokens.md, "What depends on the caller"), so nothing listed may be marked shareable.
 */
export function answersDependOnCaller(config: Pick<ResolvedConfig, 'auth' | 'projects' | 'mcpServers'>): boolean {
  if (config.auth.tokens.length > 0) return true;
  if (Object.keys(config.projects).length > 0) return true;
  return Object.values(config.mcpServers).some((server) => server.projects !== undefined);
}

export interface ListCacheHintInput {
  /** `answersDependOnCaller(config)`, or anything else that makes answers per caller (tokens given by a host). */
  callerDependent: boolean;
  /** The client manager: while a server is still `starting` the list will grow, so it must not be reused. */
  manager: ServerStatusSource | undefined;
}

/**
 * The hint for one answer of an aggregate list, computed when it is answered (the servers' states change while a
 * connection lives, so a hint fixed when the server instance is built would be wrong): `private` whenever answers
 * depend on the caller, else `public`; `ttlMs` 0 while any server is starting, else `settledListTtlMs`.
 */
export function listCacheHint(input: ListCacheHintInput): CacheHint {
  const cacheScope = input.callerDependent ? 'private' : 'public';
  const ttlMs = startingServerIds(input.manager).length > 0 ? 0 : settledListTtlMs;
  return { ttlMs, cacheScope };
}

/**
 * Puts `hint` on a result, field by field, where the result has none (a 2026 backend's own `ttlMs`/`cacheScope`
 * win, the rule the SDK applies to its construction-time hints). Returns a new object; the result is not changed.
 */
export function withCacheHint<T extends Record<string, unknown>>(result: T, hint: CacheHint): T & CacheHint {
  return { ...result, ttlMs: result.ttlMs ?? hint.ttlMs, cacheScope: result.cacheScope ?? hint.cacheScope } as T &
    CacheHint;
}
