/**
 * The contract custom rankers implement (types only, no code): given what the model asked for and the tools the
 * caller may see, return the best tools, best first.
 *
 * Providers are pure with respect to the catalog: they never call backends, never filter by visibility (the
 * catalog already did) and never mutate `tools`. They should not throw on odd input; the catalog treats a throw
 * as "no answer" and, where configured, falls back to another provider.
 */
import type { SearchResult, ToolInfo } from '@search-mcp/shared';

export type { SearchResult } from '@search-mcp/shared';

export interface SearchProviderRequest {
  /** Several phrasings or sub-steps of one task. A tool that serves any of them should rank high. */
  queries: readonly string[];
  /** Background: the task as a whole, the conversation so far. Weaker evidence than `queries`. */
  context?: string;
  /** The tools the caller may see. The same array instance is passed while the tool set is unchanged. */
  tools: readonly ToolInfo[];
  /** At most this many results. */
  maxResults: number;
  /** Aborted when the caller gives up (timeout, cancellation). */
  signal?: AbortSignal;
}

export interface SearchProvider {
  /** Short name for logs and `explanation`s, e.g. `bm25`, `cloud`. */
  readonly id: string;
  /**
   * Ranks `tools` for the request. Each result's `relevance` is in 0..1 with the best result at 1, or below 1 when
   * the provider has an absolute notion of a weak match (the catalog then reports `match: 'weak'` or `'none'`), and
   * `toolKey` is one of `tools`' keys.
   */
  search(request: SearchProviderRequest): Promise<SearchResult[]>;
}
