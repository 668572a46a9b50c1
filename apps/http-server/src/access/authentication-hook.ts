import { allowedProjects } from '@search-mcp/catalog';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http-errors.js';
import { pathOf } from '../request-context.js';
import type { FailedAuthenticationLimiter } from './failed-authentication-limiter.js';
import { authenticateWithOAuth, type OAuthAuthentication } from './oauth-authentication.js';
import { looksLikeJwt } from './oauth-resource/index.js';
import { bearerChallenge } from './protected-resource.js';
import { bearerToken, headerProject, metaProjects, metaToken } from './request-credentials.js';
import type { TokenVerifier } from './token-verifier.js';

export interface AuthenticationOptions {
  verifier: TokenVerifier;
  failedAuthentications: FailedAuthenticationLimiter;
  /** Let requests without a token in (as no token, no project limit). */
  allowAnonymous: boolean;
  /** Paths served without a token (health, docs, redirects). */
  publicPaths: ReadonlySet<string>;
  /** Path prefixes served without a token (the protected-resource metadata). */
  publicPathPrefixes?: readonly string[];
  /** `auth.oauth`: bearer tokens that are no static token are checked as OAuth access tokens (docs/oauth-in-front.md). */
  oauth?: OAuthAuthentication;
}

/**
 * Tokens and projects (docs/projects-and-tokens.md, "Tokens (HTTP)"): every request but the public ones needs a known
 * token (401), and every project it names must be one its token may use (403). With `auth.oauth`, a bearer token that
 * is no static token must be a valid OAuth access token for this resource (docs/oauth-in-front.md), and 401s name the
 * protected-resource metadata so MCP clients can log in. Runs before schema validation, so a caller without a token
 * learns nothing about the API from validation errors.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const { verifier, failedAuthentications, oauth } = options;
  const prefixes = options.publicPathPrefixes ?? [];
  app.addHook('preValidation', async (request, reply) => {
    const path = pathOf(request);
    if (options.publicPaths.has(path) || request.method === 'OPTIONS') return;
    if (prefixes.some((prefix) => path.startsWith(prefix))) return;
    const project = headerProject(request);
    if (project !== undefined) request.requestedProject = project;
    const presented = bearerToken(request) ?? metaToken(request.body);
    if (presented === undefined) {
      if (options.allowAnonymous) return;
      const challenge = oauth
        ? bearerChallenge({
            resourceMetadata: oauth.resource.metadataUrlFor(request),
            scope: oauth.resource.scopesSupported().join(' '),
          })
        : 'Bearer';
      // "Unauthorized" in the text too: some MCP clients (the Inspector before 0.19) start their OAuth login only when
      // the error they see says so, not on the status alone.
      return reply
        .code(401)
        .header('www-authenticate', challenge)
        .send(errorBody('Unauthorized: missing token: send Authorization: Bearer <token>', 'AUTHENTICATION_ERROR'));
    }
    // The token is checked before the failure limit: the limit slows wrong tokens down, it never turns a valid one away.
    let token = verifier.verify(presented);
    let refusal: { status: number; challenge: string; message: string } | undefined;
    // An address over the failure limit gets no introspection request sent on its behalf (each one costs the
    // authorization server a request): only a JWT, checked here, may still get in.
    const limited = !token && failedAuthentications.retryAfterSeconds(request.ip) > 0 && !looksLikeJwt(presented);
    if (!token && oauth && !limited) {
      const outcome = await authenticateWithOAuth(request, presented, oauth);
      if ('caller' in outcome) {
        request.oauthCaller = outcome.caller;
        // The projects its roles allow at all; which tools in which project is the catalog's (`Caller.access`).
        const projects = allowedProjects(outcome.caller.access);
        token = { id: `oauth:${outcome.caller.subject}`, ...(projects ? { projects } : {}) };
      } else if (outcome.refusal.status === 403) {
        // A valid token without the scopes, claims or role needed: no guess, not counted as a failure.
        return reply
          .code(403)
          .header('www-authenticate', outcome.refusal.challenge)
          .send(errorBody(outcome.refusal.message, 'AUTHORIZATION_ERROR'));
      } else {
        refusal = outcome.refusal;
      }
    }
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
        .header('www-authenticate', refusal?.challenge ?? 'Bearer error="invalid_token"')
        .send(errorBody(refusal?.message ?? 'Unknown token', 'AUTHENTICATION_ERROR'));
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
