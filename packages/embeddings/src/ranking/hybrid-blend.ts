/**
 * The hybrid ranking rule, as pure functions over numbers (no model, no I/O), so each step is testable alone.
 *
 * A request has units: each query (weight 1) and the context (a weaker weight). For each unit:
 * 1. Lexical evidence: BM25's relevance of the unit's own BM25 search (0..1, best = 1).
 * 2. Semantic evidence: the cosine between the unit's text(s) and each tool, normalized against the catalog:
 *    (cos − mean cos) / (best cos − mean cos), clipped at 0. Anchoring at the mean (not the k-th best, not raw
 *    cosine) keeps "a bit above average" near 0 in a catalog of near-duplicates (Seal-Tools) while a clear
 *    paraphrase gets most of the credit.
 * 3. Score = w · lexical + (1 − w) · semantic over the union of BM25's top tools and the `semanticDepth` most
 *    similar tools (a tool no query word matches can still win: "drop a note in #deploys" → post message).
 *    w is `bm25Weight`, raised for a unit whose embedded text stands for it only in part (`semanticTrust` < 1: a
 *    Japanese gloss that lost the action): the cosine's share (1 − w) is scaled by the trust.
 * Units are fused like the BM25 provider fuses queries: each unit's scores over its best, times its weight; a tool
 * gets its best normalized score in any unit plus `sumWeight` × the sum (a tool serving several units edges ahead).
 *
 * Measured alternatives (bench/hybrid-search-bench.ts): a blend of raw scores (the 0.6/0.4 prototype), min-max
 * against the k-th best cosine, reciprocal rank fusion, and blending after fusing each side separately. Blending
 * per unit then fusing won on every multi-query set; the mean anchor held Seal-Tools level where the others lost.
 */
import { topKIndices } from '@search-mcp/catalog';

export interface UnitEvidence {
  /** 1 for a query, the context's weight for the context. */
  weight: number;
  /** Counts toward the match quality (a query does; the context, background only, does not). */
  isQuery: boolean;
  /** Tool row → BM25 relevance (0..1) in this unit's own BM25 search. */
  lexical: ReadonlyMap<number, number>;
  /** Per tool row, the cosine with the unit's text (its best over its texts); absent when it was not embedded. */
  cosines?: Float32Array;
  /**
   * How far the embedded text stands for the unit, 0..1; default 1. The cosine's share of the blend is scaled by it:
   * a Japanese request whose gloss lost the action (`featureブランチを切って` → `feature branch`) lets BM25 lead.
   */
  semanticTrust?: number;
}

export interface HybridBlendOptions {
  /** w: weight of BM25 in each unit's score, 0..1. */
  bm25Weight: number;
  /** How many of the most similar tools join BM25's candidates. */
  semanticDepth: number;
  /** Weight of the sum of a tool's unit scores in the fusion. */
  sumWeight: number;
  /** A best cosine at or below this says nothing in the catalog means what was asked. */
  cosineFloor: number;
  /** A best cosine at or above this is a sure paraphrase. */
  cosineCeiling: number;
}

export interface BlendedTool {
  row: number;
  /** Fused score (not normalized). */
  score: number;
  /** Index of the unit in which the tool scored best (for the explanation). */
  unit: number;
  /** The tool's cosine in that unit, when it was embedded. */
  cosine?: number;
}

export interface BlendedRanking {
  tools: BlendedTool[];
  /**
   * How well the catalog covers the request, 0..1, comparable across requests: the larger of BM25's own absolute
   * signal (its best relevance) and the best cosine mapped from floor..ceiling to 0..1.
   */
  quality: number;
}

interface UnitScores {
  scores: Map<number, number>;
  best: number;
  weight: number;
  cosines?: Float32Array;
}

