/**
 * Local tool search: BM25F over tool name, title, description, parameters and server text, with Japanese/Chinese
 * support and fusion of several queries (CONTRACT §7, seed 004).
 *
 * Pipeline of one search:
 * 1. The index for the tool set: built once, cached by array identity (WeakMap) and, for a new array with the
 *    same tools, by a hash of their searchable text (small LRU, see `tool-set-fingerprint.ts`). See
 *    `bm25f-index.ts` for why it is our own BM25F index and not lunr's Index.
 * 2. Each query becomes weighted terms: its own words (stemmed; CJK bigrams), English for its Japanese/Chinese
 *    words from the tool vocabulary, and tool-verb synonyms at a lower weight. Built programmatically: user text
 *    never goes through a query parser, so `: ^ ~ * + -` are just characters.
 * 3. Each query ranks the tools: BM25F, times a coverage factor (share of the query's idf mass the tool matches)
 *    and a name factor (share of the tool name's words the query matches). A long query (a whole task) also
 *    ranks as each of its clauses.
 * 4. The rankings of several queries, clauses and the context (a weak extra query) are fused: the best
 *    normalized score a tool gets in any ranking, plus a little of the sum (see rank-fusion.ts).
 * 5. relevance = score / best score; explanation = the matched words and the fields they matched in.
 */
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import { Bm25fIndexBuilder, type Bm25fIndex, type QueryTerm } from './bm25f-index.js';
import { synonymsOf } from './english-tool-synonyms.js';
import { findVocabularyMatches } from './japanese-query-expansion.js';
import { splitQueryArguments, type QueryArgumentKind } from './query-arguments.js';
import { fuseRankings, type FusionMethod, type RankedList } from './rank-fusion.js';
import type { SearchProvider, SearchProviderRequest } from './search-provider.js';
import { analyzeText, type AnalyzedToken } from './text-tokenizer.js';
import { SEARCH_FIELDS, toolFieldTerms, type SearchField } from './tool-search-fields.js';
import { topK, topKByScore } from './top-k.js';
import { toolSetFingerprint } from './tool-set-fingerprint.js';

/** Weight (or length normalization) per searchable field. */
export type Bm25FieldWeights = Record<SearchField, number>;

export interface Bm25IndexStats {
  tools: number;
  terms: number;
  postings: number;
  durationMs: number;
}

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

/** Terms a URL, path or file name in a query stands for, and their weight. */
const ARGUMENT_INTENT_TERMS: Record<QueryArgumentKind, AnalyzedToken[]> = {
  url: analyzeText('url'),
  path: analyzeText('path'),
  file: analyzeText('file path'),
};
const ARGUMENT_INTENT_WEIGHT = 0.5;

/**
 * Defaults were chosen on all benchmark sets together (LiveMCPBench, ToolLens, Seal-Tools, real servers EN/JA):
 * each value is on a plateau where ±50 % moves no set by more than noise (bench `--ablation`).
 */

/** Queries longer than this are cut (a 10 kB query works, a 10 MB one is not worth scoring in full). */
const MAX_QUERY_LENGTH = 16_384;
const MAX_QUERIES = 32;
/** Clauses ranked per long query, and rankings per request (queries + clauses + context). */
const MAX_CLAUSES = 8;
/** Terms kept of one query (the highest weight × idf); tasks have 10–40, a pasted document thousands. */
const MAX_QUERY_TERMS = 96;
const MAX_RANKINGS = 40;
/** How deep each query's ranking goes into the fusion. */
const FUSION_DEPTH = 100;

interface ResolvedOptions {
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
  cacheSize: number;
}

interface IndexEntry {
  index: Bm25fIndex;
  toolCount: number;
  /** Per-search scratch: final score per document. */
  finalScores: Float64Array;
  /** Server number of each document (for the server-mention factor). */
  serverOfDocument: Int32Array;
  /** Index term → the servers whose id contains it (distinctive id words only). */
  serversByTerm: Map<number, number[]>;
}

