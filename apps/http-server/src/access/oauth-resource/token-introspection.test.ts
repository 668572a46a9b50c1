import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthTokenCheck } from './oauth-resource-settings.js';
import { refusedUrl, startTestIssuer, type TestIssuer, testAudience } from './oauth-resource-test-support.js';
import { createOAuthTokenVerifier, type OAuthTokenVerifier } from './oauth-token-verifier.js';

let issuer: TestIssuer;
let verifier: OAuthTokenVerifier;
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;

/** A fresh opaque token the test issuer's introspection endpoint answers with `answer`. */
function opaqueToken(answer: Record<string, unknown>): string {
  counter += 1;
  const token = `opaque-${counter}-${Math.random().toString(36).slice(2)}`;
  issuer.introspection.set(token, answer);
  return token;
}

const activeAnswer = () => ({
  active: true,
  iss: issuer.issuer,
  aud: testAudience,
  sub: 'alice',
  client_id: 'inspector',
  scope: 'mcp:read',
  exp: now() + 600,
});

function expectRefused(check: OAuthTokenCheck, token: string, description: string) {
  expect(check).toMatchObject({ valid: false, status: 401, error: 'invalid_token', description });
  if (!check.valid) expect(check.reason).not.toContain(token);
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  // The endpoint comes from the issuer's metadata (`introspection_endpoint`).
  verifier = createOAuthTokenVerifier({
    issuer: issuer.issuer,
    audiences: [testAudience],
    introspection: { clientId: issuer.clientId, clientSecret: issuer.clientSecret },
  });
});

afterAll(async () => {
  await issuer?.close();
});

describe('opaque tokens by introspection (RFC 7662)', () => {
  it('accepts an active token for this resource, and caches the answer', async () => {
    const token = opaqueToken(activeAnswer());
    const before = issuer.requests.get('/introspect') ?? 0;
    const check = await verifier.verify(token);
    expect(check).toMatchObject({
      valid: true,
      principal: { subject: 'alice', clientId: 'inspector', scopes: ['mcp:read'] },
    });
    expect((await verifier.verify(token)).valid).toBe(true);
    expect(issuer.requests.get('/introspect')).toBe(before + 1);
  });

  it('refuses an inactive token, and asks again next time (a negative answer is not cached)', async () => {
    const token = opaqueToken({ active: false });
    const before = issuer.requests.get('/introspect') ?? 0;
    expectRefused(await verifier.verify(token), token, 'the token is not active');
    issuer.introspection.set(token, activeAnswer());
    expect((await verifier.verify(token)).valid).toBe(true);
    expect(issuer.requests.get('/introspect')).toBe(before + 2);
  });

  it('refuses an active token for another resource', async () => {
    const token = opaqueToken({ ...activeAnswer(), aud: ['https://other.example/mcp'] });
    expectRefused(await verifier.verify(token), token, 'the token was issued for another resource');
  });

  it('refuses an active token without audience, of another issuer, expired, or without sub', async () => {
    const { aud: _aud, ...noAudience } = activeAnswer();
    const { sub: _sub, ...noSubject } = activeAnswer();
    const table: Array<[Record<string, unknown>, string]> = [
      [noAudience, 'the token names no audience'],
      [
        { ...activeAnswer(), iss: 'https://other-issuer.example' },
        'the token was issued by another authorization server',
      ],
      [{ ...activeAnswer(), exp: now() - 3600 }, 'the token has expired'],
      [noSubject, 'the token has no subject'],
    ];
    for (const [answer, description] of table) {
      const token = opaqueToken(answer);
      expectRefused(await verifier.verify(token), token, description);
    }
  });

  it('refuses an active token that is no access token (token_type) or is bound to a key (cnf)', async () => {
    const table: Array<[Record<string, unknown>, string]> = [
      [{ ...activeAnswer(), token_type: 'refresh_token' }, 'the token is not an access token'],
      [{ ...activeAnswer(), token_type: 42 }, 'the token is not an access token'],
      [
        { ...activeAnswer(), cnf: { jkt: 'thumbprint' } },
        'the token is bound to a key (DPoP or mTLS), which this server does not check',
      ],
    ];
    for (const [answer, description] of table) {
      const token = opaqueToken(answer);
      expectRefused(await verifier.verify(token), token, description);
    }
  });

  it('accepts a token_type of access_token or Bearer, in any case', async () => {
    for (const tokenType of ['access_token', 'Bearer', 'bearer', 'ACCESS_TOKEN'])
      expect(await verifier.verify(opaqueToken({ ...activeAnswer(), token_type: tokenType }))).toMatchObject({
        valid: true,
        principal: { subject: 'alice' },
      });
  });

  it('refuses with 401 "cannot be verified now" when the endpoint is down, slow or refuses our credentials', async () => {
    const token = opaqueToken(activeAnswer());
    const down = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      introspection: {
        url: await refusedUrl('/introspect'),
        clientId: issuer.clientId,
        clientSecret: issuer.clientSecret,
      },
    });
    expectRefused(
      await down.verify(token),
      token,
      "the token cannot be verified now: the authorization server's introspection endpoint is unreachable",
    );

    const slow = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      requestTimeoutMs: 150,
      introspection: { clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    });
    issuer.modes.introspection = 'hang';
    try {
      const check = await slow.verify(token);
      expectRefused(
        check,
        token,
        "the token cannot be verified now: the authorization server's introspection endpoint is unreachable",
      );
      expect(check).toMatchObject({ reason: expect.stringMatching(/did not answer within 150 ms/) });
    } finally {
      issuer.modes.introspection = 'ok';
    }

    const wrongSecret = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      introspection: { url: issuer.introspectionUri, clientId: issuer.clientId, clientSecret: 'wrong' },
    });
    const check = await wrongSecret.verify(token);
    expectRefused(
      check,
      token,
      "the token cannot be verified now: the authorization server's introspection endpoint failed",
    );
    expect(check).toMatchObject({ reason: expect.stringMatching(/answered 401/) });
  });

  it('without introspection configured, refuses a token that is not a JWT', async () => {
    const jwtOnly = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
    const token = opaqueToken(activeAnswer());
    expectRefused(await jwtOnly.verify(token), token, 'the token is not a JWT and no introspection is configured');
  });
});
