import type { IssuedToken, KoaContextWithOIDC, Provider } from 'oidc-provider';

/** How the client authenticated at the token endpoint, as seen on the wire. */
export type ClientAuthentication = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** One request to the token endpoint, with every secret replaced by `[redacted]`. */
export interface RecordedTokenRequest {
  grantType: string;
  /** The request's parameters (`code`, `code_verifier`, `refresh_token`, `client_secret` … redacted). */
  params: Record<string, unknown>;
  clientAuthentication: ClientAuthentication;
  /** The OAuth error it was answered with; absent when tokens were issued. */
  error?: string;
}

/** What the authorization server saw, for assertions. Counters only grow; read them, never write them. */
export interface AuthorizationServerActivity {
  /** Token requests by `grant_type`, answered or refused. */
  tokenRequests: Record<string, number>;
  /** Token requests by `grant_type` that were refused. */
  tokenFailures: Record<string, number>;
  /** Successful dynamic client registrations (RFC 7591). */
  registrations: number;
  /** Authorization requests answered with a code. */
  authorizations: number;
  /** Authorization requests answered with an error (to the redirect URI or on the page). */
  authorizationFailures: number;
  lastTokenRequest?: RecordedTokenRequest;
  /** The parameters of the last authorization request that reached the end of the flow. */
  lastAuthorizationParams?: Record<string, unknown>;
}

const secretParams = new Set([
  'code',
  'code_verifier',
  'refresh_token',
  'client_secret',
  'client_assertion',
  'token',
  'subject_token',
]);

function redacted(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    copy[name] = secretParams.has(name) ? '[redacted]' : value;
  }
  return copy;
}

function clientAuthenticationOf(context: KoaContextWithOIDC, params: Record<string, unknown>): ClientAuthentication {
  if (/^basic /i.test(context.get('authorization'))) return 'client_secret_basic';
  if (params.client_assertion !== undefined) return 'private_key_jwt';
  if (params.client_secret !== undefined) return 'client_secret_post';
  return 'none';
}

/**
 * Listens to oidc-provider's events (`grant.success`, `grant.error`, `registration_create.success`,
 * `authorization.success`, `authorization.error`, `access_token.issued`, `grant.revoked`) and keeps counts for tests,
 * plus which access tokens (by `jti`) belong to which grant, so a revoked grant revokes its JWT access tokens too.
 */
export function watchAuthorizationServer(provider: Provider) {
  const activity: AuthorizationServerActivity = {
    tokenRequests: {},
    tokenFailures: {},
    registrations: 0,
    authorizations: 0,
    authorizationFailures: 0,
  };
  const grantOfToken = new Map<string, string | undefined>();
  const revokedTokens = new Set<string>();

  const recordTokenRequest = (context: KoaContextWithOIDC, error?: Error) => {
    const raw = context.oidc?.params ?? context.oidc?.body ?? (context.request.body as Record<string, unknown>);
    const grantType = String(raw?.grant_type ?? 'unknown');
    activity.tokenRequests[grantType] = (activity.tokenRequests[grantType] ?? 0) + 1;
    if (error) activity.tokenFailures[grantType] = (activity.tokenFailures[grantType] ?? 0) + 1;
    activity.lastTokenRequest = {
      grantType,
      params: redacted(raw),
      clientAuthentication: clientAuthenticationOf(context, raw ?? {}),
      ...(error ? { error: (error as { error?: string }).error ?? error.message } : {}),
    };
  };

  provider.on('grant.success', (context: KoaContextWithOIDC) => recordTokenRequest(context));
  provider.on('grant.error', (context: KoaContextWithOIDC, error: Error) => recordTokenRequest(context, error));
  provider.on('registration_create.success', () => {
    activity.registrations += 1;
  });
  provider.on('authorization.success', (context: KoaContextWithOIDC) => {
    activity.authorizations += 1;
    activity.lastAuthorizationParams = redacted(context.oidc?.params);
  });
  provider.on('authorization.error', () => {
    activity.authorizationFailures += 1;
  });
  provider.on('access_token.issued', (token: IssuedToken) => {
    grantOfToken.set(token.jti, token.grantId);
  });
  // A client credentials token has no grant; `revokeAll` reports it revoked too.
  provider.on('client_credentials.issued', (token: IssuedToken) => {
    grantOfToken.set(token.jti, token.grantId);
  });
  provider.on('grant.revoked', (_context: KoaContextWithOIDC, grantId: string) => {
    for (const [jti, grant] of grantOfToken) if (grant === grantId) revokedTokens.add(jti);
  });

  return {
    activity,
    /** Whether the access token with this `jti` was revoked (its grant revoked, or everything revoked). */
    isAccessTokenRevoked: (jti: string) => revokedTokens.has(jti),
    /** Marks every access token issued so far revoked. */
    revokeIssuedAccessTokens() {
      for (const jti of grantOfToken.keys()) revokedTokens.add(jti);
    },
  };
}
