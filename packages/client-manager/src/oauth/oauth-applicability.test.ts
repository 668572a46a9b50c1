import { BackendAuthorizationError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  failureOf,
  followingOpener,
  plainServer,
  useOAuthFixtures,
} from '../../test/oauth-harness.js';

/**
 * Which servers OAuth applies to (docs/oauth.md): a remote server without an `oauth` key when it asks with a 401
 * Bearer challenge; never one whose entry says `"oauth": false`, nor one that sends its own `Authorization` header
 * without an `oauth` key (the 401 is then that header's failure), nor a stdio server.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager } = useManagers();

describe('a server OAuth does not apply to', () => {
  it('"oauth": false: the 401 is a failure of its headers, nobody is asked', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const opener = followingOpener();
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href, oauth: false } },
      { oauth: { openAuthorizationUrl: opener, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    const status = statusOf(manager, 'remote');
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toContain('401');
    expect(status?.oauth).toBeUndefined();
    expect(opener.urls).toHaveLength(0);
    expect(authorizationServer.activity.registrations).toBe(0);
    const failure = await failureOf(manager.authorize('remote'));
    expect(BackendAuthorizationError.isInstance(failure)).toBe(true);
    expect(failure.message).toBe(`MCP server 'remote' does not use OAuth: its config entry says "oauth": false`);
  });

  it('its own Authorization header and no oauth key: the header is used, nobody is asked', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const opener = followingOpener();
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href, headers: { Authorization: 'Bearer a-static-token' } } },
      { oauth: { openAuthorizationUrl: opener, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state).toBe('failed');
    expect(statusOf(manager, 'remote')?.lastError).not.toContain('a-static-token');
    expect(opener.urls).toHaveLength(0);
    expect(authorizationServer.activity.registrations).toBe(0);
    await expect(manager.beginAuthorization('remote', { redirectUrl: 'http://127.0.0.1:1/cb' })).rejects.toThrow(
      'its config entry sends its own Authorization header',
    );
  });

  it('a stdio server: authorize() and logout() say it does not use OAuth', async () => {
    const { manager } = createManager({ plain: plainServer }, { oauth: { store: createRecordingOAuthStore() } });
    await manager.startAll();
    expect(statusOf(manager, 'plain')?.oauth).toBeUndefined();
    await expect(manager.authorize('plain')).rejects.toThrow('it is a local (stdio) server');
    await expect(manager.logout('plain')).rejects.toThrow(
      "MCP server 'plain' does not use OAuth: it is a local (stdio) server",
    );
  });
});

describe('a server that never asks', () => {
  it('reports no OAuth state and touches no store', async () => {
    const store = createRecordingOAuthStore();
    const { manager } = createManager({ plain: plainServer }, { oauth: { store } });
    await manager.startAll();
    expect(statusOf(manager, 'plain')?.state).toBe('running');
    expect(store.history).toEqual([]);
  });
});
