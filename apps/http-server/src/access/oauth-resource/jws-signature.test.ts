import { generateKeyPairSync } from 'node:crypto';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { acceptedAlgorithms, verifyJwsSignature } from './jws-signature.js';
import type { OAuthTokenRefusal } from './oauth-resource-settings.js';
import { TokenRefusal } from './token-refusal.js';

/** A key pair for `algorithm`, the public half imported by jose as its JWKS does (importJWK with the header's alg). */
async function keyPair(algorithm: string): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
  return { privateKey, publicKey: (await importJWK(await exportJWK(publicKey), algorithm)) as CryptoKey };
}

async function signed(algorithm: string, privateKey: CryptoKey) {
  const token = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: algorithm }).sign(privateKey);
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return { input: `${header}.${payload}`, signature };
}

function refusalOf(check: () => void): OAuthTokenRefusal | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof TokenRefusal) return error.result;
    throw error;
  }
}

describe('JWS signatures checked with node:crypto', () => {
  it.each(acceptedAlgorithms)(
    '%s: verifies what jose signs, refuses it once the payload changes',
    async (algorithm) => {
      const { privateKey, publicKey } = await keyPair(algorithm);
      const { input, signature } = await signed(algorithm, privateKey);
      expect(refusalOf(() => verifyJwsSignature(algorithm, publicKey, input, signature))).toBeUndefined();
      expect(refusalOf(() => verifyJwsSignature(algorithm, publicKey, `${input}x`, signature))).toMatchObject({
        status: 401,
        description: "the token's signature is invalid",
      });
    },
  );

  it('refuses a key that does not fit the algorithm, even one jose would never select', async () => {
    const rsa = await keyPair('RS256');
    const p384 = await keyPair('ES384');
    const ed25519 = await keyPair('EdDSA');
    const ps256 = await signed('PS256', (await keyPair('PS256')).privateKey);
    const misfits: Array<[string, CryptoKey, RegExp]> = [
      ['ES256', rsa.publicKey, /has the type rsa, not ec/],
      ['ES256', p384.publicKey, /is on the curve P-384/],
      ['RS256', ed25519.publicKey, /has the type ed25519, not rsa/],
      // The same RSA key material, imported for PKCS#1 v1.5, must not verify PSS (nor the reverse).
      ['PS256', rsa.publicKey, /is for RSASSA-PKCS1-v1_5 SHA-256/],
      ['RS384', rsa.publicKey, /is for RSASSA-PKCS1-v1_5 SHA-256/],
    ];
    for (const [algorithm, key, reason] of misfits) {
      const refusal = refusalOf(() => verifyJwsSignature(algorithm, key, ps256.input, ps256.signature));
      expect(refusal, algorithm).toMatchObject({
        status: 401,
        error: 'invalid_token',
        description: 'the token is not signed with a key the authorization server publishes',
      });
      expect(refusal?.reason).toMatch(reason);
    }
  });

  it('refuses an RSA key shorter than 2048 bits, a private key and what is no CryptoKey', async () => {
    const { publicKey: short } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const shortKey = (await importJWK(short.export({ format: 'jwk' }), 'RS256')) as CryptoKey;
    const { privateKey } = await keyPair('ES256');
    for (const key of [shortKey, privateKey, new Uint8Array(32), short])
      expect(refusalOf(() => verifyJwsSignature('RS256', key, 'a.b', 'c'))).toMatchObject({
        description: 'the token is not signed with a key the authorization server publishes',
      });
    expect(refusalOf(() => verifyJwsSignature('RS256', shortKey, 'a.b', 'c'))?.reason).toMatch(/has 1024 bits/);
  });

  it('refuses HS256 and none, whatever the key', async () => {
    const { publicKey } = await keyPair('RS256');
    for (const algorithm of ['HS256', 'none'])
      expect(refusalOf(() => verifyJwsSignature(algorithm, publicKey, 'a.b', 'c'))).toMatchObject({
        description: "the token's signing algorithm is not accepted",
      });
  });
});
