import { ServerNotRunningError } from '@search-mcp/shared';
import { describe } from 'vitest';
import { statusOf } from '../../test/manager-harness.js';
import {
  claimsOf,
  createRecordingOAuthStore,
  eventually,
  expectNoSecret,
  failureOf,
  followingOpener,
  protocolChoices,
  secretsEverStored,
  storedAccessToken,
  storedCredentials,
  textOf,
} from '../../test/oauth-harness.js';
import { oauthTest as it } from '../../test/oauth-test.js';

/**
 * Authorization taken away (docs/oauth.md): tokens revoked at the authorization server leave the server waiting in
 * `needs-auth` with the command that fixes it, and an authorization (here from another manager over the same store,
 * as `search-mcp auth` beside a running `serve`) brings it back; `logout` revokes the tokens at the authorization
 * server (RFC 7009) and forgets them.
 */
// Every case has servers and managers of its own (`oauthTest`), so the cases run at once, waiting side by side.

describe.concurrent.each(protocolChoices)('revoked tokens (protocol %s)', (_name, protocol) => {
  it('fail the call with needs-auth and the command; an authorization brings the server back', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const config = { remote: { url: mcpServer.url.href, ...protocol } };
    const login = managers.createManager(config, { oauth: { openAuthorizationUrl: followingOpener(), store } }).manager;
    await login.startAll();
    expect(statusOf(login, 'remote')?.state).toBe('running');
    await login.close();

    // A manager that may never ask anyone (a server process): it connects with the stored tokens.
    const { manager, records } = managers.createManager(config, { oauth: { openAuthorizationUrl: false, store } });
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    authorizationServer.revokeAll();

    const failure = await failureOf(manager.callTool('remote', 'whoami'));
    expect(ServerNotRunningError.isInstance(failure), String(failure)).toBe(true);
    expect(failure).toMatchObject({ serverId: 'remote', state: 'needs-auth', isRetryable: false });
    expect(failure.message).toContain('`search-mcp auth remote`');
    expect(statusOf(manager, 'remote')).toMatchObject({ state: 'needs-auth' });
    expect(authorizationServer.activity.tokenFailures.refresh_token ?? 0).toBeGreaterThan(0);

    // `search-mcp auth remote` in another process: the waiting manager picks the new tokens up on its next call.
    const authorizing = managers.createManager(config, {
      oauth: { openAuthorizationUrl: followingOpener(), store },
    }).manager;
    expect(await authorizing.authorize('remote')).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
    expect(authorizationServer.activity.authorizations).toBe(2);
    await authorizing.close();
    let answer = '';
    await eventually(async () => {
      answer = await manager.callTool('remote', 'whoami').then(textOf, () => '');
      return answer !== '';
    }, 'the waiting manager to connect with the new tokens');
    expect(answer).toContain('test-user');
    expect(statusOf(manager, 'remote')?.state).toBe('running');

    const secrets = secretsEverStored(store);
    expectNoSecret(manager.status(), secrets);
    expectNoSecret(records, secrets);
    expectNoSecret(failure.message, secrets);
  });

  it('are replaced through the opener at the next call, which succeeds', async ({ expect, fixtures, managers }) => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const opener = followingOpener();
    const { manager } = managers.createManager(
      { remote: { url: mcpServer.url.href, ...protocol } },
      { oauth: { openAuthorizationUrl: opener, store } },
    );
    await manager.startAll();
    authorizationServer.revokeAll();
    // Calls that meet the refusal together wait for one new authorization (and one step-up).
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((text) => manager.callTool('remote', 'write_note', { text }).then(textOf)),
    );
    expect(answers).toEqual(['noted: a', 'noted: b', 'noted: c']);
    // The login, then one new authorization for the refused token and one step-up for `mcp:write`, each shared.
    expect(opener.urls).toHaveLength(3);
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
    expect(statusOf(manager, 'remote')).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
  });
});

describe.concurrent.each(protocolChoices)('logout (protocol %s)', (_name, protocol) => {
  it('revokes the tokens at the authorization server, forgets them and waits in needs-auth', async ({
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
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    const accessToken = storedAccessToken(store, 'remote');
    const jti = String(claimsOf(accessToken).jti);
    expect(authorizationServer.isAccessTokenRevoked(jti)).toBe(false);

    const status = await manager.logout('remote');
    expect(status).toMatchObject({ state: 'needs-auth', oauth: { state: 'needs-auth' } });
    expect(storedCredentials(store, 'remote')).toBeUndefined();
    // The revocation reached the authorization server: the grant is gone, and with it the access token.
    expect(authorizationServer.isAccessTokenRevoked(jti)).toBe(true);
    const refused = await fetch(mcpServer.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(401);
    // A JWT access token cannot be revoked by itself (`unsupported_token_type`): no warning for that.
    expect(records.filter((record) => record.level === 'warn').map((record) => record.message)).not.toContain(
      'could not revoke the OAuth tokens; forgetting them anyway',
    );

    const failure = await failureOf(manager.callTool('remote', 'whoami'));
    expect(failure).toMatchObject({ state: 'needs-auth' });
    expect(failure.message).toContain('search-mcp auth remote');
    // Nobody was asked again by itself: only a login brings it back.
    expect(opener.urls).toHaveLength(1);
    expect(await manager.authorize('remote')).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
    expect(opener.urls).toHaveLength(2);
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
  });
});
