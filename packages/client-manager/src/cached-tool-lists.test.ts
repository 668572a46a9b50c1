import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolDefinition } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { type Managers, stateOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import type { ToolListCache } from './tool-list-cache.js';

// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

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

/**
 * A server that answers `initialize` only once the test releases it (a file made): a kept list is asserted while the
 * server is surely still starting, however loaded the machine. The same file, so the same arguments, in every run.
 */
async function slowServerKit(managers: Managers) {
  const release = join(await managers.temporaryDirectory('search-mcp-kept-lists-'), 'release');
  await writeFile(release, '');
  return {
    server: (extraArgs: string[] = []) =>
      fixtureServer('stdio-fixture-server.mjs', ['--wait-for-file', release, ...extraArgs]),
    hold: () => rm(release, { force: true }),
    release: () => writeFile(release, ''),
  };
}

describe.concurrent('tool lists kept between runs', () => {
  it('shows the kept list while the server starts, then the live one', async ({ expect, managers }) => {
    const { server: slowServer, hold, release } = await slowServerKit(managers);
    const cache = new MemoryToolListCache();
    const first = managers.createManager({ slow: slowServer() }, { toolListCache: cache }).manager;
    // Nothing kept yet: a server not started has no tools.
    expect(await first.listAllTools()).toEqual([]);
    await first.startAll();
    const live = await first.listAllTools();
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((tool) => tool.cached === undefined)).toBe(true);
    expect(cache.lists.get('slow')?.tools.map((tool) => tool.name)).toEqual(live.map((tool) => tool.toolName));
    await first.close();

    await hold();
    const second = managers.createManager(
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
    expect(stateOf(second, 'slow')).toBe('starting');
    await release();
    await starting;
    expect(second.toolsRevision).toBeGreaterThan(revisionWhileStarting);
    const now = await second.listAllTools();
    expect(now.map((tool) => tool.toolKey)).toEqual(kept.map((tool) => tool.toolKey));
    expect(now.every((tool) => tool.cached === undefined)).toBe(true);
  });

  it('never shows a list kept for another entry, nor one of a server that failed', async ({ expect, managers }) => {
    const { server: slowServer, hold, release } = await slowServerKit(managers);
    const started = join(await managers.temporaryDirectory('search-mcp-kept-lists-'), 'started');
    // Starts once: every later start with these same arguments exits at once (as a server whose credential expired).
    const onceServer = () => slowServer(['--only-first-start', started]);
    const cache = new MemoryToolListCache();
    const first = managers.createManager({ slow: onceServer() }, { toolListCache: cache }).manager;
    await first.startAll();
    await first.close();
    expect(cache.lists.get('slow')?.tools.length).toBeGreaterThan(0);
    // Other arguments: another server, whose tools were never listed.
    await hold();
    const changed = managers.createManager({ slow: slowServer(['--pages', '2']) }, { toolListCache: cache }).manager;
    const starting = changed.startAll();
    expect(stateOf(changed, 'slow')).toBe('starting');
    expect(await changed.listAllTools()).toEqual([]);
    await release();
    await starting;

    // The same command and arguments as the kept list's (the identity matches): only the failure hides it.
    const failing = managers.createManager({ slow: onceServer() }, { toolListCache: cache }).manager;
    await failing.startAll();
    expect(stateOf(failing, 'slow')).toBe('failed');
    expect(await failing.listAllTools()).toEqual([]);
  });
});
