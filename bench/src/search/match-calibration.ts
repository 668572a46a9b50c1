/**
 * Match calibration of search-bench.ts: does "no good match" (the catalog's `match` not `good`) say the right thing?
 * Each query runs against its catalog with and without its gold tools; the best hit's match quality of both runs
 * gives the precision and recall of the shipped call and the threshold sweep behind BM25's default `goodMatch`.
 */
import { Bm25SearchProvider, type CatalogMatch, defaultGoodMatch, judgeSearchMatch } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import type { DatasetQuery } from '../datasets/dataset-catalog.js';

export interface CalibrationSet {
  id: string;
  label: string;
  tools: ToolInfo[];
  queries: DatasetQuery[];
  request: (query: DatasetQuery) => { queries: string[]; context?: string };
  /** One need per query (or per query of a request): the sets the default threshold was chosen on. */
  singleNeed: boolean;
}

/** The best hit's match quality (0..1) of each query with its gold tools in the catalog and with them removed. */
export interface CalibrationPair {
  id: string;
  withGold: number;
  withoutGold: number;
}

/** Quality thresholds of the sweep (the default `goodMatch` is one of them). */
export const sweepThresholds = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75];

export function calibrationPairs(set: CalibrationSet): CalibrationPair[] {
  // goodMatch 1: the best hit's relevance is its match quality itself.
  const provider = new Bm25SearchProvider({ goodMatch: 1 });
  const quality = (tools: readonly ToolInfo[], query: DatasetQuery): number =>
    provider.searchSync({ ...set.request(query), tools, maxResults: 10 })[0]?.relevance ?? 0;
  return set.queries.map((query) => {
    // Gold tools and their equivalents on other servers (LiveMCPBench `gold_groups`) leave the catalog.
    const removed = new Set([...query.gold, ...(query.gold_groups ?? []).flat()]);
    const without = set.tools.filter((tool) => !removed.has(tool.toolKey));
    return { id: query.id, withGold: quality(set.tools, query), withoutGold: quality(without, query) };
  });
}

/** The catalog's verdict for a best hit of this quality with the default `goodMatch` (the shipped rule). */
function shippedMatch(quality: number): CatalogMatch {
  const hits = quality > 0 ? [{ toolKey: 'best', relevance: Math.min(1, quality / defaultGoodMatch) }] : [];
  return judgeSearchMatch(hits, ['query']).match;
}

export interface CalibrationRow {
  id: string;
  label: string;
  singleNeed: boolean;
  queries: number;
  meanWithGold: number;
  meanWithoutGold: number;
  /** P(quality with gold > quality without), over all pairs of queries. */
  auc: number;
  /** "Not good" (weak or none) as the call "no good match": precision, recall, false alarms on catalogs with gold. */
  notGood: { precision: number; recall: number; falseAlarms: number };
  none: { precision: number; recall: number; falseAlarms: number };
  /** Youden's J (recall − false alarms) of "quality < t" per sweep threshold. */
  sweep: number[];
}

export function calibrationRow(set: CalibrationSet, pairs: readonly CalibrationPair[]): CalibrationRow {
  const n = pairs.length;
  const rates = (flagged: (quality: number) => boolean) => {
    const caught = pairs.filter((pair) => flagged(pair.withoutGold)).length;
    const falseAlarms = pairs.filter((pair) => flagged(pair.withGold)).length;
    return {
      precision: caught + falseAlarms > 0 ? caught / (caught + falseAlarms) : Number.NaN,
      recall: n > 0 ? caught / n : Number.NaN,
      falseAlarms: n > 0 ? falseAlarms / n : Number.NaN,
    };
  };
  let wins = 0;
  for (const a of pairs) {
    for (const b of pairs) wins += a.withGold > b.withoutGold ? 1 : a.withGold === b.withoutGold ? 0.5 : 0;
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    id: set.id,
    label: set.label,
    singleNeed: set.singleNeed,
    queries: n,
    meanWithGold: mean(pairs.map((pair) => pair.withGold)),
    meanWithoutGold: mean(pairs.map((pair) => pair.withoutGold)),
    auc: n > 0 ? wins / (n * n) : Number.NaN,
    notGood: rates((quality) => shippedMatch(quality) !== 'good'),
    none: rates((quality) => shippedMatch(quality) === 'none'),
    sweep: sweepThresholds.map((threshold) => {
      const { recall, falseAlarms } = rates((quality) => quality < threshold);
      return recall - falseAlarms;
    }),
  };
}
