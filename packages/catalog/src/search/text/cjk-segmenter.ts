/**
 * CJK segmentation without a dictionary: Japanese and Chinese write words without spaces, so a run of CJK text
 * is cut where the script changes (kanji / hiragana / katakana) and each kanji or katakana run is indexed as
 * overlapping character bigrams (the classic CJK bigram scheme of Lucene's CJKBigramFilter). A query bigram then
 * matches the same two characters anywhere in a description, whatever the word boundaries were.
 *
 * Hiragana runs are dropped: in Japanese they are mostly particles and verb endings (を, の, して, ます), which
 * would match almost every Japanese description. A lone kanji is kept as a unigram (読む → 読, 送る → 送).
 */

export type CjkScript = 'kanji' | 'hiragana' | 'katakana';

/** Which CJK script a code unit belongs to, or undefined for anything else. */
export function cjkScriptOf(code: number): CjkScript | undefined {
  if (code >= 0x3041 && code <= 0x309f) return 'hiragana';
  // Katakana, the prolonged sound mark ー and the small katakana extensions; not the middle dot ・ (U+30FB).
  if ((code >= 0x30a1 && code <= 0x30fa) || (code >= 0x30fc && code <= 0x30ff) || (code >= 0x31f0 && code <= 0x31ff)) {
    return 'katakana';
  }
  if (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    code === 0x3005 || // 々
    code === 0x3006 || // 〆
    code === 0x30f6 // ヶ (counter, written inside kanji compounds)
  ) {
    return 'kanji';
  }
  return undefined;
}

/** True when the string contains at least one kanji, hiragana or katakana character. */
export function containsCjk(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x3041 && cjkScriptOf(code) !== undefined) return true;
  }
  return false;
}

/**
 * Splits a string made only of CJK characters into same-script runs, in order.
 * `検索結果をリストで返す` → 検索結果 (kanji), を (hiragana), リスト (katakana), で (hiragana), 返 (kanji),
 * す (hiragana).
 */
export function splitCjkRuns(text: string): Array<{ text: string; script: CjkScript }> {
  const runs: Array<{ text: string; script: CjkScript }> = [];
  let start = 0;
  let current: CjkScript | undefined;
  for (let i = 0; i < text.length; i++) {
    const script = cjkScriptOf(text.charCodeAt(i));
    if (script !== current) {
      if (current !== undefined && i > start) runs.push({ text: text.slice(start, i), script: current });
      start = i;
      current = script;
    }
  }
  if (current !== undefined && text.length > start) runs.push({ text: text.slice(start), script: current });
  return runs;
}

/**
 * The index terms of a CJK string: bigrams of each kanji and katakana run, a lone kanji as itself, nothing for
 * hiragana and for a lone katakana character. Appends to `out` (no allocation per call beyond the terms).
 */
export function cjkTerms(text: string, out: string[] = []): string[] {
  for (const run of splitCjkRuns(text)) {
    if (run.script === 'hiragana') continue;
    const s = run.text;
    if (s.length === 1) {
      if (run.script === 'kanji') out.push(s);
      continue;
    }
    for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
  }
  return out;
}