/** A query term with what the explanation shows for it. */
interface WeightedTerm extends QueryTerm {
  label: string;
}

interface PreparedQuery {
  terms: WeightedTerm[];
  /** Words written with a capital letter in the query (lower-cased): likely names ("Notion", "GitHub"). */
  capitalized: ReadonlySet<string>;
  /** Σ coverageWeight · idf: the coverage denominator. */
  coverageTotal: number;
}

function finiteOr(value: unknown, fallback: number, min = 0, max = Number.POSITIVE_INFINITY): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function resolveOptions(options: Bm25SearchProviderOptions): ResolvedOptions {
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
    cacheSize: Math.floor(finiteOr(options.cacheSize, 4, 0, 1000)),
  };
}

/** A word of a server id that names a server, not a kind of thing: shared by at most this many servers. */
const MAX_SERVERS_PER_NAME_WORD = 3;

/** Which server each document belongs to, and which index terms name a server (from the server ids). */
function indexServerNames(
  tools: readonly ToolInfo[],
  index: Bm25fIndex,
): Pick<IndexEntry, 'serverOfDocument' | 'serversByTerm'> {
  const serverNumbers = new Map<string, number>();
  const serverOfDocument = new Int32Array(tools.length).fill(-1);
  tools.forEach((tool, doc) => {
    const name = typeof tool?.serverName === 'string' ? tool.serverName : '';
    let number = serverNumbers.get(name);
    if (number === undefined) {
      number = serverNumbers.size;
      serverNumbers.set(name, number);
    }
    serverOfDocument[doc] = number;
  });
  const serversByTerm = new Map<number, number[]>();
  for (const [name, number] of serverNumbers) {
    for (const { term } of analyzeText(name.replace(/[-_.]+/g, ' '))) {
      const termId = index.termId(term);
      if (termId === undefined) continue;
      const servers = serversByTerm.get(termId) ?? [];
      if (!servers.includes(number)) servers.push(number);
      serversByTerm.set(termId, servers);
    }
  }
  for (const [termId, servers] of serversByTerm)
    if (servers.length > MAX_SERVERS_PER_NAME_WORD) serversByTerm.delete(termId);
  return { serverOfDocument, serversByTerm };
}

