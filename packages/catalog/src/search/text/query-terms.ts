/**
 * Query text → weighted terms, before any index is involved: the query's own words, the words of its arguments
 * (URLs, paths, file names) at a lower weight plus the kind of argument, English for its Japanese/Chinese words
 * from the tool vocabulary, and tool-verb synonyms at a lower weight. Built programmatically: user text never goes
 * through a query parser, so `: ^ ~ * + -` are just characters.
 */
import { synonymsOf } from './english-tool-synonyms.js';
import { containsCjk } from './cjk-segmenter.js';
import { findVocabularyMatches, type VocabularyMatch } from './japanese-query-expansion.js';
import { splitQueryArguments, type QueryArgumentKind } from './query-arguments.js';
import { analyzeText, type AnalyzedToken } from './text-tokenizer.js';
import { isToolDomainTerm } from './tool-domain-lexicon.js';

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

/**
 * One thing the query asks for, for judging how well a tool covers the request (`../bm25/match-quality.ts`): a word
 * of the query, or a Japanese/Chinese concept the vocabulary translated. Arguments (URLs, paths) are not among them.
 */
export interface InformativeUnit {
  /** Terms any one of which covers it fully: the word itself, or the main senses of a vocabulary entry. */
  terms: string[];
  /** Terms that cover it in part (synonyms, weaker senses), with their credit, 0..1. */
  partial: Array<{ term: string; credit: number }>;
  /** How much it counts (1 + ln of how often the word occurs). */
  weight: number;
  /** CJK text the vocabulary does not know: judged only where the index knows it (tools described in CJK). */
  cjk: boolean;
  /** A word of the tool domain (`tool-domain-lexicon.ts`): when no tool contains it, a capability is missing. */
  domain: boolean;
  /** The word as written, for the notice (`email`, `メール`). */
  label: string;
}

/** Credit of a synonym match ("remove" for a tool that says "delete"): the meaning is there, in other words. */
const SYNONYM_CREDIT = 0.8;
/** Credit of a weaker sense of a vocabulary entry (確認 → check, for a tool that says "view"). */
const ALTERNATIVE_CREDIT = 0.6;

export interface QueryTerms {
  /** In the order they were found: own words first, then arguments, vocabulary, synonyms. */
  terms: WeightedQueryTerm[];
  /** What the query asks for, word by word (or concept by concept for CJK). */
  informative: InformativeUnit[];
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
  const matches = settings.queryExpansion ? findVocabularyMatches(query) : [];
  const informative = informativeUnits(counts, matches);
  if (settings.queryExpansion) {
    for (const match of matches) {
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
  return { terms, informative, capitalized: capitalizedWords(query) };
}

/**
 * The words with a capital letter, lower-cased: in each run of letters and digits, from the first stretch of letters
 * that holds a capital to the run's end (`Notion`, `GitHub's` → github, `k8sNotion` → snotion). What the regular
 * expression `\p{L}*\p{Lu}[\p{L}\p{N}]*` finds, in linear time: that expression backtracks quadratically over a long
 * run without capitals (10,000 katakana took seconds).
 */
function capitalizedWords(query: string): Set<string> {
  const words = new Set<string>();
  for (const run of query.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (!/\p{Lu}/u.test(run)) continue;
    for (const letters of run.matchAll(/\p{L}+/gu)) {
      if (/\p{Lu}/u.test(letters[0])) {
        words.add(run.slice(letters.index).toLowerCase());
        break;
      }
    }
  }
  return words;
}

/** The query's words and translated concepts, each with what covers it fully or in part. */
function informativeUnits(
  counts: ReadonlyMap<string, { count: number; label: string }>,
  matches: readonly VocabularyMatch[],
): InformativeUnit[] {
  const units: InformativeUnit[] = [];
  const seen = new Set<string>();
  for (const match of matches) {
    const terms = [...new Set(analyzeText(match.english).map((token) => token.term))];
    if (terms.length === 0) continue;
    const partial = [
      ...analyzeText(match.alternatives).map(({ term }) => ({ term, credit: ALTERNATIVE_CREDIT })),
      ...terms.flatMap((term) => synonymsOf(term).map((synonym) => ({ term: synonym.term, credit: SYNONYM_CREDIT }))),
    ].filter((entry) => !terms.includes(entry.term));
    for (const term of terms) seen.add(term);
    units.push({ terms, partial, weight: 1, cjk: false, domain: true, label: match.form });
  }
  for (const [term, { count, label }] of counts) {
    if (seen.has(term)) continue;
    const cjk = containsCjk(term);
    const partial = cjk ? [] : synonymsOf(term).map((synonym) => ({ term: synonym.term, credit: SYNONYM_CREDIT }));
    units.push({ terms: [term], partial, weight: 1 + Math.log(count), cjk, domain: isToolDomainTerm(term), label });
  }
  return units;
}
