/**
 * The REST API's request and response schemas (apps/http-server/README.md). Routes validate and serialize with them and
 * the OpenAPI document is generated from them, so the docs cannot drift from what the code does. The cloud search
 * contract of `/catalog/search` is the catalog's own (`cloudSearchRequestSchema`), defined once for client and server.
 */
import { z } from 'zod';
import { restLimits } from '../rest-limits.js';

/** Schemas that become named OpenAPI components (`#/components/schemas/<id>`). */
export const openApiComponents = z.registry<{ id: string }>();

export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.string().describe('One line saying what went wrong and, where it helps, what to do'),
    code: z.string().describe('Machine-readable: TOOL_NOT_FOUND, VALIDATION_ERROR, AUTHENTICATION_ERROR, …'),
  })
  .register(openApiComponents, { id: 'Error' });

export const healthSchema = z.object({
  status: z.literal('ok'),
  message: z.string(),
  version: z.string(),
  uptime: z.number().describe('Seconds since start'),
  timestamp: z.string().describe('ISO 8601'),
  mcp: z
    .object({
      sessions: z.number().describe('Open MCP sessions of 2025-era clients'),
      modernRequests: z.number().describe('2026-07-28 MCP requests served since start (they have no session)'),
      listenStreams: z.number().describe('Open 2026-07-28 subscriptions/listen streams'),
      parkedCalls: z
        .number()
        .optional()
        .describe('Calls of 2026-07-28 clients waiting for their input_required retry (a backend asked for input)'),
    })
    .describe('MCP clients per protocol era'),
});

export const projectHeaderSchema = z.looseObject({
  'x-project-id': z.string().optional().describe('The project whose servers the request sees'),
});

export const toolListQuerySchema = z.object({
  server: z.string().optional().describe('Only tools of this server id'),
  category: z.string().optional(),
  tag: z.string().optional(),
  enabled: z.enum(['true', 'false']).optional().describe('Blocked tools are never listed, so `false` lists nothing'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(restLimits.listPageMax).default(restLimits.listPageDefault),
});

export const toolSummarySchema = z
  .object({
    toolKey: z.string().describe('`server:tool` (a tool renamed in the config: `server:<new name>`)'),
    name: z.string().describe("The tool's name as shown (a config override's new name, if any)"),
    originalName: z
      .string()
      .optional()
      .describe("The backend's own name of a tool the config renamed (calls use the key, never this)"),
    serverName: z.string(),
    description: z.string(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    enabled: z.boolean(),
  })
  .register(openApiComponents, { id: 'ToolSummary' });

export const toolListSchema = z.object({
  tools: z.array(toolSummarySchema),
  pagination: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  }),
});

export const toolKeyParamsSchema = z.object({
  toolKey: z.string().describe('`server:tool` (also `server.tool` and `server__tool`)'),
});

const jsonObjectSchema = z.record(z.string(), z.unknown());

export const toolDetailSchema = toolSummarySchema.extend({
  title: z.string().optional(),
  inputSchema: jsonObjectSchema.describe("The tool's JSON Schema"),
  outputSchema: jsonObjectSchema.optional(),
  annotations: jsonObjectSchema.optional(),
  serverDescription: z.string().optional(),
});

export const toolCallBodySchema = z.object({
  name: z.string().min(1).describe('The tool key, `server:tool`'),
  parameters: jsonObjectSchema.default({}).describe("The tool's arguments"),
});

/** Every answer of `POST /v1/tools/call`, failures included; authentication failures carry no timing. */
export const toolCallResponseSchema = z
  .object({
    success: z.boolean(),
    result: jsonObjectSchema.optional().describe("The backend's CallToolResult, unchanged"),
    error: z.string().optional(),
    code: z.string().optional(),
    retryAfterMs: z
      .number()
      .optional()
      .describe('A rate limit (429): milliseconds until the call would be let through; also in Retry-After'),
    limit: z
      .string()
      .optional()
      .describe('A rate limit (429): the limit that refused, e.g. security.rateLimits.perToken'),
    executionTime: z.number().optional().describe('Milliseconds'),
    timestamp: z.string().optional().describe('ISO 8601'),
  })
  .register(openApiComponents, { id: 'ToolCallResponse' });

