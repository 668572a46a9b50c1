import type { JWTVerifyGetKey } from 'jose';
import { MetadataSource } from './authorization-server-metadata.js';
import { createIssuerKeySet } from './issuer-key-set.js';
import { checkJwtAccessToken, looksLikeJwt } from './jwt-access-token.js';
import type { OAuthResourceSettings, OAuthTokenCheck } from './oauth-resource-settings.js';
import { TokenIntrospection } from './token-introspection.js';
import { enforcePolicy, principalOf } from './token-policy.js';
import { errorDetail, invalidToken, TokenRefusal, unverifiable } from './token-refusal.js';

export interface OAuthTokenVerifier {
  /** Never throws, never logs: every failure is a result. */
  verify(token: string): Promise<OAuthTokenCheck>;
}

/**
 * The check of a bearer token presented to `search-mcp-http` as an OAuth access token for it (issue 21): a JWT
 * against the issuer's keys, an opaque token by introspection, then the required scopes and claims. The issuer's
 * metadata is fetched only when something it names is needed (no `jwksUri`, or no introspection `url`).
 */
export function createOAuthTokenVerifier(settings: OAuthResourceSettings): OAuthTokenVerifier {
  const fetchImplementation = settings.fetch ?? fetch;
  const timeoutMs = settings.requestTimeoutMs ?? 5000;
  const clockToleranceSeconds = settings.clockToleranceSeconds ?? 30;
  const maxTokenLength = settings.maxTokenLength ?? 8192;
  const metadata = new MetadataSource(settings.issuer, fetchImplementation, timeoutMs);

  let keySet: JWTVerifyGetKey | undefined;
  const keys = async (): Promise<JWTVerifyGetKey> => {
    if (keySet) return keySet;
    const jwksUri = settings.jwksUri ?? (await metadata.get()).jwks_uri;
    if (jwksUri === undefined)
      throw unverifiable(
        'the authorization server publishes no keys',
        `metadata of ${settings.issuer} has no jwks_uri and auth.oauth sets no jwksUri`,
      );
    keySet ??= createIssuerKeySet(jwksUri, fetchImplementation, timeoutMs);
    return keySet;
  };

  const introspectionSettings = settings.introspection;
  const introspection =
    introspectionSettings &&
    new TokenIntrospection({
      issuer: settings.issuer,
      audiences: settings.audiences,
      clockToleranceSeconds,
      clientId: introspectionSettings.clientId,
      clientSecret: introspectionSettings.clientSecret,
      fetch: fetchImplementation,
      timeoutMs,
      endpoint: async () => {
        const url = introspectionSettings.url ?? (await metadata.get()).introspection_endpoint;
        if (url === undefined)
          throw unverifiable(
            'the authorization server offers no introspection',
            `metadata of ${settings.issuer} has no introspection_endpoint and auth.oauth.introspection sets no url`,
          );
        return url;
      },
    });

  async function claimsOf(token: string): Promise<Record<string, unknown>> {
    // Before any parsing: a huge header must cost nothing.
    if (token.length > maxTokenLength)
      throw invalidToken('the token is too long', `token of ${token.length} characters (limit ${maxTokenLength})`);
    if (token === '') throw invalidToken('the token is empty', 'empty bearer token');
    if (looksLikeJwt(token))
      return checkJwtAccessToken(token, {
        issuer: settings.issuer,
        audiences: settings.audiences,
        clockToleranceSeconds,
        keys,
      });
    if (!introspection)
      throw invalidToken(
        'the token is not a JWT and no introspection is configured',
        'not a JWT and no introspection is configured',
      );
    return introspection.check(token);
  }

  return {
    async verify(token) {
      try {
        const principal = principalOf(await claimsOf(token));
        enforcePolicy(principal, settings);
        return { valid: true, principal };
      } catch (error) {
        if (error instanceof TokenRefusal) return error.result;
        // A bug, not a verdict on the token: still a refusal, never a thrown error in the request path.
        return {
          valid: false,
          status: 401,
          error: 'invalid_token',
          description: 'the token cannot be verified',
          reason: `unexpected error: ${errorDetail(error)}`,
        };
      }
    },
  };
}
