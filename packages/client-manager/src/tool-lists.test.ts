import { ToolDisabledError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { stateOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';

// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

describe.concurrent('tool lists', () => {
  it('drops malformed tools with a warning and keeps the rest of the server', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({
      messy: fixtureServer('stdio-fixture-server.mjs', ['--malformed-tools']),
    });
    await manager.startAll();
    const names = (await manager.listTools('messy')).map((tool) => tool.toolName);
    expect(names).toEqual([
      'echo',
      'sleep',
      'crash',
      'pid',
      'add-tool',
      'error-result',
      'fail',
      'environment',
      'bad-description',
    ]);
    const dropped = records.filter((record) => record.message.startsWith('dropped or repaired'));
    expect(dropped.map((record) => record.fields.reason)).toEqual([
      '`name` is missing or not a string',
      '`inputSchema` is missing or not an object',
      '`inputSchema.type` is not "object"',
      'not an object',
      '`description` is not a string; ignored',
    ]);
  });

  it('follows nextCursor across pages and stops on a cursor that repeats', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({
      paged: fixtureServer('stdio-fixture-server.mjs', ['--pages', '3']),
      looping: fixtureServer('stdio-fixture-server.mjs', ['--loop-cursor']),
    });
    await manager.startAll();
    expect(await manager.listTools('paged')).toHaveLength(8);
    expect(await manager.listTools('looping')).toHaveLength(8);
    expect(
      records.some(
        (record) => record.message.includes('cursor it had returned before') && record.fields.server === 'looping',
      ),
    ).toBe(true);
  });

  it('refreshes the cached list on tools/list_changed and emits tools-changed', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ dynamic: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const revision = manager.toolsRevision;
    const changed = new Promise<string[]>((resolve) => {
      manager.on('tools-changed', (serverId, tools) => {
        if (serverId === 'dynamic' && tools.some((tool) => tool.toolName === 'extra-tool'))
          resolve(tools.map((tool) => tool.toolKey));
      });
    });
    await manager.callTool('dynamic', 'add-tool');
    expect(await changed).toContain('dynamic:extra-tool');
    expect((await manager.listTools('dynamic')).map((tool) => tool.toolName)).toContain('extra-tool');
    expect(manager.toolsRevision).toBeGreaterThan(revision);
  });

  it('hides tools whose permission is false and refuses to call them', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      guarded: fixtureServer('stdio-fixture-server.mjs', [], { toolPermissions: { crash: false } }),
    });
    await manager.startAll();
    const tools = await manager.listAllTools();
    expect(tools.map((tool) => tool.toolKey)).not.toContain('guarded:crash');
    expect(tools.map((tool) => tool.toolKey)).toContain('guarded:echo');
    expect(manager.status()[0]?.toolCount).toBe(tools.length);
    await expect(manager.callTool('guarded', 'crash')).rejects.toThrow(ToolDisabledError);
    expect(stateOf(manager, 'guarded')).toBe('running');
  });

  it('keeps every field of a definition for pass-through, and the server metadata of the config', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({
      rich: fixtureServer('stdio-fixture-server.mjs', [], {
        description: 'A rich server',
        projects: ['web'],
        category: 'demo',
        tags: ['x'],
      }),
    });
    await manager.startAll();
    const tool = (await manager.listTools('rich')).find((entry) => entry.toolName === 'error-result');
    expect(tool?.toolKey).toBe('rich:error-result');
    expect(tool?.outputSchema).toEqual({ type: 'object', properties: { reason: { type: 'string' } }, required: [] });
    expect(tool?.definition?.icons).toEqual([{ src: 'data:,x' }]);
    expect(tool?.definition?._meta).toEqual({ 'fixture/kept': true });
    expect(tool).toMatchObject({
      serverDescription: 'A rich server',
      serverProjects: ['web'],
      category: 'demo',
      tags: ['x'],
    });
  });
});
