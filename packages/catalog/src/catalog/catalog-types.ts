/** The catalog's request and response types (types only). */
import type { SearchResult, ToolInfo, ToolProgress } from '@search-mcp/shared';
import type { CatalogSearchFilter } from './search-filter.js';

/** Who is asking: the project and token of the request (CONTRACT §5). Stdio callers usually have neither. */
export interface Caller {
  projectId?: string;
  /** The id (not the secret) of the token that authenticated the request. */
  tokenId?: string;
}

export type CatalogSearchStrategy = 'bm25' | 'cloud' | 'off';

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
}

export interface CatalogListFilter {
  server?: string;
  category?: string;
  tag?: string;
}

export interface CatalogExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** Per-call timeout passed to the source (each progress restarts it); default the server's `timeoutMs`. */
  timeoutMs?: number;
  /** `_meta` to forward to the backend. */
  meta?: Record<string, unknown>;
}
