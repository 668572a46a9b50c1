import type { ToolCatalog } from '@search-mcp/catalog';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { InFlightRequests } from '../lifecycle/in-flight-requests.js';
import type { RestAudit } from './rest-audit.js';
import type { ToolRanker } from './tool-ranker.js';

/** The app with the zod type provider: route handlers see the types of their schemas. */
export type ZodFastifyInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the REST routes use: the catalog for every decision, and the app's record of calls in flight. */
export interface RestRouteContext {
  catalog: ToolCatalog;
  /** Ranks the tools a `/catalog/search` request sends, with this instance's configured search. */
  rankTools: ToolRanker;
  inFlight: InFlightRequests;
  audit: RestAudit;
}
