/**
 * A Japanese (or Chinese) request as English words, for readers that know English only (a sentence-embedding model),
 * with how much of the request the words stand for.
 *
 * The words come from the ja→en tool vocabulary BM25 expands queries with (`japanese-query-expansion.ts`), so every
 * ranker reads the same Japanese the same way: the text's Latin words (`GitHub`, `#deploys`, `config.yaml`), then
 * the main English sense of each vocabulary word found, in order: `mainブランチの最近のコミット履歴を見たい` →
 * `main commit history branch recent show`. A bag of words, not a translation.
 *
 * `coverage` says how far to trust it: the share of the request's content words the vocabulary knew (see
 * `VocabularyCoverage`). `featureブランチを切って` glosses to `feature branch` with coverage 0.5: the action
 * (切る, "cut a branch", i.e. create one) is missing, and a reader of the gloss alone would look for the wrong tool.
 */
import { containsCjk } from './cjk-segmenter.js';
import { scanVocabulary } from './japanese-query-expansion.js';

export interface EnglishGloss {
  /** The Latin words of the text, then the English of each vocabulary word found. The text itself without CJK. */
  text: string;
  /**
   * 0..1: the share of the text's Japanese/Chinese content words the vocabulary translated (1 for text without CJK;
   * 0 when none was understood).
   */
  coverage: number;
  /**
   * Whether the request's last content word, in Japanese its predicate (the action), was translated. True for text
   * without CJK.
   */
  actionCovered: boolean;
}

/** Kana, kanji and the CJK punctuation and full-width forms around them. */
const CJK_RUNS = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+/g;

/** English words for a Japanese or Chinese request, and how much of it they cover. Never throws. */
export function glossJapaneseQuery(text: string): EnglishGloss {
  if (typeof text !== 'string') return { text: '', coverage: 0, actionCovered: false };
  if (!containsCjk(text)) return { text, coverage: 1, actionCovered: true };
  const { matches, coverage } = scanVocabulary(text);
  const latin = text.replace(CJK_RUNS, ' ').replace(/\s+/g, ' ').trim();
  const english = matches
    .map((match) => match.english)
    .filter((word) => word.length > 0)
    .join(' ');
  return {
    text: `${latin} ${english}`.trim(),
    coverage: coverage.contentWords > 0 ? coverage.coveredWords / coverage.contentWords : 0,
    actionCovered: coverage.contentWords > 0 && coverage.lastWordCovered,
  };
}
