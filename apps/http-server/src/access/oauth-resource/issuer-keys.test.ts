import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OAuthTokenCheck } from './oauth-resource-settings.js';
import {
  refusedUrl,
  signingKey,
  startTestIssuer,
  type TestIssuer,
  testAudience,
} from './oauth-resource-test-support.js';
import { createOAuthTokenVerifier } from './oauth-token-verifier.js';

const started: TestIssuer[] = [];
async function issuerForTest(options?: Parameters<typeof startTestIssuer>[0]): Promise<TestIssuer> {
  const issuer = await startTestIssuer(options);
  started.push(issuer);
  return issuer;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(started.splice(0).map((issuer) => issuer.close()));
});

function expectUnverifiable(check: OAuthTokenCheck, token: string, description: string, reason: RegExp) {
  expect(check).toMatchObject({ valid: false, status: 401, error: 'invalid_token', description });
  if (!check.valid) {
    expect(check.reason).toMatch(reason);
    expect(check.reason).not.toContain(token);
  }
}

const keysUnreachable = "the token cannot be verified now: the authorization server's keys are unreachable";

describe("the issuer's metadata", () => {
  it('is fetched once for many parallel first requests, then cached', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const token = await issuer.sign();
    const checks = await Promise.all(Array.from({ length: 20 }, () => verifier.verify(token)));
    expect(checks.every((check) => check.valid)).toBe(true);
    await verifier.verify(token);
    expect(issuer.requests.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(issuer.requests.get('/jwks')).toBe(1);
  });

  it('is found by path insertion for an issuer with a path', async () => {
    const issuer = await issuerForTest({ path: '/tenants/one' });
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    expect((await verifier.verify(await issuer.sign())).valid).toBe(true);
    expect(issuer.requests.get('/.well-known/oauth-authorization-server/tenants/one')).toBe(1);
  });

  it('when malformed refuses with 401, and is fetched again on a later request (a failure is not cached)', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const token = await issuer.sign();
    issuer.modes.metadata = 'malformed';
    expectUnverifiable(
      await verifier.verify(token),
      token,
      "the token cannot be verified now: the authorization server's metadata is malformed",
      /oauth-authorization-server answered 200 with no JSON/,
    );
    issuer.modes.metadata = 'ok';
    expect((await verifier.verify(token)).valid).toBe(true);
    expect(issuer.requests.get('/.well-known/oauth-authorization-server')).toBe(2);
  });

  it('naming another issuer is refused as malformed (RFC 8414 §3.3)', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: `${issuer.origin}/`, audiences: [testAudience] });
    const token = await issuer.sign({ iss: `${issuer.origin}/` });
    expectUnverifiable(
      await verifier.verify(token),
      token,
      "the token cannot be verified now: the authorization server's metadata is malformed",
      /names issuer/,
    );
  });
});

