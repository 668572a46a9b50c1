/**
 * What of a search request gets ranked: each distinct query (weight 1) and the context (weaker), and which texts of
 * each are embedded, within a budget.
 *
 * The budget bounds the model's work per request (each text is one forward pass, 20–200 ms): every query's whole
 * text first, then the clauses of long queries, then the context. A unit over budget keeps its BM25 evidence only.
 * 32 queries of 10 kB cost at most `maxEmbeddedTexts` passes of at most 128 word pieces.
 */
import type { QueryTranslator } from '../text/english-gloss.js';
import { queryEmbedding } from '../text/query-embedding-texts.js';

export interface RequestUnit {
  text: string;
  weight: number;
  /** A query (true) or the context (false). */
  isQuery: boolean;
  /** The texts to embed for it (empty: BM25 alone). */
  embedTexts: string[];
  /** How far its embedded texts stand for it, 0..1 (below 1: a translation that lost the action). */
  semanticTrust: number;
}

export interface RequestUnitOptions {
  contextWeight: number;
  translate?: QueryTranslator;
  maxQueries: number;
  maxQueryLength: number;
  maxEmbeddedTexts: number;
  maxClauses: number;
}

/** The units of a request whose fields may hold anything. Never throws. */
export function requestUnits(queriesField: unknown, contextField: unknown, options: RequestUnitOptions): RequestUnit[] {
  const list: unknown[] = Array.isArray(queriesField) ? queriesField : [queriesField];
  const queries = [
    ...new Set(
      list
        .filter((query): query is string => typeof query === 'string' && query.trim().length > 0)
        .slice(0, options.maxQueries)
        .map((query) => query.slice(0, options.maxQueryLength)),
    ),
  ];
  const units: RequestUnit[] = queries.map((text) => ({
    text,
    weight: 1,
    isQuery: true,
    embedTexts: [],
    semanticTrust: 1,
  }));
  const context = typeof contextField === 'string' ? contextField.trim().slice(0, options.maxQueryLength) : '';
  if (units.length > 0 && context.length > 0 && options.contextWeight > 0) {
    units.push({ text: context, weight: options.contextWeight, isQuery: false, embedTexts: [], semanticTrust: 1 });
  }

  let budget = options.maxEmbeddedTexts;
  const textOptions = {
    ...(options.translate ? { translate: options.translate } : {}),
    maxClauses: options.maxClauses,
  };
  const texts = units.map((unit) => {
    if (!unit.isQuery) return [];
    const embedding = queryEmbedding(unit.text, textOptions);
    unit.semanticTrust = embedding.trust;
    return embedding.texts;
  });
  units.forEach((unit, i) => {
    const whole = texts[i]?.[0];
    if (whole !== undefined && budget > 0) {
      unit.embedTexts.push(whole);
      budget--;
    }
  });
  units.forEach((unit, i) => {
    for (const clause of texts[i]?.slice(1) ?? []) {
      if (budget <= 0 || unit.embedTexts.length === 0) break;
      unit.embedTexts.push(clause);
      budget--;
    }
  });
  const contextUnit = units.find((unit) => !unit.isQuery);
  if (contextUnit !== undefined && budget > 0) {
    const embedding = queryEmbedding(contextUnit.text, { ...textOptions, maxClauses: 0 });
    const whole = embedding.texts[0];
    if (whole !== undefined) {
      contextUnit.embedTexts.push(whole);
      contextUnit.semanticTrust = embedding.trust;
    }
  }
  return units;
}
