import rateLimit from '@fastify/rate-limit';
import type { ClusterStore } from '@search-mcp/cluster';
import type { Logger } from '@search-mcp/shared';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http-errors.js';
import { clusterRateLimitStore } from './cluster-rate-limit-store.js';

const unlimitedPaths = new Set(['/', '/healthz', '/readyz']);

/**
 * Requests per minute per token (per address for requests without one), answered 429 with `Retry-After` past the
 * limit. Runs right after authentication, before validation, so every request counts. 0 turns it off.
 *
 * The windows are counters in the cluster store: with Redis they hold across every replica. When the store does not
 * answer, requests go through with a logged warning (fail open: `cluster-rate-limit-store.ts`).
 */
export async function registerRateLimit(
  app: FastifyInstance,
  perMinute: number,
  store: ClusterStore,
  logger: Logger,
): Promise<void> {
  if (perMinute <= 0) return;
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    store: clusterRateLimitStore(store, logger),
    skipOnError: true,
    hook: 'preValidation',
    keyGenerator: (request) => (request.verifiedToken ? `token:${request.verifiedToken.id}` : `ip:${request.ip}`),
    // Health and the probes: a balancer's checks must not use up a limit, nor fail when the shared store is down.
    allowList: (request) => unlimitedPaths.has(request.url),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      ...errorBody(
        `Rate limit of ${context.max} requests per minute exceeded; retry after ${Math.ceil(context.ttl / 1000)} s`,
        'RATE_LIMIT_EXCEEDED',
      ),
    }),
  });
}
