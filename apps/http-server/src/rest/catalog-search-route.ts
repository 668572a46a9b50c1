import { cloudSearchRequestSchema, cloudSearchResponseSchema } from '@search-mcp/catalog';
import { errorResponses } from '../openapi/documented-responses.js';
import { callerOf } from '../request-context.js';
import type { RestRouteContext, ZodFastifyInstance } from './rest-route-context.js';

/**
 * `POST /catalog/search`: the cloud search API (docs/cloud-search.md; the catalog's `cloudSearchRequestSchema`, the
 * one definition `CloudSearchProvider` also sends), so one Search MCP can be another's cloud ranker.
 */
export function registerCatalogSearchRoute(app: ZodFastifyInstance, { rankTools }: RestRouteContext): void {
  app.post(
    '/catalog/search',
    {
      schema: {
        summary: 'Rank the given tools (the cloud search API)',
        body: cloudSearchRequestSchema,
        response: { 200: cloudSearchResponseSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const response = await rankTools(request.body, callerOf(request));
      request.auditFields = { queries: request.body.query, resultCount: response.results.length };
      return response;
    },
  );
}
