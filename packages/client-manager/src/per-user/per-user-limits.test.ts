import { ServerNotRunningError, type ServerStatus, type ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { failureOf, useOAuthFixtures } from '../../test/oauth-harness.js';
import { authorizeAs, setUpPerUser, whoamiAs } from '../../test/per-user-harness.js';
import type { McpClientManager } from '../index.js';

/**
 * The life of per-user connections (README, "Per-user servers"): closed when idle and opened again from the
 * stored tokens, bounded per server, closed with the manager and by a reload; the tools they list stand for the
 * server's while its shared connection waits for an admin's login.
 */
const fixtures = useOAuthFixtures();
const managers = useManagers();

/** Resolves when `subject`'s own connection to `remote` reaches `state`. */
function callerState(manager: McpClientManager, subject: string, state: string): Promise<ServerStatus> {
  return new Promise((resolve) => {
    const listener = (serverId: string, who: string, status: ServerStatus) => {
      if (serverId !== 'remote' || who !== subject || status.state !== state) return;
      manager.off('per-user-status-change', listener);
      resolve(status);
    };
    manager.on('per-user-status-change', listener);
  });
}

const perUserOf = (manager: McpClientManager) => statusOf(manager, 'remote')?.perUser;

describe('per-user connections', () => {
  it('an idle one is closed, and the next call reconnects from the stored tokens without a login', async () => {
    const setup = await setUpPerUser(fixtures, managers, { perUser: { idleTimeoutMs: 150 } });
    const closed = callerState(setup.manager, 'alice', 'stopped');
    await authorizeAs(setup, 'alice');
    await closed;
    expect(perUserOf(setup.manager)).toEqual({ connections: 0, maxConnections: 50 });

    const { authorizations, tokenRequests } = setup.authorizationServer.activity;
    const before = { authorizations, codes: tokenRequests.authorization_code };
    const closedAgain = callerState(setup.manager, 'alice', 'stopped');
    expect(await whoamiAs(setup.manager, 'alice')).toBe('alice');
    expect(setup.authorizationServer.activity.authorizations).toBe(before.authorizations);
    expect(setup.authorizationServer.activity.tokenRequests.authorization_code).toBe(before.codes);
    await closedAgain;
  });

  it('at maxConnections the least recently used idle one makes room; all in use: a retryable refusal', async () => {
    const setup = await setUpPerUser(fixtures, managers, { perUser: { maxConnections: 1 } });
    await authorizeAs(setup, 'alice');
    const aliceClosed = callerState(setup.manager, 'alice', 'stopped');
    await authorizeAs(setup, 'bob');
    await aliceClosed;
    expect(perUserOf(setup.manager)).toEqual({ connections: 1, maxConnections: 1 });

    // Bob's call holds the only connection while Alice's arrives.
    const bobsCall = whoamiAs(setup.manager, 'bob');
    const refused = await failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'alice' }));
    expect(ServerNotRunningError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ isRetryable: true });
    expect(refused.message).toContain('perUser.maxConnections is 1');
    expect(await bobsCall).toBe('bob');
    // Bob is idle now: Alice's retry gets his place, with her stored tokens.
    expect(await whoamiAs(setup.manager, 'alice')).toBe('alice');
    expect(perUserOf(setup.manager)).toEqual({ connections: 1, maxConnections: 1 });
  });

  it("lists a caller's tools while the shared connection waits in needs-auth", async () => {
    const setup = await setUpPerUser(fixtures, managers, { perUser: { idleTimeoutMs: 150 } });
    await setup.manager.startAll();
    expect(statusOf(setup.manager, 'remote')?.state).toBe('needs-auth');
    expect(await setup.manager.listAllTools()).toEqual([]);
    const changes: Array<readonly ToolInfo[]> = [];
    setup.manager.on('tools-changed', (serverId, tools) => serverId === 'remote' && changes.push(tools));
    const revision = setup.manager.toolsRevision;

    const closed = callerState(setup.manager, 'alice', 'stopped');
    await authorizeAs(setup, 'alice');
    const names = (tools: readonly ToolInfo[]) => tools.map((tool) => tool.toolKey).sort();
    expect(names(await setup.manager.listAllTools())).toEqual(['remote:whoami', 'remote:write_note']);
    expect(names(await setup.manager.listTools('remote'))).toEqual(['remote:whoami', 'remote:write_note']);
    expect(changes.map(names)).toEqual([['remote:whoami', 'remote:write_note']]);
    expect(setup.manager.toolsRevision).toBeGreaterThan(revision);
    // Alice's connection closes when idle: the tools stay listed (a call opens it again).
    await closed;
    expect(names(await setup.manager.listAllTools())).toEqual(['remote:whoami', 'remote:write_note']);
    expect(statusOf(setup.manager, 'remote')?.state).toBe('needs-auth');
  });

  it('close() closes every caller’s connection', async () => {
    const setup = await setUpPerUser(fixtures, managers);
    await authorizeAs(setup, 'alice');
    await authorizeAs(setup, 'bob');
    const closed = Promise.all([
      callerState(setup.manager, 'alice', 'stopped'),
      callerState(setup.manager, 'bob', 'stopped'),
    ]);
    await setup.manager.close();
    await closed;
    await expect(setup.manager.callTool('remote', 'whoami', {}, { subject: 'alice' })).rejects.toThrow('closed');
  });

  it('a reload that changes the server closes its callers’ connections; their next call reconnects', async () => {
    const setup = await setUpPerUser(fixtures, managers);
    await authorizeAs(setup, 'alice');
    const closed = callerState(setup.manager, 'alice', 'stopped');
    const url = setup.mcpServer.url.href;
    await setup.manager.reconfigure({ mcpServers: { remote: { url, identity: 'per-user', timeoutMs: 20_000 } } });
    await closed;
    expect(perUserOf(setup.manager)).toEqual({ connections: 0, maxConnections: 50 });
    expect(await whoamiAs(setup.manager, 'alice')).toBe('alice');
    await setup.manager.reconfigure({ mcpServers: {} });
    expect(setup.manager.serverIds).toEqual([]);
  });
});
