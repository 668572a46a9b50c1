import { AuthenticationError, AuthorizationError } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';

/**
 * Admin routes (apps/http-server/README.md, "Backend servers and OAuth") change what every caller gets, so they take
 * an admin token: a configured token without `projects` (the generated token is one). A token limited to projects
 * acts only inside them (docs/projects-and-tokens.md, "Tokens (HTTP)"), and an anonymous caller is nobody in
 * particular, even where `auth.allowAnonymous` lets it call tools. An OAuth caller is one through a role with `admin: true`.
 * @throws AuthenticationError without a token, AuthorizationError for a token limited to projects
 */
export function assertAdmin(request: FastifyRequest, what: string): void {
  const token = request.verifiedToken;
  if (!token) {
    throw new AuthenticationError({ message: `${what} needs an admin token: send Authorization: Bearer <token>` });
  }
  const oauthCaller = request.oauthCaller;
  if (oauthCaller) {
    // An OAuth caller is an admin through a role with `admin: true` (docs/oauth-in-front.md, "Roles").
    if (!oauthCaller.admin) {
      throw new AuthorizationError({
        message: `${what} needs an admin role; no role of '${oauthCaller.subject}' has admin: true`,
      });
    }
    return;
  }
  if (token.projects) {
    throw new AuthorizationError({
      message: `${what} needs an admin token (one without projects); token '${token.id}' is limited to: ${token.projects.join(', ')}`,
    });
  }
}
