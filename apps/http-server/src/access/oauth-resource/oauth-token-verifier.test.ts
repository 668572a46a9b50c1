import { createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthTokenCheck } from './oauth-resource-settings.js';
import {
  base64urlJson,
  type SigningKey,
  signingKey,
  startTestIssuer,
  type TestIssuer,
  testAudience,
} from './oauth-resource-test-support.js';
import { createOAuthTokenVerifier, type OAuthTokenVerifier } from './oauth-token-verifier.js';

let issuer: TestIssuer;
let verifier: OAuthTokenVerifier;
let stranger: SigningKey;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  issuer = await startTestIssuer({ keys: [await signingKey('rsa-1'), await signingKey('ec-1', 'ES256')] });
  stranger = await signingKey('stranger');
  // Found through the issuer's metadata (no jwksUri): discovery is part of every check below.
  verifier = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [testAudience] });
});

afterAll(async () => {
  await issuer?.close();
});

function expectRefused(check: OAuthTokenCheck, token: string, status: 401 | 403 = 401) {
  expect(check.valid).toBe(false);
  if (check.valid) return check;
  expect(check.status).toBe(status);
  expect(check.error).toBe(status === 401 ? 'invalid_token' : 'insufficient_scope');
  if (token !== '') {
    expect(check.reason).not.toContain(token);
    expect(check.description).not.toContain(token);
  }
  return check;
}

describe('valid JWT access tokens', () => {
  it('accepts an RS256 token and names its subject, client and scopes', async () => {
    const token = await issuer.sign({ client_id: 'inspector', scope: 'mcp:read mcp:write' });
    const check = await verifier.verify(token);
    expect(check).toMatchObject({
      valid: true,
      principal: { subject: 'alice', clientId: 'inspector', scopes: ['mcp:read', 'mcp:write'] },
    });
    if (check.valid) expect(check.principal.expiresAt).toBe(check.principal.claims.exp);
  });

  it('accepts an ES256 token, `typ: JWT` instead of at+jwt, `azp` and `scp` as an array', async () => {
    const token = await issuer.sign(
      { azp: 'cli', scp: ['mcp:read'], aud: ['https://elsewhere.example', testAudience] },
      issuer.published[1],
      { typ: 'JWT' },
    );
    expect(await verifier.verify(token)).toMatchObject({
      valid: true,
      principal: { subject: 'alice', clientId: 'cli', scopes: ['mcp:read'] },
    });
  });

  it('accepts claims within the clock tolerance (exp 10 s ago)', async () => {
    const token = await issuer.sign({ exp: now() - 10, iat: now() - 100 });
    expect((await verifier.verify(token)).valid).toBe(true);
  });
});

