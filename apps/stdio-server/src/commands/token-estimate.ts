/**
 * An estimate of the Claude tokens of a text, without a tokenizer: `doctor`'s context figures used Anthropic's
 * tokenizer, whose `tiktoken` dependency alone is 23 MB of an install (README, "Install"). A tool definition's JSON
 * is mostly English words and JSON punctuation; a linear count of both, calibrated on the 22 recorded real servers
 * (237 tools, `fixtures/real-servers`), lands within 2.0 % of the tokenizer on average per server (4.3 % at worst)
 * and 1.0 % under it on the sum of all 237 tools. `bench/install-bench.ts` measures the difference again.
 */

/** Tokens per run of ASCII letters (a word) and per letter in it: short words are one token, long ones split. */
const perWord = 0.58;
const perLetter = 0.08;
/** Tokens per run of ASCII punctuation (`":"`, `"},{"` often merge into one token) and per digit. */
const perPunctuationRun = 1.25;
const perDigit = 0.48;
/** Tokens per character outside ASCII (Japanese and Chinese text: about one token per character or a little less). */
const perOtherCharacter = 0.9;

const words = /[A-Za-z]+/g;
const punctuationRuns = /[!-/:-@[-`{-~]+/g;
const digits = /[0-9]/g;
const otherCharacters = /[^\x00-\x7f]/g;

/** The estimated Claude tokens of `text` (NFKC-normalised first, as Anthropic's `countTokens` does). */
export function estimateTokens(text: string): number {
  const normalised = text.normalize('NFKC');
  let wordCount = 0;
  let letterCount = 0;
  for (const match of normalised.matchAll(words)) {
    wordCount += 1;
    letterCount += match[0].length;
  }
  const estimate =
    perWord * wordCount +
    perLetter * letterCount +
    perPunctuationRun * count(normalised, punctuationRuns) +
    perDigit * count(normalised, digits) +
    perOtherCharacter * count(normalised, otherCharacters);
  return Math.round(estimate);
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}
