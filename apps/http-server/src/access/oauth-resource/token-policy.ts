import type { OAuthPrincipal, OAuthResourceSettings } from './oauth-resource-settings.js';
import { insufficientScope, shown } from './token-refusal.js';

/** The scopes a token carries: `scope` (RFC 9068 / RFC 7662, space-separated) or `scp` (an array, as some issuers send). */
export function scopesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const { scope, scp } = claims;
  if (typeof scope === 'string') return scope.split(' ').filter((item) => item !== '');
  if (Array.isArray(scp)) return scp.filter((item): item is string => typeof item === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter((item) => item !== '');
  return [];
}

/**
 * The principal of verified claims (`sub` is known to be a non-empty string by then). The claims are frozen: an
 * introspection answer is cached and shared by every request with that token.
 */
export function principalOf(claims: Readonly<Record<string, unknown>>): OAuthPrincipal {
  Object.freeze(claims);
  const clientId =
    typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
  return {
    subject: claims.sub as string,
    ...(clientId === undefined ? {} : { clientId }),
    scopes: scopesOf(claims),
    claims,
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
  };
}

/**
 * The resource's own requirements of a valid token: every required scope (403 naming them all, so the client asks
 * for them in one step-up), then every required claim value. Throws a TokenRefusal (403 insufficient_scope).
 */
export function enforcePolicy(
  principal: OAuthPrincipal,
  settings: Pick<OAuthResourceSettings, 'requiredScopes' | 'claims'>,
): void {
  const required = settings.requiredScopes ?? [];
  const missing = required.filter((scope) => !principal.scopes.includes(scope));
  if (missing.length > 0)
    throw insufficientScope(
      `the token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`,
      `scopes [${principal.scopes.join(' ')}] lack ${missing.join(' ')}`,
      required.join(' '),
    );
  for (const [name, expected] of Object.entries(settings.claims ?? {})) {
    const acceptable: readonly unknown[] = Array.isArray(expected) ? expected : [expected];
    const actual = principal.claims[name];
    if (!claimMatches(actual, expected))
      throw insufficientScope(
        `the token lacks a required value of the claim ${name}`,
        `claim ${name} is ${shown(actual)}, expected ${acceptable.length > 1 ? 'one of ' : ''}${shown(expected)}`,
      );
  }
}

/**
 * A claim's required value (docs/oauth-in-front.md): the claim equals it, or (an array claim) contains it; a list of
 * values: any of them. `auth.oauth.claims` and the roles' `claims` both use it.
 */
export function claimMatches(
  actual: unknown,
  expected: string | number | boolean | readonly (string | number | boolean)[],
): boolean {
  const acceptable: readonly unknown[] = Array.isArray(expected) ? expected : [expected];
  const present: readonly unknown[] = Array.isArray(actual) ? actual : actual === undefined ? [] : [actual];
  return present.some((value) => acceptable.includes(value));
}
