import type { CatalogSearchHit } from '@search-mcp/catalog';
import type { DiscoveryDetail } from './meta-tool-arguments.js';

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
  /** The tool's server is still starting: the hit comes from its last tool list, and a call waits for it. */
  serverStarting?: true;
}

/** The longest description sent at `summary` detail; `full` sends it whole. */
const summaryDescriptionLength = 600;
/** The longest parameter description at `summary` detail. */
const summaryPropertyDescriptionLength = 160;
/** Below this depth of nested objects, `summary` keeps only the type of a value. */
const summarySchemaDepth = 3;
/**
 * The size (JSON characters, about 3.5 per Claude token) a `summary` answer aims to stay within: five hits must fit
 * in a model's context next to everything else. Lower-ranked hits give up schema detail first, down to parameter
 * names and types (never the whole schema: `summary` promises one); the top hit never does.
 */
const summaryBudgetCharacters = 7500;

export interface DiscoveryResults {
  results: DiscoveryResult[];
  /** True when lower-ranked hits' schemas were cut to parameter names and types to keep the answer small. */
  shortened: boolean;
}

/**
 * Shapes search hits for a model at the requested detail. `summary` (the default) must stay small, since five hits
 * go into the context at once: long descriptions are cut at a sentence, schema keywords only validators need are
 * removed, deep nesting is reduced to types, and past a budget lower hits keep only parameter names and types
 * (each keeps an inputSchema, so the answer may stay above the budget).
 * `full` passes everything unchanged.
 */
export function toDiscoveryResults(hits: readonly CatalogSearchHit[], detail: DiscoveryDetail): DiscoveryResults {
  const results = hits.map((hit) => {
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
    if (detail === 'summary') result.inputSchema = compactSchema(tool.inputSchema, 0) as Record<string, unknown>;
    if (detail === 'full') {
      result.inputSchema = tool.inputSchema;
      if (tool.outputSchema) result.outputSchema = tool.outputSchema;
      if (tool.annotations) result.annotations = tool.annotations;
    }
    return result;
  });
  if (detail !== 'summary') return { results, shortened: false };

  let shortened = false;
  for (
    let index = results.length - 1;
    index >= 1 && JSON.stringify(results).length > summaryBudgetCharacters;
    index -= 1
  ) {
    const result = results[index] as DiscoveryResult;
    result.inputSchema = parameterNamesOnly(result.inputSchema);
    delete result.explanation;
    shortened = true;
  }
  return { results, shortened };
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('。'));
  return `${(sentenceEnd > limit / 2 ? cut.slice(0, sentenceEnd + 1) : cut).trimEnd()} …`;
}

const droppedKeywords = new Set(['$schema', '$id', 'additionalProperties', 'title', 'examples', '$comment']);

/**
 * Removes what a model does not need to call the tool; keeps types, descriptions (shortened), required, enums and
 * defaults. Objects nested deeper than `summarySchemaDepth` keep only their type.
 */
function compactSchema(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => compactSchema(item, depth));
  if (typeof value !== 'object' || value === null) return value;
  const schema = value as Record<string, unknown>;
  if (depth >= summarySchemaDepth && (schema.properties !== undefined || schema.items !== undefined)) {
    return schema.type !== undefined ? { type: schema.type } : {};
  }
  const compact: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema)) {
    if (droppedKeywords.has(key)) continue;
    if (key === 'description' && typeof child === 'string')
      compact[key] = shorten(child, summaryPropertyDescriptionLength);
    // `properties` holds names, not keywords: keep every one.
    else if (key === 'properties' && typeof child === 'object' && child !== null) {
      compact[key] = Object.fromEntries(
        Object.entries(child).map(([name, property]) => [name, compactSchema(property, depth + 1)]),
      );
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      compact[key] = compactSchema(child, depth + 1);
    else compact[key] = compactSchema(child, depth);
  }
  return compact;
}

/** The schema reduced to its parameters' names and types, and which are required. */
function parameterNamesOnly(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return { type: 'object', properties: {} };
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        property?.type !== undefined ? { type: property.type } : {},
      ]),
    ),
    ...(Array.isArray(schema.required) ? { required: schema.required } : {}),
  };
}
