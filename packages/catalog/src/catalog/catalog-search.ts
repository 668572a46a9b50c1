/**
 * One catalog search: the request's queries and limit checked, the provider of the caller's strategy asked (cloud
 * falls back to the local ranker), and its answer made safe: only keys of the tools searched over, each once, in
 * the provider's order, relevance clamped to 0..1, at most `maxResults`.
 */
import {
  configDefaults,
  errorMessage,
  SearchProviderError,
  silentLogger,
  type Logger,
  type SearchResult,
  type ToolInfo,
} from '@search-mcp/shared';
import { FallbackSearchProvider, type FallbackAnswer } from '../providers/fallback-search-provider.js';
import type { SearchProvider } from '../search-provider.js';
import { emptySearchMatch, judgeSearchMatch } from './search-match.js';
import type {
  CatalogSearchHit,
  CatalogSearchRequest,
  CatalogSearchResponse,
  CatalogSearchStrategy,
  FallbackStrategy,
} from './catalog-types.js';

/** Why a strategy answered with the local ranker because nothing serves it. */
const notConfigured: Record<FallbackStrategy, string> = {
  cloud: 'no search.cloud is configured',
  hybrid: 'no hybrid search provider is configured',
  llm: 'no llm search provider is configured',
};

export interface CatalogSearchSettings {
  /** The ranker of strategy `bm25`, and the fallback of the others. */
  localProvider: SearchProvider;
  /** The rankers of strategies `hybrid`, `llm` and `cloud`, where configured. */
  providers: Partial<Record<FallbackStrategy, SearchProvider>>;
  /** `maxResults` when a request gives none (`search.maxResults`). */
  defaultMaxResults: number;
  logger?: Logger;
}

export class CatalogSearch {
  private readonly logger: Logger;
  /** Each searched tool array's tools by key, for as long as the array lives. */
  private readonly byKey = new WeakMap<readonly ToolInfo[], Map<string, ToolInfo>>();

  constructor(private readonly settings: CatalogSearchSettings) {
    this.logger = settings.logger ?? silentLogger;
  }

  /**
   * Ranks `tools` (the caller's visible tools, filtered) with the provider of `strategy`.
   * @throws SearchProviderError when the provider fails (a cloud failure falls back first); the caller's abort
   * reason when `request.signal` aborts.
   */
  async search(
    request: CatalogSearchRequest,
    strategy: CatalogSearchStrategy,
    tools: readonly ToolInfo[],
  ): Promise<CatalogSearchResponse> {
    const { localProvider } = this.settings;
    if (strategy === 'off') return { results: [], strategy, toolCount: tools.length, ...emptySearchMatch('off') };
    const queries = (typeof request.query === 'string' ? [request.query] : [...request.query]).filter(
      (query): query is string => typeof query === 'string' && query.trim() !== '',
    );
    if (queries.length === 0 || tools.length === 0) {
      const reason = queries.length === 0 ? 'empty-query' : 'no-tools';
      return {
        results: [],
        strategy,
        providerId: localProvider.id,
        toolCount: tools.length,
        ...emptySearchMatch(reason),
      };
    }
    const maxResults = clamp(
      Math.trunc(request.maxResults ?? this.settings.defaultMaxResults),
      1,
      configDefaults.maxResultsLimit,
    );
    let answer: FallbackAnswer = { providerId: localProvider.id };
    let provider = localProvider;
    if (strategy !== 'bm25') {
      const primary = this.settings.providers[strategy];
      if (primary) {
        provider = new FallbackSearchProvider(primary, localProvider, {
          logger: this.logger,
          onAnswer: (received) => {
            answer = received;
          },
        });
      } else {
        answer = { providerId: localProvider.id, fallbackReason: notConfigured[strategy] };
      }
    }
    let results: SearchResult[];
    try {
      results = await provider.search({
        queries,
        tools,
        maxResults,
        ...(request.context ? { context: request.context } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      if (SearchProviderError.isInstance(error)) throw error;
      throw new SearchProviderError({
        providerId: provider.id,
        failure: 'provider',
        message: `search provider '${provider.id}' failed: ${errorMessage(error)}`,
        cause: error,
      });
    }
    const hits = this.toHits(results, tools, maxResults);
    const judged = judgeSearchMatch(hits, queries);
    this.logger.debug('search', {
      strategy,
      provider: answer.providerId,
      queries: queries.length,
      results: hits.length,
      match: judged.match,
    });
    return {
      results: hits,
      strategy,
      providerId: answer.providerId,
      toolCount: tools.length,
      ...(answer.fallbackReason !== undefined ? { fallbackReason: answer.fallbackReason } : {}),
      ...judged,
    };
  }

  private toHits(results: readonly SearchResult[], tools: readonly ToolInfo[], maxResults: number): CatalogSearchHit[] {
    const byKey = this.toolsByKey(tools);
    const hits: CatalogSearchHit[] = [];
    const seen = new Set<string>();
    for (const result of results) {
      // A custom ranker must not widen what the caller sees.
      const tool = byKey.get(result.toolKey);
      if (!tool || seen.has(tool.toolKey)) continue;
      seen.add(tool.toolKey);
      const hit: CatalogSearchHit = {
        toolKey: tool.toolKey,
        toolName: tool.toolName,
        serverName: tool.serverName,
        description: tool.description,
        relevance: clamp(Number.isFinite(result.relevance) ? result.relevance : 0, 0, 1),
        tool,
      };
      if (tool.title !== undefined) hit.title = tool.title;
      if (result.explanation !== undefined) hit.explanation = result.explanation;
      hits.push(hit);
      if (hits.length >= maxResults) break;
    }
    return hits;
  }

  private toolsByKey(tools: readonly ToolInfo[]): Map<string, ToolInfo> {
    let byKey = this.byKey.get(tools);
    if (byKey === undefined) {
      byKey = new Map();
      // The first tool of a key wins, as in the catalog's own collection.
      for (const tool of tools) if (!byKey.has(tool.toolKey)) byKey.set(tool.toolKey, tool);
      this.byKey.set(tools, byKey);
    }
    return byKey;
  }
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, Number.isNaN(value) ? minimum : value));
}
