import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationServer, startAuthorizationServer } from './authorization-server.js';
import {
  type AuthorizationServerMetadata,
  authorize,
  discover,
  initializeRequest,
  jwtClaims,
  obtainTokens,
  postJsonRpc,
  registerNativeClient,
  startCallbackListener,
  tokenRequest,
} from './oauth-test-client.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './protected-mcp-server.js';

let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let listener: Awaited<ReturnType<typeof startCallbackListener>>;
let metadata: AuthorizationServerMetadata;
let clientId: string;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  mcpServer = await startProtectedMcpServer({ authorizationServer, resourceMetadataInChallenge: false });
  listener = await startCallbackListener();
  metadata = await discover(authorizationServer.issuer);
  clientId = await registerNativeClient(metadata, listener.redirectUri);
});

afterAll(async () => {
  await mcpServer?.close();
  await authorizationServer?.close();
  await listener?.close();
});

const request = (scope: string, resource = mcpServer.url.href) => ({
  clientId,
  redirectUri: listener.redirectUri,
  resource,
  scope,
});

describe('the OAuth fixtures at their edges', () => {
  it('grants the default scope to an authorization request without scope', async () => {
    const tokens = await obtainTokens(metadata, listener, request(''));
    expect(jwtClaims(tokens.access_token).scope).toBe('mcp:read');
  });

  it('answers a resource it does not know with invalid_target on the redirect URI', async () => {
    const { callback, state } = await authorize(metadata, listener, request('mcp:read', 'http://127.0.0.1:9/unknown'));
    expect(callback.get('error')).toBe('invalid_target');
    expect(callback.get('state')).toBe(state);
    expect(callback.get('code')).toBeNull();
  });

  it('can leave resource_metadata out of its challenges (the client then tries the well-known URLs)', async () => {
    const response = await postJsonRpc(mcpServer.url, initializeRequest);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer scope="mcp:read"');
    const found = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', mcpServer.url));
    expect(((await found.json()) as { resource: string }).resource).toBe(mcpServer.url.href);
  });

  it('revokes the grant when the client revokes its refresh token (RFC 7009): refresh and access token refused', async () => {
    const tokens = await obtainTokens(metadata, listener, request('mcp:read'));
    const revocation = await fetch(metadata.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: tokens.refresh_token ?? '',
        token_type_hint: 'refresh_token',
        client_id: clientId,
      }),
    });
    expect(revocation.status).toBe(200);
    const refreshed = await tokenRequest(metadata, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: clientId,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    const refused = await postJsonRpc(mcpServer.url, initializeRequest, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('lets a refresh token expire after its configured lifetime', async () => {
    authorizationServer.setTokenLifetimes({ refreshTokenSeconds: 1 });
    const tokens = await obtainTokens(metadata, listener, request('mcp:read'));
    authorizationServer.setTokenLifetimes({ refreshTokenSeconds: 86_400 });
    // Issued in the same second as the access token: wait for that second plus the lifetime to pass.
    const expiresAt = (Number(jwtClaims(tokens.access_token).iat) + 1) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    const refreshed = await tokenRequest(metadata, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: clientId,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('answers a planned fault instead of the endpoint, as many times as asked', async () => {
    authorizationServer.failNext('registration', { status: 500, body: '{"error":"server_error"}' });
    authorizationServer.failNext('metadata', { status: 200, body: '<html>not json</html>', contentType: 'text/html' });
    await expect(registerNativeClient(metadata, listener.redirectUri)).rejects.toThrow(/HTTP 500/);
    const page = await fetch(new URL('/.well-known/oauth-authorization-server', authorizationServer.issuer));
    expect(await page.text()).toBe('<html>not json</html>');
    // Answered once each: the endpoints work again.
    expect((await discover(authorizationServer.issuer)).issuer).toBe(authorizationServer.issuer);
    expect(await registerNativeClient(metadata, listener.redirectUri)).toBeTruthy();
  });

  it('counts a refused token request and keeps its error', async () => {
    const before = authorizationServer.activity.tokenFailures.authorization_code ?? 0;
    const refused = await tokenRequest(metadata, {
      grant_type: 'authorization_code',
      code: 'not-a-code',
      redirect_uri: listener.redirectUri,
      code_verifier: 'x'.repeat(43),
      client_id: clientId,
    });
    expect(refused.status).toBe(400);
    expect(authorizationServer.activity.tokenFailures.authorization_code).toBe(before + 1);
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
      grantType: 'authorization_code',
      error: 'invalid_grant',
      params: { code: '[redacted]' },
    });
  });
});
