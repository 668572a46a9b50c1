import type { ResolvedConfig, SecretRedactor } from '@search-mcp/shared';
import { z } from 'zod';
import { assertAdmin } from '../access/admin-access.js';
import { maskedConfig } from '../console/masked-config.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';

export interface ConfigRouteContext {
  /** The config in use now (the catalog's: hot reloads replace it). */
  config(): ResolvedConfig;
  /** The file it was loaded from, when the host says. */
  configPath?: string;
  redactor: SecretRedactor;
}

const configResponseSchema = z.object({
  path: z.string().optional().describe('The config file'),
  config: z.unknown().describe('The resolved config, every secret replaced by "••••"'),
  warnings: z.array(z.string()),
});

/**
 * `GET /v1/config` (admin, docs/console.md): the resolved config in use with every secret masked (`maskedConfig`),
 * its file and its warnings. Read-only: the file is the one place to change it.
 */
export function registerConfigRoute(app: ZodFastifyInstance, context: ConfigRouteContext): void {
  app.get(
    '/v1/config',
    {
      schema: {
        summary: 'The resolved config, secrets masked (admin)',
        response: { 200: configResponseSchema, ...errorResponses() },
      },
    },
    async (request) => {
      assertAdmin(request, 'The config');
      const config = context.config();
      return {
        ...(context.configPath !== undefined ? { path: context.configPath } : {}),
        config: maskedConfig(config, context.redactor),
        warnings: [...config.warnings],
      };
    },
  );
}
