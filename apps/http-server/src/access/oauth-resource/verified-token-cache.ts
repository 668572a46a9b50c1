import { createHash } from 'node:crypto';

/** A verified token is trusted this long at most without checking it again (and never past its expiry). */
export const verifiedTokenTtlMs = 60_000;
/** Bound on cached tokens, so that many distinct tokens cannot grow memory without end. */
const maxEntries = 10_000;

/**
 * The claims of tokens verified lately, keyed by the token's SHA-256 (the token itself is never kept). A client sends
 * the same access token with every request for its whole life, so most requests cost a hash and a lookup instead of
 * a signature check (node:crypto, some tens of µs) or an introspection round trip. Only positive answers are cached:
 * a refused token is checked again each time, so one that becomes valid, or an endpoint that comes back, is seen at
 * once. The price: a key the issuer withdraws, or an introspected token revoked, is still accepted for at most
 * `verifiedTokenTtlMs` by this cache.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { claims: Record<string, unknown>; until: number }>();

  key(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('base64url');
  }

  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.claims;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `claims` until `expiresAtMs` or `verifiedTokenTtlMs` from now, whichever comes first. */
  put(key: string, claims: Record<string, unknown>, expiresAtMs: number): void {
    const now = Date.now();
    const until = Math.min(expiresAtMs, now + verifiedTokenTtlMs);
    if (until <= now) return;
    this.entries.delete(key);
    // Full: drop the oldest entry (a Map iterates in insertion order, and every entry lives at most 60 s, so the
    // oldest is about the first to expire). One deletion per insertion: no scan on the request path.
    if (this.entries.size >= maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { claims, until });
  }
}
