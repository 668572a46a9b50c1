import { describe } from 'vitest';
import { statusOf } from '../../test/manager-harness.js';
import {
  claimsOf,
  createRecordingOAuthStore,
  eventually,
  expectNoSecret,
  followingOpener,
  plainServer,
  protocolChoices,
  secretsEverStored,
  storedAccessToken,
  storedCredentials,
  textOf,
} from '../../test/oauth-harness.js';
import { oauthTest as it } from '../../test/oauth-test.js';

/**
 * The first connect to an OAuth-protected server (docs/oauth.md), against a real authorization server: the 401 starts
 * discovery, dynamic registration as a native application, an authorization with PKCE and `resource` through the
 * opener and the loopback redirect, the code exchange; then tools are listed and called with a token whose audience is
 * the server. No token ever shows in the status, an error or a log line.
 */
// Every case has servers and managers of its own (`oauthTest`), so the cases run at once: most of their time is spent
// waiting (a startup timeout, an authorization that gives up), and they wait side by side.

describe.concurrent.each(protocolChoices)('logging in (protocol %s)', (name, protocol) => {
  it('discovers, registers, authorizes with PKCE and resource, then lists and calls', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const opener = followingOpener();
    const { manager, records } = managers.createManager(
      { remote: { url: mcpServer.url.href, ...protocol } },
      { oauth: { openAuthorizationUrl: opener, store } },
    );
    await manager.startAll();

    const status = statusOf(manager, 'remote');
    expect(status?.state, status?.lastError).toBe('running');
    // The fixture speaks both eras: auto settles on the 2026-07-28 one, as a pinned 2026-07-28 entry does.
    expect(status?.protocolEra).toBe(name === '2025' ? 'legacy' : 'modern');
    expect(status?.oauth).toMatchObject({ state: 'authorized', issuer: authorizationServer.issuer, refreshable: true });
    expect(status?.oauth?.scope).toContain('mcp:read');
    expect(Date.parse(status?.oauth?.expiresAt ?? '')).toBeGreaterThan(Date.now());

    // One registration, as a native application with a loopback redirect; one authorization, with PKCE S256 and the
    // server as resource (RFC 8707); one code exchange.
    expect(authorizationServer.activity.registrations).toBe(1);
    expect(authorizationServer.activity.authorizations).toBe(1);
    expect(authorizationServer.activity.tokenRequests).toMatchObject({ authorization_code: 1 });
    expect(opener.urls).toHaveLength(1);
    const authorizationUrl = opener.urls[0] as URL;
    expect(authorizationUrl.origin).toBe(authorizationServer.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpServer.url.href);
    expect(authorizationUrl.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorizationUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizationServer.activity.lastTokenRequest?.params).toMatchObject({ resource: mcpServer.url.href });
    const stored = storedCredentials(store, 'remote');
    const client = stored?.clients[authorizationServer.issuer];
    expect(client?.client_id).toBeTruthy();
    expect(client).toMatchObject({ application_type: 'native', token_endpoint_auth_method: 'none' });

    const tools = await manager.listTools('remote');
    expect(tools.map((tool) => tool.toolName).sort()).toEqual(['whoami', 'write_note']);
    const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as Record<string, unknown>;
    expect(whoami).toMatchObject({ sub: 'test-user', aud: mcpServer.url.href, client_id: client?.client_id });
    expect(claimsOf(storedAccessToken(store, 'remote')).aud).toBe(mcpServer.url.href);

    const secrets = secretsEverStored(store);
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    expectNoSecret(manager.status(), secrets);
    expectNoSecret(records, secrets);
  });
});

describe.concurrent('a server that needs OAuth beside a plain one', () => {
  it('waits in needs-auth without an opener and keeps no token in its status', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href } },
      { oauth: { openAuthorizationUrl: false, store } },
    );
    await manager.startAll();
    const status = statusOf(manager, 'remote');
    expect(status).toMatchObject({ state: 'needs-auth', oauth: { state: 'needs-auth' } });
    expect(status?.lastError).toContain('search-mcp auth remote');
    expect(authorizationServer.activity.authorizations).toBe(0);
  });
});

