/** The catalog's request and response types (types only). */
import type { InputRetry, SearchResult, SearchStrategy, ToolInfo, ToolProgress } from '@search-mcp/shared';
import type { CatalogSearchFilter } from './search-filter.js';
import type { CatalogMatch } from './search-match.js';

/**
 * Who is asking: the project and token of the request (docs/projects-and-tokens.md, "The project of a request").
 * Stdio callers usually have neither.
 */
export interface Caller {
  projectId?: string;
  /**
   * The id (not the secret) of the token that authenticated the request. An OAuth caller has one too
   * (`oauth:<subject>`, docs/oauth-in-front.md): sessions, tasks and limits are kept per id, and a server with
   * `identity: "per-user"` runs the calls of each id on a connection of its own (none: the shared connection).
   */
  tokenId?: string;
  /** The OAuth caller's subject (its token's `sub`, docs/oauth-in-front.md), named in the audit record. */
  subject?: string;
  /**
   * What an OAuth caller may use (its roles, docs/oauth-in-front.md): when present it is checked instead of looking
   * `tokenId` up among the configured tokens.
   */
  access?: CallerAccess;
}

/**
 * An OAuth caller's limits (docs/oauth-in-front.md, "Roles"): one grant per role it matched. A project or tool is
 * usable when one grant allows both; no grant: nothing is.
 */
export interface CallerAccess {
  grants: readonly CallerGrant[];
}

/** What one role allows: absent fields limit nothing. */
export interface CallerGrant {
  /** The projects it may act in (as a token's `projects`). */
  projects?: readonly string[];
  /** The tools it may use: tool keys `server:tool`, or `server:*` for all of a server's. */
  tools?: readonly string[];
}

/** `bm25` (local), `hybrid`, `llm`, `cloud` (each falls back to the local ranker) or `off`. */
export type CatalogSearchStrategy = SearchStrategy;

/** The strategies answered by a provider other than the local ranker, with a fallback to it. */
export type FallbackStrategy = Exclude<CatalogSearchStrategy, 'bm25' | 'off'>;

export interface CatalogSearchRequest {
  /** One phrasing, or several phrasings / sub-steps of one task. */
  query: string | readonly string[];
  context?: string;
  /** 1–50; default `search.maxResults` of the config. */
  maxResults?: number;
  /** Searches only the visible tools that pass it (narrowed before ranking, so none is crowded out). */
  filter?: CatalogSearchFilter;
  signal?: AbortSignal;
}

/** A search result with the tool it names, so callers can add schemas without a second lookup. */
export interface CatalogSearchHit extends SearchResult {
  title?: string;
  tool: ToolInfo;
}

export interface CatalogSearchResponse {
  results: CatalogSearchHit[];
  /** The strategy the request resolved to. */
  strategy: CatalogSearchStrategy;
  /** The provider that answered (`bm25`, `cloud`, a custom id); absent when the strategy is `off`. */
  providerId?: string;
  /** Why the cloud provider was not used, after a fallback. */
  fallbackReason?: string;
  /** How many tools the caller could see (searched over). */
  toolCount: number;
  /**
   * Whether the best hit fits the request: `good`, `weak` (it covers the request only in part: relevance below 1)
   * or `none` (nothing fits, or search is off, or the query is empty).
   */
  match: CatalogMatch;
  /** For `weak` and `none`: a sentence for the model, e.g. "no tool matches 'send an email' well; the closest are …". */
  notice?: string;
}

export interface CatalogListFilter {
  server?: string;
  category?: string;
  tag?: string;
}

/**
 * `inputResponses` and `requestState` (`InputRetry`) make the call the retry of one that answered `input_required`
 * (`isInputRequiredResult`); they go to the source unchanged (only a 2026-07-28 backend takes them).
 */
export interface CatalogExecuteOptions extends InputRetry {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** Per-call timeout passed to the source (each progress restarts it); default the server's `timeoutMs`. */
  timeoutMs?: number;
  /** `_meta` to forward to the backend. */
  meta?: Record<string, unknown>;
  /** Which client request this call serves; passed to the source (reverse requests are attributed by it). */
  origin?: object;
  /** Run as a task: the source resolves with the backend's `{ task }` instead of the result. */
  task?: { ttl?: number };
}
