/**
 * Local tool search: our own BM25F index (with lunr's English stemmer) over tool name, title, description,
 * parameters and server text, with Japanese/Chinese support and fusion of several queries (packages/catalog/README.md,
 * "Search providers").
 *
 * Pipeline of one search (each step is a module under `../search/`):
 * 1. The index for the tool set (`bm25/tool-index.ts`): built once, cached by array identity, then for a new array
 *    by the identity of its tool objects, then by their searchable text (`bm25/tool-index-cache.ts`); a
 *    changed set re-tokenizes only the tool objects it has not seen (`bm25/tool-documents.ts`). See
 *    `bm25/bm25f-index.ts` for why it is our own BM25F index and not lunr's Index.
 * 2. What gets ranked (`text/query-units.ts`): each query, the clauses of a long query (a whole task), and the
 *    context as a weak extra query.
 * 3. Each becomes weighted terms (`text/query-terms.ts`): its own words (stemmed; CJK bigrams), English for its
 *    Japanese/Chinese words from the tool vocabulary, tool-verb synonyms at a lower weight; then the index's
 *    terms among them (`bm25/prepared-query.ts`).
 * 4. Each ranks the tools (`bm25/query-scoring.ts`): BM25F × coverage factor × name factor × server mention;
 *    deprecated tools (`bm25/deprecated-tools.ts`) × 0.5 and below their replacement.
 * 5. The rankings are fused (`rank/rank-fusion.ts`): the best normalized score a tool gets in any ranking, plus a
 *    little of the sum.
 * 6. relevance = score / best score × min(1, match quality / goodMatch) (`rank/relevance-scaling.ts`), where the
 *    match quality (`bm25/match-quality.ts`) says how well the best hits cover the request, so the best hit is at 1
 *    only for a good match; explanation = the matched words and the fields they matched in
 *    (`bm25/match-explanation.ts`).
 */
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import { explainMatch } from '../search/bm25/match-explanation.js';
import { matchCoverage } from '../search/bm25/match-quality.js';
import { prepareQuery, type PreparedQuery } from '../search/bm25/prepared-query.js';
import { rankQuery } from '../search/bm25/query-scoring.js';
import { buildToolIndex, type Bm25IndexStats, type ToolIndex } from '../search/bm25/tool-index.js';
import { ToolDocuments } from '../search/bm25/tool-documents.js';
import { ToolIndexCache } from '../search/bm25/tool-index-cache.js';
import { fuseRankings, type RankedList } from '../search/rank/rank-fusion.js';
import { matchScale, scaledRelevance } from '../search/rank/relevance-scaling.js';
import { topK } from '../search/rank/top-k.js';
import { queryTerms } from '../search/text/query-terms.js';
import { rankingUnits, usableContext, usableQueries } from '../search/text/query-units.js';
import type { SearchProvider, SearchProviderRequest } from '../search-provider.js';
import {
  finiteOr,
  resolveBm25Options,
  type Bm25SearchProviderOptions,
  type ResolvedBm25Options,
} from './bm25-search-options.js';

/** How deep each query's ranking goes into the fusion. */
const FUSION_DEPTH = 100;
/** Hits whose match quality is judged: the best of them sets the scale of every relevance. */
const JUDGED_HITS = 3;

export class Bm25SearchProvider implements SearchProvider {
  readonly id = 'bm25';
  private readonly options: ResolvedBm25Options;
  private readonly onIndexBuilt: ((stats: Bm25IndexStats) => void) | undefined;
  private readonly indexes: ToolIndexCache<ToolIndex>;
  /** The BM25F saturation of one occurrence in a tool name: what a full match of a query word is measured against. */
  private readonly nameSaturation: number;

  constructor(options: Bm25SearchProviderOptions = {}) {
    this.options = resolveBm25Options(options);
    this.onIndexBuilt = options.onIndexBuilt;
    const nameWeight = this.options.weights[0] ?? 1;
    this.nameSaturation = nameWeight / (this.options.k1 + nameWeight);
    const documents = new ToolDocuments({ translate: this.options.documentTranslation });
    this.indexes = new ToolIndexCache(this.options.cacheSize, (tools) => {
      const { toolIndex, stats } = buildToolIndex(tools, this.options, documents);
      this.onIndexBuilt?.(stats);
      return toolIndex;
    });
  }

