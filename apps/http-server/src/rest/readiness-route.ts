import { z } from 'zod';
import type { Readiness } from '../lifecycle/readiness.js';
import type { ZodFastifyInstance } from './rest-route-context.js';

const readySchema = z.object({ status: z.literal('ready') });
const notReadySchema = z.object({
  status: z.literal('not-ready'),
  reason: z
    .enum(['draining', 'shutting-down', 'cluster-store-down'])
    .describe('draining: a shutdown began and calls in flight finish; cluster-store-down: Redis does not answer'),
  message: z.string(),
});

/**
 * `GET /readyz`: the readiness probe a load balancer or Kubernetes sends (docs/scale-out.md, "Probes and drain"):
 * 200 while this replica should get traffic, 503 with the reason from the first moment of a shutdown and while the
 * cluster store does not answer. No token, nothing about servers or callers.
 */
export function registerReadinessRoute(app: ZodFastifyInstance, readiness: Readiness): void {
  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness probe',
        security: [],
        response: {
          200: readySchema,
          503: notReadySchema.describe('Draining, shutting down, or the cluster store does not answer'),
        },
      },
    },
    async (_request, reply) => {
      const state = await readiness.check();
      if (state.ready) return { status: 'ready' as const };
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ status: 'not-ready' as const, reason: state.reason, message: state.message });
    },
  );
}