describe.concurrent('two servers behind one authorization server', () => {
  it('log in at once, each with its own registration and a token for itself', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const authorizationServer = await fixtures.startAuthorizationServer();
    const first = await fixtures.startProtectedMcpServer({ authorizationServer });
    const second = await fixtures.startProtectedMcpServer({ authorizationServer });
    const store = createRecordingOAuthStore();
    const opener = followingOpener();
    const { manager } = managers.createManager(
      { first: { url: first.url.href }, second: { url: second.url.href, protocol: '2025' } },
      { oauth: { openAuthorizationUrl: opener, store } },
    );
    await manager.startAll();
    expect(manager.status().map((status) => [status.id, status.state])).toEqual([
      ['first', 'running'],
      ['second', 'running'],
    ]);
    expect(opener.urls).toHaveLength(2);
    expect(authorizationServer.activity.registrations).toBe(2);
    const audiences = await Promise.all(
      ['first', 'second'].map(async (id) => JSON.parse(textOf(await manager.callTool(id, 'whoami'))).aud),
    );
    expect(audiences).toEqual([first.url.href, second.url.href]);
    expect(storedAccessToken(store, 'first')).not.toBe(storedAccessToken(store, 'second'));
  });
});

describe.concurrent.each(protocolChoices)('a person slower than the connect (protocol %s)', (_name, protocol) => {
  // Long enough for the OAuth discovery before the browser opens on a busy machine (at 1 s it could time out first,
  // and the server failed instead of waiting), short beside a person who acts only after the timeout.
  const startupTimeoutMs = 4000;
  it('authorize() waits past the startup timeout while the browser is open, then connects', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { mcpServer } = await fixtures.startPair();
    let opened: (url: URL) => void = () => {};
    const authorizationUrl = new Promise<URL>((resolve) => {
      opened = resolve;
    });
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href, startupTimeoutMs, ...protocol } },
      {
        oauth: {
          openAuthorizationUrl: (url) => opened(url),
          store: createRecordingOAuthStore(),
          authorizationTimeoutMs: 20_000,
        },
      },
    );
    const authorizing = manager.authorize('remote');
    const url = await authorizationUrl;
    // The connect's own time runs out while the person is still in the browser: waiting, not failed.
    await eventually(() => statusOf(manager, 'remote')?.state === 'needs-auth', 'the connect to time out', 15_000);
    expect(statusOf(manager, 'remote')?.lastError).toContain('waiting for OAuth authorization in the browser');
    expect(statusOf(manager, 'remote')?.oauth?.state).toBe('pending');
    const browser = await fetch(url, { redirect: 'follow' });
    await browser.body?.cancel();
    expect(await authorizing).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
  });

  it('startAll() returns at the startup timeout; the server connects once the person is done', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { mcpServer } = await fixtures.startPair();
    let opened: (url: URL) => void = () => {};
    const authorizationUrl = new Promise<URL>((resolve) => {
      opened = resolve;
    });
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href, startupTimeoutMs, ...protocol }, plain: plainServer },
      {
        oauth: {
          openAuthorizationUrl: (url) => opened(url),
          store: createRecordingOAuthStore(),
          authorizationTimeoutMs: 20_000,
        },
      },
    );
    const statuses = await manager.startAll();
    expect(statuses.find((status) => status.id === 'remote')?.state).toBe('needs-auth');
    expect(statuses.find((status) => status.id === 'plain')?.state).toBe('running');
    const browser = await fetch(await authorizationUrl, { redirect: 'follow' });
    await browser.body?.cancel();
    await eventually(() => statusOf(manager, 'remote')?.state === 'running', 'the server to connect');
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
  });

  it('a person who never comes back: the server keeps waiting and says why once the authorization gives up', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { mcpServer } = await fixtures.startPair();
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href, startupTimeoutMs: 1000, ...protocol } },
      {
        oauth: {
          // The URL is shown to nobody who acts on it.
          openAuthorizationUrl: () => {},
          store: createRecordingOAuthStore(),
          authorizationTimeoutMs: 2500,
        },
      },
    );
    const statuses = await manager.startAll();
    expect(statuses.find((status) => status.id === 'remote')?.state).toBe('needs-auth');
    expect(statusOf(manager, 'remote')?.lastError).toContain('waiting for OAuth authorization');
    await eventually(
      () => statusOf(manager, 'remote')?.lastError?.includes('nobody completed the authorization within') === true,
      'the authorization to give up',
    );
    expect(statusOf(manager, 'remote')?.state).toBe('needs-auth');
    expect(statusOf(manager, 'remote')?.lastError).toContain('run `search-mcp auth remote`');
  });
});
