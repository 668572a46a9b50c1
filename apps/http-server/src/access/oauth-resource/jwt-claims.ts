import { type JWTClaimVerificationOptions, type JWTPayload, UnsecuredJWT } from 'jose';

/** `{"alg":"none"}`: the header `UnsecuredJWT.decode` requires. */
const claimsOnlyHeader = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');

/**
 * The claim checks of jose's `jwtVerify` (`iss`, `aud`, `exp`, `nbf`, required claims, clock tolerance), on the
 * payload of a token whose signature is already verified (jws-signature.ts). jose 6 exports its claim-set
 * validation only inside `jwtVerify` (which verifies the signature through WebCrypto) and `UnsecuredJWT.decode`;
 * the latter runs the very same validation, so the verified payload is handed to it under a header of `alg: none`,
 * a string built here and never kept or returned (only the claims are). Throws jose's errors
 * (ERR_JWT_EXPIRED, ERR_JWT_CLAIM_VALIDATION_FAILED, ERR_JWT_INVALID), as `jwtVerify` did.
 */
export function checkClaims(encodedPayload: string, options: JWTClaimVerificationOptions): JWTPayload {
  return UnsecuredJWT.decode(`${claimsOnlyHeader}.${encodedPayload}.`, options).payload;
}
