import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectProtocolEraClient } from '../protocol-eras/protocol-era-clients.js';
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

const otherAudience = 'http://127.0.0.1:9/another-mcp';

let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let listener: Awaited<ReturnType<typeof startCallbackListener>>;
let metadata: AuthorizationServerMetadata;
let clientId: string;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer({ resources: [otherAudience] });
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  listener = await startCallbackListener();
  metadata = await discover(authorizationServer.issuer);
  // Registered with another port than the listener's: a native client's loopback port may vary (RFC 8252 §7.3).
  clientId = await registerNativeClient(metadata, 'http://127.0.0.1:9/callback');
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

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function whoami(token: string, kind: 'sdk2-legacy' | 'sdk2-2026' = 'sdk2-legacy') {
  const session = await connectProtocolEraClient(kind, {
    transport: 'http',
    url: mcpServer.url,
    headers: bearer(token),
  });
  try {
    const result = await session.callTool('whoami', {});
    return { era: session.era, claims: JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown> };
  } finally {
    await session.close();
  }
}

describe('the protected MCP server and its authorization server', () => {
  it('answers a request without a token 401 with a challenge that leads to the authorization server', async () => {
    const response = await postJsonRpc(mcpServer.url, initializeRequest);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${mcpServer.resourceMetadataUrl.href}"`);
    expect(challenge).toContain('scope="mcp:read"');
    expect(challenge).not.toContain('error=');

    const resource = await (await fetch(mcpServer.resourceMetadataUrl)).json();
    expect(resource).toEqual({
      resource: mcpServer.url.href,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: ['mcp:read', 'mcp:write', 'mcp:admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'OAuth-protected MCP fixture',
    });
    const atRoot = await (await fetch(new URL('/.well-known/oauth-protected-resource', mcpServer.url))).json();
    expect(atRoot).toEqual(resource);

    expect(metadata.issuer).toBe(authorizationServer.issuer);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write', 'mcp:admin']));
    expect(metadata.registration_endpoint).toBeTruthy();
    expect(metadata.revocation_endpoint).toBeTruthy();
    const openidResponse = await fetch(new URL('/.well-known/openid-configuration', authorizationServer.issuer));
    const openid = (await openidResponse.json()) as { token_endpoint: string };
    expect(openid.token_endpoint).toBe(metadata.token_endpoint);
  });

  it('lets a registered native client authorize by following the URL, and its token calls whoami in both eras', async () => {
    const { callback, state, verifier } = await authorize(metadata, listener, request('mcp:read'));
    expect(callback.get('state')).toBe(state);
    expect(callback.get('iss')).toBe(authorizationServer.issuer);
    const code = callback.get('code') ?? '';
    expect(code).not.toBe('');

    const before = { ...authorizationServer.activity.tokenRequests };
    const exchanged = await tokenRequest(metadata, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: listener.redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      resource: mcpServer.url.href,
    });
    expect(exchanged.status).toBe(200);
    // A refresh token without `offline_access`.
    expect(exchanged.body.refresh_token).toBeTruthy();
    expect(exchanged.body.scope).toBe('mcp:read');
    expect(jwtClaims(exchanged.body.access_token)).toMatchObject({
      aud: mcpServer.url.href,
      iss: authorizationServer.issuer,
      sub: 'test-user',
      scope: 'mcp:read',
      client_id: clientId,
    });
    expect(authorizationServer.activity.tokenRequests.authorization_code).toBe((before.authorization_code ?? 0) + 1);
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
      grantType: 'authorization_code',
      clientAuthentication: 'none',
      params: { code: '[redacted]', code_verifier: '[redacted]', resource: mcpServer.url.href },
    });

    for (const kind of ['sdk2-legacy', 'sdk2-2026'] as const) {
      const answer = await whoami(exchanged.body.access_token, kind);
      expect(answer.era).toBe(kind === 'sdk2-legacy' ? 'legacy' : 'modern');
      expect(answer.claims).toEqual({
        sub: 'test-user',
        scope: 'mcp:read',
        aud: mcpServer.url.href,
        client_id: clientId,
      });
    }
    expect(mcpServer.activity.lastClaims?.sub).toBe('test-user');
    expect(mcpServer.activity.tokenUses.at(-1)?.sub).toBe('test-user');
  });

  it('refuses a code exchange without the PKCE verifier', async () => {
    const { callback } = await authorize(metadata, listener, request('mcp:read'));
    const exchanged = await tokenRequest(metadata, {
      grant_type: 'authorization_code',
      code: callback.get('code') ?? '',
      redirect_uri: listener.redirectUri,
      client_id: clientId,
      resource: mcpServer.url.href,
    });
    expect(exchanged.status).toBe(400);
    expect(exchanged.body.error).toBe('invalid_grant');
  });

  it('refuses a token issued for another audience with invalid_token', async () => {
    const tokens = await obtainTokens(metadata, listener, request('mcp:read', otherAudience));
    expect(jwtClaims(tokens.access_token).aud).toBe(otherAudience);
    const response = await postJsonRpc(mcpServer.url, initializeRequest, bearer(tokens.access_token));
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${mcpServer.resourceMetadataUrl.href}"`);
  });

  it('asks for more scope with 403 insufficient_scope on a tool that needs it (step-up), in both eras', async () => {
    const readOnly = await obtainTokens(metadata, listener, request('mcp:read'));
    const opened = await postJsonRpc(mcpServer.url, initializeRequest, bearer(readOnly.access_token));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await opened.body?.cancel();
    const forbiddenBefore = mcpServer.activity.forbidden;
    const call = { id: 2, method: 'tools/call', params: { name: 'write_note', arguments: { text: 'hi' } } };
    const refused = await postJsonRpc(mcpServer.url, call, {
      ...bearer(readOnly.access_token),
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp:read mcp:write"');
    expect(challenge).toContain(`resource_metadata="${mcpServer.resourceMetadataUrl.href}"`);

    const modern = await connectProtocolEraClient('sdk2-2026', {
      transport: 'http',
      url: mcpServer.url,
      headers: bearer(readOnly.access_token),
    });
    await expect(modern.callTool('write_note', { text: 'hi' })).rejects.toThrow();
    await modern.close();
    expect(mcpServer.activity.forbidden).toBe(forbiddenBefore + 2);

    const stepped = await obtainTokens(metadata, listener, request('mcp:read mcp:write'));
    const session = await connectProtocolEraClient('sdk2-legacy', {
      transport: 'http',
      url: mcpServer.url,
      headers: bearer(stepped.access_token),
    });
    expect((await session.callTool('write_note', { text: 'hi' })).content[0]?.text).toBe('noted: hi');
    await session.close();
  });

  it('refreshes, refuses an expired access token, and after revokeAll refuses the refresh and the old tokens', async () => {
    authorizationServer.setTokenLifetimes({ accessTokenSeconds: 1 });
    const tokens = await obtainTokens(metadata, listener, request('mcp:read'));
    authorizationServer.setTokenLifetimes({ accessTokenSeconds: 3600 });
    const expiresAt = Number(jwtClaims(tokens.access_token).exp) * 1000;
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(1000);
    // Wait for the token's own expiry (its `exp`), then a little so the server's clock is past it too.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    const expired = await postJsonRpc(mcpServer.url, initializeRequest, bearer(tokens.access_token));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const refreshesBefore = authorizationServer.activity.tokenRequests.refresh_token ?? 0;
    const refreshed = await tokenRequest(metadata, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: clientId,
      resource: mcpServer.url.href,
    });
    expect(refreshed.status).toBe(200);
    expect(authorizationServer.activity.tokenRequests.refresh_token).toBe(refreshesBefore + 1);
    expect(jwtClaims(refreshed.body.access_token).aud).toBe(mcpServer.url.href);
    expect((await whoami(refreshed.body.access_token)).claims.scope).toBe('mcp:read');

    authorizationServer.revokeAll();
    const afterRevocation = await tokenRequest(metadata, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token ?? '',
      client_id: clientId,
    });
    expect(afterRevocation.status).toBe(400);
    expect(afterRevocation.body.error).toBe('invalid_grant');
    expect(authorizationServer.activity.tokenFailures.refresh_token).toBeGreaterThanOrEqual(1);
    const revoked = await postJsonRpc(mcpServer.url, initializeRequest, bearer(refreshed.body.access_token));
    expect(revoked.status).toBe(401);
    // The client is still registered: a new authorization works.
    const fresh = await obtainTokens(metadata, listener, request('mcp:read'));
    expect((await whoami(fresh.access_token)).claims.sub).toBe('test-user');
  });

  it('takes a pre-registered confidential client authenticating with client_secret_basic', async () => {
    await authorizationServer.registerClient({
      client_id: 'pre-registered',
      client_secret: 'a-secret-of-the-test',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const { callback, verifier } = await authorize(metadata, listener, {
      ...request('mcp:read'),
      clientId: 'pre-registered',
    });
    const basic = Buffer.from('pre-registered:a-secret-of-the-test').toString('base64');
    const exchanged = await tokenRequest(
      metadata,
      {
        grant_type: 'authorization_code',
        code: callback.get('code') ?? '',
        redirect_uri: listener.redirectUri,
        code_verifier: verifier,
        resource: mcpServer.url.href,
      },
      { authorization: `Basic ${basic}` },
    );
    expect(exchanged.status).toBe(200);
    expect(authorizationServer.activity.lastTokenRequest?.clientAuthentication).toBe('client_secret_basic');
    expect(JSON.stringify(authorizationServer.activity.lastTokenRequest)).not.toContain('a-secret-of-the-test');
    expect((await whoami(exchanged.body.access_token)).claims.client_id).toBe('pre-registered');
  });
});
