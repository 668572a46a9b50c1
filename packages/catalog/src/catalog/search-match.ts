/**
 * Whether a search found something that fits, said in words a model can act on: the `match` and `notice` of a
 * catalog search response (packages/catalog/README.md, "ToolCatalog", "Match"). It reads the best hit's
 * `relevance`, which a ranker with an absolute notion of quality (BM25: how well the hit covers the request's words)
 * keeps below 1 when nothing fits well; a ranker that always puts its best at 1 is taken at its word.
 */
import { truncateText } from '@search-mcp/shared';

/** `good`: the best hit covers the request; `weak`: only in part; `none`: nothing (or almost nothing) fits. */
export type CatalogMatch = 'good' | 'weak' | 'none';

/** The best hit's relevance from which the match is good (1, allowing for rounding). */
const goodFrom = 0.999;
/**
 * Below this best relevance, the closest tools are no match at all. With BM25's default `goodMatch` (0.6) it is a
 * hit covering under 30 % of the request (calibrated in bench/search-bench.ts: such hits are rarely right).
 */
const noneBelow = 0.5;
/** Closest tools named in a notice. */
const closestShown = 3;

export interface SearchMatch {
  match: CatalogMatch;
  /** A sentence for the model when the match is not good. */
  notice?: string;
}

/** Why a search answered with nothing, when it never ranked. */
export type EmptySearchReason = 'off' | 'empty-query' | 'no-tools';

const emptyNotices: Record<EmptySearchReason, string> = {
  off: 'tool search is off here (search.strategy, or the optimization of your project, is off in the configuration)',
  'empty-query': "the query is empty: say what the tool should do, e.g. 'read a file'",
  'no-tools': 'no tools are available to you: no server is connected, or none is visible to your project',
};

export function emptySearchMatch(reason: EmptySearchReason): SearchMatch {
  return { match: 'none', notice: emptyNotices[reason] };
}

/** The match of ranked hits (best first) for the request's queries. */
export function judgeSearchMatch(
  hits: ReadonlyArray<{ toolKey: string; relevance: number }>,
  queries: readonly string[],
): SearchMatch {
  const best = hits[0]?.relevance ?? 0;
  if (hits.length > 0 && best >= goodFrom) return { match: 'good' };
  const asked = describeQueries(queries);
  const advice = "Rephrase with the action's words (verb + object), or a server offering it may not be connected.";
  if (hits.length === 0) return { match: 'none', notice: `no tool matches ${asked}. ${advice}` };
  const closest = hits
    .slice(0, closestShown)
    .map((hit) => `${hit.toolKey} (${hit.relevance.toFixed(2)})`)
    .join(', ');
  if (best < noneBelow) {
    return {
      match: 'none',
      notice: `no tool matches ${asked}; the closest, unlikely to fit, are ${closest}. ${advice}`,
    };
  }
  return { match: 'weak', notice: `no tool matches ${asked} well; the closest are ${closest}.` };
}

/** `'send an email'`, or `'a' / 'b' / …` for several queries, each cut short. */
function describeQueries(queries: readonly string[]): string {
  const shown = queries.slice(0, 3).map((query) => `'${truncateText(query, 60)}'`);
  return queries.length > 3 ? `${shown.join(' / ')} / …` : shown.join(' / ');
}
