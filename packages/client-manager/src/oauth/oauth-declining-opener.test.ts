import { ServerNotRunningError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  eventually,
  failureOf,
  followingOpener,
  textOf,
  useOAuthFixtures,
} from '../../test/oauth-harness.js';
import type { AuthorizationOpener } from '../index.js';

/**
 * An opener that resolves `false` (docs/oauth.md: nobody can be shown the URL now, e.g. `serve`'s client declined a
 * URL elicitation): the server waits in `needs-auth` with the command that fixes it, as with
 * `openAuthorizationUrl: false`, not as a failed authorization; a step-up's scope is remembered for the next login.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager } = useManagers();

/** Declines (resolves `false`) until `accept()`, then follows the URL as a browser would. */
function switchableOpener() {
  const following = followingOpener();
  const declined: URL[] = [];
  let accepting = false;
  const opener: AuthorizationOpener = async (url, serverId) => {
    if (!accepting) {
      declined.push(url);
      return false;
    }
    await following(url, serverId);
  };
  return { opener, declined, accepted: following.urls, accept: () => (accepting = true) };
}

describe('an opener that resolves false', () => {
  it('leaves the server in needs-auth naming the command; the next call asks again', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const { opener, declined, accepted, accept } = switchableOpener();
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href } },
      { oauth: { openAuthorizationUrl: opener, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(declined).toHaveLength(1);
    const status = statusOf(manager, 'remote');
    expect(status).toMatchObject({ state: 'needs-auth', oauth: { state: 'needs-auth' } });
    expect(status?.lastError).toBe("MCP server 'remote' needs OAuth authorization: run `search-mcp auth remote`");
    expect(authorizationServer.activity.authorizations).toBe(0);

    const failure = await failureOf(manager.callTool('remote', 'whoami'));
    expect(ServerNotRunningError.isInstance(failure), String(failure)).toBe(true);
    expect(failure).toMatchObject({ state: 'needs-auth', isRetryable: false });
    expect(failure.message).toContain('`search-mcp auth remote`');

    // The call's reconnect asked again; now the person accepts, and the server connects.
    accept();
    await eventually(async () => {
      const answer = await manager.callTool('remote', 'whoami').then(textOf, () => '');
      return answer.includes('test-user');
    }, 'the server to connect once the opener shows the URL');
    expect(accepted).toHaveLength(1);
    expect(statusOf(manager, 'remote')).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
  });

  it('in a step-up fails that call with the command and remembers the scope for the next login', async () => {
    const { mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const config = { remote: { url: mcpServer.url.href } };
    const login = createManager(config, { oauth: { openAuthorizationUrl: followingOpener(), store } }).manager;
    await login.startAll();
    await login.close();

    const { opener, declined, accepted, accept } = switchableOpener();
    const { manager } = createManager(config, { oauth: { openAuthorizationUrl: opener, store } });
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    const failure = await failureOf(manager.callTool('remote', 'write_note', { text: 'hello' }));
    expect(declined).toHaveLength(1);
    expect(failure.message).toContain('needs OAuth authorization');
    expect(failure.message).toContain('mcp:write');
    expect(failure.message).toContain('search-mcp auth remote');
    // Only that call failed: the tokens still serve the rest.
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');

    accept();
    expect(await manager.authorize('remote')).toMatchObject({ state: 'running' });
    const scope = (accepted[0] as URL).searchParams.get('scope') ?? '';
    expect(scope.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(textOf(await manager.callTool('remote', 'write_note', { text: 'now' }))).toBe('noted: now');
  });
});