  /** How many indexes this provider has built (a tool set is indexed once until it changes). */
  get indexBuilds(): number {
    return this.indexes.buildCount;
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    return this.searchSync(request);
  }

  /** The same as `search`, synchronously (benchmarks, callers without an event loop turn to spare). */
  searchSync(request: SearchProviderRequest): SearchResult[] {
    if (request === null || typeof request !== 'object' || request.signal?.aborted) return [];
    const tools: readonly ToolInfo[] = Array.isArray(request.tools) ? request.tools : [];
    const maxResults = Math.min(tools.length, Math.floor(finiteOr(request.maxResults, 10, 0)));
    const queries = usableQueries(request.queries);
    if (queries.length === 0 || maxResults === 0) return [];

    const toolIndex = this.indexes.get(tools);
    const { index } = toolIndex;
    const options = this.options;
    const context = usableContext(request.context);
    const units = rankingUnits(queries, context, options);

    const depth = units.length === 1 ? maxResults : Math.max(maxResults, FUSION_DEPTH);
    const lists: Array<RankedList<number>> = [];
    const explained: PreparedQuery[] = [];
    /** The queries and clauses a hit's match quality is judged against (not the context: background only). */
    const judged: PreparedQuery[] = [];
    let contextQuery: PreparedQuery | undefined;
    for (const unit of units) {
      const prepared = prepareQuery(queryTerms(unit.text, options), index);
      const isContext = unit.kind !== 'query' && unit.text === context;
      if (unit.kind === 'query') explained.push(prepared);
      else if (isContext) contextQuery = prepared;
      // A one-word clause says less than the whole query it came from.
      if (unit.kind !== 'query' && !isContext && prepared.terms.length < 2) continue;
      if (!isContext) judged.push(prepared);
      lists.push({ items: rankQuery(prepared, toolIndex, depth, options), weight: unit.weight });
    }

    let ranked: ReadonlyArray<{ key: number; score: number }>;
    if (lists.length === 1) {
      ranked = (lists[0] as RankedList<number>).items.slice(0, maxResults);
    } else {
      const fused = fuseRankings(lists, options.fusion, options.rrfK);
      ranked = topK(
        Array.from(fused, ([key, score]) => ({ key, score })),
        maxResults,
        (item) => item.score,
      );
    }
    const best = ranked[0]?.score ?? 0;
    if (!(best > 0)) return [];
    const scale = matchScale(this.matchQuality(ranked, judged, toolIndex), options.goodMatch);

    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (const { key: doc, score } of ranked) {
      const tool: unknown = tools[doc];
      if (tool === null || typeof tool !== 'object' || !(score > 0)) continue;
      const { toolKey, toolName, serverName, description } = tool as ToolInfo;
      if (seen.has(toolKey)) continue;
      seen.add(toolKey);
      const result: SearchResult = { toolKey, toolName, serverName, relevance: scaledRelevance(score, best, scale) };
      if (typeof description === 'string' && description.length > 0) result.description = description;
      const explanation =
        explainMatch(doc, explained, index) ??
        (contextQuery === undefined ? undefined : explainMatch(doc, [contextQuery], index, 'matched context'));
      if (explanation !== undefined) result.explanation = explanation;
      results.push(result);
    }
    return results;
  }

  /** The best match quality among the first hits: how well the answer covers the request, 0..1. */
  private matchQuality(
    ranked: ReadonlyArray<{ key: number }>,
    judged: readonly PreparedQuery[],
    toolIndex: ToolIndex,
  ): number {
    const { goodMatch } = this.options;
    if (!(goodMatch > 0)) return 1;
    let quality = 0;
    for (const { key: doc } of ranked.slice(0, JUDGED_HITS)) {
      for (const query of judged) {
        quality = Math.max(quality, matchCoverage(doc, query.informative, toolIndex.index, this.nameSaturation));
        // Good enough is good enough: relevance is capped at 1 from here on.
        if (quality >= goodMatch) return quality;
      }
    }
    return quality;
  }
}
