/** The search index of one tool set: the BM25F index over the tools' fields plus what the scoring factors need. */
import type { ToolInfo } from '@search-mcp/shared';
import { Bm25fIndexBuilder, type Bm25fIndex, type Bm25fParameters } from './bm25f-index.js';
import { findDeprecatedTools } from './deprecated-tools.js';
import { indexServerNames, type ServerNames } from './server-names.js';
import type { ToolDocuments } from './tool-documents.js';
import { SEARCH_FIELDS } from './tool-search-fields.js';

export interface ToolIndex extends ServerNames {
  index: Bm25fIndex;
  toolCount: number;
  /** Per-search scratch: final score per document. */
  finalScores: Float64Array;
  /** Per document: not deprecated, deprecated, or deprecated with its replacement (`deprecated-tools.ts`). */
  deprecation: Int32Array;
}

/** What a build cost, for `onIndexBuilt` (tests, metrics). */
export interface Bm25IndexStats {
  tools: number;
  terms: number;
  postings: number;
  durationMs: number;
}

/** `documents`: the analyzed fields of the tools seen before (`tool-documents.ts`), so only new tools are tokenized. */
export function buildToolIndex(
  tools: readonly ToolInfo[],
  settings: Bm25fParameters,
  documents: ToolDocuments,
): { toolIndex: ToolIndex; stats: Bm25IndexStats } {
  const started = performance.now();
  // Room for as many postings per tool as the last build had (a first build guesses), so the arrays rarely grow.
  const postings = Math.ceil(tools.length * documents.postingsPerTool);
  const builder = new Bm25fIndexBuilder(SEARCH_FIELDS.length, documents.dictionary, {
    documents: tools.length,
    postings,
  });
  const reader = documents.reader();
  try {
    // A malformed entry still takes its slot, so document ids stay equal to array positions.
    for (const tool of tools) {
      reader.read(tool);
      builder.addEncoded(reader.data, reader.start);
    }
  } finally {
    // The documents written so far are complete and remembered: keep them even if the build stops.
    reader.finish();
  }
  const index = builder.build({ k1: settings.k1, weights: settings.weights, b: settings.b });
  if (tools.length > 0) documents.postingsPerTool = index.postingCount / tools.length;
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
