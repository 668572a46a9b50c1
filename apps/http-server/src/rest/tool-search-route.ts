import { errorResponses } from '../openapi/documented-responses.js';
import { callerOf } from '../request-context.js';
import type { RestRouteContext, ZodFastifyInstance } from './rest-route-context.js';
import { projectHeaderSchema, toolSearchBodySchema, toolSearchResponseSchema } from './rest-schemas.js';

/**
 * `POST /v1/tools/search { query, filters?, limit? }`: the catalog's search over the caller's visible tools, with its
 * `match` (good / weak / none) and, when not good, a `notice`.
 */
export function registerToolSearchRoute(app: ZodFastifyInstance, { catalog }: RestRouteContext): void {
  app.post(
    '/v1/tools/search',
    {
      schema: {
        summary: 'Search tools',
        headers: projectHeaderSchema,
        body: toolSearchBodySchema,
        response: { 200: toolSearchResponseSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const body = request.body;
      const queries = typeof body.query === 'string' ? [body.query] : body.query;
      const { filters } = body;
      // The catalog narrows to the filter before ranking, so a small server is found even when 50 others rank higher.
      const filter = {
        ...(filters?.server !== undefined ? { server: filters.server } : {}),
        ...(filters?.category !== undefined ? { category: filters.category } : {}),
        ...(filters?.tags !== undefined ? { tags: filters.tags } : {}),
      };
      const response = await catalog.search(
        {
          query: queries,
          ...(body.limit !== undefined ? { maxResults: body.limit } : {}),
          ...(Object.keys(filter).length > 0 ? { filter } : {}),
        },
        callerOf(request),
      );
      const results = response.results.map(({ tool, ...hit }) => ({
        ...hit,
        ...(tool.category !== undefined ? { category: tool.category } : {}),
        ...(tool.tags !== undefined ? { tags: [...tool.tags] } : {}),
      }));
      request.auditFields = { queries, resultCount: results.length };
      // The same verdict tool_discovery gives over MCP, so a REST client can tell "nothing fits" from a weak best hit.
      return {
        query: body.query,
        results,
        total: results.length,
        match: response.match,
        // The ranker that produced the order: the local one when the configured strategy fell back to it.
        strategy: response.fallbackReason !== undefined ? 'bm25' : response.strategy,
        ...(response.fallbackReason !== undefined ? { fallbackReason: response.fallbackReason } : {}),
        ...(response.notice !== undefined ? { notice: response.notice } : {}),
      };
    },
  );
}
