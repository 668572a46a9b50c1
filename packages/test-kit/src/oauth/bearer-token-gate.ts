import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

export interface BearerTokenGateOptions {
  /** The authorization server's issuer: a token from another issuer is refused. */
  issuer: string;
  /** Its `jwks_uri`, from its metadata. */
  jwksUri: URL;
  /** This server's URL, the audience (`aud`) its tokens must carry (RFC 8707 / RFC 9068). */
  resource: URL;
  /** Scopes every request needs; a valid token without them gets 403 `insufficient_scope`. */
  requiredScopes: readonly string[];
  /** The RFC 9728 metadata URL named in every challenge; absent, challenges leave `resource_metadata` out. */
  resourceMetadataUrl?: string;
  /** Asked after the signature checks out: a revoked token is refused like an expired one. */
  isRevoked?: (jti: string) => boolean;
}

/** A request that may go on, with what its token says, or the answer that refuses it. */
export type GateResult = { authInfo: AuthInfo; claims: JWTPayload } | { refusal: Response };

/**
 * Checks the bearer token of a request to the MCP endpoint as a resource server does: a JWT access token signed by
 * a key of the authorization server's JWKS (`createRemoteJWKSet`), with the expected issuer, `typ: at+jwt`, this
 * server's URL as audience, not expired, not revoked. The HTTP answers are the SDK's (`verifyBearerToken`,
 * `bearerAuthChallengeResponse`): 401 `invalid_token` or 403 `insufficient_scope` with `WWW-Authenticate: Bearer`
 * naming `scope` and `resource_metadata`. A request without any token gets 401 with the challenge but no `error`
 * (RFC 6750 §3.1: no error code when no credentials were sent).
 */
export function createBearerTokenGate(options: BearerTokenGateOptions): (request: Request) => Promise<GateResult> {
  const keys = createRemoteJWKSet(options.jwksUri);
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.resource.href,
          typ: 'at+jwt',
        }));
      } catch (error) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, `The token was refused: ${(error as Error).message}`);
      }
      if (payload.jti !== undefined && options.isRevoked?.(payload.jti)) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token was revoked');
      }
      const authInfo: AuthInfo = {
        token,
        clientId: String(payload.client_id ?? ''),
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
        resource: options.resource,
        extra: { claims: payload },
      };
      return authInfo;
    },
  };
  const challenge = {
    requiredScopes: [...options.requiredScopes],
    ...(options.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: options.resourceMetadataUrl }),
  };

  return async (request) => {
    const header = request.headers.get('authorization');
    if (header === null || header.trim() === '') return { refusal: missingTokenResponse(challenge) };
    try {
      const authInfo = await verifyBearerToken(header, {
        verifier,
        ...challenge,
        expectedResource: options.resource,
      });
      return { authInfo, claims: (authInfo.extra?.claims as JWTPayload | undefined) ?? {} };
    } catch (error) {
      return { refusal: bearerAuthChallengeResponse(error, challenge) };
    }
  };
}

function missingTokenResponse(challenge: { requiredScopes: string[]; resourceMetadataUrl?: string }): Response {
  const parameters: string[] = [];
  if (challenge.resourceMetadataUrl !== undefined)
    parameters.push(`resource_metadata="${challenge.resourceMetadataUrl}"`);
  if (challenge.requiredScopes.length > 0) parameters.push(`scope="${challenge.requiredScopes.join(' ')}"`);
  const header = parameters.length > 0 ? `Bearer ${parameters.join(', ')}` : 'Bearer';
  return Response.json(
    { error: 'invalid_request', error_description: 'This MCP server needs an OAuth bearer token' },
    { status: 401, headers: { 'WWW-Authenticate': header } },
  );
}
