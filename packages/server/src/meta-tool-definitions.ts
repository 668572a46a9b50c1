import { configDefaults, isRecord } from '@search-mcp/shared';
import { z } from 'zod';
import { toolDiscoveryArguments, toolExecuteArguments } from './meta-tool-arguments.js';

/**
 * The two tools a model sees in meta mode. Their names, descriptions and schemas are all it knows before it
 * searches, and they are loaded into every conversation: they say when to search, that several phrasings help, and
 * that `toolKey` is passed exactly — in as few tokens as that takes.
 */
export const TOOL_DISCOVERY = 'tool_discovery';
export const TOOL_EXECUTE = 'tool_execute';

type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
type JsonObject = { [key: string]: JsonValue };

/**
 * A meta tool as listed: the part of MCP's `Tool` these two use, spelled out so a definition is a `Tool` of either SDK
 * generation (1.x types `inputSchema.properties` as objects, 2.x as JSON values; JSON objects are both).
 */
export interface MetaToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonObject>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean };
}

/**
 * How to ask, where the model reads it when it fills in `query`. Tool text is terse and verb-first ("Post a message
 * to a Slack channel"), users are not ("drop a note in #deploys"): phrasings in tool words find the tool by its words,
 * the user's own words keep what only they say (names, places, Japanese). Measured on the held-out real-server
 * requests (bench/results/hybrid-search.md, "How the model asks"): phrasings plus the user's words raise hit@1 of
 * BM25 from 0.74 to 0.96 in English.
 */
const QUERY_DESCRIPTION =
  "Phrasings of the action (verb + object), then the user's own words; any language. " +
  'E.g. ["post message slack channel", "send chat message", "tell #deploys the build is done"]. ' +
  'Several steps: phrasings for each.';

/**
 * `tool_discovery` as listed. `defaultMaxResults` is the configured `search.maxResults`, so the description says the
 * default that really applies. One frozen definition per value, shared by every server instance: `search-mcp-http`
 * builds an instance for every 2026-07-28 request, and copying the schema for each cost more than the rest of the
 * definitions (bench/http-bench.ts `--profile`).
 */
export function toolDiscoveryDefinition(defaultMaxResults: number = configDefaults.maxResults): MetaToolDefinition {
  let definition = discoveryDefinitions.get(defaultMaxResults);
  if (definition === undefined) {
    const inputSchema = toToolInputSchema(toolDiscoveryArguments);
    const { query, maxResults } = inputSchema.properties;
    if (query) query.description = QUERY_DESCRIPTION;
    if (maxResults) maxResults.description = `Default ${defaultMaxResults}.`;
    definition = deepFreeze({
      name: TOOL_DISCOVERY,
      title: 'Find tools',
      description:
        'Search the tools of all connected MCP servers. Use it whenever a task needs a capability you do not have ' +
        "as a tool. In `query`, give 2-4 short phrasings of the action in tool words, plus the user's words. " +
        'Returns toolKeys with their input schemas; run one with tool_execute.',
      inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    discoveryDefinitions.set(defaultMaxResults, definition);
  }
  return definition;
}

const discoveryDefinitions = new Map<number, MetaToolDefinition>();
let executeDefinition: MetaToolDefinition | undefined;

/** `tool_execute` as listed: one frozen definition, shared as `tool_discovery`'s is. */
export function toolExecuteDefinition(): MetaToolDefinition {
  executeDefinition ??= deepFreeze({
    name: TOOL_EXECUTE,
    title: 'Run a tool',
    description:
      'Run a tool found with tool_discovery. Pass its toolKey exactly as returned and arguments that match its ' +
      'input schema.',
    inputSchema: toToolInputSchema(toolExecuteArguments),
  });
  return executeDefinition;
}

/** `value` and everything in it made read-only: a shared definition that someone edits fails loudly. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The JSON Schema clients see for a zod schema of arguments (what it accepts, `io: 'input'`), without keywords that
 * constrain nothing and cost tokens in every conversation: `$schema` (2020-12 is MCP's default), `propertyNames:
 * { type: 'string' }` and `additionalProperties: {}`.
 */
function toToolInputSchema(schema: z.ZodType): MetaToolDefinition['inputSchema'] {
  let built = builtSchemas.get(schema);
  if (!built) {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    built = withoutNoOpKeywords(json) as MetaToolDefinition['inputSchema'];
    builtSchemas.set(schema, built);
  }
  // A copy: `tool_discovery` edits its descriptions (once per value, then the definition is shared).
  return structuredClone(built);
}

/**
 * Each schema converted once per process: `z.toJSONSchema` cost ~0.4–0.7 ms, and `search-mcp-http` builds a server
 * instance (so both definitions) for every 2026-07-28 request (bench/results/http.md, `--profile`).
 */
const builtSchemas = new WeakMap<z.ZodType, MetaToolDefinition['inputSchema']>();

function withoutNoOpKeywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNoOpKeywords);
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && isRecord(child) && Object.keys(child).length === 0) continue;
    if (key === 'propertyNames' && isRecord(child) && child.type === 'string' && Object.keys(child).length === 1)
      continue;
    result[key] = withoutNoOpKeywords(child);
  }
  return result;
}
