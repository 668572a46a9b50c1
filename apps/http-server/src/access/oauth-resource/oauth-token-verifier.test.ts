import { createPublicKey, KeyObject, sign } from 'node:crypto';
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
  // A P-384 key published without `alg`, so that only its curve tells it is no ES256 key.
  const { alg: _alg, ...p384 } = (await signingKey('ec-384', 'ES384')).publicJwk;
  issuer = await startTestIssuer({
    keys: [
      await signingKey('rsa-1'),
      await signingKey('ec-1', 'ES256'),
      await signingKey('ps-1', 'PS256'),
      await signingKey('ed-1', 'EdDSA'),
      { ...(await signingKey('ec-384', 'ES384')), publicJwk: p384 },
    ],
  });
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

  it('accepts a PS256 token and an EdDSA (Ed25519) token', async () => {
    for (const key of [issuer.published[2], issuer.published[3]])
      expect(await verifier.verify(await issuer.sign({}, key))).toMatchObject({
        valid: true,
        principal: { subject: 'alice' },
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
    [
      'EdDSA signature tampered (payload changed after signing)',
      async () => {
        const [header, , signature] = (await issuer.sign({}, issuer.published[3])).split('.');
        return `${header}.${base64urlJson({ ...validClaims(), sub: 'mallory' })}.${signature}`;
      },
      /signature is invalid/,
    ],
    [
      'PS256 signature of another token (same header)',
      async () => {
        const [header, payload] = (await issuer.sign({}, issuer.published[2])).split('.');
        const [, , signature] = (await issuer.sign({ sub: 'bob' }, issuer.published[2])).split('.');
        return `${header}.${payload}.${signature}`;
      },
      /signature is invalid/,
    ],
    [
      'ES256 signature of the wrong length (one byte short)',
      () => withSignature(issuer.published[1], -1),
      /signature is invalid/,
    ],
    [
      'ES256 signature of the wrong length (one byte more)',
      () => withSignature(issuer.published[1], 1),
      /signature is invalid/,
    ],
    [
      'RS256 signature of the wrong length (one byte short)',
      () => withSignature(issuer.published[0], -1),
      /signature is invalid/,
    ],
    [
      'RS256 signature empty',
      async () => `${(await issuer.sign()).split('.').slice(0, 2).join('.')}.`,
      /signature is invalid/,
    ],
    [
      "the issuer's RSA key named by an ES256 header",
      async () => {
        const header = { alg: 'ES256', kid: 'rsa-1', typ: 'at+jwt' };
        return `${base64urlJson(header)}.${base64urlJson(validClaims())}.${Buffer.alloc(64, 1).toString('base64url')}`;
      },
      /not signed with a key the authorization server publishes/,
    ],
    [
      "the issuer's EC P-384 key (no alg) named by an ES256 header",
      async () => {
        const [, payload, signature] = (await issuer.sign({}, issuer.published[4])).split('.');
        return `${base64urlJson({ alg: 'ES256', kid: 'ec-384', typ: 'at+jwt' })}.${payload}.${signature}`;
      },
      /not signed with a key the authorization server publishes/,
    ],
    [
      'a critical header extension (crit)',
      async () => {
        // Signed by hand: jose refuses to sign with an extension it does not know.
        const key = issuer.published[0] as SigningKey;
        const header = {
          alg: 'RS256',
          kid: key.kid,
          typ: 'at+jwt',
          crit: ['urn:example:unknown'],
          'urn:example:unknown': 1,
        };
        const input = `${base64urlJson(header)}.${base64urlJson(validClaims())}`;
        const signature = sign('sha256', Buffer.from(input), KeyObject.from(key.privateKey));
        return `${input}.${signature.toString('base64url')}`;
      },
      /malformed/,
    ],
    ['header kid unknown', () => issuer.sign({}, stranger), /not signed with a key the authorization server publishes/],
    ['missing sub', () => issuer.sign({ sub: undefined }), /no subject/],
    ['bound to a DPoP key (cnf.jkt)', () => issuer.sign({ cnf: { jkt: 'thumbprint' } }), /bound to a key/],
    [
      'an ID token (nonce)',
      () => issuer.sign({ nonce: 'n-0S6_WzA2Mj' }),
      /^the token is an ID token, not an access token$/,
    ],
    ['an ID token (at_hash)', () => issuer.sign({ at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q' }), /is an ID token/],
    ['an ID token (c_hash)', () => issuer.sign({ c_hash: 'LDktKdoQak3Pk0cnXxCltA' }), /is an ID token/],
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

/** A valid token of `key` whose signature is made `change` bytes longer (or shorter). */
async function withSignature(key: SigningKey | undefined, change: number): Promise<string> {
  const [header, payload, signature] = (await issuer.sign({}, key)).split('.');
  const bytes = Buffer.from(signature as string, 'base64url');
  const changed = change < 0 ? bytes.subarray(0, bytes.length + change) : Buffer.concat([bytes, Buffer.alloc(change)]);
  return `${header}.${payload}.${changed.toString('base64url')}`;
}

function validClaims() {
  return { iss: issuer.issuer, aud: testAudience, sub: 'alice', iat: now(), exp: now() + 600 };
}