/** One unit's scores: BM25 alone when it has no cosines, else the blend over the union of candidates. */
export function blendUnit(unit: UnitEvidence, options: HybridBlendOptions): Map<number, number> {
  const { cosines } = unit;
  if (cosines === undefined || cosines.length === 0) return new Map(unit.lexical);
  let sum = 0;
  let best = Number.NEGATIVE_INFINITY;
  for (let row = 0; row < cosines.length; row++) {
    const cosine = cosines[row] as number;
    sum += cosine;
    if (cosine > best) best = cosine;
  }
  const mean = sum / cosines.length;
  const spread = best - mean;
  const w = 1 - (1 - options.bm25Weight) * clamp01(unit.semanticTrust ?? 1);
  const scores = new Map<number, number>();
  const add = (row: number): void => {
    if (scores.has(row)) return;
    const semantic = spread > 1e-9 ? Math.max(0, ((cosines[row] as number) - mean) / spread) : 0;
    const score = w * (unit.lexical.get(row) ?? 0) + (1 - w) * semantic;
    if (score > 0) scores.set(row, score);
  };
  for (const row of unit.lexical.keys()) if (row >= 0 && row < cosines.length) add(row);
  for (const row of topKIndices(cosines, options.semanticDepth)) add(row);
  return scores;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The match quality of a request (see `BlendedRanking.quality`). */
export function matchQuality(units: readonly UnitEvidence[], options: HybridBlendOptions): number {
  let lexical = 0;
  let semantic = 0;
  let embedded = false;
  for (const unit of units) {
    if (!unit.isQuery) continue;
    for (const relevance of unit.lexical.values()) lexical = Math.max(lexical, clamp01(relevance));
    if (unit.cosines === undefined || unit.cosines.length === 0) continue;
    embedded = true;
    let best = Number.NEGATIVE_INFINITY;
    for (const cosine of unit.cosines) if (cosine > best) best = cosine;
    const span = options.cosineCeiling - options.cosineFloor;
    semantic = Math.max(semantic, clamp01(span > 0 ? (best - options.cosineFloor) / span : best));
  }
  // Either signal vouching is enough: every word matched, or a clear paraphrase no word of which matched.
  return embedded ? Math.max(lexical, semantic) : lexical;
}

/** Ranks tools for the request's units: per-unit blend, then max + sum fusion. Best first, at most `limit`. */
export function blendRanking(
  units: readonly UnitEvidence[],
  options: HybridBlendOptions,
  limit: number,
): BlendedRanking {
  const scored: UnitScores[] = units.map((unit) => {
    const scores = blendUnit(unit, options);
    let best = 0;
    for (const score of scores.values()) if (score > best) best = score;
    return { scores, best, weight: unit.weight, ...(unit.cosines ? { cosines: unit.cosines } : {}) };
  });
  const fused = new Map<number, { score: number; unit: number; top: number }>();
  const single = scored.length === 1;
  scored.forEach(({ scores, best, weight }, unitIndex) => {
    if (!(best > 0)) return;
    for (const [row, score] of scores) {
      // One unit: its own scores. Several: each over its best, so a unit with weak matches does not dominate.
      const normalized = single ? score : (score / best) * weight;
      const entry = fused.get(row);
      if (entry === undefined) fused.set(row, { score: normalized, unit: unitIndex, top: normalized });
      else {
        entry.score += normalized;
        if (normalized > entry.top) {
          entry.top = normalized;
          entry.unit = unitIndex;
        }
      }
    }
  });
  const ranked: BlendedTool[] = [];
  for (const [row, { score, unit, top }] of fused) {
    // score holds the sum: best + sumWeight × sum (one unit: just its score).
    const value = single ? top : top + options.sumWeight * score;
    const cosine = scored[unit]?.cosines?.[row];
    ranked.push({ row, score: value, unit, ...(cosine === undefined ? {} : { cosine }) });
  }
  ranked.sort((a, b) => b.score - a.score || a.row - b.row);
  return { tools: ranked.slice(0, Math.max(0, limit)), quality: matchQuality(units, options) };
}
