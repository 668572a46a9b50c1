import { z } from 'zod';
import type { ZodFastifyInstance } from './rest-route-context.js';
import { healthSchema } from './rest-schemas.js';

const startedAt = Date.now();

/** How many MCP clients of each protocol era the app serves (counts only: no names, no tokens). */
export interface McpCounts {
  /** Open 2025 sessions. */
  sessions: number;
  /** 2026-07-28 requests served since start. */
  modernRequests: number;
  /** Open 2026-07-28 `subscriptions/listen` streams. */
  listenStreams: number;
  /** Calls of 2026-07-28 clients waiting for their `input_required` retry (when the runtime tells). */
  parkedCalls?: number;
}

const livenessSchema = z.object({ status: z.literal('ok') });

/**
 * `GET /`: liveness without a token, and without server names (apps/http-server/README.md, routes table), with the
 * MCP clients per era.
 */
export function registerHealthRoute(app: ZodFastifyInstance, version: string, mcpCounts: () => McpCounts): void {
  app.get('/', { schema: { summary: 'Health', security: [], response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
    message: 'Search MCP HTTP server',
    version,
    uptime: Math.round((Date.now() - startedAt) / 1000),
    timestamp: new Date().toISOString(),
    mcp: mcpCounts(),
  }));
}

/**
 * `GET /healthz`: the liveness probe (docs/scale-out.md, "Probes and drain"). It says only that the process answers,
 * asks nothing of backends or the cluster store (a Redis outage must not get every replica restarted) and needs no
 * token; it keeps answering while the app drains.
 */
export function registerLivenessRoute(app: ZodFastifyInstance): void {
  app.get(
    '/healthz',
    { schema: { summary: 'Liveness probe', security: [], response: { 200: livenessSchema } } },
    async () => ({ status: 'ok' as const }),
  );
}
