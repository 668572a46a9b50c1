/** The search index of one tool set: the BM25F index over the tools' fields plus what the scoring factors need. */
import type { ToolInfo } from '@search-mcp/shared';
import { Bm25fIndexBuilder, type Bm25fIndex, type Bm25fParameters } from './bm25f-index.js';
import { findDeprecatedTools } from './deprecated-tools.js';
import { indexServerNames, type ServerNames } from './server-names.js';
import { SEARCH_FIELDS, toolFieldTerms } from './tool-search-fields.js';

export interface ToolIndex extends ServerNames {
  index: Bm25fIndex;
  toolCount: number;
  /** Per-search scratch: final score per document. */
  finalScores: Float64Array;
  /** Per document: not deprecated, deprecated, or deprecated with its replacement (`deprecated-tools.ts`). */
  deprecation: Int32Array;
}

export interface ToolIndexSettings extends Bm25fParameters {
  /** Index English for CJK tool text (the `translated` field). */
  documentTranslation: boolean;
}

/** What a build cost, for `onIndexBuilt` (tests, metrics). */
export interface Bm25IndexStats {
  tools: number;
  terms: number;
  postings: number;
  durationMs: number;
}

export function buildToolIndex(
  tools: readonly ToolInfo[],
  settings: ToolIndexSettings,
): { toolIndex: ToolIndex; stats: Bm25IndexStats } {
  const started = performance.now();
  const builder = new Bm25fIndexBuilder(SEARCH_FIELDS.length);
  const fieldOptions = { translate: settings.documentTranslation };
  for (const tool of tools) {
    // A malformed entry still takes its slot, so document ids stay equal to array positions.
    builder.addDocument(tool !== null && typeof tool === 'object' ? toolFieldTerms(tool, fieldOptions) : []);
  }
  const index = builder.build({ k1: settings.k1, weights: settings.weights, b: settings.b });
  const { serverOfDocument, serversByTerm } = indexServerNames(tools, index);
  const stats: Bm25IndexStats = {
    tools: tools.length,
    terms: index.termCount,
    postings: index.postingCount,
    durationMs: performance.now() - started,
  };
  return {
    toolIndex: {
      index,
      toolCount: tools.length,
      finalScores: new Float64Array(tools.length),
      serverOfDocument,
      serversByTerm,
      deprecation: findDeprecatedTools(tools),
    },
    stats,
  };
}
