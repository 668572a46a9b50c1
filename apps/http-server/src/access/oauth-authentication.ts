import type { Logger, OAuthRole } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';
import { pathOf, type OAuthCaller } from '../request-context.js';
import type { OAuthTokenVerifier } from './oauth-resource/index.js';
import { grantOf } from './oauth-roles.js';
import { bearerChallenge, type ProtectedResource } from './protected-resource.js';

export interface OAuthAuthentication {
  resource: ProtectedResource;
  verifier: OAuthTokenVerifier;
  roles?: readonly OAuthRole[];
  logger: Logger;
}

/** A refusal: its status, its `WWW-Authenticate` and the message of the JSON body (never the token). */
export interface OAuthRefusal {
  status: 401 | 403;
  challenge: string;
  message: string;
}

/**
 * Checks a bearer token as an OAuth access token for this resource (docs/oauth-in-front.md): valid, issued by the
 * configured issuer for this resource, with the required scopes and claims, and matching a role when roles are
 * configured. A refusal is logged with its reason (never the token) and the request goes no further; other callers
 * are not affected.
 */
export async function authenticateWithOAuth(
  request: FastifyRequest,
  token: string,
  oauth: OAuthAuthentication,
): Promise<{ caller: OAuthCaller } | { refusal: OAuthRefusal }> {
  const check = await oauth.verifier.verify(token, { audiences: oauth.resource.audiencesFor(request) });
  if (!check.valid) {
    oauth.logger.info('OAuth token refused', {
      path: pathOf(request),
      status: check.status,
      error: check.error,
      reason: check.reason,
    });
    return {
      refusal: {
        status: check.status,
        challenge: bearerChallenge({
          resourceMetadata: oauth.resource.metadataUrlFor(request),
          error: check.error,
          description: check.description,
          ...(check.scope !== undefined ? { scope: check.scope } : {}),
        }),
        message: `${check.status === 401 ? 'Unauthorized: ' : ''}OAuth token refused: ${check.description}`,
      },
    };
  }
  const { principal } = check;
  const grant = grantOf(oauth.roles, principal);
  if (!grant) {
    oauth.logger.info('OAuth token refused', {
      path: pathOf(request),
      status: 403,
      subject: principal.subject,
      reason: 'no role of auth.oauth.roles matches its scopes and claims',
    });
    const description = 'no role of this server allows this token (its scopes and claims match none)';
    const scope = oauth.resource.scopesSupported().join(' ');
    return {
      refusal: {
        status: 403,
        challenge: bearerChallenge({
          resourceMetadata: oauth.resource.metadataUrlFor(request),
          error: 'insufficient_scope',
          description,
          scope,
        }),
        message: `OAuth token refused: ${description}`,
      },
    };
  }
  return {
    caller: {
      subject: principal.subject,
      ...(principal.clientId !== undefined ? { clientId: principal.clientId } : {}),
      scopes: principal.scopes,
      access: grant.access,
      admin: grant.admin,
      ...(principal.expiresAt !== undefined ? { expiresAt: principal.expiresAt } : {}),
    },
  };
}
