/**
 * Text analysis for tool search: one pipeline for tool text (names, descriptions, parameters) and for queries, so
 * both sides produce the same terms.
 *
 * - Normalization: lone surrogates and control characters become spaces, NFKC (full-width ＡＢＣ → ABC,
 *   half-width ｶﾀｶﾅ → カタカナ), lower case.
 * - Identifiers are split into words: snake_case, kebab-case, dots and slashes (every non-alphanumeric is a
 *   separator), camelCase and PascalCase (`getUserProfile` → get user profile, `HTMLParser` → html parser,
 *   `listURLs` → list urls). All-lower or all-upper words with digits stay whole (`k8s`, `ec2`, `base64`).
 * - English: stop words dropped (lunr's list, minus `get`, which names half of all tools, plus a few words of
 *   requests such as "please"), Porter stemming (lunr.stemmer). Words of two letters are kept (`ls`, `rm`, `db`,
 *   `pr`, `id`); single letters and bare numbers are dropped (they match "400: Bad request" and example values,
 *   never a tool's purpose).
 * - CJK: see `cjk-segmenter.ts` (script runs, bigrams).
 *
 * Never throws: any string (query syntax characters, emoji, control characters, lone surrogates) is just text.
 */
import { createRequire } from 'node:module';
import type lunrModule from 'lunr';
import { cjkScriptOf, cjkTerms } from './cjk-segmenter.js';

// Named `require` (`require2` once built) so that tests/packaging's reading of the built file sees the dependency.
const require = createRequire(import.meta.url);
let lunrLoaded: typeof lunrModule | undefined;

/** lunr, loaded on the first stemmed word: a command that never searches (`search-mcp call`) never pays for it. */
function lunr(): typeof lunrModule {
  lunrLoaded ??= require('lunr') as typeof lunrModule;
  return lunrLoaded;
}

/** One analyzed token: the index term and the word it came from (for explanations). */
export interface AnalyzedToken {
  /** The index term: stemmed English word, other-script word, or CJK bigram/unigram. */
  term: string;
  /** The lower-cased word before stemming (`directories` for the term `directori`). */
  surface: string;
}

// lunr's English stop words, without `get` (get_file, get_user, … a real signal in tool names).
const LUNR_STOP_WORDS =
  'a able about across after all almost also am among an and any are as at be because been but by can cannot could ' +
  'dear did do does either else ever every for from got had has have he her hers him his how however i if in into ' +
  'is it its just least let like likely may me might most must my neither no nor not of off often on only or other ' +
  'our own rather said say says she should since so some than that the their them then there these they this tis ' +
  'to too twas us wants was we were what when where which while who whom why will with would yet you your';
// Words of requests to an assistant that never describe a tool.
const REQUEST_STOP_WORDS = 'please want need needs wanna gonna ok okay thanks thank hey hi hello';

const STOP_WORDS: ReadonlySet<string> = new Set(`${LUNR_STOP_WORDS} ${REQUEST_STOP_WORDS}`.split(' '));

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

/** Porter stem of a lower-case English word (lunr.stemmer), cached. Words shorter than 3 letters are unchanged. */
export function stemWord(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  let stem = word;
  // lunr's stemmer expects plain ASCII letters; `k8s`, `café`, `v2` are kept as they are.
  if (word.length >= 3 && /^[a-z]+$/.test(word)) {
    const { stemmer, Token } = lunr();
    stem = stemmer(new Token(word, {})).toString();
    if (stem.length === 0) stem = word;
  }
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, stem);
  return stem;
}

// Lone surrogates (invalid UTF-16) and C0/C1 control characters. Both become a space.
const BAD_CHARS_RE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u001F\u007F-\u009F]/g;
// Plain ASCII needs no cleaning: control characters are never part of a word anyway.
// eslint-disable-next-line no-control-regex
const PLAIN_ASCII_RE = /^[\u0000-\u007F]*$/;

/**
 * Makes any string safe and comparable: lone surrogates and control characters → space, NFKC when not plain
 * ASCII. Case is kept (identifier splitting needs it); callers lower-case the words they produce.
 */
export function normalizeText(text: string): string {
  if (typeof text !== 'string') return '';
  if (PLAIN_ASCII_RE.test(text)) return text;
  const cleaned = text.replace(BAD_CHARS_RE, ' ');
  try {
    return cleaned.normalize('NFKC');
  } catch {
    return cleaned;
  }
}

/**
 * Words of a run of Latin letters and digits, split at camelCase boundaries and lower-cased (no stemming, no
 * stop words). `getUserProfile` → get, user, profile; `listURLs` → list, urls; `k8s` → k8s.
 */
export function splitCamelCase(word: string): string[] {
  // All one case: nothing to split (also the fast path for prose).
  if (word === word.toLowerCase() || word === word.toUpperCase()) return [word.toLowerCase()];
  return word
    .replace(/([a-z0-9\u00DF-\u024F])(?=[A-Z\u00C0-\u00DE])/g, '$1 ')
    .replace(/([A-Z\u00C0-\u00DE])(?=[A-Z\u00C0-\u00DE](?:[a-z]{2}|[a-rt-z]))/g, '$1 ')
    .toLowerCase()
    .split(' ')
    .filter((part) => part.length > 0);
}

