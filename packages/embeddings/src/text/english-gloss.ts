/**
 * Japanese and Chinese text → English words for the embedding model (MiniLM reads English only; no multilingual
 * sentence-embedding weights are published on npm).
 *
 * The default is the catalog's `glossJapaneseQuery`: the ja→en tool vocabulary BM25 expands queries with, so both
 * halves of the hybrid understand the same Japanese. `mainブランチの最近のコミット履歴を見たい` → `main commit history
 * branch recent show`. Whether it kept the request's action (`actionCovered`), and how many of its words
 * (`coverage`), tell the blend how far to trust the cosine of the gloss (`semanticTrust`, ranking/hybrid-blend.ts).
 */
import * as catalog from '@search-mcp/catalog';
import { type EnglishGloss, glossJapaneseQuery } from '@search-mcp/catalog';

export type { EnglishGloss };

/**
 * Text → English for the embedding model: the English, or a gloss with how much of the text it stands for (a plain
 * string counts as a full translation).
 */
export type QueryTranslator = (text: string) => string | EnglishGloss;

/** The catalog's ja→en vocabulary gloss: the default translator. */
export const vocabularyTranslator: QueryTranslator = glossJapaneseQuery;

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;

/** Kana or a CJK ideograph anywhere in the text. */
export function containsCjk(text: string): boolean {
  return CJK.test(text);
}

/** What `translate` makes of `text`, as a gloss. A translator that throws or answers nonsense translated nothing. */
export function glossWith(translate: QueryTranslator, text: string): EnglishGloss {
  let answer: unknown;
  try {
    answer = translate(text);
  } catch {
    return nothing;
  }
  if (typeof answer === 'string') return { text: answer, coverage: 1, actionCovered: true };
  if (typeof answer !== 'object' || answer === null) return nothing;
  const { text: english, coverage, actionCovered } = answer as Partial<EnglishGloss>;
  if (typeof english !== 'string') return nothing;
  const share = typeof coverage === 'number' && Number.isFinite(coverage) ? Math.min(1, Math.max(0, coverage)) : 1;
  return { text: english, coverage: share, actionCovered: actionCovered !== false };
}

const nothing: EnglishGloss = { text: '', coverage: 0, actionCovered: false };

/**
 * How far the cosine of a gloss stands for the request, 0..1. A gloss that kept the action is trusted whole, however
 * many nouns it missed (place names, objects: `富士山の標高を調べて` → `elevation look up`). One that lost the
 * action (`featureブランチを切って` → `feature branch`) points at any tool about its nouns; its cosine then counts
 * in proportion to the words understood, and BM25 leads. (Scaling every gloss by its word coverage was measured on
 * the tuning queries and lost 1.4 points of recall@5: a missed place name does not make the action less clear.)
 */
export function semanticTrust(gloss: EnglishGloss): number {
  return gloss.actionCovered ? 1 : gloss.coverage;
}

/** A function the catalog exports under `name`, if this version of it does. */
export function catalogExport(name: string): ((...args: never[]) => unknown) | undefined {
  const value: unknown = (catalog as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as (...args: never[]) => unknown) : undefined;
}
