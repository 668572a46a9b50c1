/**
 * The texts a query is embedded as: the whole query in English, then each clause of a long one.
 *
 * A task of several steps ("Get the weather in Paris. Then book a table. Finally email Bob.") embeds as one vector
 * pointing at none of its tools; each clause embeds as a vector pointing at one. The unit's cosine with a tool is
 * the best over these texts. Measured on Seal-Tools (multi-step tasks over 4,076 tools): without clauses the blend
 * lost 12 points of recall@5 to BM25; with them it gains.
 *
 * Clauses are split by the catalog's rule when it exports `splitClauses` (the one BM25 uses), else by sentence.
 * Each text is cut to a length the model reads anyway (128 word pieces), and a query has at most `maxClauses`
 * clauses embedded: a pasted 10 kB document costs a bounded, small number of forward passes.
 */
import { catalogExport, containsCjk, glossWith, type QueryTranslator, semanticTrust } from './english-gloss.js';

/** Characters of a text kept for the model (well past 128 word pieces). */
export const MAX_EMBEDDED_TEXT_LENGTH = 1000;

function sentenceClauses(text: string): string[] {
  return text
    .split(/[.;!?。！？\n]+(?:\s+|$)/)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

/**
 * `#deploys` is a chat channel in a request ("drop a note in #deploys"); MiniLM reads `#` as noise, so the word
 * `channel` goes before it (cosine with "Post a message to a Slack channel": 0.21 → 0.40). `#123` (a number: an
 * issue or pull request) is left alone.
 */
export function spellOutMentions(text: string): string {
  return text.replace(/(^|[\s(])#(\p{L}[\p{L}\p{N}_.-]*)/gu, '$1channel #$2');
}

const catalogSplitClauses = catalogExport('splitClauses') as ((query: string) => unknown) | undefined;

/** The clauses of a query, by the catalog's rule when available. Never throws. */
export function queryClauses(query: string): string[] {
  if (catalogSplitClauses !== undefined) {
    try {
      const clauses = catalogSplitClauses(query);
      if (Array.isArray(clauses)) return clauses.filter((clause): clause is string => typeof clause === 'string');
    } catch {
      // Fall through to the sentence split.
    }
  }
  return sentenceClauses(query);
}

export interface QueryEmbeddingTextOptions {
  /** Japanese/Chinese → English; without it, such a query is not embedded (BM25 ranks it alone). */
  translate?: QueryTranslator;
  /** Clauses embedded of a long query. */
  maxClauses: number;
}

/** What of a query is embedded. */
export interface QueryEmbedding {
  /** The texts to embed, whole query first; empty when the model cannot read it. */
  texts: string[];
  /** How far the whole text stands for the query, 0..1 (below 1 when a translation lost the action; see `semanticTrust`). */
  trust: number;
}

/** The texts to embed for a query, whole first, and how far they stand for it. */
export function queryEmbedding(query: string, options: QueryEmbeddingTextOptions): QueryEmbedding {
  const english = (text: string): { text: string; trust: number } | undefined => {
    const cut = text.slice(0, MAX_EMBEDDED_TEXT_LENGTH * 2);
    if (!containsCjk(cut)) return { text: spellOutMentions(cut.slice(0, MAX_EMBEDDED_TEXT_LENGTH)).trim(), trust: 1 };
    if (options.translate === undefined) return undefined;
    const gloss = glossWith(options.translate, cut);
    return {
      text: spellOutMentions(gloss.text.slice(0, MAX_EMBEDDED_TEXT_LENGTH)).trim(),
      trust: semanticTrust(gloss),
    };
  };
  const whole = english(query);
  if (whole === undefined || whole.text.length === 0) return { texts: [], trust: 0 };
  const texts = [whole.text];
  const clauses = queryClauses(query.slice(0, MAX_EMBEDDED_TEXT_LENGTH * 8));
  if (clauses.length >= 2) {
    for (const clause of clauses.slice(0, options.maxClauses)) {
      const text = english(clause)?.text;
      if (text !== undefined && text.length > 0 && !texts.includes(text)) texts.push(text);
    }
  }
  return { texts, trust: whole.trust };
}

/** The texts to embed for a query, whole first; empty when the model cannot read it. */
export function queryEmbeddingTexts(query: string, options: QueryEmbeddingTextOptions): string[] {
  return queryEmbedding(query, options).texts;
}
