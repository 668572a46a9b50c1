/**
 * Query text → weighted terms, before any index is involved: the query's own words, the words of its arguments
 * (URLs, paths, file names) at a lower weight plus the kind of argument, English for its Japanese/Chinese words
 * from the tool vocabulary, and tool-verb synonyms at a lower weight. Built programmatically: user text never goes
 * through a query parser, so `: ^ ~ * + -` are just characters.
 */
import { synonymsOf } from './english-tool-synonyms.js';
import { findVocabularyMatches } from './japanese-query-expansion.js';
import { splitQueryArguments, type QueryArgumentKind } from './query-arguments.js';
import { analyzeText, type AnalyzedToken } from './text-tokenizer.js';

export interface QueryTermSettings {
  /** English for Japanese/Chinese query words (tool vocabulary) and tool-verb synonyms. */
  queryExpansion: boolean;
  /** Weight of a synonym relative to the word it expands (0: none). */
  synonymWeight: number;
  /** Weight of the weaker senses of a vocabulary entry (the words after `;`). */
  alternativeWeight: number;
  /** Weight of the words of URLs, paths and file names (1: treated as ordinary words). */
  argumentWeight: number;
}

/** One term of a query, not yet looked up in an index. */
export interface WeightedQueryTerm {
  /** The index term (stemmed word, CJK bigram). */
  term: string;
  /** Multiplies the term's BM25F contribution. */
  weight: number;
  /** Multiplies the term's idf in the coverage sum (0 for terms that should not count as coverage). */
  coverage: number;
  /** What the explanation shows for it (`read`, `file←ファイル`, `fetch~get`, `path (file)`). */
  label: string;
}

export interface QueryTerms {
  /** In the order they were found: own words first, then arguments, vocabulary, synonyms. */
  terms: WeightedQueryTerm[];
  /** Words written with a capital letter in the query (lower-cased): likely names ("Notion", "GitHub"). */
  capitalized: ReadonlySet<string>;
}

/** Terms a URL, path or file name in a query stands for, and their weight. */
const ARGUMENT_INTENT_TERMS: Record<QueryArgumentKind, AnalyzedToken[]> = {
  url: analyzeText('url'),
  path: analyzeText('path'),
  file: analyzeText('file path'),
};
const ARGUMENT_INTENT_WEIGHT = 0.5;

/** The weighted terms of one query. Own words add up (1 + ln tf); expansions take the maximum weight. */
export function queryTerms(query: string, settings: QueryTermSettings): QueryTerms {
  const weights = new Map<string, { weight: number; coverage: number; label: string }>();
  const counts = new Map<string, { count: number; label: string }>();
  const split = settings.argumentWeight < 1 ? splitQueryArguments(query) : { rest: query, arguments: [] };
  for (const { term, surface } of analyzeText(split.rest)) {
    const known = counts.get(term);
    if (known === undefined) counts.set(term, { count: 1, label: surface });
    else known.count++;
  }
  for (const [term, { count, label }] of counts) {
    const weight = 1 + Math.log(count);
    weights.set(term, { weight, coverage: weight, label });
  }

  const expand = (term: string, weight: number, coverage: number, label: string): void => {
    const existing = weights.get(term);
    if (existing === undefined) weights.set(term, { weight, coverage, label });
    else if (existing.weight < weight) {
      existing.weight = weight;
      existing.coverage = Math.max(existing.coverage, coverage);
    }
  };
  for (const argument of split.arguments) {
    const tokens = analyzeText(argument.text);
    tokens.forEach(({ term, surface }, i) => {
      // The extension of a file name says what kind of file it is (md, xlsx, pdf): full weight.
      const weight = argument.kind === 'file' && i === tokens.length - 1 ? 1 : settings.argumentWeight;
      expand(term, weight, weight, surface);
    });
    for (const intent of ARGUMENT_INTENT_TERMS[argument.kind]) {
      expand(intent.term, ARGUMENT_INTENT_WEIGHT, 0, `${intent.surface} (${argument.kind})`);
    }
  }
  if (settings.queryExpansion) {
    for (const match of findVocabularyMatches(query)) {
      for (const { term, surface } of analyzeText(match.english)) expand(term, 1, 1, `${surface}←${match.form}`);
      if (settings.alternativeWeight > 0) {
        for (const { term, surface } of analyzeText(match.alternatives)) {
          expand(term, settings.alternativeWeight, settings.alternativeWeight, `${surface}←${match.form}`);
        }
      }
    }
    if (settings.synonymWeight > 0) {
      for (const [term, { weight, label }] of [...weights]) {
        for (const synonym of synonymsOf(term)) {
          const synonymWeight = weight * settings.synonymWeight;
          expand(synonym.term, synonymWeight, synonymWeight, `${synonym.surface}~${label}`);
        }
      }
    }
  }
  const terms = Array.from(weights, ([term, { weight, coverage, label }]) => ({ term, weight, coverage, label }));
  const capitalized = new Set<string>();
  for (const word of query.match(/\p{L}*\p{Lu}[\p{L}\p{N}]*/gu) ?? []) capitalized.add(word.toLowerCase());
  return { terms, capitalized };
}
