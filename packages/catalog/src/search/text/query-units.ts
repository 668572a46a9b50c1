/**
 * What one search ranks: each distinct query, the clauses of a long query (a whole task: "read X, then post Y.
 * Finally …"), and the context as a weak extra query. Bounded, so a pathological request (32 queries of 10 kB
 * prose) costs a bounded amount of work.
 */
import { splitClauses } from './query-clauses.js';

/** Queries longer than this are cut (a 10 kB query works, a 10 MB one is not worth scoring in full). */
const MAX_QUERY_LENGTH = 16_384;
const MAX_QUERIES = 32;
/** Clauses ranked per long query, and rankings per request (queries + clauses + context). */
const MAX_CLAUSES = 8;
const MAX_RANKINGS = 40;

export interface RankingUnit {
  text: string;
  /** How much its ranking counts in the fusion (1 = a query of the request). */
  weight: number;
  /** What a unit is: one of the request's queries, a clause of one, or the context. */
  kind: 'query' | 'clause' | 'context';
}

/** The non-blank strings of a request's `queries` (any value at run time), at most 32, each cut to 16 kB. */
export function usableQueries(raw: unknown): string[] {
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((query): query is string => typeof query === 'string' && query.trim().length > 0)
    .slice(0, MAX_QUERIES)
    .map((query) => query.slice(0, MAX_QUERY_LENGTH));
}

/** The usable context of a request (trimmed, cut to 16 kB), or '' for none. */
export function usableContext(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().slice(0, MAX_QUERY_LENGTH) : '';
}

/**
 * The units to rank, in order: distinct queries, then clauses of multi-clause queries (weight `clauseWeight`, 0:
 * none), cut to 40 in all; then the context (weight `contextWeight`, 0 or '': none).
 */
export function rankingUnits(
  queries: readonly string[],
  context: string,
  weights: { clauseWeight: number; contextWeight: number },
): RankingUnit[] {
  const distinct = [...new Set(queries)];
  const units: RankingUnit[] = distinct.map((text) => ({ text, weight: 1, kind: 'query' }));
  if (weights.clauseWeight > 0) {
    for (const query of distinct) {
      const clauses = splitClauses(query);
      if (clauses.length < 2) continue;
      for (const clause of clauses.slice(0, MAX_CLAUSES)) {
        units.push({ text: clause, weight: weights.clauseWeight, kind: 'clause' });
      }
    }
  }
  // Bounded work for pathological requests: whole queries first, then clauses.
  units.splice(MAX_RANKINGS);
  if (weights.contextWeight > 0 && context.length > 0) {
    units.push({ text: context, weight: weights.contextWeight, kind: 'context' });
  }
  return units;
}
