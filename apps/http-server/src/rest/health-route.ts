import type { ZodFastifyInstance } from './rest-route-context.js';
import { healthSchema } from './rest-schemas.js';

const startedAt = Date.now();

/** `GET /`: liveness without a token, and without server names (CONTRACT §6). */
export function registerHealthRoute(app: ZodFastifyInstance, version: string): void {
  app.get('/', { schema: { summary: 'Health', security: [], response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
    message: 'Search MCP HTTP server',
    version,
    uptime: Math.round((Date.now() - startedAt) / 1000),
    timestamp: new Date().toISOString(),
  }));
}
