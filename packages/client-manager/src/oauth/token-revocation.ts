import type { McpFetchLike } from '@search-mcp/shared';
import type { StoredOAuthProvider } from './stored-oauth-provider.js';

/**
 * Revokes a server's stored tokens at its authorization server (RFC 7009), the refresh token first (revoking it ends
 * the grant), authenticated as the client the tokens were issued to. Nothing to do where the server offers no
 * revocation endpoint, nor for a token it cannot revoke (`unsupported_token_type`). Throws on a refusal (the caller
 * forgets the tokens anyway).
 */
export async function revokeTokens(provider: StoredOAuthProvider, fetchImplementation: McpFetchLike): Promise<void> {
  const tokens = provider.latestTokens();
  const metadata = provider.discoveryState()?.authorizationServerMetadata as
    | { revocation_endpoint?: string }
    | undefined;
  const endpoint = metadata?.revocation_endpoint;
  if (!tokens || !endpoint) return;
  const client = provider.clientInformation();
  for (const [token, hint] of [
    [tokens.refresh_token, 'refresh_token'],
    [tokens.access_token, 'access_token'],
  ] as const) {
    if (token === undefined) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const secret = (client as { client_secret?: string } | undefined)?.client_secret;
    if (client && secret !== undefined) {
      const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else if (client) {
      body.set('client_id', client.client_id);
    }
    const response = await fetchImplementation(endpoint, { method: 'POST', headers, body: body.toString() });
    if (response.ok) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    // RFC 7009 §2.2.1: `unsupported_token_type` says this kind of token cannot be revoked there (a JWT access token,
    // self-contained): nothing more to do for it; the refresh token's revocation already ended the grant.
    const answer = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
    if (response.status === 400 && answer?.error === 'unsupported_token_type') continue;
    throw new Error(`the revocation endpoint answered HTTP ${response.status}`);
  }
}
