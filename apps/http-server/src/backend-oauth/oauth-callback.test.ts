/**
 * The authorize route and the callback page on the app in process (the whole flow through the built app is
 * test/oauth-authorize-http.test.ts): the redirect URI built on `publicUrl`, and the pages of callbacks that fail.
 */
import {
  type AuthorizationServer,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { createMemoryOAuthStore } from '@search-mcp/client-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Running, startApp } from '../../test/http-test-support.js';

let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let server: Running;

async function page(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
  return { status: response.status, text: await response.text() };
}

async function startAuthorization(): Promise<URL> {
  const started = await request(server.url, '/v1/servers/secure/authorize', { method: 'POST' });
  expect(started.status).toBe(200);
  return new URL(started.body?.authorizationUrl as string);
}

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  server = await startApp({
    backends: 'none',
    config: { mcpServers: { secure: { url: mcpServer.url.href } } },
    manager: { oauth: { openAuthorizationUrl: false, store: createMemoryOAuthStore() } },
    app: { publicUrl: 'https://search.example/tools' },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await mcpServer?.close();
  await authorizationServer?.close();
});

describe('POST /v1/servers/:serverId/authorize and GET /oauth/callback', () => {
  it('sends the browser back to the public URL when one is configured', async () => {
    expect((await request(server.url, '/v1/servers/secure')).body?.state).toBe('needs-auth');
    const authorizationUrl = await startAuthorization();
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe('https://search.example/tools/oauth/callback');
  });

  it('answers a refusal by the authorization server with a page that echoes nothing of the redirect', async () => {
    const state = (await startAuthorization()).searchParams.get('state') as string;
    const refused = await page(
      `/oauth/callback?state=${encodeURIComponent(state)}&error=access_denied` +
        `&error_description=${encodeURIComponent('<script>alert(1)</script> marker-5521')}`,
    );
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('did not complete (at the authorization step)');
    expect(refused.text).not.toMatch(/access_denied|marker-5521|<script>/);
    expect(refused.text).not.toContain(state);
    // The refused authorization is over: the server waits for a new one.
    const status = (await request(server.url, '/v1/servers/secure')).body;
    expect(status).toMatchObject({ state: 'needs-auth', oauth: { state: 'needs-auth' } });
  });

  it('refuses a redirect without a state with 400, and takes no token', async () => {
    const bare = await page('/oauth/callback');
    expect(bare.status).toBe(400);
    expect(bare.text).toContain('Nothing was changed');
    expect(authorizationServer.activity.tokenRequests.authorization_code ?? 0).toBe(0);
  });
});
