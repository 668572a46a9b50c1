/**
 * `relevance` (0..1) from a ranker's scores: each score relative to the best one, so the order is kept and the
 * best hit is at 1.
 */
export function relativeRelevance(score: number, best: number): number {
  return Math.min(1, Math.max(0, score / best));
}
