import type { CatalogSearchHit } from '@search-mcp/catalog';
import type { DiscoveryDetail } from './meta-tool-definitions.js';

export interface DiscoveryResult {
  toolKey: string;
  toolName: string;
  serverName: string;
  title?: string;
  description: string;
  relevance: number;
  explanation?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The longest description sent at `summary` detail; `full` sends it whole. */
const summaryDescriptionLength = 600;

/**
 * Shapes search hits for a model at the requested detail. `summary` (the default) must stay small, since five hits
 * go into the context at once: long descriptions are cut at a sentence, and schema keywords that only validators
 * need are removed. `full` passes everything unchanged.
 */
export function toDiscoveryResults(hits: readonly CatalogSearchHit[], detail: DiscoveryDetail): DiscoveryResult[] {
  return hits.map((hit) => {
    const { tool } = hit;
    const result: DiscoveryResult = {
      toolKey: hit.toolKey,
      toolName: hit.toolName,
      serverName: hit.serverName,
      description: detail === 'full' ? tool.description : shorten(tool.description, summaryDescriptionLength),
      relevance: Math.round(hit.relevance * 1000) / 1000,
    };
    if (tool.title) result.title = tool.title;
    if (hit.explanation && detail !== 'minimal') result.explanation = hit.explanation;
    if (detail === 'summary') result.inputSchema = compactSchema(tool.inputSchema) as Record<string, unknown>;
    if (detail === 'full') {
      result.inputSchema = tool.inputSchema;
      if (tool.outputSchema) result.outputSchema = tool.outputSchema;
      if (tool.annotations) result.annotations = tool.annotations;
    }
    return result;
  });
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('。'));
  return `${(sentenceEnd > limit / 2 ? cut.slice(0, sentenceEnd + 1) : cut).trimEnd()} …`;
}

const droppedKeywords = new Set(['$schema', '$id', 'additionalProperties', 'title', 'examples', '$comment']);

/** Removes keywords a model does not need to call the tool; keeps types, descriptions, required, enums, defaults. */
function compactSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactSchema);
  if (typeof value !== 'object' || value === null) return value;
  const compact: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (droppedKeywords.has(key)) continue;
    // `properties` holds names, not keywords: keep every one.
    compact[key] = key === 'properties' && typeof child === 'object' && child !== null
      ? Object.fromEntries(Object.entries(child).map(([name, schema]) => [name, compactSchema(schema)]))
      : compactSchema(child);
  }
  return compact;
}
