/**
 * Hybrid tool search: our BM25 blended with MiniLM sentence embeddings, offline (packages/embeddings/README.md, issue 13).
 *
 * One search:
 * 1. The vectors of the tool set: looked up by array identity, then by fingerprint (same tools, new array). When
 *    there are none yet, a background build starts (disk cache first, then the model) and BM25 answers the request
 *    exactly as the `bm25` strategy would (packages/embeddings/README.md, "Behaviour": hybrid falls back to BM25
 *    while its vectors are built, and on any failure).
 * 2. Units: each distinct query, and the context as weaker evidence. Each unit gets its own BM25 search and, when
 *    the model can read it, its cosine with every tool (best over the unit's texts: the whole query, in English,
 *    and the clauses of a long one; see query-embedding-texts.ts).
 * 3. Per unit, BM25 and cosine are blended; the units are fused; see ranking/hybrid-blend.ts.
 * 4. relevance = score / best score × match quality, so the best hit is below 1 when neither BM25 nor the
 *    cosine finds a tool that covers the request well.
 */
import { Bm25SearchProvider, type SearchProvider, type SearchProviderRequest } from '@search-mcp/catalog';
import {
  errorMessage,
  isRecord,
  type Logger,
  SearchProviderError,
  type SearchResult,
  silentLogger,
  type ToolInfo,
} from '@search-mcp/shared';
import { createMiniLmEmbedder } from './model/minilm-embedder.js';
import { QueryVectorCache } from './model/query-vector-cache.js';
import type { TextEmbedder } from './model/text-embedder.js';
import { blendRanking, type HybridBlendOptions, type UnitEvidence } from './ranking/hybrid-blend.js';
import { requestUnits } from './ranking/request-units.js';
import { type QueryTranslator, vocabularyTranslator } from './text/english-gloss.js';
import { defaultCacheDirectory } from './vectors/default-cache-directory.js';
import type { HybridVectorBuildStats } from './vectors/tool-vector-builder.js';
import { ToolVectorStore } from './vectors/tool-vector-store.js';
import { cosinesWith, type ToolVectors } from './vectors/tool-vectors.js';
import { VectorCache, type VectorCacheStats } from './vectors/vector-cache.js';

export interface HybridSearchProviderOptions {
  /**
   * Where tool vectors are kept between runs. Default `$XDG_CACHE_HOME/search-mcp/embeddings`, else
   * `~/.cache/search-mcp/embeddings`. `false` keeps them in memory only.
   */
  cacheDirectory?: string | false;
  /** Weight of BM25 in the blend, 0..1 (1 = BM25 alone, 0 = embeddings alone). Default 0.6. */
  bm25Weight?: number;
  /** The lexical ranker. Default a new `Bm25SearchProvider`; pass the catalog's to share one index. */
  bm25?: SearchProvider;
  /** The sentence-embedding model. Default all-MiniLM-L6-v2 from npm (`createMiniLmEmbedder()`). */
  embedder?: TextEmbedder;
  /**
   * Japanese/Chinese → English before embedding. Default: the catalog's ja→en tool vocabulary when
   * `@search-mcp/catalog` exports it; else (or with `false`) such queries are ranked by BM25 alone.
   */
  translate?: QueryTranslator | false;
  /** Weight of `context` next to a query, 0..1. Default 0.3. */
  contextWeight?: number;
  /** How many of the most similar tools join BM25's candidates, per query. Default 50. */
  semanticDepth?: number;
  /** Query vectors kept in memory (least recently used go first). Default 512. */
  queryCacheSize?: number;
  /** Tool sets whose vectors are kept in memory. Default 4. */
  toolSetCacheSize?: number;
  /** Start building vectors on the first search of a tool set. Default true; false: only `ready` builds. */
  buildOnSearch?: boolean;
  logger?: Logger;
  /** Called after each vector build (metrics, tests). */
  onVectorsBuilt?: (stats: HybridVectorBuildStats) => void;
}

/** For `doctor`: is the model loaded, what is in memory and on disk. */
export interface HybridSearchStatus {
  /** The model and its settings, e.g. `minilm-l6-v2-128`. */
  model: string;
  modelLoaded: boolean;
  /** `building` while a tool set is embedded (BM25 answers meanwhile), `failed` after the last build failed. */
  state: 'idle' | 'building' | 'ready' | 'failed';
  /** Texts embedded so far / to embed, while building. */
  progress?: { done: number; total: number };
  /** Tool sets with vectors in memory, and their vectors. */
  toolSets: number;
  vectorsInMemory: number;
  lastBuild?: HybridVectorBuildStats;
  lastError?: string;
  /** The disk cache of this model, or null when disabled. */
  cache: VectorCacheStats | null;
}

