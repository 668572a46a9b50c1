import { ConfigError, ServerNotRunningError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { pidOf, stateOf, statusOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import { isProcessAlive, waitFor } from '../test/test-support.js';
import { McpClientManager } from './index.js';

// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

describe.concurrent('configuration', () => {
  it('rejects an invalid top-level section with a ConfigError naming the path', ({ expect }) => {
    let caught: unknown;
    try {
      new McpClientManager({ mcpServers: {}, exposure: { mode: 'everything' } } as never);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).issues.map((issue) => issue.path)).toEqual(['exposure.mode']);
  });

  it('keeps a disabled server out of startAll and refuses to start it', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      off: { ...fixtureServer('stdio-fixture-server.mjs'), enabled: false },
    });
    await manager.startAll();
    expect(stateOf(manager, 'good')).toBe('running');
    expect(stateOf(manager, 'off')).toBe('disabled');
    await expect(manager.start('off')).rejects.toThrow('mcpServers.off.enabled: the server is disabled');
    await expect(manager.start('nope')).rejects.toThrow(ConfigError);
  });

  it('answers serverState (the catalog asks it) with the current state of a configured server', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      off: { ...fixtureServer('stdio-fixture-server.mjs'), enabled: false },
    });
    expect(manager.serverState('good')).toBe('stopped');
    await manager.startAll();
    expect(manager.serverState('good')).toBe('running');
    expect(manager.serverState('off')).toBe('disabled');
    expect(manager.serverState('nope')).toBeUndefined();
    expect(manager.serverState('constructor')).toBeUndefined();
    await manager.stop('good');
    expect(manager.serverState('good')).toBe('stopped');
  });

  it('passes config env over the default environment, and cwd', async ({ expect, managers }) => {
    const directory = await managers.temporaryDirectory('search-mcp-cwd-');
    const { manager } = managers.createManager({
      envy: fixtureServer('stdio-fixture-server.mjs', [], { env: { FIXTURE_VALUE: 'from-config' }, cwd: directory }),
    });
    await manager.startAll();
    const result = await manager.callTool('envy', 'environment');
    expect(result.structuredContent).toEqual({ fixtureValue: 'from-config', hasPath: true, cwd: directory });
  });

  it('keeps a server with a broken entry failed with its reason and starts the others', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager(
      {
        broken: fixtureServer('stdio-fixture-server.mjs', [], { env: { TOKEN: '${SEARCH_MCP_TEST_UNSET}' } }),
        good: fixtureServer('stdio-fixture-server.mjs'),
      },
      { env: {} },
    );
    const reason = 'mcpServers.broken.env.TOKEN: environment variable SEARCH_MCP_TEST_UNSET is not set';
    expect(statusOf(manager, 'broken')).toMatchObject({ state: 'failed', lastError: reason });
    await manager.startAll();
    expect(statusOf(manager, 'broken')).toMatchObject({ state: 'failed', lastError: reason });
    expect(statusOf(manager, 'broken')?.pid).toBeUndefined();
    expect(stateOf(manager, 'good')).toBe('running');
    const failure = await manager.callTool('broken', 'echo', { message: 'x' }).catch((error: unknown) => error);
    expect(ServerNotRunningError.isInstance(failure)).toBe(true);
    // Waiting cannot fix a broken entry: not retryable, so no one is told to try again shortly.
    expect((failure as ServerNotRunningError).isRetryable).toBe(false);
    expect((failure as Error).message).toBe(
      `MCP server 'broken' is not started: its configuration is invalid: ${reason}`,
    );
    await expect(manager.start('broken')).rejects.toThrow(reason);
    expect(stateOf(manager, 'broken')).toBe('failed');
  });

  it('treats an id that is an Object.prototype name like any other', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ constructor: fixtureServer('stdio-fixture-server.mjs') });
    expect(manager.serverIds).toEqual(['constructor']);
    await manager.startAll();
    expect(manager.serverState('constructor')).toBe('running');
    expect((await manager.listTools('constructor')).map((tool) => tool.toolKey)).toContain('constructor:echo');
    expect((await manager.callTool('constructor', 'echo', { message: 'hi' })).content).toEqual([
      { type: 'text', text: 'Echo: hi' },
    ]);
    expect(manager.serverState('toString')).toBeUndefined();
    await expect(manager.callTool('toString', 'echo')).rejects.toThrow('Tool not found: toString:echo');
  });
});

describe.concurrent('stop, start, restart, close', () => {
  it('stops and restarts one server with a new process', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      one: fixtureServer('stdio-fixture-server.mjs'),
      two: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const firstPid = pidOf(manager, 'one');
    await manager.stop('one');
    expect(stateOf(manager, 'one')).toBe('stopped');
    expect(isProcessAlive(firstPid)).toBe(false);
    expect(await manager.listTools('one')).toEqual([]);
    await expect(manager.callTool('one', 'echo', { message: 'x' })).rejects.toThrow(ServerNotRunningError);
    expect(stateOf(manager, 'one')).toBe('stopped');
    await manager.start('one');
    const secondPid = pidOf(manager, 'one');
    expect(secondPid).not.toBe(firstPid);
    await manager.restart('one');
    expect(pidOf(manager, 'one')).not.toBe(secondPid);
    expect(manager.status().find((status) => status.id === 'one')?.restarts).toBe(0);
    expect(stateOf(manager, 'two')).toBe('running');
  });

  it('stops a server that is still starting at once, without waiting out the grace period', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager(
      { slow: fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '10000']) },
      { shutdownGraceMs: 5000 },
    );
    const starting = manager.start('slow').catch(() => {});
    await waitFor(
      () => stateOf(manager, 'slow') === 'starting' && manager.status()[0]?.pid !== undefined,
      'the server to be starting',
    );
    const pid = pidOf(manager, 'slow');
    const stopped = Date.now();
    await manager.stop('slow');
    // Well under the 5 s grace a running server would get after stdin closes.
    expect(Date.now() - stopped).toBeLessThan(2500);
    expect(isProcessAlive(pid)).toBe(false);
    await starting;
  });

  it('ends the whole process tree on close, even when the launcher ignores SIGTERM', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ wrapped: fixtureServer('wrapper-server.mjs', ['--stubborn']) });
    await manager.startAll();
    const launcherPid = pidOf(manager, 'wrapped');
    const result = await manager.callTool('wrapped', 'pid');
    const serverPid = (result.structuredContent as { pid: number }).pid;
    expect(serverPid).not.toBe(launcherPid);
    expect(isProcessAlive(serverPid)).toBe(true);
    await manager.close();
    // SIGKILL has been sent to the group when close resolves; on a loaded machine the kernel may take a moment more.
    await waitFor(() => !isProcessAlive(launcherPid), 'the launcher to be ended');
    await waitFor(() => !isProcessAlive(serverPid), 'the grandchild to be ended');
    expect(stateOf(manager, 'wrapped')).toBe('stopped');
    await expect(manager.startAll()).rejects.toThrow(/closed/);
  });
});
