/**
 * One query's ranking over a tool index: BM25F, times a coverage factor (share of the query's idf mass the tool
 * matches) and a name factor (share of the tool name's words the query matches), and a bonus for the tools of a
 * server the query names.
 */
import { topKByScore } from '../rank/top-k.js';
import { NOT_DEPRECATED } from './deprecated-tools.js';
import type { PreparedQuery } from './prepared-query.js';
import type { ToolIndex } from './tool-index.js';

export interface ScoringFactors {
  /** Exponent of the coverage factor (0 = off). */
  coverageExponent: number;
  /** Name bonus: score × (1 + boost × share of the tool name's words the query matched). */
  nameMatchBoost: number;
  /** Tools of a server the query names: score × (1 + boost × strength of the mention). */
  serverMentionBoost: number;
  /** Score factor of a deprecated tool, which also ends below its replacement (1: no demotion at all). */
  deprecatedFactor: number;
}

/** A deprecated tool ends this far below its replacement when both match. */
const BELOW_REPLACEMENT = 0.99;

/** The best `depth` documents for the query, best first, with their scores. */
export function rankQuery(
  query: PreparedQuery,
  toolIndex: ToolIndex,
  depth: number,
  factors: ScoringFactors,
): Array<{ key: number; score: number }> {
  if (query.terms.length === 0) return [];
  const { index, finalScores, serverOfDocument, serversByTerm } = toolIndex;
  const { coverageExponent, nameMatchBoost, serverMentionBoost } = factors;
  // Servers the query names ("…to a Notion page", "in k8s"): among tools that match the rest of the query, theirs
  // win. A capitalized word ("Notion", "GitHub") is surely a name; a lower-case one ("everything", "memory") may be
  // an ordinary word, so it counts half. A tool matched only by the server's name gets nothing.
  const mentioned = new Map<number, number>();
  let refined: Set<number> | undefined;
  if (serverMentionBoost > 0) {
    const mentionTerms = new Set<number>();
    for (const term of query.terms) {
      const servers = serversByTerm.get(term.termId);
      if (servers === undefined) continue;
      mentionTerms.add(term.termId);
      const strength = Math.min(1, term.weight) * (query.capitalized.has(term.label) ? 1 : 0.5);
      for (const server of servers) mentioned.set(server, Math.max(mentioned.get(server) ?? 0, strength));
    }
    if (mentioned.size > 0) {
      // Accumulate into the shared scratch first; the full query below overwrites it.
      refined = new Set(index.accumulate(query.terms.filter((term) => !mentionTerms.has(term.termId))));
    }
  }
  const matched = index.accumulate(query.terms);
  const { scores, coverages, nameHits, nameTermCounts } = index;
  const coverageTotal = query.coverageTotal;
  for (let i = 0; i < matched.length; i++) {
    const doc = matched[i] as number;
    let score = scores[doc] as number;
    if (coverageExponent > 0 && coverageTotal > 0) {
      const coverage = Math.min(1, (coverages[doc] as number) / coverageTotal);
      score *= coverageExponent === 0.5 ? Math.sqrt(coverage) : coverage ** coverageExponent;
    }
    const nameTerms = nameTermCounts[doc] as number;
    if (nameMatchBoost > 0 && nameTerms > 0) {
      score *= 1 + nameMatchBoost * Math.min(1, (nameHits[doc] as number) / nameTerms);
    }
    if (refined?.has(doc)) {
      const strength = mentioned.get(serverOfDocument[doc] as number);
      if (strength !== undefined) score *= 1 + serverMentionBoost * strength;
    }
    finalScores[doc] = score;
  }
  if (factors.deprecatedFactor < 1) demoteDeprecated(matched, toolIndex, factors.deprecatedFactor);
  const best = topKByScore(matched, finalScores, depth);
  return Array.from(best, (doc) => ({ key: doc, score: finalScores[doc] as number }));
}

/** Deprecated tools: their score × factor, and below their replacement when it matched the same query. */
function demoteDeprecated(matched: Int32Array, toolIndex: ToolIndex, factor: number): void {
  const { deprecation, finalScores, index } = toolIndex;
  for (let i = 0; i < matched.length; i++) {
    const doc = matched[i] as number;
    const replacement = deprecation[doc] as number;
    if (replacement === NOT_DEPRECATED) continue;
    let score = (finalScores[doc] as number) * factor;
    if (replacement >= 0 && index.matchedLast(replacement) && deprecation[replacement] === NOT_DEPRECATED) {
      score = Math.min(score, (finalScores[replacement] as number) * BELOW_REPLACEMENT);
    }
    finalScores[doc] = score;
  }
}
