import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { errorDetail } from './token-refusal.js';

/** How often the keys are fetched again in the background, so that a key the issuer removed stops verifying. */
const backgroundRefreshMs = 10 * 60 * 1000;

/** jose errors that are about the token's header against good keys, not about fetching them. */
const keySelectionErrors = new Set([
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);

/** The issuer's keys could not be fetched or read (down, slow, not a JWKS): the token cannot be checked now. */
export class KeySourceError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'KeySourceError';
  }
}

/**
 * The issuer's signing keys (JWKS), through jose's `createRemoteJWKSet`: fetched on first use, shared by parallel
 * requests, and fetched again when a token names a key it does not have (key rotation), at most once per 30 s
 * cooldown so that made-up `kid`s cannot hammer the issuer.
 *
 * Cached keys never expire on their own (`cacheMaxAge: Infinity`) and are refreshed in the background instead: a
 * JWKS endpoint that is down or slow then never stops or delays tokens whose keys are already known, where jose's
 * default (keys stale after 10 min, refetched inside a request) would refuse every token while the endpoint is down.
 */
export function createIssuerKeySet(jwksUri: string, fetchImplementation: typeof fetch, timeoutMs: number) {
  const remote = createRemoteJWKSet(new URL(jwksUri), {
    timeoutDuration: timeoutMs,
    cacheMaxAge: Number.POSITIVE_INFINITY,
    [customFetch]: (url, options) => fetchImplementation(url, options),
  });
  let lastRefresh = Date.now();

  const getKey: JWTVerifyGetKey = async (header, token) => {
    // `fresh` is cheap (`jwks()` would clone the whole set on every request) and, as cached keys never go stale
    // here, true exactly once the keys have been fetched.
    if (Date.now() - lastRefresh > backgroundRefreshMs && remote.fresh) {
      lastRefresh = Date.now();
      // A failed refresh keeps the keys there were; the next unknown `kid` or the next period tries again.
      remote.reload().catch(() => undefined);
    }
    try {
      return await remote(header, token);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && keySelectionErrors.has(code)) throw error;
      throw new KeySourceError(`keys at ${jwksUri}: ${errorDetail(error)}`);
    }
  };
  return getKey;
}
