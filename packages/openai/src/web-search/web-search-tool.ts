/**
 * The MCP tool `chatgpt_o3_search` as plain JSON (no SDK import): the input schema of apps/web-search-server/README.md
 * ("The tool"), an output schema, and the argument check behind it. Hosts list `webSearchTool` and pass `tools/call`
 * arguments to `callWebSearchTool`.
 */
import { ValidationError, type JsonSchemaObject } from '@search-mcp/shared';
import * as z from 'zod';
import type { WebSearchParams } from './web-search-types.js';

export const webSearchToolName = 'chatgpt_o3_search';

export const webSearchLimits = {
  defaultLimit: 10,
  maxLimit: 50,
  /** Longer queries are a mistake (a pasted document), and OpenAI bills every input token. */
  maxQueryLength: 2_000,
  maxLanguageLength: 64,
} as const;

export const webSearchTimeframes = ['recent', 'past_week', 'past_month', 'past_year'] as const;

const resultSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    url: { type: 'string' },
    snippet: { type: 'string', description: 'What the model wrote about this source next to its citation.' },
    publishedDate: { type: 'string', description: 'YYYY-MM-DD or YYYY-MM, when the model named one.' },
    relevanceScore: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'Position-based: 1 for the first source the model listed, decreasing evenly.',
    },
  },
  required: ['title', 'url', 'snippet'],
} as const;

export const webSearchTool: {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean };
} = {
  name: webSearchToolName,
  title: 'Web search (OpenAI o3)',
  description:
    "Search the web (internet) with OpenAI's o3 and its web search tool, to look up current information, news, " +
    'documentation and facts. Returns the sources the model found and cited, ' +
    'best first: title, URL, a snippet of what the source says, and its publication date when known. A search ' +
    'takes 30 seconds to a few minutes; progress is reported while it runs.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'What to search for, in any language (a question or keywords).',
        maxLength: webSearchLimits.maxQueryLength,
      },
      limit: {
        type: 'integer',
        description: 'The most results to return.',
        default: webSearchLimits.defaultLimit,
        minimum: 1,
        maximum: webSearchLimits.maxLimit,
      },
      language: {
        type: 'string',
        description: 'Language of the results (e.g. ja, en); auto follows the query.',
        default: 'auto',
        maxLength: webSearchLimits.maxLanguageLength,
      },
      timeframe: {
        type: 'string',
        description: 'Only sources from this period.',
        enum: [...webSearchTimeframes],
      },
    },
    required: ['query'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      results: { type: 'array', items: resultSchema },
      model: { type: 'string', description: 'The model that answered.' },
      responseId: { type: 'string', description: 'The OpenAI response id.' },
      notice: { type: 'string' },
      error: {
        type: 'object',
        description:
          'Present when the search failed (isError): the code is -32001 authentication, -32002 search, -32003 rate limit, -32602 invalid query, -32603 internal.',
        properties: {
          code: { type: 'integer' },
          kind: { type: 'string' },
          message: { type: 'string' },
          retryAfterSeconds: { type: 'number' },
          status: { type: 'integer' },
          requestId: { type: 'string' },
        },
        required: ['code', 'kind', 'message'],
      },
    },
    required: ['results'],
  },
  annotations: { title: 'Web search (OpenAI o3)', readOnlyHint: true, openWorldHint: true },
};

const argumentsSchema = z.object({
  query: z.string({ error: 'expected a string' }).max(webSearchLimits.maxQueryLength, {
    error: `expected at most ${webSearchLimits.maxQueryLength} characters`,
  }),
  limit: z
    .number({ error: 'expected a number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: `expected 1 to ${webSearchLimits.maxLimit}` })
    .max(webSearchLimits.maxLimit, { error: `expected 1 to ${webSearchLimits.maxLimit}` })
    .optional(),
  language: z
    .string({ error: 'expected a string' })
    .max(webSearchLimits.maxLanguageLength, {
      error: `expected at most ${webSearchLimits.maxLanguageLength} characters`,
    })
    .optional(),
  timeframe: z.enum(webSearchTimeframes, { error: `expected one of ${webSearchTimeframes.join(', ')}` }).optional(),
});

/**
 * Checks `tools/call` arguments against the input schema. An empty query passes (the search explains it as a
 * tool error the model can read); wrong types and ranges do not.
 * @throws ValidationError naming every wrong argument (`arguments.limit: expected 1 to 50`), never its value.
 */
export function parseWebSearchArguments(input: unknown): WebSearchParams {
  const parsed = argumentsSchema.safeParse(input ?? {});
  if (parsed.success) {
    const { query, limit, language, timeframe } = parsed.data;
    return {
      query,
      ...(limit !== undefined ? { limit } : {}),
      ...(language !== undefined ? { language } : {}),
      ...(timeframe !== undefined ? { timeframe } : {}),
    };
  }
  const issues = parsed.error.issues.map((issue) => ({
    path: ['arguments', ...issue.path.map(String)].join('.'),
    message: issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined ? 'is required' : issue.message,
  }));
  throw new ValidationError({ issues });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
