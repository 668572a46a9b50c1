import { BackendError, ConfigError, ServerNotRunningError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { pidOf, stateOf, statusOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import { isProcessAlive, realServerEntry, waitFor } from '../test/test-support.js';

const memory = { command: process.execPath, args: [realServerEntry('@modelcontextprotocol/server-memory')] };
const feature = (name: string, extra: string[] = []) => fixtureServer('feature-server.mjs', ['--name', name, ...extra]);

describe.concurrent('reconfigure (hot reload)', () => {
  // Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

  it('starts added servers, stops and forgets removed ones, restarts changed ones and leaves the rest running', async ({
    expect,
    managers,
  }) => {
    const directory = await managers.temporaryDirectory('search-mcp-reload-');
    const memoryServer = { ...memory, env: { MEMORY_FILE_PATH: `${directory}/memory.jsonl` } };
    const { manager } = managers.createManager({ keep: feature('keep'), gone: feature('gone'), edit: feature('edit') });
    await manager.startAll();
    const keepPid = pidOf(manager, 'keep');
    const gonePid = pidOf(manager, 'gone');
    const editPid = pidOf(manager, 'edit');
    const revision = manager.toolsRevision;
    const toolEvents: string[] = [];
    manager.on('tools-changed', (id) => toolEvents.push(id));

    const changes = await manager.reconfigure({
      mcpServers: { keep: feature('keep'), edit: feature('edit', ['--prompt', 'p']), memory: memoryServer },
    });

    expect(changes).toEqual({
      added: ['memory'],
      removed: ['gone'],
      changed: ['edit'],
      unchanged: ['keep'],
      notApplied: [],
    });
    expect(manager.serverIds).toEqual(['keep', 'edit', 'memory']);
    expect(manager.status().map((status) => status.id)).toEqual(['keep', 'edit', 'memory']);
    expect(pidOf(manager, 'keep')).toBe(keepPid);
    expect(stateOf(manager, 'edit')).toBe('running');
    expect(pidOf(manager, 'edit')).not.toBe(editPid);
    expect(stateOf(manager, 'memory')).toBe('running');
    expect((await manager.listTools('memory')).length).toBeGreaterThan(0);
    await waitFor(() => !isProcessAlive(gonePid) && !isProcessAlive(editPid), 'the old processes to end');
    expect(manager.toolsRevision).toBeGreaterThan(revision);
    expect(toolEvents).toEqual(expect.arrayContaining(['gone', 'edit', 'memory']));
    expect((await manager.listPrompts('edit')).prompts.map((prompt) => prompt.name)).toEqual(['p']);
    await expect(manager.callTool('gone', 'echo-meta', {})).rejects.toThrow("no MCP server 'gone' is configured");
    expect(() => manager.serverCapabilities('gone')).toThrow(ConfigError);
    expect(manager.config.mcpServers.gone).toBeUndefined();
  });

  it('ends a call in flight on a removed server with an error naming the reload', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ slow: feature('slow'), other: feature('other') });
    await manager.startAll();
    const call = manager.callTool('slow', 'slow', { ms: 10_000 }).catch((error: unknown) => error);
    await manager.reconfigure({ mcpServers: { other: feature('other') } });
    const failure = await call;
    expect(BackendError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe(
      "MCP server 'slow' was removed by a config reload and stopped during tools/call slow",
    );
  });

  it('keeps disabled servers stopped, and starts a broken entry as failed with its reason while others run', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({ a: feature('a') });
    await manager.startAll();
    const changes = await manager.reconfigure({
      mcpServers: {
        a: feature('a'),
        off: { ...feature('off'), enabled: false },
        broken: { command: 'node', args: ['${SEARCH_MCP_RELOAD_TEST_UNSET_VARIABLE}'] },
      },
    });
    expect(changes.added).toEqual(['off', 'broken']);
    expect(stateOf(manager, 'a')).toBe('running');
    expect(stateOf(manager, 'off')).toBe('disabled');
    expect(statusOf(manager, 'broken')).toMatchObject({ state: 'failed' });
    expect(statusOf(manager, 'broken')?.lastError).toMatch(/SEARCH_MCP_RELOAD_TEST_UNSET_VARIABLE/);
    await expect(manager.callTool('broken', 'x', {})).rejects.toThrow(ServerNotRunningError);
  });

  it('rejects a config that cannot be used and changes nothing; reloads run one after the other', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({ a: feature('a') });
    await manager.startAll();
    const pid = pidOf(manager, 'a');
    await expect(manager.reconfigure({ mcpServers: 'not an object' } as never)).rejects.toThrow(ConfigError);
    expect(manager.serverIds).toEqual(['a']);
    expect(pidOf(manager, 'a')).toBe(pid);
    const [first, second] = await Promise.all([
      manager.reconfigure({ mcpServers: { a: feature('a'), b: feature('b') } }),
      manager.reconfigure({ mcpServers: { b: feature('b') } }),
    ]);
    expect(first).toMatchObject({ added: ['b'], unchanged: ['a'] });
    expect(second).toMatchObject({ removed: ['a'], unchanged: ['b'] });
    expect(manager.serverIds).toEqual(['b']);
    expect(stateOf(manager, 'b')).toBe('running');
  });

  it('does not start servers before startAll: a reload only registers them', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ a: feature('a') });
    await manager.reconfigure({ mcpServers: { a: feature('a'), b: feature('b') } });
    expect(manager.status().map((status) => [status.id, status.state])).toEqual([
      ['a', 'stopped'],
      ['b', 'stopped'],
    ]);
  });
});
