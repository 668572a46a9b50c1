import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import { errorBody } from '../http-errors.js';
import { pathOf } from '../request-context.js';
import { type ProtectedResource, protectedResourceMetadataPath } from './protected-resource.js';

/**
 * `GET /.well-known/oauth-protected-resource` and `…/oauth-protected-resource/<path of /mcp>` (RFC 9728): how an MCP
 * client learns which authorization server to log in at for this app (docs/oauth-in-front.md). Public: a client reads
 * it before it has a token.
 */
export function registerProtectedResourceRoute(app: FastifyInstance, resource: ProtectedResource): void {
  const schema = { hide: true };
  app.get(protectedResourceMetadataPath, { schema }, async (request) => resource.metadataFor(request));
  // RFC 9728 §3: the suffix is the resource's own path (`/mcp`, `/search/mcp` behind a prefix). Any other suffix
  // names a resource this app is not, so it gets no document that would claim to be that resource's.
  app.get(`${protectedResourceMetadataPath}/*`, { schema }, async (request: FastifyRequest, reply: FastifyReply) => {
    const ownPath = new URL(resource.metadataUrlFor(request)).pathname;
    const path = pathOf(request);
    if (path !== ownPath)
      return reply
        .code(404)
        .send(errorBody(`No protected resource at ${path}: this app's metadata is at ${ownPath}`, 'NOT_FOUND'));
    return resource.metadataFor(request);
  });
}