const DEFAULTS = { bm25Weight: 0.6, contextWeight: 0.3, semanticDepth: 50, queryCacheSize: 512, toolSetCacheSize: 4 };
/**
 * Cosine floor/ceiling of the match quality. Calibrated on catalogs with and without the right tool (real-server,
 * LiveMCPBench, ToolLens queries; see README, "How it ranks"): a ceiling of 0.7 separated them best, as well as
 * BM25's own signal, and still calls a clear paraphrase a good match.
 */
const COSINE_FLOOR = 0.2;
const COSINE_CEILING = 0.7;
/** Depth of each unit's BM25 search. */
const LEXICAL_DEPTH = 100;
const MAX_QUERIES = 32;
const MAX_QUERY_LENGTH = 16_384;
/** Texts embedded per request (queries, then clauses, then context): bounds the cost of hostile requests. */
const MAX_EMBEDDED_TEXTS = 12;
const MAX_CLAUSES = 8;
const SUM_WEIGHT = 0.1;

function finiteOr(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

export class HybridSearchProvider implements SearchProvider {
  readonly id = 'hybrid';
  private readonly bm25: SearchProvider;
  private readonly embedder: TextEmbedder;
  private readonly cache: VectorCache | undefined;
  private readonly translate: QueryTranslator | undefined;
  private readonly blend: HybridBlendOptions;
  private readonly contextWeight: number;
  private readonly buildOnSearch: boolean;
  private readonly logger: Logger;
  private readonly queryVectors: QueryVectorCache;
  private readonly store: ToolVectorStore;

  constructor(options: HybridSearchProviderOptions = {}) {
    this.bm25 = options.bm25 ?? new Bm25SearchProvider();
    this.embedder = options.embedder ?? createMiniLmEmbedder();
    const directory = options.cacheDirectory === undefined ? defaultCacheDirectory() : options.cacheDirectory;
    this.cache =
      typeof directory === 'string' && directory.length > 0
        ? new VectorCache({ directory, namespace: this.embedder.id, dimensions: this.embedder.dimensions })
        : undefined;
    this.translate = options.translate === false ? undefined : (options.translate ?? vocabularyTranslator);
    this.blend = {
      bm25Weight: finiteOr(options.bm25Weight, DEFAULTS.bm25Weight, 0, 1),
      semanticDepth: Math.floor(finiteOr(options.semanticDepth, DEFAULTS.semanticDepth, 0, 1000)),
      sumWeight: SUM_WEIGHT,
      cosineFloor: COSINE_FLOOR,
      cosineCeiling: COSINE_CEILING,
    };
    this.contextWeight = finiteOr(options.contextWeight, DEFAULTS.contextWeight, 0, 1);
    const queryCacheSize = Math.floor(finiteOr(options.queryCacheSize, DEFAULTS.queryCacheSize, 0, 100_000));
    this.queryVectors = new QueryVectorCache(this.embedder, queryCacheSize);
    this.buildOnSearch = options.buildOnSearch ?? true;
    this.logger = options.logger ?? silentLogger;
    this.store = new ToolVectorStore({
      embedder: this.embedder,
      cache: this.cache,
      translate: this.translate,
      capacity: Math.floor(finiteOr(options.toolSetCacheSize, DEFAULTS.toolSetCacheSize, 1, 1000)),
      logger: this.logger,
      // Load the model for queries as part of the build, not on the first hybrid search.
      afterBuild: () => this.queryVectors.vectorsFor(['find a tool']),
      ...(options.onVectorsBuilt ? { onBuilt: options.onVectorsBuilt } : {}),
    });
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    if (!isRecord(request) || request.signal?.aborted) return [];
    try {
      const tools: readonly ToolInfo[] = Array.isArray(request.tools) ? request.tools : [];
      const vectors = this.store.vectorsFor(tools);
      if (vectors === undefined) {
        if (this.buildOnSearch && tools.length > 0) this.store.build(tools, false).catch(() => undefined);
        return await this.lexicalOnly(request);
      }
      return await this.rank(request, tools, vectors);
    } catch (error) {
      if (request.signal?.aborted) return [];
      this.store.noteError(`search fell back to BM25: ${errorMessage(error)}`);
      this.logger.warn('hybrid search fell back to BM25', { reason: errorMessage(error) });
      return this.lexicalOnly(request);
    }
  }

  /**
   * Resolves once the vectors of `tools` are built (from the disk cache or the model) and the model is loaded for
   * queries; from then on `search` over these tools is hybrid. Rejects with a `SearchProviderError` when the
   * model cannot run (searches keep answering with BM25).
   */
  async ready(tools: readonly ToolInfo[]): Promise<void> {
    const list: readonly ToolInfo[] = Array.isArray(tools) ? tools : [];
    if (this.store.vectorsFor(list) !== undefined) return;
    try {
      await this.store.build(list, true);
    } catch (error) {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'provider',
        message: `hybrid search could not embed the tools: ${errorMessage(error)}`,
        cause: error,
      });
    }
  }

  async status(): Promise<HybridSearchStatus> {
    let cache: VectorCacheStats | null = null;
    if (this.cache !== undefined) {
      try {
        cache = await this.cache.stats();
      } catch {
        cache = { directory: this.cache.directory, files: 0, vectors: 0, bytes: 0 };
      }
    }
    const state = this.store.state();
    return {
      model: this.embedder.id,
      modelLoaded: this.embedder.loaded,
      state: state.building ? 'building' : state.failed ? 'failed' : state.toolSets > 0 ? 'ready' : 'idle',
      ...(state.progress ? { progress: state.progress } : {}),
      toolSets: state.toolSets,
      vectorsInMemory: state.vectors,
      ...(state.lastBuild ? { lastBuild: state.lastBuild } : {}),
      ...(state.lastError ? { lastError: state.lastError } : {}),
      cache,
    };
  }

  private lexicalOnly(request: SearchProviderRequest): Promise<SearchResult[]> {
    return this.bm25.search(request);
  }

  private async rank(
    request: SearchProviderRequest,
    tools: readonly ToolInfo[],
    vectors: ToolVectors,
  ): Promise<SearchResult[]> {
    const maxResults = Math.min(tools.length, Math.floor(finiteOr(request.maxResults, 10, 0, Number.MAX_SAFE_INTEGER)));
    const units = requestUnits(request.queries, request.context, {
      contextWeight: this.contextWeight,
      ...(this.translate ? { translate: this.translate } : {}),
      maxQueries: MAX_QUERIES,
      maxQueryLength: MAX_QUERY_LENGTH,
      maxEmbeddedTexts: MAX_EMBEDDED_TEXTS,
      maxClauses: MAX_CLAUSES,
    });
    if (units.length === 0 || maxResults === 0) return [];
    if (units.every((unit) => unit.embedTexts.length === 0)) return this.lexicalOnly(request);

    const signal = request.signal;
    const lexical = await Promise.all(
      units.map((unit) =>
        this.bm25.search({ queries: [unit.text], tools, maxResults: LEXICAL_DEPTH, ...(signal ? { signal } : {}) }),
      ),
    );
    const queryVectors = await this.queryVectors.vectorsFor(units.flatMap((unit) => unit.embedTexts));
    if (signal?.aborted) return [];

    const explanations = new Map<number, string>();
    const evidence: UnitEvidence[] = units.map((unit, i) => {
      const rows = new Map<number, number>();
      for (const result of lexical[i] ?? []) {
        const row = vectors.rowOfKey.get(result.toolKey);
        if (row === undefined || rows.has(row)) continue;
        rows.set(row, finiteOr(result.relevance, 0, 0, 1));
        if (unit.isQuery && result.explanation !== undefined && !explanations.has(row)) {
          explanations.set(row, result.explanation);
        }
      }
      let cosines: Float32Array | undefined;
      for (const text of unit.embedTexts) {
        const vector = queryVectors.get(text);
        if (vector === undefined || vector.length !== vectors.dimensions) continue;
        const own = cosinesWith(vectors, vector);
        if (cosines === undefined) cosines = own;
        else
          for (let row = 0; row < own.length; row++)
            cosines[row] = Math.max(cosines[row] as number, own[row] as number);
      }
      return {
        weight: unit.weight,
        isQuery: unit.isQuery,
        lexical: rows,
        semanticTrust: unit.semanticTrust,
        ...(cosines ? { cosines } : {}),
      };
    });

    const { tools: ranked, quality } = blendRanking(evidence, this.blend, maxResults);
    const best = ranked[0]?.score ?? 0;
    if (!(best > 0)) return [];
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (const { row, score, cosine } of ranked) {
      const tool: unknown = tools[row];
      if (!isRecord(tool)) continue;
      const { toolKey, toolName, serverName, description } = tool as unknown as ToolInfo;
      if (typeof toolKey !== 'string' || seen.has(toolKey)) continue;
      seen.add(toolKey);
      const result: SearchResult = {
        toolKey,
        toolName,
        serverName,
        relevance: finiteOr((score / best) * quality, 0, 0, 1),
      };
      if (typeof description === 'string' && description.length > 0) result.description = description;
      const parts = [explanations.get(row), cosine === undefined ? undefined : `meaning: cosine ${cosine.toFixed(2)}`];
      const explanation = parts.filter((part) => part !== undefined).join('; ');
      if (explanation.length > 0) result.explanation = explanation;
      results.push(result);
    }
    return results;
  }
}
