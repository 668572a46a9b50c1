import { z } from 'zod';
import type { Readiness } from '../lifecycle/readiness.js';
import type { ZodFastifyInstance } from './rest-route-context.js';

const readySchema = z.object({
  status: z.literal('ready'),
  store: z
    .enum(['up', 'down'])
    .optional()
    .describe('With a shared cluster store (Redis): whether it answered. A replica stays ready while it is down'),
});
const notReadySchema = z.object({
  status: z.literal('not-ready'),
  reason: z
    .enum(['draining', 'shutting-down'])
    .describe('draining: a shutdown began and calls in flight finish; shutting-down: they are answered 503 now'),
  message: z.string(),
});

/**
 * `GET /readyz`: the readiness probe a load balancer or Kubernetes sends (docs/scale-out.md, "Probes and drain"):
 * 200 while this replica should get traffic (with the shared store's state, `store`: a Redis outage is reported, not
 * a reason to take every replica out), 503 with the reason from the first moment of a shutdown. No token, nothing
 * about servers or callers.
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
          503: notReadySchema.describe('Draining or shutting down'),
        },
      },
    },
    async (_request, reply) => {
      const state = await readiness.check();
      if (state.ready) return { status: 'ready' as const, ...(state.store ? { store: state.store } : {}) };
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ status: 'not-ready' as const, reason: state.reason, message: state.message });
    },
  );
}
