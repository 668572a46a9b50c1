import { oauthSdk } from './oauth-sdk.js';

/** What a 401 or 403 challenge said (RFC 6750 `WWW-Authenticate`, with the MCP authorization spec's parameters). */
export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/**
 * Whether a 401 asks for OAuth: a `Bearer` challenge (RFC 6750; the MCP authorization spec's servers send one, with
 * `resource_metadata` since 2025-06-18), or a `DPoP` one (RFC 9449 §7.1: a server that takes sender-constrained
 * tokens). A 401 without one is about other credentials (the config's `headers`), and is returned as it is.
 */
export function asksForBearer(response: Response): boolean {
  return /(^|,)\s*(bearer|dpop)\b/i.test(response.headers.get('www-authenticate') ?? '');
}

/** The challenge's `resource_metadata` and `scope`; the response's body is dropped (nothing reads it). */
export async function readChallenge(response: Response): Promise<Challenge> {
  const { extractWWWAuthenticateParams } = await oauthSdk.load();
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  await response.body?.cancel().catch(() => {});
  const challenge: Challenge = {};
  if (resourceMetadataUrl) challenge.resourceMetadataUrl = resourceMetadataUrl;
  if (scope !== undefined) challenge.scope = scope;
  return challenge;
}

/** A 403 that asks for more scope (`error="insufficient_scope"`): the step-up of the MCP authorization spec. */
export async function insufficientScope(response: Response): Promise<boolean> {
  const { extractWWWAuthenticateParams } = await oauthSdk.load();
  return extractWWWAuthenticateParams(response).error === 'insufficient_scope';
}

/** The request with our access token (replacing any `Authorization` of the config's headers). */
export function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (token === undefined) return init;
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}
