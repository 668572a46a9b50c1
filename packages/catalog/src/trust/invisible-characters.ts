/**
 * Invisible characters in tool descriptions (docs/trust.md, "Description scanning"): the code points a person
 * reading a description cannot see but a model reads. They are stripped, and each kind found is reported once per
 * field with an excerpt that shows where they were, and with the text they hide where they encode some (the Unicode
 * tag block mirrors ASCII; a run of variation selectors can carry one byte each).
 *
 * Kept on purpose, because ordinary text needs them: accents, CJK and every visible script, emoji with their
 * zero-width joiner sequences (👩‍💻), a joiner between letters of a script that shapes with it (Arabic, Indic), one
 * variation selector after its base character (❤️, CJK ideographic variants), and the tag characters of a
 * subdivision flag (🏴 + "gbeng" + cancel tag).
 */

/** The kinds of invisible code points the scanner strips. */
export type InvisibleCharacterKind =
  | 'tag-characters'
  | 'zero-width'
  | 'bidi-control'
  | 'variation-selectors'
  | 'invisible-character'
  | 'private-use'
  | 'control-character';

/** One kind of invisible code points found in a text. */
export interface InvisibleCharacterRun {
  kind: InvisibleCharacterKind;
  /** How many code points of this kind were stripped. */
  count: number;
  /** The distinct code points, as `U+200B`. */
  codePoints: string[];
  /** The original text around the first one, each invisible code point shown as `<U+XXXX>`. */
  excerpt: string;
  /** The text they encode (tag characters, runs of variation selectors), when they encode some. */
  hiddenText?: string;
}

/** A text with its invisible characters stripped, and what was stripped. */
export interface InvisibleCharacterScan {
  cleaned: string;
  runs: InvisibleCharacterRun[];
}

const tagBegin = 0xe0000;
const tagEnd = 0xe007f;
const cancelTag = 0xe007f;
const blackFlag = 0x1f3f4;
const zeroWidthJoiner = 0x200d;
const zeroWidthNonJoiner = 0x200c;

const zeroWidth = new Set([0x200b, zeroWidthNonJoiner, zeroWidthJoiner, 0x2060, 0xfeff]);
const bidiControls = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

const defaultIgnorable = /\p{Default_Ignorable_Code_Point}/u;
/** Any code point `classify` might report (a superset): most texts have none and skip the per-code-point walk. */
const mayHoldInvisible =
  /[\p{Default_Ignorable_Code_Point}\p{Co}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C]/u;
const privateUse = /\p{Co}/u;
const pictographic = /\p{Extended_Pictographic}|\u{FE0F}|[\u{1F3FB}-\u{1F3FF}]/u;
const pictographicStart = /\p{Extended_Pictographic}/u;
/** Letters and marks of scripts whose shaping uses ZWJ/ZWNJ (not Latin, not ASCII). */
const shapingLetter = /[\p{L}\p{M}]/u;
const latinLetter = /\p{Script=Latin}/u;

function isVariationSelector(codePoint: number): boolean {
  return (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef);
}

/** C0 and C1 controls other than tab, line feed and carriage return (an ESC can hide text in a terminal). */
function isControl(codePoint: number): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) return false;
  return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** The byte a variation selector stands for in the known smuggling scheme (VS1–16 = 0–15, VS17–256 = 16–255). */
function variationSelectorByte(codePoint: number): number {
  return codePoint <= 0xfe0f ? codePoint - 0xfe00 : codePoint - 0xe0100 + 16;
}

function isShapingLetter(character: string | undefined): boolean {
  return character !== undefined && shapingLetter.test(character) && !latinLetter.test(character);
}

/** A joiner inside an emoji sequence or between letters of a script that shapes with it is ordinary text. */
function isMeaningfulJoiner(codePoint: number, previous: string | undefined, next: string | undefined): boolean {
  if (codePoint === zeroWidthJoiner && previous !== undefined && next !== undefined) {
    if (pictographic.test(previous) && pictographicStart.test(next)) return true;
  }
  return isShapingLetter(previous) && isShapingLetter(next);
}

/** Tag characters after 🏴 that spell a subdivision (lowercase letters and digits) and end with the cancel tag. */
function flagTagSequenceLength(codePoints: readonly number[], start: number): number {
  if (start === 0 || codePoints[start - 1] !== blackFlag) return 0;
  let index = start;
  while (index < codePoints.length) {
    const codePoint = codePoints[index] as number;
    if (codePoint === cancelTag) return index - start + 1;
    const ascii = codePoint - tagBegin;
    const isLowercaseOrDigit = (ascii >= 0x61 && ascii <= 0x7a) || (ascii >= 0x30 && ascii <= 0x39);
    if (!isLowercaseOrDigit) return 0;
    index += 1;
  }
  return 0;
}