describe('refused JWTs (the bad-input table)', () => {
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['expired', () => issuer.sign({ exp: now() - 3600, iat: now() - 7200 }), /has expired/],
    ['not yet valid (nbf in the future)', () => issuer.sign({ nbf: now() + 3600 }), /not valid yet/],
    ['iat in the future', () => issuer.sign({ iat: now() + 3600, exp: now() + 7200 }), /issued in the future/],
    ['wrong issuer', () => issuer.sign({ iss: 'https://other-issuer.example' }), /another authorization server/],
    ['wrong audience', () => issuer.sign({ aud: 'https://other.example/mcp' }), /another resource/],
    ['no audience', () => issuer.sign({ aud: undefined }), /no audience/],
    [
      'alg none',
      async () => `${base64urlJson({ alg: 'none', typ: 'at+jwt' })}.${base64urlJson(validClaims())}.`,
      /algorithm is not accepted/,
    ],
    [
      'HS256 signed with the public key as the secret',
      async () => {
        const key = issuer.published[0] as SigningKey;
        const pem = createPublicKey({ key: key.publicJwk as never, format: 'jwk' }).export({
          type: 'spki',
          format: 'pem',
        });
        return new SignJWT(validClaims())
          .setProtectedHeader({ alg: 'HS256', kid: key.kid })
          .sign(Buffer.from(pem as string));
      },
      /algorithm is not accepted/,
    ],
    [
      'signature tampered (payload changed after signing)',
      async () => {
        const [header, , signature] = (await issuer.sign()).split('.');
        return `${header}.${base64urlJson({ ...validClaims(), sub: 'mallory' })}.${signature}`;
      },
      /signature is invalid/,
    ],
    ['header kid unknown', () => issuer.sign({}, stranger), /not signed with a key the authorization server publishes/],
    ['missing sub', () => issuer.sign({ sub: undefined }), /no subject/],
    ['bound to a DPoP key (cnf.jkt)', () => issuer.sign({ cnf: { jkt: 'thumbprint' } }), /bound to a key/],
    ['missing exp', () => issuer.sign({ exp: undefined }), /no expiry/],
    [
      'JSON header {}',
      async () => `${base64urlJson({})}.${base64urlJson(validClaims())}.c2lnbmF0dXJl`,
      /algorithm is not accepted/,
    ],
    ['garbage a.b.c (no JSON header: not a JWT, no introspection)', async () => 'a.b.c', /not a JWT/],
    [
      'header JSON, payload not JSON',
      async () => `${base64urlJson({ alg: 'RS256', kid: 'rsa-1' })}.bm90IGpzb24.c2ln`,
      /malformed/,
    ],
    [
      'typ of another kind of JWT (dpop+jwt)',
      () => issuer.sign({}, undefined, { typ: 'dpop+jwt' }),
      /not an access token/,
    ],
    ['garbage a.b (not a JWT, no introspection)', async () => 'a.b', /not a JWT and no introspection/],
    ['garbage non-base64', async () => '%%%.&&&.***', /not a JWT and no introspection/],
    ['empty', async () => '', /empty/],
    ['oversized (100 KB)', async () => `${'a'.repeat(50 * 1024)}.${'b'.repeat(50 * 1024)}.c`, /too long/],
  ];

  it.each(cases)('%s: 401 invalid_token', async (_name, make, description) => {
    const token = await make();
    const check = expectRefused(await verifier.verify(token), token);
    if (!check.valid) expect(check.description).toMatch(description);
  });

  it('names the foreign audience in the reason for the log', async () => {
    const check = await verifier.verify(await issuer.sign({ aud: 'https://other.example/mcp' }));
    expect(check).toMatchObject({
      reason: `audience https://other.example/mcp is not this resource (${testAudience})`,
    });
  });
});

describe("per-request audiences (the resource's URL as the request reached it)", () => {
  it('checks the audiences given with the request instead of the settings, the cached token included', async () => {
    const perRequest = createOAuthTokenVerifier({ issuer: issuer.issuer, audiences: [], jwksUri: issuer.jwksUri });
    const token = await issuer.sign({ aud: 'http://127.0.0.1:1234/mcp' });
    expect((await perRequest.verify(token, { audiences: ['http://127.0.0.1:1234/mcp'] })).valid).toBe(true);
    const elsewhere = expectRefused(
      await perRequest.verify(token, { audiences: ['https://search.example/mcp'] }),
      token,
    );
    expect(elsewhere).toMatchObject({
      description: 'the token was issued for another resource',
      reason: 'audience http://127.0.0.1:1234/mcp is not this resource (https://search.example/mcp)',
    });
    expect(expectRefused(await perRequest.verify(token), token)).toMatchObject({
      description: 'this resource accepts no audience',
    });
  });
});

describe('scopes and claims (403 insufficient_scope)', () => {
  let strict: OAuthTokenVerifier;
  beforeAll(() => {
    strict = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      jwksUri: issuer.jwksUri,
      requiredScopes: ['mcp:read', 'mcp:write'],
      claims: { groups: ['search-users', 'admins'], email_verified: true },
    });
  });

  it('refuses a token missing a required scope, naming the scopes to ask for', async () => {
    const token = await issuer.sign({ scope: 'mcp:read', groups: ['search-users'], email_verified: true });
    const check = expectRefused(await strict.verify(token), token, 403);
    expect(check).toMatchObject({ scope: 'mcp:read mcp:write', description: 'the token lacks the scope mcp:write' });
  });

  it('refuses a token whose claim does not match', async () => {
    const token = await issuer.sign({ scope: 'mcp:read mcp:write', groups: ['other'], email_verified: true });
    const check = expectRefused(await strict.verify(token), token, 403);
    expect(check).toMatchObject({ description: 'the token lacks a required value of the claim groups' });
    expect(check).not.toHaveProperty('scope');
  });

  it('accepts a token with every scope and claim (array claim containing one of the values)', async () => {
    const token = await issuer.sign({ scope: 'mcp:write mcp:read', groups: ['x', 'admins'], email_verified: true });
    expect((await strict.verify(token)).valid).toBe(true);
  });
});

function validClaims() {
  return { iss: issuer.issuer, aud: testAudience, sub: 'alice', iat: now(), exp: now() + 600 };
}
