import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ProtectedResource, protectedResourceMetadataPath } from './protected-resource.js';

/**
 * `GET /.well-known/oauth-protected-resource` and `…/oauth-protected-resource/<path of /mcp>` (RFC 9728): how an MCP
 * client learns which authorization server to log in at for this app (docs/oauth-in-front.md). Public: a client reads
 * it before it has a token.
 */
export function registerProtectedResourceRoute(app: FastifyInstance, resource: ProtectedResource): void {
  const handler = async (request: FastifyRequest) => resource.metadataFor(request);
  const schema = { hide: true };
  app.get(protectedResourceMetadataPath, { schema }, handler);
  app.get(`${protectedResourceMetadataPath}/*`, { schema }, handler);
}
