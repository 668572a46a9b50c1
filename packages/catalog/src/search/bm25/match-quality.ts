/**
 * How well a tool covers what a query asks for, on an absolute scale (0..1), so that "the best of a bad lot" can be
 * told from a real match: the share of the query's informative words (idf-weighted) that the tool contains, each
 * counted by how strongly (a word in the tool's name fully, one only in a long description or a parameter in part)
 * and, for a synonym, at less than full credit.
 *
 * A word no tool contains counts at the highest idf when it is a word of the tool domain (`email`, `calendar`): the
 * catalog lacks that capability, so "send an email" over a catalog without mail tools stays weak however well `send`
 * matches. Any other unknown word (`nginx`, `Denver`) is most likely an argument or a name and counts a quarter.
 * Calibrated against catalogs with and without the right tool in bench/search-bench.ts.
 */
import { topK } from '../rank/top-k.js';
import type { InformativeUnit } from '../text/query-terms.js';
import type { Bm25fIndex } from './bm25f-index.js';

/** Share of the mass of a word no tool contains that is not a tool-domain word (likely a name or an argument). */
const NAME_MASS = 0.25;

/** Units judged per query (the heaviest): a pasted document has thousands of words, a request a handful. */
const MAX_UNITS = 96;

/** An informative unit looked up in one index. */
export interface ResolvedUnit {
  /** Index terms that cover it fully (empty: no tool contains any of them). */
  full: number[];
  /** Index terms that cover it in part, with their credit. */
  partial: Array<{ termId: number; credit: number }>;
  /** weight × idf: its share of the query. */
  mass: number;
  label: string;
}

/** The query's informative units in one index, and their total mass. */
export interface QueryMatchUnits {
  units: ResolvedUnit[];
  total: number;
}

export function resolveInformativeUnits(units: readonly InformativeUnit[], index: Bm25fIndex): QueryMatchUnits {
  const resolved: ResolvedUnit[] = [];
  let total = 0;
  for (const unit of units) {
    const full: number[] = [];
    let idf = 0;
    for (const term of unit.terms) {
      const termId = index.termId(term);
      if (termId === undefined) continue;
      full.push(termId);
      idf = Math.max(idf, index.idf(termId));
    }
    // CJK text outside the vocabulary (particles, names, words we cannot translate) says nothing about English tools.
    if (full.length === 0 && unit.cjk) continue;
    const partial: ResolvedUnit['partial'] = [];
    for (const { term, credit } of unit.partial) {
      const termId = index.termId(term);
      if (termId !== undefined) partial.push({ termId, credit });
    }
    const mass = unit.weight * (full.length > 0 ? idf : index.unknownIdf * (unit.domain ? 1 : NAME_MASS));
    resolved.push({ full, partial, mass, label: unit.label });
  }
  const kept = resolved.length > MAX_UNITS ? topK(resolved, MAX_UNITS, (unit) => unit.mass) : resolved;
  for (const unit of kept) total += unit.mass;
  return { units: kept, total };
}

/**
 * The share of the query's informative mass that `doc` covers, 0..1 (0 for a query of none). Each unit counts by
 * the best of its terms in the tool: credit (1 for the word itself, less for a synonym) × how strongly the tool
 * contains it, relative to a tool named with it (the BM25F saturation tf~ / (k1 + tf~) of the term in `doc` over
 * that of one name occurrence): a word in a tool's name counts fully, one in a long description or only in a
 * parameter counts in part.
 */
export function matchCoverage(doc: number, query: QueryMatchUnits, index: Bm25fIndex, nameSaturation: number): number {
  if (!(query.total > 0)) return 0;
  const strength = (termId: number): number => {
    const idf = index.idf(termId);
    return idf > 0 ? Math.min(1, index.contribution(termId, doc) / idf / nameSaturation) : 0;
  };
  let covered = 0;
  for (const unit of query.units) {
    let credit = 0;
    for (const termId of unit.full) {
      credit = Math.max(credit, strength(termId));
      if (credit >= 1) break;
    }
    for (const { termId, credit: partialCredit } of unit.partial) {
      if (partialCredit > credit) credit = Math.max(credit, partialCredit * strength(termId));
    }
    covered += unit.mass * credit;
  }
  return Math.min(1, covered / query.total);
}
