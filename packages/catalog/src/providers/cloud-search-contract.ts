/**
 * The cloud search wire contract (docs/cloud-search.md): `POST {url}/catalog/search` with a ranking request,
 * answered by a ranked list. Defined once, here: `CloudSearchProvider` sends and checks it, and the HTTP app serves
 * it (one Search MCP can be another's cloud ranker) and documents it in its OpenAPI from these schemas.
 */
import { configDefaults } from '@search-mcp/shared';
import { z } from 'zod';

/** The most tools one request may carry (a bound for servers; 50,000-tool catalogs fit). */
export const cloudSearchMaxTools = 100_000;

/** A tool as sent to the service: the fields a ranker may use (docs/cloud-search.md). Extra fields are kept. */
export const cloudSearchToolSchema = z.looseObject({
  toolKey: z.string().describe('`server:tool`'),
  toolName: z.string(),
  serverName: z.string().describe('The server id'),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The tool's JSON Schema, when the client sends it"),
});

export const cloudSearchRequestSchema = z.object({
  query: z
    .array(z.string())
    .min(1)
    .describe('Several phrasings or sub-steps of one task; a tool that serves any of them should rank high'),
  context: z.string().optional().describe('Background: the task as a whole (weaker evidence than `query`)'),
  tools: z
    .array(cloudSearchToolSchema)
    .max(cloudSearchMaxTools)
    .describe('The tools to rank (all visible to the caller)'),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(configDefaults.maxResultsLimit)
    .optional()
    .describe(`At most this many results; default ${configDefaults.maxResults}`),
});

/**
 * One ranked tool. Names and description are optional on the wire: the client takes them from its own tools, and
 * drops keys it did not send (a service must not introduce tools the caller may not see).
 */
export const cloudSearchResultSchema = z.looseObject({
  toolKey: z.string(),
  toolName: z.string().optional(),
  serverName: z.string().optional(),
  description: z.string().optional(),
  relevance: z.number().describe('0..1, best = 1 (below 1 when nothing fits well)'),
  explanation: z.string().optional().describe('Why this tool was chosen, e.g. the matched words'),
});

export const cloudSearchResponseSchema = z.object({
  results: z.array(cloudSearchResultSchema).describe('Best first'),
});

export type CloudSearchTool = z.infer<typeof cloudSearchToolSchema>;
export type CloudSearchRequest = z.infer<typeof cloudSearchRequestSchema>;
export type CloudSearchResult = z.infer<typeof cloudSearchResultSchema>;
export type CloudSearchResponse = z.infer<typeof cloudSearchResponseSchema>;