describe("the issuer's keys (JWKS)", () => {
  it('down (connection refused) before any key is known: 401, cannot be verified now', async () => {
    const issuer = await issuerForTest();
    const jwksUri = await refusedUrl('/jwks');
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience], jwksUri });
    const token = await issuer.sign();
    expectUnverifiable(await verifier.verify(token), token, keysUnreachable, /ECONNREFUSED/);
  });

  it('slow (never answers) gives up after requestTimeoutMs: 401, and a later request tries again', async () => {
    const issuer = await issuerForTest();
    issuer.modes.jwks = 'hang';
    const verifier = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      jwksUri: issuer.jwksUri,
      requestTimeoutMs: 150,
    });
    const token = await issuer.sign();
    const started = performance.now();
    expectUnverifiable(await verifier.verify(token), token, keysUnreachable, /timed out|timeout/i);
    expect(performance.now() - started).toBeLessThan(2000);
    issuer.modes.jwks = 'ok';
    expect((await verifier.verify(token)).valid).toBe(true);
  });

  it('malformed: 401, cannot be verified now', async () => {
    const issuer = await issuerForTest();
    issuer.modes.jwks = 'malformed';
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const token = await issuer.sign();
    expectUnverifiable(await verifier.verify(token), token, keysUnreachable, /keys at .*\/jwks/);
  });

  it('many parallel verifies with a warm cache make no further JWKS request', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    expect((await verifier.verify(await issuer.sign())).valid).toBe(true);
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, index) => issuer.sign({ sub: `user-${index}` })));
    const checks = await Promise.all(tokens.map((token) => verifier.verify(token)));
    expect(checks.every((check) => check.valid)).toBe(true);
    expect(issuer.requests.get('/jwks')).toBe(1);
  });

  it('down after the keys are cached: tokens signed with known keys keep verifying, also past the refresh period', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      requestTimeoutMs: 150,
    });
    expect((await verifier.verify(await issuer.sign())).valid).toBe(true);
    await issuer.close(); // metadata and JWKS now refuse connections
    expect(await verifier.verify(await issuer.sign({ sub: 'bob' }))).toMatchObject({
      valid: true,
      principal: { subject: 'bob' },
    });

    // Eleven minutes on (only Date is faked: the sockets run on real time), the background refresh fails...
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    expect((await verifier.verify(await issuer.sign({ sub: 'carol' }))).valid).toBe(true);
    // ... and the token after it still verifies with the keys there were.
    expect((await verifier.verify(await issuer.sign({ sub: 'dave' }))).valid).toBe(true);

    // A key nobody knows cannot be fetched now: refused as unverifiable, not as forged.
    const unknown = await issuer.sign({}, await signingKey('rotated-in'));
    expectUnverifiable(await verifier.verify(unknown), unknown, keysUnreachable, /ECONNREFUSED/);
  });

  it('rotation: a newly published key verifies after a refetch, the removed old key is then refused', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const [oldKey] = issuer.published;
    const oldToken = await issuer.sign({}, oldKey);
    expect((await verifier.verify(oldToken)).valid).toBe(true);

    const newKey = await signingKey('key-2', 'ES256');
    issuer.published = [newKey];
    // jose refetches for an unknown kid only after its 30 s cooldown since the last fetch: let that time pass.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    expect((await verifier.verify(await issuer.sign({}, newKey))).valid).toBe(true);
    expect(issuer.requests.get('/jwks')).toBe(2);

    // A new token: the one verified before the rotation may still be served from the verified-token cache (60 s).
    const check = await verifier.verify(await issuer.sign({ sub: 'after-rotation' }, oldKey));
    expect(check).toMatchObject({
      valid: false,
      status: 401,
      error: 'invalid_token',
      description: 'the token is not signed with a key the authorization server publishes',
    });
  });

  it('refreshes the keys in the background after 10 min: a key the issuer removed then stops verifying', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const [oldKey] = issuer.published;
    expect((await verifier.verify(await issuer.sign({}, oldKey))).valid).toBe(true);
    issuer.published = [await signingKey('key-2')];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    // The request that notices the age is not delayed: it verifies with the cached key and starts the refresh.
    expect((await verifier.verify(await issuer.sign({}, oldKey))).valid).toBe(true);
    // Polled until the refresh has landed; generous, since a busy 2-core CI took over vi.waitFor's default 1 s.
    await vi.waitFor(
      async () => expect((await verifier.verify(await issuer.sign({ sub: 'bob' }, oldKey))).valid).toBe(false),
      { timeout: 15_000, interval: 20 },
    );
    expect(issuer.requests.get('/jwks')).toBe(2);
  });

  it('an unknown kid within the cooldown does not refetch (made-up kids cannot hammer the issuer)', async () => {
    const issuer = await issuerForTest();
    const verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    expect((await verifier.verify(await issuer.sign())).valid).toBe(true);
    const stranger = await signingKey('stranger');
    for (let index = 0; index < 5; index += 1)
      expect((await verifier.verify(await issuer.sign({}, stranger))).valid).toBe(false);
    expect(issuer.requests.get('/jwks')).toBe(1);
  });
});
