/** The REST API as OpenAPI 3.1, served at `/v1/openapi.json`. */
export function openApiDocument(version: string): Record<string, unknown> {
  const error = { $ref: '#/components/schemas/Error' };
  const errors = (...statuses: number[]) =>
    Object.fromEntries(
      statuses.map((status) => [
        String(status),
        { description: statusText[status] ?? 'Error', content: { 'application/json': { schema: error } } },
      ]),
    );
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Search MCP REST API',
      version,
      description: 'Find and run the tools of every MCP server behind this Search MCP instance.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: {
        project: {
          name: 'X-Project-Id',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'The project whose servers the request sees.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['success', 'error', 'code'],
          properties: { success: { const: false }, error: { type: 'string' }, code: { type: 'string' } },
        },
        ToolSummary: {
          type: 'object',
          required: ['toolKey', 'name', 'serverName', 'description', 'enabled'],
          properties: {
            toolKey: { type: 'string' },
            name: { type: 'string' },
            serverName: { type: 'string' },
            description: { type: 'string' },
            category: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
            enabled: { type: 'boolean' },
          },
        },
        SearchResult: {
          type: 'object',
          required: ['toolKey', 'toolName', 'serverName', 'relevance'],
          properties: {
            toolKey: { type: 'string' },
            toolName: { type: 'string' },
            serverName: { type: 'string' },
            description: { type: 'string' },
            relevance: { type: 'number', minimum: 0, maximum: 1 },
            explanation: { type: 'string' },
          },
        },
      },
    },
    paths: {
      '/': {
        get: {
          summary: 'Health',
          security: [],
          responses: {
            200: json({
              type: 'object',
              properties: {
                status: { type: 'string' },
                message: { type: 'string' },
                version: { type: 'string' },
                uptime: { type: 'number' },
                timestamp: { type: 'string' },
              },
            }),
          },
        },
      },
      '/v1/tools': {
        get: {
          summary: 'List visible tools',
          parameters: [
            { $ref: '#/components/parameters/project' },
            ...['server', 'category', 'tag'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
            { name: 'enabled', in: 'query', schema: { type: 'boolean' } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          ],
          responses: {
            200: json({
              type: 'object',
              properties: {
                tools: { type: 'array', items: { $ref: '#/components/schemas/ToolSummary' } },
                pagination: {
                  type: 'object',
                  properties: {
                    page: { type: 'integer' },
                    limit: { type: 'integer' },
                    total: { type: 'integer' },
                    totalPages: { type: 'integer' },
                  },
                },
              },
            }),
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/v1/tools/{toolKey}': {
        get: {
          summary: 'One tool with its input schema',
          parameters: [
            { name: 'toolKey', in: 'path', required: true, schema: { type: 'string' }, description: 'server:tool' },
            { $ref: '#/components/parameters/project' },
          ],
          responses: { 200: json({ type: 'object' }), ...errors(401, 403, 404, 429) },
        },
      },
      '/v1/tools/call': {
        post: {
          summary: 'Run a tool',
          parameters: [{ $ref: '#/components/parameters/project' }],
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string', description: 'Tool key' }, parameters: { type: 'object' } },
            }),
          },
          responses: {
            200: json({
              type: 'object',
              properties: {
                success: { type: 'boolean' },
                result: { type: 'object' },
                error: { type: 'string' },
                code: { type: 'string' },
                executionTime: { type: 'number' },
                timestamp: { type: 'string' },
              },
            }),
            ...errors(400, 401, 403, 404, 408, 413, 429, 500, 502, 503),
          },
        },
      },
      '/v1/tools/search': {
        post: {
          summary: 'Search tools',
          parameters: [{ $ref: '#/components/parameters/project' }],
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['query'],
              properties: {
                query: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
                filters: {
                  type: 'object',
                  properties: {
                    server: { type: 'string' },
                    category: { type: 'string' },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
                limit: { type: 'integer', minimum: 1, maximum: 50 },
              },
            }),
          },
          responses: {
            200: json({
              type: 'object',
              properties: {
                query: {},
                results: { type: 'array', items: { $ref: '#/components/schemas/SearchResult' } },
                total: { type: 'integer' },
              },
            }),
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/catalog/search': {
        post: {
          summary: 'Rank the given tools (seed 004 cloud search contract)',
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['query', 'tools'],
              properties: {
                query: { type: 'array', items: { type: 'string' } },
                context: { type: 'string' },
                tools: { type: 'array', items: { type: 'object' } },
                maxResults: { type: 'integer' },
              },
            }),
          },
          responses: {
            200: json({
              type: 'object',
              properties: { results: { type: 'array', items: { $ref: '#/components/schemas/SearchResult' } } },
            }),
            ...errors(400, 401, 413, 429),
          },
        },
      },
      '/mcp': {
        post: {
          summary: 'Streamable HTTP MCP endpoint (also GET for the event stream, DELETE to end a session)',
          responses: { 200: { description: 'JSON-RPC response or event stream' }, ...errors(401, 403) },
        },
      },
    },
  };
}

const statusText: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or unknown token',
  403: 'Forbidden (tool disabled, project not allowed, or foreign Origin)',
  404: 'Not found or not visible',
  408: 'Timed out',
  413: 'Body too large',
  429: 'Rate limited (see Retry-After)',
  500: 'Internal error',
  502: 'Backend error',
  503: 'Backend not running',
};
