import type { OAuthTokenRefusal } from './oauth-resource-settings.js';

/**
 * A refusal raised inside the checks and turned into the verifier's result at its one boundary (`verify` never
 * throws). `description` goes to the client, `reason` to the log line: neither ever holds the token itself.
 */
export class TokenRefusal extends Error {
  constructor(readonly result: OAuthTokenRefusal) {
    super(result.reason);
    this.name = 'TokenRefusal';
  }
}

/** 401 invalid_token: a bad, expired, foreign or unverifiable token. */
export function invalidToken(description: string, reason = description): TokenRefusal {
  return new TokenRefusal({ valid: false, status: 401, error: 'invalid_token', description, reason });
}

/** 401 invalid_token because the authorization server (metadata, keys, introspection) cannot be reached or read. */
export function unverifiable(what: string, reason: string): TokenRefusal {
  return invalidToken(`the token cannot be verified now: ${what}`, reason);
}

/** 403 insufficient_scope: a valid token that lacks scopes (named in `scope`, so the client can ask for them) or claims. */
export function insufficientScope(description: string, reason: string, scope?: string): TokenRefusal {
  return new TokenRefusal({
    valid: false,
    status: 403,
    error: 'insufficient_scope',
    description,
    reason,
    ...(scope === undefined ? {} : { scope }),
  });
}

/** A value from a token or a server answer, shortened for a log line (claims are attacker-chosen and may be long). */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The message of an unknown error, for a reason (fetch errors carry their cause, e.g. ECONNREFUSED, one level down). */
export function errorDetail(error: unknown): string {
  if (!(error instanceof Error)) return shown(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}${cause}`;
}
