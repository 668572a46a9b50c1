import { describe } from 'vitest';
import { statusOf } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  eventually,
  expectNoSecret,
  followingOpener,
  protocolChoices,
  type StoredEntry,
  secretsEverStored,
  textOf,
} from '../../test/oauth-harness.js';
import { oauthTest as it } from '../../test/oauth-test.js';

/**
 * Tokens after the login (docs/oauth.md): an access token that expires mid-session is refreshed before the call that
 * would meet it, so the caller never sees an error; a manager started again over the same store uses what is stored
 * (no new registration, no new authorization).
 */
// Every case has servers and managers of its own (`oauthTest`), so the cases run at once: most of their time is spent
// waiting (for a token to expire, for the flows over HTTP), and they wait side by side.

// Five-second tokens: a JWT's `exp` counts whole seconds from a truncated `iat`, so a token lives up to a second less
// than its ttl, and the connect's own check of the token it was just given must meet it unexpired on a machine running
// two suites at once (a two-second token did not, once: "refused the token it was just given").
describe.concurrent.each(protocolChoices)(
  'an access token that expires mid-session (protocol %s)',
  (_name, protocol) => {
    it('is refreshed without the caller seeing an error', async ({ expect, fixtures, managers }) => {
      const { authorizationServer, mcpServer } = await fixtures.startPair({
        authorizationServer: { accessTokenTtlSeconds: 5 },
      });
      const store = createRecordingOAuthStore();
      const opener = followingOpener();
      const { manager, records } = managers.createManager(
        { remote: { url: mcpServer.url.href, ...protocol } },
        { oauth: { openAuthorizationUrl: opener, store } },
      );
      await manager.startAll();
      expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
      const refreshesAtConnect = authorizationServer.activity.tokenRequests.refresh_token ?? 0;

      // The token the connect ended with expires: the next call must still succeed.
      const firstExpiry = Date.parse(statusOf(manager, 'remote')?.oauth?.expiresAt ?? '');
      await eventually(() => Date.now() > firstExpiry + 50, 'the access token to expire');
      const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as Record<string, unknown>;
      expect(whoami).toMatchObject({ sub: 'test-user', aud: mcpServer.url.href });
      expect(authorizationServer.activity.tokenRequests.refresh_token ?? 0).toBeGreaterThan(refreshesAtConnect);
      expect(authorizationServer.activity.tokenFailures.refresh_token ?? 0).toBe(0);
      // No person was asked again, and the server stayed connected.
      expect(opener.urls).toHaveLength(1);
      expect(authorizationServer.activity.authorizations).toBe(1);
      const status = statusOf(manager, 'remote');
      expect(status).toMatchObject({ state: 'running', restarts: 0, oauth: { state: 'authorized' } });
      expect(Date.parse(status?.oauth?.expiresAt ?? '')).toBeGreaterThan(firstExpiry);

      const secrets = secretsEverStored(store);
      expect(secrets.length).toBeGreaterThanOrEqual(4);
      expectNoSecret(manager.status(), secrets);
      expectNoSecret(records, secrets);
    });
  },
);

describe.concurrent('an access token that lives under a minute', () => {
  it('is refreshed halfway through its life, not before every request', async ({ expect, fixtures, managers }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair({
      authorizationServer: { accessTokenTtlSeconds: 30 },
    });
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href } },
      { oauth: { openAuthorizationUrl: followingOpener(), store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    for (let call = 0; call < 5; call += 1) await manager.callTool('remote', 'whoami');
    expect(authorizationServer.activity.tokenRequests).toEqual({ authorization_code: 1 });
  });
});

describe.concurrent.each(protocolChoices)(
  'a manager started again over the same store (protocol %s)',
  (_name, protocol) => {
    it('uses the stored tokens: no new registration, no new authorization', async ({ expect, fixtures, managers }) => {
      const { authorizationServer, mcpServer } = await fixtures.startPair();
      const store = createRecordingOAuthStore();
      const config = { remote: { url: mcpServer.url.href, ...protocol } };
      const first = managers.createManager(config, {
        oauth: { openAuthorizationUrl: followingOpener(), store },
      }).manager;
      await first.startAll();
      expect(statusOf(first, 'remote')?.state).toBe('running');
      await first.close();

      const opener = followingOpener();
      const { manager } = managers.createManager(config, { oauth: { openAuthorizationUrl: opener, store } });
      await manager.startAll();
      expect(statusOf(manager, 'remote')).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
      expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
      expect(opener.urls).toHaveLength(0);
      expect(authorizationServer.activity.registrations).toBe(1);
      expect(authorizationServer.activity.authorizations).toBe(1);
      expect(authorizationServer.activity.tokenRequests).toEqual({ authorization_code: 1 });
    });
  },
);

describe.concurrent('a stored token that expired while no manager ran', () => {
  it('is refreshed at the connect (protocol auto)', async ({ expect, fixtures, managers }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair({
      authorizationServer: { accessTokenTtlSeconds: 5 },
    });
    const store = createRecordingOAuthStore();
    const config = { remote: { url: mcpServer.url.href } };
    const first = managers.createManager(config, { oauth: { openAuthorizationUrl: followingOpener(), store } }).manager;
    await first.startAll();
    const expiry = Date.parse(statusOf(first, 'remote')?.oauth?.expiresAt ?? '');
    await first.close();
    await eventually(() => Date.now() > expiry + 50, 'the stored access token to expire');

    const opener = followingOpener();
    const { manager } = managers.createManager(config, { oauth: { openAuthorizationUrl: opener, store } });
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
    expect(opener.urls).toHaveLength(0);
    expect(authorizationServer.activity.registrations).toBe(1);
    expect(authorizationServer.activity.authorizations).toBe(1);
    expect(authorizationServer.activity.tokenRequests.refresh_token ?? 0).toBeGreaterThan(0);
  });
});

describe.concurrent.each(protocolChoices)(
  'a stored access token the server no longer takes (protocol %s)',
  (_name, protocol) => {
    it('is refreshed on the 401, without a person and without an error', async ({ expect, fixtures, managers }) => {
      const { authorizationServer, mcpServer } = await fixtures.startPair();
      const store = createRecordingOAuthStore();
      const config = { remote: { url: mcpServer.url.href, ...protocol } };
      const first = managers.createManager(config, {
        oauth: { openAuthorizationUrl: followingOpener(), store },
      }).manager;
      await first.startAll();
      await first.close();
      // As after a key rotation at the authorization server: the token is unexpired for the client, refused by the server.
      for (const [key, value] of store.values) {
        const entry = JSON.parse(value) as StoredEntry;
        for (const tokens of Object.values(entry.tokens)) tokens.access_token = 'a-token-the-server-refuses';
        store.values.set(key, JSON.stringify(entry));
      }

      const opener = followingOpener();
      const { manager } = managers.createManager(config, { oauth: { openAuthorizationUrl: opener, store } });
      await manager.startAll();
      expect(statusOf(manager, 'remote')?.state).toBe('running');
      expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
      expect(mcpServer.activity.unauthorized).toBeGreaterThan(0);
      expect(authorizationServer.activity.tokenRequests.refresh_token).toBe(1);
      expect(opener.urls).toHaveLength(0);
      expect(authorizationServer.activity.authorizations).toBe(1);
    });
  },
);
