/**
 * Japanese (and Chinese) → English expansion with the tool vocabulary (`ja-en-tool-vocabulary.ts`).
 *
 * Used on queries (`ファイルを読む` → file, read: a Japanese question finds an English tool) and on tool text
 * (a tool described in Chinese or Japanese also gets English terms, so an English question finds it).
 *
 * Matching, over NFKC-normalized text:
 * - Katakana runs are segmented into vocabulary words by dynamic programming over the whole run
 *   (`ブラウザタブ` → ブラウザ + タブ). When the run cannot be covered completely, only words of
 *   three or more characters are taken from it, so short words do not fire inside unrelated ones (`ログ` is not
 *   found in `ブログ`, `レポ` not in `レポート`). The prolonged sound mark ー is ignored (`サーバー` = `サーバ`).
 * - Kanji and hiragana text is matched greedily, longest form first. The inflected ending of a form with kanji
 *   is dropped when the vocabulary is loaded (読む → 読, 見つける → 見つけ), so verbs match in any inflection
 *   (読み, 読んで, 読めば), and the okurigana after a match are skipped up to the next particle.
 * - Forms mixing katakana with kanji or hiragana (`ファイル名`, `口コミ`) are matched first, anywhere.
 * Anything the vocabulary does not know is left to the CJK bigrams of the tokenizer.
 */
import { cjkScriptOf } from './cjk-segmenter.js';
import { JA_EN_TOOL_VOCABULARY, type VocabularyEntry } from './ja-en-tool-vocabulary.js';
import { normalizeText } from './text-tokenizer.js';

/** One vocabulary concept found in the text. */
export interface VocabularyMatch {
  /** The matched form as written in the vocabulary (e.g. `読む`). */
  form: string;
  /** Main English sense, e.g. `read`. */
  english: string;
  /** Weaker alternatives, e.g. `view get` (may be empty). */
  alternatives: string;
}

interface Concept {
  form: string;
  english: string;
  alternatives: string;
}

interface CompiledVocabulary {
  /** Katakana keys (ー removed) → concept. */
  katakana: Map<string, Concept>;
  katakanaMaxLength: number;
  /** Kanji/hiragana keys (trailing okurigana removed) → concept. */
  other: Map<string, Concept>;
  otherMaxLength: number;
  /** Keys mixing katakana with kanji/hiragana (`ファイル名`, `口コミ`, trailing okurigana removed) → concept. */
  mixed: Map<string, Concept>;
  mixedMaxLength: number;
}

const PROLONGED_SOUND_MARK = /ー/g;

function isKatakanaCode(code: number): boolean {
  return cjkScriptOf(code) === 'katakana';
}

function isKanjiOrHiraganaCode(code: number): boolean {
  const script = cjkScriptOf(code);
  return script === 'kanji' || script === 'hiragana';
}

function mergeConcept(map: Map<string, Concept>, key: string, concept: Concept): void {
  const existing = map.get(key);
  if (existing === undefined) {
    map.set(key, concept);
    return;
  }
  // Two forms of one entry reduce to the same key (送る, 送って → 送).
  if (existing.english === concept.english && existing.alternatives === concept.alternatives) return;
  // The same form in two entries (a Japanese and a Chinese sense): keep both translations.
  map.set(key, {
    form: existing.form,
    english: `${existing.english} ${concept.english}`,
    alternatives: `${existing.alternatives} ${concept.alternatives}`.trim(),
  });
}

/** Compiles vocabulary entries into lookup maps. Forms with non-CJK characters (Latin, digits) are ignored. */
export function compileVocabulary(entries: readonly VocabularyEntry[]): CompiledVocabulary {
  const compiled: CompiledVocabulary = {
    katakana: new Map(),
    other: new Map(),
    mixed: new Map(),
    katakanaMaxLength: 0,
    otherMaxLength: 0,
    mixedMaxLength: 0,
  };
  for (const [forms, english] of entries) {
    const [main = '', alternatives = ''] = english.split(';');
    for (const rawForm of forms.split('|')) {
      const form = normalizeText(rawForm.trim());
      if (form.length === 0) continue;
      const codes = Array.from(form, (ch) => ch.charCodeAt(0));
      const concept: Concept = { form, english: main.trim(), alternatives: alternatives.trim() };
      if (codes.every(isKatakanaCode)) {
        const key = form.replace(PROLONGED_SOUND_MARK, '');
        if (key.length === 0) continue;
        mergeConcept(compiled.katakana, key, concept);
        compiled.katakanaMaxLength = Math.max(compiled.katakanaMaxLength, key.length);
      } else if (codes.every((code) => cjkScriptOf(code) !== undefined)) {
        // Drop the inflected ending when there is a kanji or katakana: 読む → 読, 見つける → 見つけ,
        // 書き込む → 書き込. The matcher then accepts any hiragana after the key (読んで, 見つけた, 書き込みます).
        const hasNonHiragana = codes.some((code) => cjkScriptOf(code) !== 'hiragana');
        const endsInHiragana = cjkScriptOf(codes[codes.length - 1] ?? 0) === 'hiragana';
        const key = hasNonHiragana && endsInHiragana ? form.slice(0, -1) : form;
        if (key.length === 0) continue;
        if (codes.some(isKatakanaCode)) {
          mergeConcept(compiled.mixed, key, concept);
          compiled.mixedMaxLength = Math.max(compiled.mixedMaxLength, key.length);
        } else {
          mergeConcept(compiled.other, key, concept);
          compiled.otherMaxLength = Math.max(compiled.otherMaxLength, key.length);
        }
      }
    }
  }
  return compiled;
}

