import type { JWTVerifyGetKey } from 'jose';
import { MetadataSource } from './authorization-server-metadata.js';
import { createIssuerKeySet } from './issuer-key-set.js';
import { checkJwtAccessToken, looksLikeJwt } from './jwt-access-token.js';
import type { OAuthResourceSettings, OAuthTokenCheck } from './oauth-resource-settings.js';
import { TokenIntrospection } from './token-introspection.js';
import { enforcePolicy, principalOf } from './token-policy.js';
import { errorDetail, invalidToken, TokenRefusal, unverifiable } from './token-refusal.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

export interface OAuthVerifyOptions {
  /**
   * The audiences this request's token must name one of, instead of `settings.audiences`: the resource's URL as this
   * request reached it, when the app serves several (RFC 8707). Empty: every token is refused.
   */
  audiences?: readonly string[];
}

export interface OAuthTokenVerifier {
  /** Never throws, never logs: every failure is a result. */
  verify(token: string, options?: OAuthVerifyOptions): Promise<OAuthTokenCheck>;
}

/**
 * The check of a bearer token presented to `search-mcp-http` as an OAuth access token for it (docs/oauth-in-front.md): a JWT
 * against the issuer's keys, an opaque token by introspection, then the required scopes and claims. The issuer's
 * metadata is fetched only when something it names is needed (no `jwksUri`, or no introspection `url`). A token
 * verified once is taken from a cache for up to 60 s (never past its expiry): VerifiedTokenCache.
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

  const verified = new VerifiedTokenCache();

  async function claimsOf(token: string, audiences: readonly string[]): Promise<Record<string, unknown>> {
    // Before any parsing: a huge header must cost nothing.
    if (token.length > maxTokenLength)
      throw invalidToken('the token is too long', `token of ${token.length} characters (limit ${maxTokenLength})`);
    if (token === '') throw invalidToken('the token is empty', 'empty bearer token');
    if (audiences.length === 0)
      throw invalidToken('this resource accepts no audience', 'no audience is configured for this request');
    const key = verified.key(token);
    const cached = verified.get(key);
    // Verified for another of the app's resource URLs: checked again in full, so the refusal names the audience.
    if (cached && namesOneOf(cached.aud, audiences)) return cached;
    if (looksLikeJwt(token)) {
      const payload = await checkJwtAccessToken(token, {
        issuer: settings.issuer,
        audiences,
        clockToleranceSeconds,
        keys,
      });
      // jose accepts the token until exp plus the tolerance; the cache does no more.
      verified.put(key, payload, ((payload.exp as number) + clockToleranceSeconds) * 1000);
      return payload;
    }
    if (!introspection)
      throw invalidToken(
        'the token is not a JWT and no introspection is configured',
        'not a JWT and no introspection is configured',
      );
    const claims = await introspection.check(token, audiences);
    verified.put(key, claims, typeof claims.exp === 'number' ? claims.exp * 1000 : Number.POSITIVE_INFINITY);
    return claims;
  }

  return {
    async verify(token, options) {
      try {
        const principal = principalOf(await claimsOf(token, options?.audiences ?? settings.audiences));
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

/** Whether an `aud` claim (a string or an array, RFC 7519 §4.1.3) names one of `audiences`. */
function namesOneOf(audience: unknown, audiences: readonly string[]): boolean {
  if (typeof audience === 'string') return audiences.includes(audience);
  return Array.isArray(audience) && audience.some((item) => audiences.includes(item as string));
}
