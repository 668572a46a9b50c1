/**
 * Ranking quality per query and averaged over a set, as both search benchmarks report it: hit@k (a gold tool in the
 * top k), recall@k (gold tools in the top k / gold tools), NDCG@5 (binary relevance) and MRR.
 */

export const metricNames = ['hit1', 'hit5', 'recall1', 'recall5', 'recall10', 'ndcg5', 'mrr'] as const;
export type MetricName = (typeof metricNames)[number];

/** One query's scores. */
export type RankingScores = Record<MetricName, number>;

/** The average of the named metrics over a set's queries. */
export type Metrics<Name extends MetricName = MetricName> = { queries: number } & Record<Name, number>;

export function scoreRanking(ranking: readonly string[], gold: readonly string[]): RankingScores {
  const goldSet = new Set(gold);
  const hitsAt = (k: number): number => ranking.slice(0, k).filter((key) => goldSet.has(key)).length;
  const firstHit = ranking.findIndex((key) => goldSet.has(key));
  let dcg = 0;
  ranking.slice(0, 5).forEach((key, i) => {
    if (goldSet.has(key)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(5, goldSet.size); i++) idcg += 1 / Math.log2(i + 2);
  return {
    hit1: hitsAt(1) > 0 ? 1 : 0,
    hit5: hitsAt(5) > 0 ? 1 : 0,
    recall1: hitsAt(1) / goldSet.size,
    recall5: hitsAt(5) / goldSet.size,
    recall10: hitsAt(10) / goldSet.size,
    ndcg5: idcg > 0 ? dcg / idcg : 0,
    mrr: firstHit >= 0 ? 1 / (firstHit + 1) : 0,
  };
}

/** The mean of each named metric over `rows` (0 for no rows), keys in the order of `names`. */
export function averageMetrics<Name extends MetricName>(
  rows: readonly RankingScores[],
  names: readonly Name[],
): Metrics<Name> {
  const out: Record<string, number> = { queries: rows.length };
  for (const name of names) {
    let sum = 0;
    for (const row of rows) sum += row[name];
    out[name] = rows.length > 0 ? sum / rows.length : 0;
  }
  return out as Metrics<Name>;
}