function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Printable ASCII of decoded hidden bytes; other bytes as `\xNN` so nothing invisible reaches the report. */
function printable(bytes: readonly number[]): string {
  return bytes
    .map((byte) =>
      byte >= 0x20 && byte <= 0x7e ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

function classify(codePoint: number): InvisibleCharacterKind | undefined {
  if (codePoint >= tagBegin && codePoint <= tagEnd) return 'tag-characters';
  if (zeroWidth.has(codePoint)) return 'zero-width';
  if (bidiControls.has(codePoint)) return 'bidi-control';
  if (isVariationSelector(codePoint)) return 'variation-selectors';
  if (isControl(codePoint)) return 'control-character';
  const character = String.fromCodePoint(codePoint);
  if (defaultIgnorable.test(character)) return 'invisible-character';
  if (privateUse.test(character)) return 'private-use';
  return undefined;
}

const excerptRadius = 30;

function excerptAround(codePoints: readonly number[], index: number): string {
  const from = Math.max(0, index - excerptRadius);
  const to = Math.min(codePoints.length, index + excerptRadius);
  const shown = codePoints
    .slice(from, to)
    .map((codePoint) =>
      classify(codePoint) === undefined ? String.fromCodePoint(codePoint) : `<${codePointLabel(codePoint)}>`,
    )
    .join('');
  return `${from > 0 ? '…' : ''}${shown}${to < codePoints.length ? '…' : ''}`;
}

interface RunBuilder {
  count: number;
  codePoints: Set<string>;
  firstIndex: number;
  hiddenParts: string[];
}

/** Strips the invisible code points of `text` (see the file comment for what is kept) and reports them. */
export function scanInvisibleCharacters(text: string): InvisibleCharacterScan {
  if (!mayHoldInvisible.test(text)) return { cleaned: text, runs: [] };
  const codePoints = Array.from(text, (character) => character.codePointAt(0) as number);
  const builders = new Map<InvisibleCharacterKind, RunBuilder>();
  let cleaned = '';
  let index = 0;
  const record = (kind: InvisibleCharacterKind, at: number, length: number, hidden?: string): void => {
    let builder = builders.get(kind);
    if (builder === undefined) {
      builder = { count: 0, codePoints: new Set(), firstIndex: at, hiddenParts: [] };
      builders.set(kind, builder);
    }
    builder.count += length;
    for (const codePoint of codePoints.slice(at, at + length)) builder.codePoints.add(codePointLabel(codePoint));
    if (hidden !== undefined && hidden.length > 0) builder.hiddenParts.push(hidden);
  };

  while (index < codePoints.length) {
    const codePoint = codePoints[index] as number;
    const kind = classify(codePoint);
    if (kind === undefined) {
      cleaned += String.fromCodePoint(codePoint);
      index += 1;
      continue;
    }
    if (kind === 'tag-characters') {
      const flagLength = flagTagSequenceLength(codePoints, index);
      if (flagLength > 0) {
        for (const kept of codePoints.slice(index, index + flagLength)) cleaned += String.fromCodePoint(kept);
        index += flagLength;
        continue;
      }
      let end = index;
      while (end < codePoints.length && classify(codePoints[end] as number) === 'tag-characters') end += 1;
      const bytes = codePoints
        .slice(index, end)
        .map((tag) => tag - tagBegin)
        .filter((byte) => byte !== 0x7f && byte !== 0);
      record(kind, index, end - index, printable(bytes));
      index = end;
      continue;
    }
    if (kind === 'variation-selectors') {
      let end = index;
      while (end < codePoints.length && isVariationSelector(codePoints[end] as number)) end += 1;
      const previous = index > 0 ? String.fromCodePoint(codePoints[index - 1] as number) : undefined;
      const hasBase =
        previous !== undefined && !/\s/u.test(previous) && classify(codePoints[index - 1] as number) === undefined;
      if (end - index === 1 && hasBase) {
        cleaned += String.fromCodePoint(codePoint);
        index = end;
        continue;
      }
      const bytes = codePoints.slice(index, end).map(variationSelectorByte);
      record(kind, index, end - index, end - index > 1 ? printable(bytes) : undefined);
      index = end;
      continue;
    }
    if (kind === 'zero-width' && (codePoint === zeroWidthJoiner || codePoint === zeroWidthNonJoiner)) {
      const previous = index > 0 ? String.fromCodePoint(codePoints[index - 1] as number) : undefined;
      const next = index + 1 < codePoints.length ? String.fromCodePoint(codePoints[index + 1] as number) : undefined;
      if (isMeaningfulJoiner(codePoint, previous, next)) {
        cleaned += String.fromCodePoint(codePoint);
        index += 1;
        continue;
      }
    }
    record(kind, index, 1);
    index += 1;
  }

  const runs: InvisibleCharacterRun[] = [...builders].map(([kind, builder]) => ({
    kind,
    count: builder.count,
    codePoints: [...builder.codePoints],
    excerpt: excerptAround(codePoints, builder.firstIndex),
    ...(builder.hiddenParts.length > 0 ? { hiddenText: builder.hiddenParts.join(' … ') } : {}),
  }));
  return { cleaned, runs };
}
