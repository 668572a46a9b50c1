/**
 * `relevance` (0..1) from a ranker's scores. Each score relative to the best one keeps the order; the absolute match
 * quality of the best hit then scales them all, so the best hit is at 1 only when it covers the request well
 * (`quality ≥ goodMatch`), and "the best of a bad lot" stays below 1 (packages/catalog/README.md, "Search
 * providers": relevance that means something, comparable across requests).
 */
export function scaledRelevance(score: number, best: number, matchScale: number): number {
  return Math.min(1, Math.max(0, (score / best) * matchScale));
}

/** The factor of the best hit: quality / goodMatch, at most 1; 1 when `goodMatch` is 0 (scaling off). */
export function matchScale(quality: number, goodMatch: number): number {
  if (!(goodMatch > 0)) return 1;
  return Math.min(1, Math.max(0, quality / goodMatch));
}
