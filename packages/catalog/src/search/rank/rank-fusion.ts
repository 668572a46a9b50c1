/**
 * Fusing several rankings of the same items into one (the `queries` of a search are several phrasings or sub-steps
 * of one task, and a tool that serves any of them should rank high).
 *
 * - Max fusion (the default of the BM25 provider): fused(d) = max_lists w · score(d) / max score of the list, plus
 *   0.1 × the sum of those. "Serves any of the queries" is a max: the best tool of every sub-step reaches the top,
 *   and a tool that is mediocre for every step does not outrank them by accumulating (measured: recall@5 on
 *   LiveMCPBench with steps as queries 0.62 vs 0.46 for RRF k=20 and 0.34 for k=60; see bench/results/search.md).
 * - Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): fused(d) = Σ_lists w / (k + rank(d)), rank
 *   from 1. Only ranks matter, so lists with very different score scales mix fairly, but with many lists an item
 *   ranked 10th everywhere beats every list's winner: right for several phrasings of one need, wrong for steps.
 * - Score fusion (CombSUM of max-normalized scores): fused(d) = Σ_lists w · score(d) / max score of the list.
 *   Keeps score gaps: a clear winner of one list beats a weak top hit of another.
 */

export interface RankedList<K> {
  /** Items best first, with their scores (only `rrf` ignores the scores). */
  items: ReadonlyArray<{ key: K; score: number }>;
  /** How much this list counts (1 = a full query). */
  weight: number;
}

/** In `max` fusion, how much the sum over lists adds to the best list's score (breaks ties, rewards agreement). */
const MAX_FUSION_SUM_WEIGHT = 0.1;

export type FusionMethod = 'rrf' | 'score' | 'max';

/** Fused scores, higher is better. Items missing from a list simply get nothing from it. */
export function fuseRankings<K>(lists: ReadonlyArray<RankedList<K>>, method: FusionMethod, rrfK = 60): Map<K, number> {
  const fused = new Map<K, number>();
  const bestOf = new Map<K, number>();
  for (const list of lists) {
    if (list.weight <= 0 || list.items.length === 0) continue;
    if (method === 'rrf') {
      list.items.forEach(({ key }, index) => {
        fused.set(key, (fused.get(key) ?? 0) + list.weight / (rrfK + index + 1));
      });
    } else {
      const max = list.items.reduce((m, { score }) => Math.max(m, score), 0);
      if (!(max > 0)) continue;
      for (const { key, score } of list.items) {
        const value = (list.weight * score) / max;
        if (method === 'score') fused.set(key, (fused.get(key) ?? 0) + value);
        else {
          const best = bestOf.get(key) ?? 0;
          if (value > best) bestOf.set(key, value);
          fused.set(key, (fused.get(key) ?? 0) + value);
        }
      }
    }
  }
  if (method === 'max') {
    for (const [key, sum] of fused) fused.set(key, (bestOf.get(key) ?? 0) + MAX_FUSION_SUM_WEIGHT * sum);
  }
  return fused;
}
