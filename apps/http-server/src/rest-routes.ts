import { Bm25SearchProvider, type Caller } from '@search-mcp/catalog';
import type { SearchMcpRuntime } from '@search-mcp/meta-tools';
import { ValidationError, parseToolKey, type ToolInfo } from '@search-mcp/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toHttpError } from './http-errors.js';
import { z } from 'zod';

export interface RestRoutesOptions {
  runtime: SearchMcpRuntime;
  callerOf: (request: FastifyRequest) => Caller;
}

const ListQuery = z.object({
  server: z.string().optional(),
  category: z.string().optional(),
  tag: z.string().optional(),
  enabled: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const CallBody = z.object({ name: z.string().min(1), parameters: z.record(z.string(), z.unknown()).default({}) });

const SearchBody = z.object({
  query: z.union([z.string().min(1), z.array(z.string()).min(1)]),
  filters: z
    .object({ server: z.string().optional(), category: z.string().optional(), tags: z.array(z.string()).optional() })
    .optional(),
  limit: z.number().int().min(1).max(50).default(10),
});

/** The seed 004 cloud search request: a ranking service over the tools the caller sends. */
const CatalogSearchBody = z.object({
  query: z.array(z.string()).min(1),
  context: z.string().optional(),
  tools: z
    .array(
      z.looseObject({
        toolKey: z.string(),
        toolName: z.string(),
        serverName: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
        inputSchema: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .max(100_000),
  maxResults: z.number().int().min(1).max(100).default(10),
});

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError({
    issues: result.error.issues.map((issue) => ({ path: [where, ...issue.path].join('.'), message: issue.message })),
  });
}

function listEntry(tool: ToolInfo) {
  return {
    toolKey: tool.toolKey,
    name: tool.toolName,
    serverName: tool.serverName,
    description: tool.description,
    ...(tool.category !== undefined ? { category: tool.category } : {}),
    ...(tool.tags !== undefined ? { tags: tool.tags } : {}),
    enabled: true,
  };
}

/** REST API v1 (CONTRACT §6). Handlers only translate HTTP to catalog calls; errors become `{ success, error, code }`. */
export function registerRestRoutes(app: FastifyInstance, options: RestRoutesOptions): void {
  const { runtime, callerOf } = options;
  const ranker = new Bm25SearchProvider();

  app.get('/v1/tools', async (request) => {
    const query = parse(ListQuery, request.query, 'query');
    // Tools blocked by the config are not visible at all; `enabled=false` therefore lists nothing.
    const tools =
      query.enabled === 'false'
        ? []
        : await runtime.catalog.list(
            {
              ...(query.server ? { server: query.server } : {}),
              ...(query.category ? { category: query.category } : {}),
              ...(query.tag ? { tag: query.tag } : {}),
            },
            callerOf(request),
          );
    const start = (query.page - 1) * query.limit;
    return {
      tools: tools.slice(start, start + query.limit).map(listEntry),
      pagination: {
        page: query.page,
        limit: query.limit,
        total: tools.length,
        totalPages: Math.ceil(tools.length / query.limit),
      },
    };
  });

  app.get<{ Params: { toolKey: string } }>('/v1/tools/:toolKey', async (request) => {
    const tool = await runtime.catalog.get(request.params.toolKey, callerOf(request));
    return {
      ...listEntry(tool),
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      ...(tool.serverDescription !== undefined ? { serverDescription: tool.serverDescription } : {}),
    };
  });

  app.post('/v1/tools/call', async (request, reply) => {
    const started = performance.now();
    // Every answer of this route, failures too, carries executionTime and timestamp (CONTRACT §6).
    const timing = () => ({
      executionTime: Math.round(performance.now() - started),
      timestamp: new Date().toISOString(),
    });
    try {
      const body = parse(CallBody, request.body, 'body');
      const serverId = parseToolKey(body.name)?.serverId;
      request.auditFields = { toolKey: body.name, ...(serverId ? { serverId } : {}) };
      const result = await runtime.catalog.execute(body.name, body.parameters, callerOf(request));
      request.auditFields.outcome = result.isError ? 'tool_error' : 'ok';
      const firstText = (
        result.content?.find((part) => (part as { type?: string }).type === 'text') as { text?: string } | undefined
      )?.text;
      return {
        success: !result.isError,
        result,
        ...(result.isError ? { error: firstText ?? 'The tool reported an error', code: 'TOOL_ERROR' } : {}),
        ...timing(),
      };
    } catch (error) {
      const { status, body } = toHttpError(error);
      request.auditFields = { ...request.auditFields, errorCode: body.code };
      return reply.code(status).send({ ...body, ...timing() });
    }
  });

  app.post('/v1/tools/search', async (request) => {
    const body = parse(SearchBody, request.body, 'body');
    const queries = typeof body.query === 'string' ? [body.query] : body.query;
    const { filters } = body;
    // The catalog narrows to the filter before ranking, so a small server is found even when 50 others rank higher.
    const filter = {
      ...(filters?.server !== undefined ? { server: filters.server } : {}),
      ...(filters?.category !== undefined ? { category: filters.category } : {}),
      ...(filters?.tags !== undefined ? { tags: filters.tags } : {}),
    };
    const response = await runtime.catalog.search(
      { query: queries, maxResults: body.limit, ...(Object.keys(filter).length > 0 ? { filter } : {}) },
      callerOf(request),
    );
    const results = response.results.map(({ tool, ...hit }) => ({
      ...hit,
      ...(tool.category !== undefined ? { category: tool.category } : {}),
      ...(tool.tags !== undefined ? { tags: tool.tags } : {}),
    }));
    request.auditFields = { queries, resultCount: results.length };
    return { query: body.query, results, total: results.length };
  });

  // Served by this instance's BM25, so one Search MCP can be another's CloudSearchProvider.
  app.post('/catalog/search', async (request) => {
    const body = parse(CatalogSearchBody, request.body, 'body');
    const tools: ToolInfo[] = body.tools.map((tool) => ({
      toolKey: tool.toolKey,
      toolName: tool.toolName,
      serverName: tool.serverName,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema as ToolInfo['inputSchema'] | undefined) ?? { type: 'object' },
      ...(tool.title !== undefined ? { title: tool.title } : {}),
    }));
    const results = await ranker.search({
      queries: body.query,
      tools,
      maxResults: body.maxResults,
      ...(body.context ? { context: body.context } : {}),
    });
    request.auditFields = { queries: body.query, resultCount: results.length };
    return { results };
  });

  for (const [from, to] of [
    ['/tools', '/v1/tools'],
    ['/tools/call', '/v1/tools/call'],
    ['/tools/search', '/v1/tools/search'],
  ] as const) {
    app.route({
      method: ['GET', 'POST'],
      url: from,
      handler: async (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`${to}${query}`, 308);
      },
    });
  }
}
