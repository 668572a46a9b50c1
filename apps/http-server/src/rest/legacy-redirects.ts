import type { FastifyInstance } from 'fastify';

/** The unversioned paths of the first REST API, redirected to `/v1/…` with 308 (method and body kept). */
export const legacyRedirects = [
  ['/tools', '/v1/tools'],
  ['/tools/call', '/v1/tools/call'],
  ['/tools/search', '/v1/tools/search'],
] as const;

export function registerLegacyRedirects(app: FastifyInstance): void {
  for (const [from, to] of legacyRedirects) {
    app.route({
      method: ['GET', 'POST'],
      url: from,
      schema: { hide: true },
      handler: async (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`${to}${query}`, 308);
      },
    });
  }
}