/** Splits a long task description into its clauses (sentences, "…, then …", "… and then …"). */
export function splitClauses(query: string): string[] {
  return query
    .split(/[.;!?。！？\n]+(?:\s+|$)|,\s*(?:and\s+)?then\s+|\s+and\s+then\s+|\s+then\s+/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

export class Bm25SearchProvider implements SearchProvider {
  readonly id = 'bm25';
  private readonly options: ResolvedOptions;
  private readonly onIndexBuilt: ((stats: Bm25IndexStats) => void) | undefined;
  private readonly byArray = new WeakMap<readonly ToolInfo[], IndexEntry>();
  /** Least recently used first. */
  private readonly byFingerprint = new Map<string, IndexEntry>();
  private builds = 0;

  constructor(options: Bm25SearchProviderOptions = {}) {
    this.options = resolveOptions(options);
    this.onIndexBuilt = options.onIndexBuilt;
  }

  /** How many indexes this provider has built (a tool set is indexed once until it changes). */
  get indexBuilds(): number {
    return this.builds;
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    return this.searchSync(request);
  }

  /** The same as `search`, synchronously (benchmarks, callers without an event loop turn to spare). */
  searchSync(request: SearchProviderRequest): SearchResult[] {
    if (request === null || typeof request !== 'object' || request.signal?.aborted) return [];
    const tools: readonly ToolInfo[] = Array.isArray(request.tools) ? request.tools : [];
    const maxResults = Math.min(tools.length, Math.floor(finiteOr(request.maxResults, 10, 0)));
    const rawQueries: unknown = request.queries;
    const queryList: unknown[] = Array.isArray(rawQueries) ? rawQueries : [rawQueries];
    const queries = queryList
      .filter((query): query is string => typeof query === 'string' && query.trim().length > 0)
      .slice(0, MAX_QUERIES)
      .map((query) => query.slice(0, MAX_QUERY_LENGTH));
    if (queries.length === 0 || maxResults === 0) return [];

    const entry = this.indexFor(tools);
    const { index } = entry;
    const options = this.options;

    // What gets ranked: each query, the clauses of a long query, and the context (weakly).
    const distinct = [...new Set(queries)];
    const units: Array<{ text: string; weight: number; explains: boolean }> = distinct.map((text) => ({
      text,
      weight: 1,
      explains: true,
    }));
    if (options.clauseWeight > 0) {
      for (const query of distinct) {
        const clauses = splitClauses(query);
        if (clauses.length < 2) continue;
        for (const clause of clauses.slice(0, MAX_CLAUSES)) {
          units.push({ text: clause, weight: options.clauseWeight, explains: false });
        }
      }
    }
    // Bounded work for pathological requests (32 queries of 10 kB prose): whole queries first, then clauses.
    units.splice(MAX_RANKINGS);
    const context = typeof request.context === 'string' ? request.context.trim().slice(0, MAX_QUERY_LENGTH) : '';
    if (options.contextWeight > 0 && context.length > 0) {
      units.push({ text: context, weight: options.contextWeight, explains: false });
    }

    const depth = units.length === 1 ? maxResults : Math.max(maxResults, FUSION_DEPTH);
    const lists: Array<RankedList<number>> = [];
    const explained: PreparedQuery[] = [];
    let contextQuery: PreparedQuery | undefined;
    for (const unit of units) {
      const prepared = this.prepareQuery(unit.text, index);
      if (unit.explains) explained.push(prepared);
      else if (unit.text === context) contextQuery = prepared;
      // A one-word clause says less than the whole query it came from.
      if (!unit.explains && unit.text !== context && prepared.terms.length < 2) continue;
      lists.push({ items: this.rank(prepared, entry, depth), weight: unit.weight });
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

    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (const { key: doc, score } of ranked) {
      const tool: unknown = tools[doc];
      if (tool === null || typeof tool !== 'object' || !(score > 0)) continue;
      const { toolKey, toolName, serverName, description } = tool as ToolInfo;
      if (seen.has(toolKey)) continue;
      seen.add(toolKey);
      const result: SearchResult = {
        toolKey,
        toolName,
        serverName,
        relevance: Math.min(1, Math.max(0, score / best)),
      };
      if (typeof description === 'string' && description.length > 0) result.description = description;
      const explanation =
        this.explain(doc, explained, index) ??
        (contextQuery === undefined ? undefined : this.explain(doc, [contextQuery], index, 'matched context'));
      if (explanation !== undefined) result.explanation = explanation;
      results.push(result);
    }
    return results;
  }

  /** The index of a tool set: cached by array identity, then by fingerprint; built when neither knows it. */
  private indexFor(tools: readonly ToolInfo[]): IndexEntry {
    const known = this.byArray.get(tools);
    if (known !== undefined && known.toolCount === tools.length) return known;

    const fingerprint = toolSetFingerprint(tools);
    const cached = this.byFingerprint.get(fingerprint);
    if (cached !== undefined) {
      this.byFingerprint.delete(fingerprint);
      this.byFingerprint.set(fingerprint, cached);
      this.byArray.set(tools, cached);
      return cached;
    }

    const entry = this.buildIndex(tools);
    this.byArray.set(tools, entry);
    if (this.options.cacheSize > 0) {
      this.byFingerprint.set(fingerprint, entry);
      while (this.byFingerprint.size > this.options.cacheSize) {
        const oldest = this.byFingerprint.keys().next().value;
        if (oldest === undefined) break;
        this.byFingerprint.delete(oldest);
      }
    }
    return entry;
  }

  private buildIndex(tools: readonly ToolInfo[]): IndexEntry {
    const started = performance.now();
    const builder = new Bm25fIndexBuilder(SEARCH_FIELDS.length);
    const fieldOptions = { translate: this.options.documentTranslation };
    for (const tool of tools) {
      // A malformed entry still takes its slot, so document ids stay equal to array positions.
      builder.addDocument(tool !== null && typeof tool === 'object' ? toolFieldTerms(tool, fieldOptions) : []);
    }
    const index = builder.build({ k1: this.options.k1, weights: this.options.weights, b: this.options.b });
    const { serverOfDocument, serversByTerm } = indexServerNames(tools, index);
    this.builds++;
    const stats: Bm25IndexStats = {
      tools: tools.length,
      terms: index.termCount,
      postings: index.postingCount,
      durationMs: performance.now() - started,
    };
    this.onIndexBuilt?.(stats);
    return {
      index,
      toolCount: tools.length,
      finalScores: new Float64Array(tools.length),
      serverOfDocument,
      serversByTerm,
    };
  }

  /** Query text → weighted index terms (own words, vocabulary translations, synonyms). */
  private prepareQuery(query: string, index: Bm25fIndex): PreparedQuery {
    const options = this.options;
    // term → weight, coverage weight, label. Own words add up (1 + ln tf); expansions take the max.
    const weights = new Map<string, { weight: number; coverage: number; label: string }>();
    const counts = new Map<string, { count: number; label: string }>();
    const split = options.argumentWeight < 1 ? splitQueryArguments(query) : { rest: query, arguments: [] };
    for (const { term, surface } of analyzeText(split.rest)) {
      const known = counts.get(term);
      if (known === undefined) counts.set(term, { count: 1, label: surface });
      else known.count++;
    }
    for (const [term, { count, label }] of counts) {
      const weight = 1 + Math.log(count);
      weights.set(term, { weight, coverage: weight, label });
    }

    const expand = (term: string, weight: number, coverage: number, label: string): void => {
      const existing = weights.get(term);
      if (existing === undefined) weights.set(term, { weight, coverage, label });
      else if (existing.weight < weight) {
        existing.weight = weight;
        existing.coverage = Math.max(existing.coverage, coverage);
      }
    };
    for (const argument of split.arguments) {
      const tokens = analyzeText(argument.text);
      tokens.forEach(({ term, surface }, i) => {
        // The extension of a file name says what kind of file it is (md, xlsx, pdf): full weight.
        const weight = argument.kind === 'file' && i === tokens.length - 1 ? 1 : options.argumentWeight;
        expand(term, weight, weight, surface);
      });
      for (const intent of ARGUMENT_INTENT_TERMS[argument.kind]) {
        expand(intent.term, ARGUMENT_INTENT_WEIGHT, 0, `${intent.surface} (${argument.kind})`);
      }
    }
    if (options.queryExpansion) {
      for (const match of findVocabularyMatches(query)) {
        for (const { term, surface } of analyzeText(match.english)) expand(term, 1, 1, `${surface}←${match.form}`);
        if (options.alternativeWeight > 0) {
          for (const { term, surface } of analyzeText(match.alternatives)) {
            expand(term, options.alternativeWeight, options.alternativeWeight, `${surface}←${match.form}`);
          }
        }
      }
      if (options.synonymWeight > 0) {
        for (const [term, { weight, label }] of [...weights]) {
          for (const synonym of synonymsOf(term)) {
            const synonymWeight = weight * options.synonymWeight;
            expand(synonym.term, synonymWeight, synonymWeight, `${synonym.surface}~${label}`);
          }
        }
      }
    }
    let terms: WeightedTerm[] = [];
    for (const [term, { weight, coverage, label }] of weights) {
      const termId = index.termId(term);
      if (termId !== undefined) terms.push({ termId, weight, coverageWeight: coverage, label });
    }
    // A very long query (a pasted document) keeps only its most telling terms: scoring stays fast.
    if (terms.length > MAX_QUERY_TERMS) {
      terms = topK(terms, MAX_QUERY_TERMS, (term) => term.weight * index.idf(term.termId));
    }
    let coverageTotal = 0;
    for (const term of terms) coverageTotal += term.coverageWeight * index.idf(term.termId);
    const capitalized = new Set<string>();
    for (const word of query.match(/\p{L}*\p{Lu}[\p{L}\p{N}]*/gu) ?? []) capitalized.add(word.toLowerCase());
    return { terms, coverageTotal, capitalized };
  }

  /** One query's ranking: BM25F × coverage factor × name factor, best `depth` first. */
  private rank(query: PreparedQuery, entry: IndexEntry, depth: number): Array<{ key: number; score: number }> {
    if (query.terms.length === 0) return [];
    const { index, finalScores, serverOfDocument, serversByTerm } = entry;
    const { coverageExponent, nameMatchBoost, serverMentionBoost } = this.options;
    // Servers the query names ("…to a Notion page", "in k8s"): among tools that match the rest of the query, theirs
    // win. A capitalized word ("Notion", "GitHub") is surely a name; a lower-case one ("everything", "memory") may be
    // an ordinary word, so it counts half. A tool matched only by the server's name gets nothing.
    const mentioned = new Map<number, number>();
    let refined: Set<number> | undefined;
    if (serverMentionBoost > 0) {
      const mentionTerms = new Set<number>();
      for (const term of query.terms) {
        const servers = serversByTerm.get(term.termId);
        if (servers === undefined) continue;
        mentionTerms.add(term.termId);
        const strength = Math.min(1, term.weight) * (query.capitalized.has(term.label) ? 1 : 0.5);
        for (const server of servers) mentioned.set(server, Math.max(mentioned.get(server) ?? 0, strength));
      }
      if (mentioned.size > 0) {
        // Accumulate into the shared scratch first; the full query below overwrites it.
        refined = new Set(index.accumulate(query.terms.filter((term) => !mentionTerms.has(term.termId))));
      }
    }
    const matched = index.accumulate(query.terms);
    const { scores, coverages, nameHits, nameTermCounts } = index;
    const coverageTotal = query.coverageTotal;
    for (let i = 0; i < matched.length; i++) {
      const doc = matched[i] as number;
      let score = scores[doc] as number;
      if (coverageExponent > 0 && coverageTotal > 0) {
        const coverage = Math.min(1, (coverages[doc] as number) / coverageTotal);
        score *= coverageExponent === 0.5 ? Math.sqrt(coverage) : coverage ** coverageExponent;
      }
      const nameTerms = nameTermCounts[doc] as number;
      if (nameMatchBoost > 0 && nameTerms > 0) {
        score *= 1 + nameMatchBoost * Math.min(1, (nameHits[doc] as number) / nameTerms);
      }
      if (refined?.has(doc)) {
        const strength = mentioned.get(serverOfDocument[doc] as number);
        if (strength !== undefined) score *= 1 + serverMentionBoost * strength;
      }
      finalScores[doc] = score;
    }
    const best = topKByScore(matched, finalScores, depth);
    return Array.from(best, (doc) => ({ key: doc, score: finalScores[doc] as number }));
  }

  /** `matched: read, file (name, description)`: the query words the tool matched, strongest first. */
  private explain(
    doc: number,
    queries: readonly PreparedQuery[],
    index: Bm25fIndex,
    prefix = 'matched',
  ): string | undefined {
    const labels = new Map<string, number>();
    let fields = 0;
    for (const query of queries) {
      for (const term of query.terms) {
        const mask = index.fieldMask(term.termId, doc);
        if (mask === 0) continue;
        fields |= mask;
        const strength = term.weight * index.idf(term.termId);
        labels.set(term.label, Math.max(labels.get(term.label) ?? 0, strength));
      }
    }
    if (labels.size === 0) return undefined;
    const words = [...labels]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([label]) => label);
    const fieldNames = SEARCH_FIELDS.filter((_, f) => (fields & (1 << f)) !== 0);
    return `${prefix}: ${words.join(', ')} (${fieldNames.join(', ')})`;
  }
}
