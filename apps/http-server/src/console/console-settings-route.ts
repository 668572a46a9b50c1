import type { OAuthResourceConfig } from '@search-mcp/shared';
import { z } from 'zod';
import type { ZodFastifyInstance } from '../rest/rest-route-context.js';

const settingsSchema = z.object({
  version: z.string(),
  auth: z.object({
    oauth: z.object({ issuer: z.string(), scopes: z.array(z.string()).optional() }).optional(),
  }),
});

/**
 * `GET /ui/settings.json` (public, docs/console.md, "Signing in"): what the sign-in page needs to know before it has
 * a token: the version, and the OAuth issuer callers log in with (with the scopes this resource requires).
 */
export function registerConsoleSettingsRoute(
  app: ZodFastifyInstance,
  settings: { version: string; oauth?: OAuthResourceConfig },
): void {
  const { oauth } = settings;
  const body = {
    version: settings.version,
    auth: oauth
      ? {
          oauth: {
            issuer: oauth.issuer,
            ...(oauth.requiredScopes && oauth.requiredScopes.length > 0 ? { scopes: [...oauth.requiredScopes] } : {}),
          },
        }
      : {},
  };
  app.get(
    '/ui/settings.json',
    {
      schema: {
        summary: "The console's sign-in settings (public)",
        security: [],
        response: { 200: settingsSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return body;
    },
  );
}
