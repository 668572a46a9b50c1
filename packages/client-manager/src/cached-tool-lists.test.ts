import type { ToolDefinition } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { stateOf, useManagers } from '../test/manager-harness.js';
import type { ToolListCache } from './tool-list-cache.js';

const { createManager } = useManagers();

/** A cache kept in memory, as a host without a state folder would keep one. */
class MemoryToolListCache implements ToolListCache {
  readonly lists = new Map<string, { identity: string; tools: readonly ToolDefinition[] }>();
  read(serverId: string, identity: string) {
    const kept = this.lists.get(serverId);
    return kept?.identity === identity ? kept.tools : undefined;
  }
  write(serverId: string, identity: string, tools: readonly ToolDefinition[]) {
    this.lists.set(serverId, { identity, tools });
  }
}

const slowServer = (extraArgs: string[] = []) =>
  fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '1500', ...extraArgs]);

describe('tool lists kept between runs', () => {
  it('shows the kept list while the server starts, then the live one', async () => {
    const cache = new MemoryToolListCache();
    const first = createManager({ slow: slowServer() }, { toolListCache: cache }).manager;
    // Nothing kept yet: a server not started has no tools.
    expect(await first.listAllTools()).toEqual([]);
    await first.startAll();
    const live = await first.listAllTools();
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((tool) => tool.cached === undefined)).toBe(true);
    expect(cache.lists.get('slow')?.tools.map((tool) => tool.name)).toEqual(live.map((tool) => tool.toolName));
    await first.close();

    const second = createManager(
      { slow: { ...slowServer(), toolPermissions: { sleep: false } } },
      { toolListCache: cache },
    ).manager;
    const starting = second.startAll();
    expect(stateOf(second, 'slow')).toBe('starting');
    const revisionWhileStarting = second.toolsRevision;
    const kept = await second.listAllTools();
    // The kept list, shaped by the current entry (its tool permissions), each tool marked.
    expect(kept.map((tool) => tool.toolKey)).toEqual(
      live.filter((tool) => tool.toolName !== 'sleep').map((tool) => tool.toolKey),
    );
    expect(kept.every((tool) => tool.cached === true)).toBe(true);
    await starting;
    expect(second.toolsRevision).toBeGreaterThan(revisionWhileStarting);
    const now = await second.listAllTools();
    expect(now.map((tool) => tool.toolKey)).toEqual(kept.map((tool) => tool.toolKey));
    expect(now.every((tool) => tool.cached === undefined)).toBe(true);
  });

  it('never shows a list kept for another entry, nor one of a server that failed', async () => {
    const cache = new MemoryToolListCache();
    const first = createManager({ slow: slowServer() }, { toolListCache: cache }).manager;
    await first.startAll();
    await first.close();
    // Other arguments: another server, whose tools were never listed.
    const changed = createManager({ slow: slowServer(['--pages', '2']) }, { toolListCache: cache }).manager;
    const starting = changed.startAll();
    expect(stateOf(changed, 'slow')).toBe('starting');
    expect(await changed.listAllTools()).toEqual([]);
    await starting;

    const failing = createManager(
      { slow: { ...slowServer(), command: 'search-mcp-no-such-command' } },
      { toolListCache: cache },
    ).manager;
    await failing.startAll();
    expect(stateOf(failing, 'slow')).toBe('failed');
    expect(await failing.listAllTools()).toEqual([]);
  });
});
