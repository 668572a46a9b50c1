import type { ToolInfo } from '@search-mcp/shared';
import { errorResponses } from '../openapi/documented-responses.js';
import { callerOf } from '../request-context.js';
import type { RestRouteContext, ZodFastifyInstance } from './rest-route-context.js';
import {
  projectHeaderSchema,
  toolDetailSchema,
  toolKeyParamsSchema,
  toolListQuerySchema,
  toolListSchema,
} from './rest-schemas.js';

function listEntry(tool: ToolInfo) {
  return {
    toolKey: tool.toolKey,
    name: tool.toolName,
    ...(tool.originalName !== undefined ? { originalName: tool.originalName } : {}),
    serverName: tool.serverName,
    description: tool.description,
    ...(tool.category !== undefined ? { category: tool.category } : {}),
    ...(tool.tags !== undefined ? { tags: [...tool.tags] } : {}),
    enabled: true,
  };
}

/** `GET /v1/tools` (the visible tools, paged) and `GET /v1/tools/:toolKey` (one, with its schemas). */
export function registerToolListRoutes(app: ZodFastifyInstance, { catalog }: RestRouteContext): void {
  app.get(
    '/v1/tools',
    {
      schema: {
        summary: 'List visible tools',
        headers: projectHeaderSchema,
        querystring: toolListQuerySchema,
        response: { 200: toolListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query;
      // Tools blocked by the config are not visible at all; `enabled=false` therefore lists nothing.
      const tools =
        query.enabled === 'false'
          ? []
          : await catalog.list(
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
    },
  );

  app.get(
    '/v1/tools/:toolKey',
    {
      schema: {
        summary: 'One tool with its input schema',
        headers: projectHeaderSchema,
        params: toolKeyParamsSchema,
        response: { 200: toolDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const tool = await catalog.get(request.params.toolKey, callerOf(request));
      return {
        ...listEntry(tool),
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
        ...(tool.serverDescription !== undefined ? { serverDescription: tool.serverDescription } : {}),
      };
    },
  );
}
