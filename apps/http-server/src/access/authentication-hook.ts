import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http-errors.js';
import { pathOf } from '../request-context.js';
import type { FailedAuthenticationLimiter } from './failed-authentication-limiter.js';
import { bearerToken, headerProject, metaProjects, metaToken } from './request-credentials.js';
import type { TokenVerifier } from './token-verifier.js';

export interface AuthenticationOptions {
  verifier: TokenVerifier;
  failedAuthentications: FailedAuthenticationLimiter;
  /** Let requests without a token in (as no token, no project limit). */
  allowAnonymous: boolean;
  /** Paths served without a token (health, docs, redirects). */
  publicPaths: ReadonlySet<string>;
}

/**
 * Tokens and projects (docs/projects-and-tokens.md, "Tokens (HTTP)"): every request but the public ones needs a known
 * token (401), and every project it names must be one its token may use (403). Runs before schema validation, so a
 * caller without a token learns nothing about the API from validation errors.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const { verifier, failedAuthentications } = options;
  app.addHook('preValidation', async (request, reply) => {
    if (options.publicPaths.has(pathOf(request)) || request.method === 'OPTIONS') return;
    const project = headerProject(request);
    if (project !== undefined) request.requestedProject = project;
    const presented = bearerToken(request) ?? metaToken(request.body);
    if (presented === undefined) {
      if (options.allowAnonymous) return;
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody('Missing token: send Authorization: Bearer <token>', 'AUTHENTICATION_ERROR'));
    }
    // The token is checked before the failure limit: the limit slows wrong tokens down, it never turns a valid one away.
    const token = verifier.verify(presented);
    if (!token) {
      const retryAfter = failedAuthentications.retryAfterSeconds(request.ip);
      if (retryAfter > 0) {
        return reply
          .code(429)
          .header('retry-after', String(retryAfter))
          .send(errorBody(`Too many failed authentications; retry after ${retryAfter} s`, 'RATE_LIMIT_EXCEEDED'));
      }
      failedAuthentications.recordFailure(request.ip);
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send(errorBody('Unknown token', 'AUTHENTICATION_ERROR'));
    }
    request.verifiedToken = token;
    if (token.projects) {
      // Every project the request names (header, and _meta.projectId of each JSON-RPC message) must be the token's.
      for (const named of [request.requestedProject, ...metaProjects(request.body)]) {
        if (named !== undefined && !token.projects.includes(named)) {
          return reply
            .code(403)
            .send(errorBody(`This token may not be used for project '${named}'`, 'AUTHORIZATION_ERROR'));
        }
      }
    }
  });
}
