import { context, propagation } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

/**
 * An HTTP request's W3C `traceparent` (and `tracestate`) header becomes the parent of the spans its handling makes
 * (docs/console.md, "Telemetry"): the handler runs inside the extracted context. Without the header, or without a
 * propagator registered (no SDK), nothing changes. Registered as the last step before the handler, after the body
 * is read (the body arrives in events of the socket, outside any context set earlier).
 */
export function registerTraceContext(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.headers.traceparent === undefined) return done();
    context.with(propagation.extract(context.active(), request.headers), done);
  });
}
