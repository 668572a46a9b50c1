/** The `explanation` of a hit: which query words a tool matched, strongest first, and in which fields. */
import type { Bm25fIndex } from './bm25f-index.js';
import type { PreparedQuery } from './prepared-query.js';
import { SEARCH_FIELDS } from './tool-search-fields.js';

/** Words shown per explanation. */
const MAX_WORDS = 6;

/** `matched: read, file (name, description)`, or undefined when the tool matched none of the queries' terms. */
export function explainMatch(
  doc: number,
  queries: readonly PreparedQuery[],
  index: Bm25fIndex,
  prefix = 'matched',
): string | undefined {
  const labels = new Map<string, number>();
  let fields = 0;
  for (const query of queries) {
    for (const term of query.terms) {
      const mask = index.fieldMask(term.termId, doc);
      if (mask === 0) continue;
      fields |= mask;
      const strength = term.weight * index.idf(term.termId);
      labels.set(term.label, Math.max(labels.get(term.label) ?? 0, strength));
    }
  }
  if (labels.size === 0) return undefined;
  const words = [...labels]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_WORDS)
    .map(([label]) => label);
  const fieldNames = SEARCH_FIELDS.filter((_, f) => (fields & (1 << f)) !== 0);
  return `${prefix}: ${words.join(', ')} (${fieldNames.join(', ')})`;
}
