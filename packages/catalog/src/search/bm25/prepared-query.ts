/**
 * A query's weighted terms (`../text/query-terms.ts`) looked up in one tool index: terms the index does not know
 * cannot match and are dropped; a very long query keeps only its most telling terms.
 */
import { topK } from '../rank/top-k.js';
import type { QueryTerms } from '../text/query-terms.js';
import type { Bm25fIndex, QueryTerm } from './bm25f-index.js';
import { resolveInformativeUnits, type QueryMatchUnits } from './match-quality.js';

/** Terms kept of one query (the highest weight × idf); tasks have 10–40, a pasted document thousands. */
const MAX_QUERY_TERMS = 96;

/** A query term with what the explanation shows for it. */
export interface WeightedTerm extends QueryTerm {
  label: string;
}

export interface PreparedQuery {
  terms: WeightedTerm[];
  /** Words written with a capital letter in the query (lower-cased): likely names ("Notion", "GitHub"). */
  capitalized: ReadonlySet<string>;
  /** Σ coverageWeight · idf: the coverage denominator. */
  coverageTotal: number;
  /** What the query asks for, for the absolute match quality. */
  informative: QueryMatchUnits;
}

export function prepareQuery(query: QueryTerms, index: Bm25fIndex): PreparedQuery {
  let terms: WeightedTerm[] = [];
  for (const { term, weight, coverage, label } of query.terms) {
    const termId = index.termId(term);
    if (termId !== undefined) terms.push({ termId, weight, coverageWeight: coverage, label });
  }
  // A very long query (a pasted document) keeps only its most telling terms: scoring stays fast.
  if (terms.length > MAX_QUERY_TERMS) {
    terms = topK(terms, MAX_QUERY_TERMS, (term) => term.weight * index.idf(term.termId));
  }
  let coverageTotal = 0;
  for (const term of terms) coverageTotal += term.coverageWeight * index.idf(term.termId);
  return {
    terms,
    coverageTotal,
    capitalized: query.capitalized,
    informative: resolveInformativeUnits(query.informative, index),
  };
}
