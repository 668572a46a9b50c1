/**
 * Japanese and Chinese text → English words for the embedding model (MiniLM reads English only; no multilingual
 * sentence-embedding weights are published on npm).
 *
 * The translation is the catalog's ja→en tool vocabulary, the same one BM25 expands queries with, so both halves
 * of the hybrid understand the same Japanese. The gloss keeps the text's Latin words (`GitHub`, `#deploys`,
 * `config.yaml`) and adds the main English sense of each vocabulary word found, in order: `mainブランチの最近の
 * コミット履歴を見たい` → `main commit history branch recent show`. A bag of words, not a sentence: the blend weighs
 * its cosine like any other, and BM25 still sees the original text.
 */
import * as catalog from '@search-mcp/catalog';

/** Text → English for the embedding model. Returns the input unchanged when it has nothing to translate. */
export type QueryTranslator = (text: string) => string;

/** What the catalog's `findVocabularyMatches` returns for one vocabulary word found. */
export interface VocabularyMatch {
  form: string;
  english: string;
  alternatives: string;
}

export type VocabularyLookup = (text: string) => readonly VocabularyMatch[];

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;
const CJK_RUNS = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+/g;

/** Kana or a CJK ideograph anywhere in the text. */
export function containsCjk(text: string): boolean {
  return CJK.test(text);
}

/** A translator over a vocabulary lookup: the Latin words of the text, then the English of each word found. */
export function createVocabularyTranslator(lookup: VocabularyLookup): QueryTranslator {
  return (text) => {
    if (!containsCjk(text)) return text;
    const latin = text.replace(CJK_RUNS, ' ').replace(/\s+/g, ' ').trim();
    let english = '';
    try {
      english = lookup(text)
        .map((match) => match.english)
        .filter((word) => typeof word === 'string' && word.length > 0)
        .join(' ');
    } catch {
      // A vocabulary that throws translates nothing; the Latin words remain.
    }
    return `${latin} ${english}`.trim();
  };
}

/**
 * The catalog's vocabulary translator, when `@search-mcp/catalog` exports `findVocabularyMatches`; undefined
 * otherwise (then Japanese and Chinese queries are ranked by BM25 alone: a cosine over text the model cannot read
 * is noise). Looked up by name so that this package works with catalog versions before and after the export.
 */
export function catalogVocabularyTranslator(): QueryTranslator | undefined {
  const lookup = catalogExport('findVocabularyMatches');
  return lookup === undefined ? undefined : createVocabularyTranslator(lookup as VocabularyLookup);
}

/** A function the catalog exports under `name`, if this version of it does. */
export function catalogExport(name: string): ((...args: never[]) => unknown) | undefined {
  const value: unknown = (catalog as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as (...args: never[]) => unknown) : undefined;
}
