import { AuthenticationError, RateLimitError } from '@search-mcp/shared';
import { z } from 'zod';
import type { FailedAuthenticationLimiter } from '../access/failed-authentication-limiter.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from '../rest/rest-route-context.js';
import { consoleSecurityHeaders } from './console-headers.js';
import type { SignInCodes } from './sign-in-codes.js';

const sessionBodySchema = z.object({ code: z.string().min(1).max(200).describe('The one-time code of `#code=`') });
const sessionResponseSchema = z.object({ token: z.string().describe('The bearer token the code stood for') });

/**
 * `POST /ui/session { code }` → `{ token }` (docs/console.md, "Signing in"): trades a one-time code that
 * `search-mcp ui` put in the address it opened for the token it stands for. Public (the code is the credential); a
 * wrong, used or expired code is a failed authentication, counted like a wrong token.
 */
export function registerConsoleSessionRoute(
  app: ZodFastifyInstance,
  codes: SignInCodes,
  failedAuthentications: FailedAuthenticationLimiter,
): void {
  app.post(
    '/ui/session',
    {
      schema: {
        summary: 'Trade a one-time console sign-in code for its token (public: the code is the credential)',
        security: [],
        body: sessionBodySchema,
        response: { 200: sessionResponseSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const retryAfter = failedAuthentications.retryAfterSeconds(request.ip);
      if (retryAfter > 0) {
        reply.header('retry-after', String(retryAfter));
        throw new RateLimitError({ message: `Too many failed authentications; retry after ${retryAfter} s` });
      }
      const token = codes.redeem(request.body.code);
      if (token === undefined) {
        failedAuthentications.recordFailure(request.ip);
        throw new AuthenticationError({
          message:
            'This sign-in code is unknown, used already or expired (codes work once, for 10 minutes): run search-mcp ui again',
        });
      }
      // The one answer that carries a token on purpose: written past the app's redactor, which masks every token
      // it knows in every other body (packages/shared/README.md, "Secrets").
      reply.hijack();
      reply.raw.writeHead(200, {
        ...consoleSecurityHeaders,
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      reply.raw.end(JSON.stringify({ token }));
      return reply;
    },
  );
}