/**
 * How much of a text's content the vocabulary understood, counted in words: each concept found is one word; an
 * unknown katakana stretch is one word; an unknown kanji run is one word per two kanji (the usual length of a kanji
 * word). Hiragana the vocabulary does not know (particles, inflections, auxiliaries) is not content.
 */
export interface VocabularyCoverage {
  contentWords: number;
  coveredWords: number;
  /**
   * Whether the last content word was understood. Japanese puts the predicate last (`ブランチを切って`: 切る, the
   * action), so this says whether the action of a request was translated.
   */
  lastWordCovered: boolean;
}

/** Counts one content word, understood or not, in reading order. */
function countWord(coverage: VocabularyCoverage, covered: boolean): void {
  coverage.contentWords++;
  if (covered) coverage.coveredWords++;
  coverage.lastWordCovered = covered;
}

let defaultVocabulary: CompiledVocabulary | undefined;

function getDefaultVocabulary(): CompiledVocabulary {
  defaultVocabulary ??= compileVocabulary(JA_EN_TOOL_VOCABULARY);
  return defaultVocabulary;
}

/** Full-cover segmentation of a katakana run (ー already removed); undefined when impossible. */
function segmentKatakanaRun(run: string, vocabulary: CompiledVocabulary): Concept[] | undefined {
  const n = run.length;
  // best[i] = fewest pieces covering run[0, i), -1 when not coverable.
  const best = new Int32Array(n + 1).fill(-1);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    const pieces = best[i] as number;
    if (pieces < 0) continue;
    const maxLength = Math.min(vocabulary.katakanaMaxLength, n - i);
    for (let length = maxLength; length >= 1; length--) {
      if (!vocabulary.katakana.has(run.slice(i, i + length))) continue;
      const j = i + length;
      const current = best[j] as number;
      if (current < 0 || pieces + 1 < current) {
        best[j] = pieces + 1;
        from[j] = i;
      }
    }
  }
  if ((best[n] as number) < 0) return undefined;
  const concepts: Concept[] = [];
  for (let j = n; j > 0; j = from[j] as number) {
    const concept = vocabulary.katakana.get(run.slice(from[j] as number, j));
    if (concept !== undefined) concepts.push(concept);
  }
  return concepts.reverse();
}

function matchKatakanaRun(
  rawRun: string,
  vocabulary: CompiledVocabulary,
  out: Concept[],
  coverage: VocabularyCoverage,
): void {
  const run = rawRun.replace(PROLONGED_SOUND_MARK, '');
  if (run.length === 0) return;
  const whole = segmentKatakanaRun(run, vocabulary);
  if (whole !== undefined) {
    out.push(...whole);
    for (let piece = 0; piece < whole.length; piece++) countWord(coverage, true);
    return;
  }
  // Not fully coverable (an unknown loanword is part of it): take only long, unambiguous words.
  let i = 0;
  let inUnknown = false;
  while (i < run.length) {
    let matched = 0;
    for (let length = Math.min(vocabulary.katakanaMaxLength, run.length - i); length >= 3; length--) {
      const concept = vocabulary.katakana.get(run.slice(i, i + length));
      if (concept !== undefined) {
        out.push(concept);
        matched = length;
        break;
      }
    }
    if (matched > 0) countWord(coverage, true);
    else if (!inUnknown) countWord(coverage, false);
    inUnknown = matched === 0;
    i += matched > 0 ? matched : 1;
  }
}

/** Hiragana that end okurigana: particles after a verb or noun (を が に で と の は へ や も). */
const PARTICLES = new Set(['を', 'が', 'に', 'で', 'と', 'の', 'は', 'へ', 'や', 'も']);

