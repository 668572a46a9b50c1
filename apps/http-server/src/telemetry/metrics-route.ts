import type { AuditFeed } from '@search-mcp/runtime';
import type { FastifyInstance } from 'fastify';
import { assertAdmin } from '../access/admin-access.js';
import { type MetricSources, PrometheusMetrics } from './prometheus-metrics.js';

export interface MetricsRouteOptions extends MetricSources {
  /** The runtime's audit feed: every tool call and search is counted from its record. */
  audit?: Pick<AuditFeed, 'subscribe'>;
}

/**
 * `GET /metrics` (docs/console.md, "Telemetry"): the app's metrics in the Prometheus text format, for an admin token
 * only (server names, tool names and usage are operators' business). The figures are fed by the audit feed from now
 * on (the listener goes when the app closes) and count every HTTP answer by route pattern.
 */
export function registerMetricsRoute(app: FastifyInstance, options: MetricsRouteOptions): PrometheusMetrics {
  const metrics = new PrometheusMetrics(options);
  const unsubscribe = options.audit?.subscribe((record) => metrics.observe(record));
  app.addHook('onClose', async () => {
    unsubscribe?.();
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (`/v1/tools/:toolKey`), never the path asked for: a label must stay bounded.
    metrics.countHttpRequest(request.routeOptions.url ?? '(unmatched)', reply.statusCode);
  });
  // Not a JSON route of the REST API: left out of the OpenAPI document.
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    assertAdmin(request, 'GET /metrics');
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(text);
  });
  return metrics;
}
