import { TimeoutError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe } from 'vitest';
import { stateOf, statusOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import { isProcessAlive, waitFor } from '../test/test-support.js';

// Every case has managers of its own (`managerTest`), so the cases run at once: the startup timeouts run out side by
// side.
describe.concurrent('bad servers never hold up good ones', () => {
  it('reports a command that does not exist and keeps the others working', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      missing: { command: 'search-mcp-no-such-command-xyz' },
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const missing = manager.status().find((status) => status.id === 'missing');
    expect(missing?.state).toBe('failed');
    expect(missing?.lastError).toMatch(/command not found: search-mcp-no-such-command-xyz/);
    const result = await manager.callTool('good', 'echo', { message: 'still here' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
  });

  it('skips garbage lines on stdout and keeps the server', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({
      noisy: fixtureServer('stdio-fixture-server.mjs', ['--garbage']),
    });
    await manager.startAll();
    expect(stateOf(manager, 'noisy')).toBe('running');
    const result = await manager.callTool('noisy', 'echo', { message: 'through the noise' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: through the noise' }]);
    const warnings = records.filter((record) => record.level === 'warn' && record.message.includes('not JSON-RPC'));
    expect(warnings.map((record) => record.fields.line)).toContain('Server starting... this line is not JSON-RPC');
    expect(warnings.every((record) => record.fields.server === 'noisy')).toBe(true);
  });

  it('gives up on a server that never answers initialize after startupTimeoutMs and ends its process', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({
      // Long enough for its stderr line to arrive on a busy machine (the failure quotes it), short beside a test's budget.
      silent: fixtureServer('silent-server.mjs', [], { startupTimeoutMs: 3000 }),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    const pids: number[] = [];
    const rememberPid = () => {
      const pid = statusOf(manager, 'silent')?.pid;
      if (pid !== undefined && !pids.includes(pid)) pids.push(pid);
      return pid !== undefined;
    };
    const silentStart = manager.start('silent');
    await waitFor(rememberPid, 'the silent server to be spawned');
    await expect(silentStart).rejects.toThrow(TimeoutError);
    await expect(silentStart).rejects.toThrow(/did not finish starting within 3000 ms/);
    const second = manager.startAll();
    await waitFor(rememberPid, 'the silent server to be spawned again');
    await second;
    const silent = statusOf(manager, 'silent');
    expect(silent?.state).toBe('failed');
    expect(silent?.lastError).toMatch(/silent: listening and saying nothing/);
    expect(stateOf(manager, 'good')).toBe('running');
    expect(pids).toHaveLength(2);
    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 'the silent server to be ended');
  });

  it('reports a server that exits at once with its exit code and stderr', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      quitter: fixtureServer('exit-immediately-server.mjs'),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const quitter = manager.status().find((status) => status.id === 'quitter');
    expect(quitter?.state).toBe('failed');
    expect(quitter?.lastError).toMatch(/exit code 3/);
    expect(quitter?.lastError).toMatch(/FIXTURE_API_KEY is not set/);
    expect(stateOf(manager, 'good')).toBe('running');
  });

  it('does not let a server that is still starting delay the others', async ({ expect, managers }) => {
    // The slow server answers `initialize` only once the fast one has answered a call (no fixed delay to wait out).
    const release = join(await managers.temporaryDirectory('search-mcp-slow-start-'), 'release');
    const { manager } = managers.createManager({
      slow: fixtureServer('stdio-fixture-server.mjs', ['--wait-for-file', release]),
      fast: fixtureServer('stdio-fixture-server.mjs'),
    });
    const order: string[] = [];
    manager.on('status-change', (status) => {
      if (status.state === 'running') order.push(status.id);
    });
    let fastWorkedWhileSlowStarting = false;
    manager.once('tools-changed', async (serverId) => {
      if (serverId !== 'fast') return;
      const result = await manager.callTool('fast', 'echo', { message: 'early' });
      fastWorkedWhileSlowStarting = stateOf(manager, 'slow') === 'starting' && result.content !== undefined;
      await writeFile(release, '');
    });
    const statuses = await manager.startAll();
    expect(order).toEqual(['fast', 'slow']);
    expect(fastWorkedWhileSlowStarting).toBe(true);
    expect(statuses.map((status) => status.state)).toEqual(['running', 'running']);
    expect(statuses.find((status) => status.id === 'slow')?.toolCount).toBeGreaterThan(0);
  });

  it('fails a slow server at its own startupTimeoutMs', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      slow: fixtureServer('stdio-fixture-server.mjs', ['--startup-delay-ms', '10000'], { startupTimeoutMs: 500 }),
      fast: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    expect(stateOf(manager, 'slow')).toBe('failed');
    expect(manager.status().find((status) => status.id === 'slow')?.lastError).toMatch(/within 500 ms/);
    expect(stateOf(manager, 'fast')).toBe('running');
  });
});
