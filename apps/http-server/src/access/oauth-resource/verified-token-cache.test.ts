import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signingKey, startTestIssuer, type TestIssuer, testAudience } from './oauth-resource-test-support.js';
import { createOAuthTokenVerifier } from './oauth-token-verifier.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

// Only Date is faked (the sockets run on real time): the cache and jose read the clock through Date.now.
let issuer: TestIssuer;
beforeEach(async () => {
  issuer = await startTestIssuer();
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await issuer.close();
});
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('the verified-token cache', () => {
  it('serves a verified JWT for at most 60 s: a key withdrawn meanwhile refuses it after that', async () => {
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const [oldKey] = issuer.published;
    const token = await issuer.sign({}, oldKey);
    expect((await verifier.verify(token)).valid).toBe(true);

    const newKey = await signingKey('key-2');
    issuer.published = [newKey];
    later(31_000); // past jose's cooldown: the next unknown kid refetches the keys, which drops the old one
    expect((await verifier.verify(await issuer.sign({}, newKey))).valid).toBe(true);
    expect(issuer.requests.get('/jwks')).toBe(2);
    expect((await verifier.verify(token)).valid).toBe(true); // from the cache, verified 31 s ago

    later(30_000);
    expect(await verifier.verify(token)).toMatchObject({ valid: false, status: 401, error: 'invalid_token' });
  });

  it('never serves a JWT past its exp (plus the clock tolerance)', async () => {
    const verifier = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      clockToleranceSeconds: 0,
    });
    const token = await issuer.sign({ exp: Math.floor(Date.now() / 1000) + 5 });
    expect((await verifier.verify(token)).valid).toBe(true);
    later(6_000);
    expect(await verifier.verify(token)).toMatchObject({ valid: false, description: 'the token has expired' });
  });

  it('serves an introspection answer until the token expires, then asks again', async () => {
    const verifier = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      introspection: { url: issuer.introspectionUri, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    });
    const exp = Math.floor(Date.now() / 1000) + 20;
    issuer.introspection.set('opaque-1', { active: true, aud: testAudience, sub: 'alice', exp });
    expect((await verifier.verify('opaque-1')).valid).toBe(true);
    later(10_000);
    expect((await verifier.verify('opaque-1')).valid).toBe(true);
    expect(issuer.requests.get('/introspect')).toBe(1);
    later(11_000);
    issuer.introspection.set('opaque-1', { active: false });
    expect(await verifier.verify('opaque-1')).toMatchObject({ valid: false, description: 'the token is not active' });
    expect(issuer.requests.get('/introspect')).toBe(2);
  });

  it('holds at most 10,000 tokens, dropping the oldest, and keys them by digest', () => {
    const cache = new VerifiedTokenCache();
    const far = Date.now() + 3_600_000;
    for (let index = 0; index <= 10_000; index += 1) cache.put(cache.key(`token-${index}`), { index }, far);
    expect(cache.get(cache.key('token-0'))).toBeUndefined();
    expect(cache.get(cache.key('token-1'))).toEqual({ index: 1 });
    expect(cache.get(cache.key('token-10000'))).toEqual({ index: 10_000 });
    expect(cache.key('token-1')).not.toContain('token');
  });
});