export const toolSearchBodySchema = z.object({
  query: z
    .union([z.string().min(1), z.array(z.string()).min(1)])
    .describe('One phrasing, or several phrasings / steps of one task'),
  filters: z
    .object({ server: z.string().optional(), category: z.string().optional(), tags: z.array(z.string()).optional() })
    .optional()
    .describe('Narrows the tools before ranking'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(restLimits.maxResults)
    .optional()
    .describe('At most this many results; default `search.maxResults` of the config'),
});

export const searchHitSchema = z
  .object({
    toolKey: z.string(),
    toolName: z.string(),
    serverName: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    relevance: z.number().min(0).max(1).describe('0..1, best = 1 (below 1 when nothing fits well)'),
    explanation: z.string().optional(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .register(openApiComponents, { id: 'SearchHit' });

export const toolSearchResponseSchema = z.object({
  query: toolSearchBodySchema.shape.query,
  results: z.array(searchHitSchema),
  total: z.number().int(),
  match: z
    .enum(['good', 'weak', 'none'])
    .describe('good: the best hit covers the request; weak: only in part; none: nothing (or almost nothing) fits'),
  strategy: z
    .enum(['bm25', 'hybrid', 'llm', 'cloud', 'off'])
    .optional()
    .describe("The ranker that produced the order (the caller's project's strategy, or bm25 after a fallback)"),
  fallbackReason: z.string().optional().describe('Why the configured strategy fell back to bm25'),
  notice: z
    .string()
    .optional()
    .describe('For weak and none: what to do, e.g. "no tool matches \'send an email\' well; the closest are …"'),
});

export const serverIdParamsSchema = z.object({
  serverId: z.string().describe('The server id: its key under `mcpServers` in the config'),
});

export const authorizeQuerySchema = z.object({
  shared: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      "For a per-user server: `true` authorizes its shared connection instead of the caller's own (admin only): the " +
        'account that lists its tools and serves callers without a token',
    ),
});

/** A backend's OAuth state (never a token: the schema has no field that could carry one). */
export const serverOAuthStatusSchema = z
  .object({
    state: z
      .enum(['authorized', 'needs-auth', 'pending', 'none'])
      .describe('pending: an authorization was started and its redirect has not come back yet'),
    issuer: z.string().optional().describe('The authorization server that issued the stored tokens'),
    scope: z.string().optional().describe('Granted scopes, space separated'),
    expiresAt: z.string().optional().describe('ISO 8601: when the access token expires'),
    refreshable: z.boolean().optional().describe('A refresh token is stored: the access token renews by itself'),
  })
  .register(openApiComponents, { id: 'ServerOAuthStatus' });

/** A backend server's status: what `McpClientManager.status()` reports, minus the process id. */
export const serverStatusSchema = z
  .object({
    id: z.string(),
    state: z
      .enum(['starting', 'running', 'crashed', 'stopped', 'disabled', 'failed', 'needs-auth'])
      .describe('needs-auth: a remote server waiting for OAuth authorization (POST /v1/servers/{serverId}/authorize)'),
    transport: z.enum(['stdio', 'http', 'sse']).optional(),
    toolCount: z.number().int(),
    connectedAt: z.string().optional().describe('ISO 8601'),
    connectMs: z.number().optional(),
    lastError: z.string().optional().describe('Configured secrets and tokens masked'),
    restarts: z.number().int(),
    serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
    protocolVersion: z.string().optional(),
    protocolEra: z.enum(['legacy', 'modern']).optional(),
    features: z.array(z.string()).optional(),
    oauth: serverOAuthStatusSchema.optional(),
    perUser: z
      .object({ connections: z.number().int(), maxConnections: z.number().int() })
      .optional()
      .describe('identity "per-user": the callers with a connection of their own now, and the most kept at once'),
  })
  .register(openApiComponents, { id: 'ServerStatus' });

export const serverListSchema = z.object({ servers: z.array(serverStatusSchema) });

export const authorizeResponseSchema = z.object({
  serverId: z.string(),
  authorizationUrl: z
    .string()
    .optional()
    .describe('Open it in a browser and authorize; the authorization server then sends the browser to /oauth/callback'),
  authorized: z
    .literal(true)
    .optional()
    .describe('No person was needed: its grant needs none (client credentials), and the server is connecting'),
});