/**
 * The words of an identifier or any text: `read_text_file` → read, text, file; `API-get-user` → api, get, user;
 * `getUserProfile` → get, user, profile; `a.b/c` → a, b, c. Lower case, no stemming, no stop-word removal.
 */
export function splitIdentifier(text: string): string[] {
  const out: string[] = [];
  for (const match of normalizeText(text).matchAll(LATIN_WORD_RE)) out.push(...splitCamelCase(match[0]));
  return out;
}

const LATIN_WORD_RE = /[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]+/g;

// Words of scripts other than Latin and CJK (Cyrillic, Greek, Hangul, …): letters, digits and combining marks.
const OTHER_WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;

/** Latin letters and digits, including Latin-1 and Latin Extended letters (é, ß, ł). */
function isLatinCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7)
  );
}

function isOtherWordChar(text: string, index: number, code: number): boolean {
  if (code < 0x80 || isLatinCode(code) || cjkScriptOf(code) !== undefined) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false; // astral (emoji, rare scripts): separators
  if (code === 0x30fb || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xffef)) return false;
  return OTHER_WORD_CHAR_RE.test(text[index] as string);
}

/** What one raw word (as found by forEachWord) analyses to. Cached: tool text repeats the same words a lot. */
interface WordAnalysis {
  readonly terms: readonly string[];
  readonly surfaces: readonly string[];
}

const EMPTY_ANALYSIS: WordAnalysis = { terms: [], surfaces: [] };
const wordCache = new Map<string, WordAnalysis>();
const WORD_CACHE_LIMIT = 200_000;

function analyzeLatinWord(raw: string): WordAnalysis {
  const terms: string[] = [];
  const surfaces: string[] = [];
  for (const part of splitCamelCase(raw)) {
    if (part.length < 2 || /^[0-9]+$/.test(part) || STOP_WORDS.has(part)) continue;
    terms.push(stemWord(part));
    surfaces.push(part);
  }
  return terms.length === 0 ? EMPTY_ANALYSIS : { terms, surfaces };
}

function analyzeCjkRun(raw: string): WordAnalysis {
  const terms = cjkTerms(raw);
  return terms.length === 0 ? EMPTY_ANALYSIS : { terms, surfaces: terms };
}

function analyzeOtherWord(raw: string): WordAnalysis {
  const word = raw.toLowerCase();
  return word.length < 2 ? EMPTY_ANALYSIS : { terms: [word], surfaces: [word] };
}

function analyzeWord(raw: string, kind: 1 | 2 | 3): WordAnalysis {
  const key = kind === 1 ? raw : `${kind}${raw}`;
  let analysis = wordCache.get(key);
  if (analysis === undefined) {
    analysis = kind === 1 ? analyzeLatinWord(raw) : kind === 2 ? analyzeCjkRun(raw) : analyzeOtherWord(raw);
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
    // Long words are not worth keeping (a 10 kB query of one "word").
    if (raw.length <= 64) wordCache.set(key, analysis);
  }
  return analysis;
}

/**
 * One scan over the normalized text finds, in order: Latin words, CJK runs (kanji, kana, 々 〆 ー), and words of
 * any other script. Punctuation, symbols, emoji and spaces separate them. A hand-written loop rather than a
 * Unicode regex: this is the hot path of indexing (millions of words for 50,000 tools).
 */
function forEachWord(text: string, visit: (analysis: WordAnalysis) => void): void {
  const normalized = normalizeText(text);
  const n = normalized.length;
  let i = 0;
  while (i < n) {
    const code = normalized.charCodeAt(i);
    if (isLatinCode(code)) {
      let end = i + 1;
      while (end < n && isLatinCode(normalized.charCodeAt(end))) end++;
      visit(analyzeWord(normalized.slice(i, end), 1));
      i = end;
    } else if (code < 0x80) {
      i++;
    } else if (cjkScriptOf(code) !== undefined) {
      let end = i + 1;
      while (end < n && cjkScriptOf(normalized.charCodeAt(end)) !== undefined) end++;
      visit(analyzeWord(normalized.slice(i, end), 2));
      i = end;
    } else if (isOtherWordChar(normalized, i, code)) {
      let end = i + 1;
      while (end < n && isOtherWordChar(normalized, end, normalized.charCodeAt(end))) end++;
      visit(analyzeWord(normalized.slice(i, end), 3));
      i = end;
    } else {
      i++;
    }
  }
}

/** The index terms of a text, in order (duplicates kept: term frequency matters). Appends to `out`. */
export function tokenize(text: string, out: string[] = []): string[] {
  if (typeof text !== 'string' || text.length === 0) return out;
  forEachWord(text, (analysis) => {
    for (const term of analysis.terms) out.push(term);
  });
  return out;
}

/** Like `tokenize`, with the surface word of each term (used for queries, so explanations read naturally). */
export function analyzeText(text: string): AnalyzedToken[] {
  const out: AnalyzedToken[] = [];
  if (typeof text !== 'string' || text.length === 0) return out;
  forEachWord(text, (analysis) => {
    for (let i = 0; i < analysis.terms.length; i++) {
      out.push({ term: analysis.terms[i] as string, surface: analysis.surfaces[i] as string });
    }
  });
  return out;
}
