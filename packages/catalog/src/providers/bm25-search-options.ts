/**
 * The settings of `Bm25SearchProvider` and their defaults. Defaults were chosen on all benchmark sets together
 * (LiveMCPBench, ToolLens, Seal-Tools, real servers EN/JA): each value is on a plateau where ±50 % moves no set by
 * more than noise (bench `--ablation`).
 */
import type { Bm25IndexStats } from '../search/bm25/tool-index.js';
import { SEARCH_FIELDS, type SearchField } from '../search/bm25/tool-search-fields.js';
import type { FusionMethod } from '../search/rank/rank-fusion.js';

/** Weight (or length normalization) per searchable field. */
export type Bm25FieldWeights = Record<SearchField, number>;

export interface Bm25SearchProviderOptions {
  /** BM25F field weights. Defaults: name 3, title 2, description 1, parameters 0.5, server 1, translated 1. */
  fieldWeights?: Partial<Bm25FieldWeights>;
  /** Length normalization per field, 0..1. Defaults: 0.75 for prose fields, 0.3 for name/title/server. */
  fieldB?: Partial<Bm25FieldWeights>;
  /** BM25 term-frequency saturation. Default 1.2. */
  k1?: number;
  /**
   * Query expansion: English for Japanese/Chinese query words (tool vocabulary) and tool-verb synonyms.
   * Default true.
   */
  queryExpansion?: boolean;
  /** Weight of a synonym relative to the word it expands (0 turns synonyms off). Default 0.3. */
  synonymWeight?: number;
  /** Weight of the weaker senses of a vocabulary entry (the words after `;`). Default 0.5. */
  alternativeWeight?: number;
  /** Index English for CJK tool text (tools described in Chinese/Japanese). Default true. */
  documentTranslation?: boolean;
  /** Weight of `context` as an extra query in the fusion (0 ignores it). Default 0.3. */
  contextWeight?: number;
  /**
   * How the rankings of several queries (and clauses, and the context) are combined: `max` (best normalized score
   * in any ranking, + 0.1 × their sum), `rrf` (reciprocal rank fusion) or `score` (sum of normalized scores).
   * Default `max`: a tool that serves any one query should rank high (see rank-fusion.ts for the measurements).
   */
  fusion?: FusionMethod;
  /** The k of reciprocal rank fusion (`fusion: 'rrf'` only). Default 20. */
  rrfK?: number;
  /**
   * A query of several clauses (a whole task: "read X, then post Y. Finally …") also ranks as each clause, fused
   * with the whole query at this weight, so every step's tool can reach the top. 0 turns it off. Default 0.7.
   */
  clauseWeight?: number;
  /**
   * Weight of the words of URLs, paths and file names in a query (they are the tool's arguments, not its purpose);
   * the kind of argument (url, path, file) is added as a term instead. 1 turns this off. Default 0.3.
   */
  argumentWeight?: number;
  /** Exponent of the coverage factor (0 = off). Default 0.5. */
  coverageExponent?: number;
  /** Name bonus: score × (1 + boost × share of the tool name's words the query matched). Default 0.5. */
  nameMatchBoost?: number;
  /**
   * Extra weight for the tools of a server the query names ("add a comment to a Notion page"): score × (1 + boost)
   * for a word of the server id, less for a synonym of one. Default 0.5; 0 turns it off.
   */
  serverMentionBoost?: number;
  /**
   * Score factor of a tool whose description says it is deprecated ("DEPRECATED: use X instead"); such a tool also
   * always ranks below the replacement it names when both match. Default 0.5; 1 turns demotion off.
   */
  deprecatedFactor?: number;
  /**
   * How well the best hit must cover the request (the idf-weighted share of the query's words found in the tool,
   * synonyms counting in part; see `search/bm25/match-quality.ts`) for its relevance to be 1. Below it, every
   * relevance is scaled down by quality / goodMatch, so a weak best hit says so. 0 turns it off (best = 1 always);
   * 1 makes the best hit's relevance the quality itself. Default 0.6 (calibrated in bench/search-bench.ts).
   */
  goodMatch?: number;
  /** How many indexes (tool sets) to keep for new arrays with the same content. Default 4. */
  cacheSize?: number;
  /** Called after each index build (tests, metrics). */
  onIndexBuilt?: (stats: Bm25IndexStats) => void;
}

const DEFAULT_FIELD_WEIGHTS: Bm25FieldWeights = {
  name: 3,
  title: 2,
  description: 1,
  parameters: 0.5,
  server: 1,
  translated: 1,
};

const DEFAULT_FIELD_B: Bm25FieldWeights = {
  name: 0.3,
  title: 0.3,
  description: 0.75,
  parameters: 0.75,
  server: 0.3,
  translated: 0.75,
};

/** The default `goodMatch` (calibrated in bench/search-bench.ts). */
export const defaultGoodMatch = 0.6;

/** Every setting, checked and filled in (field weights as arrays in SEARCH_FIELDS order). */
export interface ResolvedBm25Options {
  weights: number[];
  b: number[];
  k1: number;
  queryExpansion: boolean;
  synonymWeight: number;
  alternativeWeight: number;
  documentTranslation: boolean;
  contextWeight: number;
  fusion: FusionMethod;
  rrfK: number;
  clauseWeight: number;
  argumentWeight: number;
  coverageExponent: number;
  nameMatchBoost: number;
  serverMentionBoost: number;
  deprecatedFactor: number;
  goodMatch: number;
  cacheSize: number;
}

/** A finite number clamped to [min, max], or the fallback for anything else (options come from JavaScript too). */
export function finiteOr(value: unknown, fallback: number, min = 0, max = Number.POSITIVE_INFINITY): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

export function resolveBm25Options(options: Bm25SearchProviderOptions): ResolvedBm25Options {
  const weights = { ...DEFAULT_FIELD_WEIGHTS, ...options.fieldWeights };
  const b = { ...DEFAULT_FIELD_B, ...options.fieldB };
  return {
    weights: SEARCH_FIELDS.map((field) => finiteOr(weights[field], DEFAULT_FIELD_WEIGHTS[field])),
    b: SEARCH_FIELDS.map((field) => finiteOr(b[field], DEFAULT_FIELD_B[field], 0, 1)),
    k1: finiteOr(options.k1, 1.2, 0.01),
    queryExpansion: options.queryExpansion ?? true,
    synonymWeight: finiteOr(options.synonymWeight, 0.3),
    alternativeWeight: finiteOr(options.alternativeWeight, 0.5),
    documentTranslation: options.documentTranslation ?? true,
    contextWeight: finiteOr(options.contextWeight, 0.3),
    fusion: options.fusion === 'score' || options.fusion === 'rrf' ? options.fusion : 'max',
    rrfK: finiteOr(options.rrfK, 20, 0),
    clauseWeight: finiteOr(options.clauseWeight, 0.7),
    argumentWeight: finiteOr(options.argumentWeight, 0.3, 0, 1),
    coverageExponent: finiteOr(options.coverageExponent, 0.5),
    nameMatchBoost: finiteOr(options.nameMatchBoost, 0.5),
    serverMentionBoost: finiteOr(options.serverMentionBoost, 0.5),
    deprecatedFactor: finiteOr(options.deprecatedFactor, 0.5, 0, 1),
    goodMatch: finiteOr(options.goodMatch, defaultGoodMatch, 0, 1),
    cacheSize: Math.floor(finiteOr(options.cacheSize, 4, 0, 1000)),
  };
}