/** After a match that ends in kanji, the okurigana that follow (読|みたい, 検索|して) up to a particle. */
function okuriganaLength(span: string, from: number): number {
  let end = from;
  while (end < span.length && cjkScriptOf(span.charCodeAt(end)) === 'hiragana' && !PARTICLES.has(span[end] as string)) {
    end++;
  }
  return end - from;
}

function matchKanjiHiraganaSpan(
  span: string,
  vocabulary: CompiledVocabulary,
  out: Concept[],
  coverage: VocabularyCoverage,
): void {
  let unknownKanji = 0;
  const endUnknownKanji = (): void => {
    for (let word = 0; word < Math.ceil(unknownKanji / 2); word++) countWord(coverage, false);
    unknownKanji = 0;
  };
  let i = 0;
  while (i < span.length) {
    let matched = 0;
    for (let length = Math.min(vocabulary.otherMaxLength, span.length - i); length >= 1; length--) {
      const concept = vocabulary.other.get(span.slice(i, i + length));
      if (concept !== undefined) {
        out.push(concept);
        matched = length;
        break;
      }
    }
    if (matched === 0) {
      if (cjkScriptOf(span.charCodeAt(i)) === 'kanji') unknownKanji++;
      else endUnknownKanji();
      i++;
      continue;
    }
    endUnknownKanji();
    countWord(coverage, true);
    i += matched;
    // The rest of the verb's inflection is not a word of its own (読みたい must not also match みたい).
    if (cjkScriptOf(span.charCodeAt(i - 1)) !== 'hiragana') i += okuriganaLength(span, i);
  }
  endUnknownKanji();
}

/**
 * Finds the forms that mix katakana with kanji or hiragana (`ファイル名`, `口コミ`) anywhere in CJK text, greedily,
 * longest first; returns the text with them blanked out, so the per-script matchers do not see them again.
 */
function takeMixedForms(
  text: string,
  vocabulary: CompiledVocabulary,
  out: Concept[],
  coverage: VocabularyCoverage,
): string {
  if (vocabulary.mixed.size === 0) return text;
  let result = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (cjkScriptOf(text.charCodeAt(i)) === undefined) {
      i++;
      continue;
    }
    let matched = 0;
    for (let length = Math.min(vocabulary.mixedMaxLength, text.length - i); length >= 2; length--) {
      const concept = vocabulary.mixed.get(text.slice(i, i + length));
      if (concept !== undefined) {
        out.push(concept);
        matched = length;
        break;
      }
    }
    if (matched > 0) {
      // Counted before the rest of the text is read: a mixed form is rarely the last word (ファイル名, 口コミ).
      countWord(coverage, true);
      result += `${text.slice(copied, i)} `;
      i += matched;
      copied = i;
    } else {
      i++;
    }
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * The vocabulary concepts found in `text`, in order of appearance, each once. Empty for text without CJK.
 * Never throws.
 */
export function findVocabularyMatches(text: string, vocabulary?: CompiledVocabulary): VocabularyMatch[] {
  return scanVocabulary(text, vocabulary).matches;
}

/** The concepts found in `text` (as `findVocabularyMatches`) and how much of its content they cover. */
export function scanVocabulary(
  text: string,
  vocabulary?: CompiledVocabulary,
): { matches: VocabularyMatch[]; coverage: VocabularyCoverage } {
  const compiled = vocabulary ?? getDefaultVocabulary();
  const found: Concept[] = [];
  const coverage: VocabularyCoverage = { contentWords: 0, coveredWords: 0, lastWordCovered: false };
  const normalized = takeMixedForms(normalizeText(text), compiled, found, coverage);
  let i = 0;
  while (i < normalized.length) {
    const code = normalized.charCodeAt(i);
    if (code < 0x3000) {
      i++;
      continue;
    }
    const katakana = isKatakanaCode(code);
    const inSpan = katakana ? isKatakanaCode : isKanjiOrHiraganaCode;
    if (!katakana && !isKanjiOrHiraganaCode(code)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < normalized.length && inSpan(normalized.charCodeAt(end))) end++;
    const span = normalized.slice(i, end);
    if (katakana) matchKatakanaRun(span, compiled, found, coverage);
    else matchKanjiHiraganaSpan(span, compiled, found, coverage);
    i = end;
  }
  const seen = new Set<Concept>();
  const matches: VocabularyMatch[] = [];
  for (const concept of found) {
    if (seen.has(concept)) continue;
    seen.add(concept);
    matches.push({ form: concept.form, english: concept.english, alternatives: concept.alternatives });
  }
  return { matches, coverage };
}
