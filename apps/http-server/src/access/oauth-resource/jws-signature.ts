import { constants, KeyObject, verify } from 'node:crypto';
import { types } from 'node:util';
import type { CryptoKey } from 'jose';
import { invalidToken } from './token-refusal.js';

/**
 * How each accepted JWS algorithm (RFC 7518 §3, RFC 8037, RFC 9864) is verified with node:crypto, and what the key
 * must be for it: its WebCrypto algorithm as jose imported it, and the key type (and curve) node:crypto sees.
 */
interface SignatureScheme {
  /** The digest for `crypto.verify`; null for Ed25519 (the digest is part of the scheme). */
  digest: string | null;
  webCrypto: { name: string; hash?: string; namedCurve?: string };
  keyType: 'rsa' | 'ec' | 'ed25519';
  /** OpenSSL's name of the curve (`asymmetricKeyDetails.namedCurve`), for ECDSA. */
  curve?: string;
  /** RSASSA-PSS (RFC 7518 §3.5): salt as long as the hash, MGF1 with the same hash (OpenSSL's default for PSS). */
  pssSaltLength?: number;
}

function pkcs1(bits: number): SignatureScheme {
  return { digest: `sha${bits}`, webCrypto: { name: 'RSASSA-PKCS1-v1_5', hash: `SHA-${bits}` }, keyType: 'rsa' };
}
function pss(bits: number): SignatureScheme {
  const webCrypto = { name: 'RSA-PSS', hash: `SHA-${bits}` };
  return { digest: `sha${bits}`, webCrypto, keyType: 'rsa', pssSaltLength: bits / 8 };
}
function ecdsa(bits: number, namedCurve: string, curve: string): SignatureScheme {
  return { digest: `sha${bits}`, webCrypto: { name: 'ECDSA', namedCurve }, keyType: 'ec', curve };
}
const ed25519: SignatureScheme = { digest: null, webCrypto: { name: 'Ed25519' }, keyType: 'ed25519' };

/**
 * Asymmetric signatures only: `none` is never a signature, and an HMAC (HS256 …) would let anyone holding the
 * issuer's public key (which is public) sign tokens with it as the secret.
 */
const schemes = new Map<string, SignatureScheme>([
  ['RS256', pkcs1(256)],
  ['RS384', pkcs1(384)],
  ['RS512', pkcs1(512)],
  ['PS256', pss(256)],
  ['PS384', pss(384)],
  ['PS512', pss(512)],
  ['ES256', ecdsa(256, 'P-256', 'prime256v1')],
  ['ES384', ecdsa(384, 'P-384', 'secp384r1')],
  ['ES512', ecdsa(512, 'P-521', 'secp521r1')],
  ['EdDSA', ed25519],
  ['Ed25519', ed25519],
]);

export const acceptedAlgorithms: readonly string[] = [...schemes.keys()];

export function isAcceptedAlgorithm(algorithm: unknown): algorithm is string {
  return typeof algorithm === 'string' && schemes.has(algorithm);
}

/** RSA keys shorter than this are refused (RFC 7518 §3.3 and §3.5; jose refuses them too). */
const minimumRsaBits = 2048;

interface VerifyingKey {
  keyObject: KeyObject;
  webCrypto: { name: string; hash?: string; namedCurve?: string };
  keyType: string | undefined;
  curve: string | undefined;
  modulusLength: number | undefined;
}

/** One KeyObject per CryptoKey jose hands out (jose keeps one CryptoKey per JWKS key and algorithm). */
const verifyingKeys = new WeakMap<CryptoKey, VerifyingKey>();

function verifyingKeyOf(key: CryptoKey): VerifyingKey {
  let found = verifyingKeys.get(key);
  if (found === undefined) {
    const keyObject = KeyObject.from(key);
    const algorithm = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string };
    const details = keyObject.asymmetricKeyDetails;
    found = {
      keyObject,
      webCrypto: {
        name: algorithm.name,
        ...(algorithm.hash ? { hash: algorithm.hash.name } : {}),
        ...(algorithm.namedCurve ? { namedCurve: algorithm.namedCurve } : {}),
      },
      keyType: keyObject.type === 'public' ? keyObject.asymmetricKeyType : undefined,
      curve: details?.namedCurve,
      modulusLength: details?.modulusLength,
    };
    verifyingKeys.set(key, found);
  }
  return found;
}

/** Why `key` cannot verify `scheme`'s signatures (to follow "the key "), or undefined when it can. */
function misfit(key: VerifyingKey, scheme: SignatureScheme): string | undefined {
  const expected = scheme.webCrypto;
  if (key.keyType !== scheme.keyType) return `has the type ${key.keyType ?? '(not public)'}, not ${scheme.keyType}`;
  if (key.webCrypto.name !== expected.name || key.webCrypto.hash !== expected.hash)
    return `is for ${key.webCrypto.name} ${key.webCrypto.hash ?? ''}`.trimEnd();
  if (scheme.curve !== undefined && (key.curve !== scheme.curve || key.webCrypto.namedCurve !== expected.namedCurve))
    return `is on the curve ${key.webCrypto.namedCurve ?? key.curve}`;
  if (scheme.keyType === 'rsa' && (key.modulusLength ?? 0) < minimumRsaBits)
    return `has ${key.modulusLength} bits (RSA needs at least ${minimumRsaBits})`;
  return undefined;
}

/**
 * Checks a JWS signature (RFC 7515 §5.2) synchronously with node:crypto. jose verifies through WebCrypto, whose
 * every call is a round trip through libuv's thread pool; on a request path that wait costs more than the check
 * itself (bench/results/oauth-resource.md). `key` is the issuer's key as jose's JWKS selected and imported it for
 * `algorithm` (type, curve, `alg`, `use` and `key_ops` matched); its fit is checked again here, so that a key of
 * another kind can never verify. Throws a TokenRefusal.
 */
export function verifyJwsSignature(algorithm: string, key: unknown, signingInput: string, signature: string): void {
  const scheme = schemes.get(algorithm);
  if (scheme === undefined)
    throw invalidToken("the token's signing algorithm is not accepted", `algorithm ${algorithm} is not allowed`);
  if (!types.isCryptoKey(key) || (key as CryptoKey).type !== 'public')
    throw invalidToken(
      'the token is not signed with a key the authorization server publishes',
      `the key for ${algorithm} is not a public CryptoKey`,
    );
  const verifyingKey = verifyingKeyOf(key as CryptoKey);
  const wrong = misfit(verifyingKey, scheme);
  if (wrong !== undefined)
    throw invalidToken(
      'the token is not signed with a key the authorization server publishes',
      `the key the token's header selects ${wrong}: it cannot verify ${algorithm}`,
    );
  const keyInput =
    scheme.keyType === 'ec'
      ? // JWS carries ECDSA signatures as r || s of fixed length (RFC 7518 §3.4), not DER.
        { key: verifyingKey.keyObject, dsaEncoding: 'ieee-p1363' as const }
      : scheme.pssSaltLength !== undefined
        ? {
            key: verifyingKey.keyObject,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: scheme.pssSaltLength,
          }
        : verifyingKey.keyObject;
  let valid = false;
  try {
    valid = verify(scheme.digest, Buffer.from(signingInput, 'latin1'), keyInput, Buffer.from(signature, 'base64url'));
  } catch {
    // A signature OpenSSL cannot even parse is as invalid as one that does not match.
  }
  if (!valid) throw invalidToken("the token's signature is invalid", 'signature verification failed');
}
