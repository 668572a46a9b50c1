import { BackendAuthorizationError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  expectNoSecret,
  failureOf,
  followingOpener,
  protocolChoices,
  secretsEverStored,
  textOf,
  useOAuthFixtures,
} from '../../test/oauth-harness.js';

/**
 * Step-up (MCP authorization spec, "Scope challenge handling"; docs/oauth.md): a call answered 403
 * `insufficient_scope` is authorized again with the union of the scopes held and those asked for, then retried; a
 * server that keeps asking is given up after the limit, with a clear error and no loop.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager } = useManagers();

function scopesOf(text: string | undefined): string[] {
  return (text ?? '').split(' ').filter(Boolean).sort();
}

describe.each(protocolChoices)('a call that needs a wider scope (protocol %s)', (_name, protocol) => {
  it('authorizes again with the union of the scopes and succeeds', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const opener = followingOpener();
    const { manager, records } = createManager(
      { remote: { url: mcpServer.url.href, ...protocol } },
      { oauth: { openAuthorizationUrl: opener, store } },
    );
    await manager.startAll();
    expect(scopesOf(statusOf(manager, 'remote')?.oauth?.scope)).toEqual(['mcp:read']);

    const result = await manager.callTool('remote', 'write_note', { text: 'hello' });
    expect(textOf(result)).toBe('noted: hello');
    expect(mcpServer.activity.forbidden).toBe(1);
    expect(opener.urls).toHaveLength(2);
    const second = opener.urls[1] as URL;
    expect(scopesOf(second.searchParams.get('scope') ?? '')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(second.searchParams.get('resource')).toBe(mcpServer.url.href);
    expect(authorizationServer.activity.authorizations).toBe(2);
    // The same registration: a step-up is a new authorization, not a new client.
    expect(authorizationServer.activity.registrations).toBe(1);
    expect(scopesOf(statusOf(manager, 'remote')?.oauth?.scope)).toEqual(
      expect.arrayContaining(['mcp:read', 'mcp:write']),
    );
    // The connection stayed up, and the wider token serves the other tools too.
    expect(statusOf(manager, 'remote')).toMatchObject({ state: 'running', restarts: 0 });
    const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as { scope: string };
    expect(scopesOf(whoami.scope)).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(textOf(await manager.callTool('remote', 'write_note', { text: 'again' }))).toBe('noted: again');
    expect(opener.urls).toHaveLength(2);

    const secrets = secretsEverStored(store);
    expectNoSecret(manager.status(), secrets);
    expectNoSecret(records, secrets);
  });

  it('without anyone to ask, fails that call with the command, remembers the scope, and authorize() asks for it', async () => {
    const { mcpServer } = await fixtures.startPair();
    const store = createRecordingOAuthStore();
    const config = { remote: { url: mcpServer.url.href, ...protocol } };
    const login = createManager(config, { oauth: { openAuthorizationUrl: followingOpener(), store } }).manager;
    await login.startAll();
    await login.close();

    const { manager } = createManager(config, { oauth: { openAuthorizationUrl: false, store } });
    await manager.startAll();
    const failure = await failureOf(manager.callTool('remote', 'write_note', { text: 'hello' }));
    expect(failure.message).toContain('search-mcp auth remote');
    expect(failure.message).toContain('mcp:write');
    // Only that call failed: the tokens still serve the rest.
    expect(statusOf(manager, 'remote')?.state).toBe('running');
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');

    const opener = followingOpener();
    const authorizing = createManager(config, { oauth: { openAuthorizationUrl: opener, store } }).manager;
    expect(await authorizing.authorize('remote')).toMatchObject({ state: 'running' });
    expect(opener.urls).toHaveLength(1);
    expect(scopesOf((opener.urls[0] as URL).searchParams.get('scope') ?? '')).toEqual(
      expect.arrayContaining(['mcp:read', 'mcp:write']),
    );
    expect(textOf(await authorizing.callTool('remote', 'write_note', { text: 'now' }))).toBe('noted: now');
  });
});

describe.each(protocolChoices)('a server that keeps answering insufficient_scope (protocol %s)', (_name, protocol) => {
  it('is given up after the step-up limit with a clear error, and the server stays usable', async () => {
    // `write_note` asks for a scope the authorization server never grants: every step-up ends in another 403.
    const { authorizationServer, mcpServer } = await fixtures.startPair({
      mcpServer: { toolScopes: { write_note: ['mcp:root'] } },
    });
    const opener = followingOpener();
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href, ...protocol } },
      { oauth: { openAuthorizationUrl: opener, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    const failure = await failureOf(manager.callTool('remote', 'write_note', { text: 'hello' }));
    expect(BackendAuthorizationError.isInstance(failure), String(failure)).toBe(true);
    expect(failure).toMatchObject({ serverId: 'remote', step: 'resource' });
    expect(failure.message).toContain("MCP server 'remote'");
    expect(failure.message).toContain('still asks for scope "mcp:read mcp:root" after 2 new authorizations');
    // The first authorization and at most two step-ups: no loop.
    expect(opener.urls.length).toBeLessThanOrEqual(3);
    expect(authorizationServer.activity.authorizations).toBeLessThanOrEqual(3);
    expect(mcpServer.activity.forbidden).toBeLessThanOrEqual(3);
    // Only that call failed: the connection stayed up (the 403 is no broken connection).
    expect(statusOf(manager, 'remote')).toMatchObject({ state: 'running', restarts: 0 });
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
  });
});
