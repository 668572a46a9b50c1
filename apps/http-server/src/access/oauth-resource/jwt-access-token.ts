import {
  decodeJwt,
  decodeProtectedHeader,
  type CompactJWSHeaderParameters,
  type JWSHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { KeySourceError } from './issuer-key-set.js';
import { checkClaims } from './jwt-claims.js';
import { isAcceptedAlgorithm, verifyJwsSignature } from './jws-signature.js';
import { errorDetail, invalidToken, shown, TokenRefusal, unverifiable } from './token-refusal.js';

export interface JwtCheckOptions {
  issuer: string;
  audiences: readonly string[];
  clockToleranceSeconds: number;
  /** The issuer's keys; may throw a TokenRefusal when the metadata that names them cannot be had. */
  keys: () => Promise<JWTVerifyGetKey>;
}

/**
 * RFC 9068 §4 asks for `typ: at+jwt`; many issuers still send `JWT` or nothing, so those pass too. Any other type
 * (a DPoP proof, a logout token …) is a JWT meant for something else and is refused.
 */
const accessTokenTypes = new Set([undefined, 'jwt', 'at+jwt', 'application/at+jwt']);

/** Claims of an OpenID Connect ID token (OpenID Connect Core §2, §3.1.3.6, §3.3.2.11) that no access token carries. */
const idTokenClaims = ['nonce', 'at_hash', 'c_hash'] as const;

/**
 * Three base64url parts whose first is a JSON header: what is checked as a JWT. Anything else (an opaque string, a
 * JWE of five parts) is an opaque token, for introspection.
 */
export function looksLikeJwt(token: string): boolean {
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a JWT access token (RFC 9068): signature by one of the issuer's keys (found by jose's JWKS, checked with
 * node:crypto: jws-signature.ts), then the claims (jose's checks: jwt-claims.ts): `iss` exactly the issuer,
 * `aud` naming this resource (RFC 8707: a token minted for another resource is refused), `exp` required and not past,
 * `nbf` and `iat` not in the future, `sub` required, all with the clock tolerance. `typ: at+jwt` is accepted, not
 * required (many issuers still send `JWT`); a key-bound token (`cnf`) and an ID token (`nonce`, `at_hash`, `c_hash`)
 * are refused. Returns the verified claims; throws a TokenRefusal.
 */
export async function checkJwtAccessToken(token: string, options: JwtCheckOptions): Promise<JWTPayload> {
  // Read without trust first, to refuse what needs no key (a foreign issuer, a refused algorithm) without asking
  // the issuer for keys, and to name the algorithm in the reason.
  let header: JWSHeaderParameters;
  let unverifiedIssuer: unknown;
  try {
    header = decodeProtectedHeader(token);
    unverifiedIssuer = decodeJwt(token).iss;
  } catch (error) {
    throw invalidToken('the token is malformed', `malformed JWT: ${errorDetail(error)}`);
  }
  const { alg: algorithm, typ: type } = header;
  if (!isAcceptedAlgorithm(algorithm))
    throw invalidToken(
      "the token's signing algorithm is not accepted",
      `algorithm ${shown(algorithm)} is not allowed (asymmetric signatures only)`,
    );
  if (!accessTokenTypes.has(typeof type === 'string' ? type.toLowerCase() : (type as undefined)))
    throw invalidToken('the token is not an access token', `typ ${shown(type)} is not an access token type`);
  if (unverifiedIssuer !== options.issuer) throw wrongIssuer(unverifiedIssuer, options.issuer);

  // RFC 7515 §4.1.11: a critical extension not understood makes the token invalid; none is understood here.
  if (header.crit !== undefined)
    throw invalidToken('the token is malformed', 'malformed JWT: the header names critical extensions (crit)');

  const [encodedHeader, encodedPayload, signature] = token.split('.') as [string, string, string];
  let payload: JWTPayload;
  try {
    const key = await (await options.keys())(header as CompactJWSHeaderParameters, {
      protected: encodedHeader,
      payload: encodedPayload,
      signature,
    });
    // The signature first, then the claims: what an unsigned token claims is never looked at, as with jwtVerify.
    verifyJwsSignature(algorithm, key, `${encodedHeader}.${encodedPayload}`, signature);
    payload = checkClaims(encodedPayload, {
      issuer: options.issuer,
      audience: [...options.audiences],
      clockTolerance: options.clockToleranceSeconds,
      requiredClaims: ['exp', 'sub'],
    });
  } catch (error) {
    throw refusalFor(error, options);
  }
  const now = Math.floor(Date.now() / 1000);
  // jose checks `iat` only against a maximum age; a token "issued" in the future is refused here.
  if (typeof payload.iat === 'number' && payload.iat > now + options.clockToleranceSeconds)
    throw invalidToken('the token is issued in the future', `iat ${isoTime(payload.iat)} is in the future`);
  if (typeof payload.sub !== 'string' || payload.sub === '')
    throw invalidToken('the token has no subject', `sub is ${shown(payload.sub)}, not a non-empty string`);
  // A sender-constrained token (RFC 9449 `cnf.jkt`, RFC 8705 `cnf.x5t#S256`) is worthless without its proof, which
  // a Bearer request does not carry: accepting it would let whoever copied it use it.
  if (payload.cnf !== undefined)
    throw invalidToken(
      'the token is bound to a key (DPoP or mTLS), which this server does not check',
      'cnf is present',
    );
  // An OpenID Connect ID token is signed by the same issuer and passes every check above when `aud` (its client id)
  // happens to be an accepted audience; it carries `nonce`, `at_hash` or `c_hash`, which an access token never does.
  const idTokenClaim = idTokenClaims.find((claim) => payload[claim] !== undefined);
  if (idTokenClaim !== undefined)
    throw invalidToken(
      'the token is an ID token, not an access token',
      `${idTokenClaim} is present (an ID token claim)`,
    );
  return payload;
}

function refusalFor(error: unknown, options: JwtCheckOptions): TokenRefusal {
  if (error instanceof TokenRefusal) return error;
  if (error instanceof KeySourceError)
    return unverifiable("the authorization server's keys are unreachable", error.detail);
  const { code, claim, reason, payload } = error as {
    code?: string;
    claim?: string;
    reason?: string;
    payload?: JWTPayload;
  };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return invalidToken('the token has expired', `expired at ${isoTime(payload?.exp)}`);
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return claimRefusal(claim, reason, payload ?? {}, options, errorDetail(error));
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return invalidToken("the token's signature is invalid", 'signature verification failed');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return invalidToken(
        'the token is not signed with a key the authorization server publishes',
        `no single key of the issuer matches the token's header (${errorDetail(error)})`,
      );
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return invalidToken("the token's signing algorithm is not accepted", errorDetail(error));
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return invalidToken('the token is malformed', `malformed JWT: ${errorDetail(error)}`);
    default:
      return invalidToken('the token is invalid', errorDetail(error));
  }
}

function claimRefusal(
  claim: string | undefined,
  reason: string | undefined,
  payload: JWTPayload,
  options: JwtCheckOptions,
  detail: string,
): TokenRefusal {
  const missing = reason === 'missing';
  switch (claim) {
    case 'iss':
      return wrongIssuer(payload.iss, options.issuer);
    case 'aud':
      return missing
        ? invalidToken('the token names no audience', 'aud is missing')
        : invalidToken(
            'the token was issued for another resource',
            `audience ${shown(payload.aud)} is not this resource (${options.audiences.join(', ')})`,
          );
    case 'nbf':
      return invalidToken('the token is not valid yet', `nbf ${isoTime(payload.nbf)} is in the future`);
    case 'exp':
      return invalidToken('the token has no expiry', missing ? 'exp is missing' : detail);
    case 'sub':
      return invalidToken('the token has no subject', missing ? 'sub is missing' : detail);
    default:
      return invalidToken("the token's claims are invalid", detail);
  }
}

function wrongIssuer(found: unknown, expected: string): TokenRefusal {
  return invalidToken(
    'the token was issued by another authorization server',
    `issuer ${shown(found)} is not ${expected}`,
  );
}

function isoTime(epochSeconds: unknown): string {
  return typeof epochSeconds === 'number' && Number.isFinite(epochSeconds)
    ? new Date(epochSeconds * 1000).toISOString()
    : shown(epochSeconds);
}
