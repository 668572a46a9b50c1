import { BackendError, ServerNotRunningError, type ServerState } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { join } from 'node:path';
import { describe } from 'vitest';
import { pidOf, stateOf, stateReached } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';

// Every case has managers of its own (`managerTest`), so the cases run at once: their restart backoffs run out side by
// side.
describe.concurrent('crashes and restarts', () => {
  it('fails a call whose server crashes mid-call, then restarts the server', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      crashy: fixtureServer('stdio-fixture-server.mjs'),
      good: fixtureServer('stdio-fixture-server.mjs'),
    });
    await manager.startAll();
    const firstPid = pidOf(manager, 'crashy');
    const failure = manager.callTool('crashy', 'crash');
    await expect(failure).rejects.toThrow(BackendError);
    await expect(failure).rejects.toThrow(
      /MCP server 'crashy' closed the connection during tools\/call crash \(exit code 7\)/,
    );
    expect(['crashed', 'starting', 'running']).toContain(stateOf(manager, 'crashy'));
    expect((await manager.callTool('good', 'echo', { message: 'unaffected' })).content).toEqual([
      { type: 'text', text: 'Echo: unaffected' },
    ]);
    await stateReached(manager, 'crashy', 'running');
    const status = manager.status().find((entry) => entry.id === 'crashy');
    expect(status?.restarts).toBe(1);
    expect(status?.pid).not.toBe(firstPid);
    expect((await manager.callTool('crashy', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'Echo: back' },
    ]);
  });

  it('marks a server failed after the configured number of restarts', async ({ expect, managers }) => {
    const directory = await managers.temporaryDirectory('search-mcp-flaky-');
    const { manager } = managers.createManager(
      { flaky: fixtureServer('stdio-fixture-server.mjs', ['--only-first-start', join(directory, 'started')]) },
      { restartPolicy: { initialDelayMs: 30, maxDelayMs: 60, maxAttempts: 3 } },
    );
    const states: ServerState[] = [];
    manager.on('status-change', (status) => {
      if (status.id === 'flaky') states.push(status.state);
    });
    await manager.startAll();
    await expect(manager.callTool('flaky', 'crash')).rejects.toThrow(BackendError);
    await stateReached(manager, 'flaky', 'failed');
    const status = manager.status().find((entry) => entry.id === 'flaky');
    expect(status?.restarts).toBe(3);
    expect(status?.lastError).toMatch(/gave up after 3 restarts/);
    expect(status?.lastError).toMatch(/refusing to start a second time/);
    expect(states.filter((state) => state === 'crashed')).toHaveLength(3);
  });

  it('doubles the backoff for crashes in a row and resets it after a stable run', async ({ expect, managers }) => {
    const run = async (stableAfterMs: number, pauseMs: number) => {
      const { manager, records } = managers.createManager(
        { crashy: fixtureServer('stdio-fixture-server.mjs') },
        { restartPolicy: { initialDelayMs: 40, maxDelayMs: 1000, stableAfterMs } },
      );
      await manager.startAll();
      for (let crash = 0; crash < 2; crash += 1) {
        await expect(manager.callTool('crashy', 'crash')).rejects.toThrow(BackendError);
        await stateReached(manager, 'crashy', 'running');
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      return records
        .filter((record) => record.message === 'restarting after backoff')
        .map((record) => record.fields.delayMs);
    };
    // Two managers of their own, side by side.
    const [inARow, afterStableRuns] = await Promise.all([run(60_000, 0), run(150, 300)]);
    expect(inARow).toEqual([40, 80]);
    expect(afterStableRuns).toEqual([40, 40]);
  });

  it('fails a call to a server that is down at once and reconnects it', async ({ expect, managers }) => {
    const { manager } = managers.createManager(
      { victim: fixtureServer('stdio-fixture-server.mjs') },
      // The scheduled restart is 30 s away: only the call can bring it back in time.
      { restartPolicy: { initialDelayMs: 30_000, maxDelayMs: 60_000 } },
    );
    await manager.startAll();
    process.kill(pidOf(manager, 'victim'), 'SIGKILL');
    await stateReached(manager, 'victim', 'crashed');
    const failure = await manager.callTool('victim', 'echo', { message: 'x' }).catch((error: unknown) => error);
    expect(ServerNotRunningError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe("MCP server 'victim' is not running");
    // It failed without waiting for the reconnect it triggered.
    expect(stateOf(manager, 'victim')).toBe('starting');
    await stateReached(manager, 'victim', 'running');
    expect((await manager.callTool('victim', 'echo', { message: 'again' })).content).toEqual([
      { type: 'text', text: 'Echo: again' },
    ]);
  });

  it('brings back a failed server when a call needs it', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      late: fixtureServer('silent-server.mjs', [], { startupTimeoutMs: 300 }),
    });
    await manager.startAll();
    expect(stateOf(manager, 'late')).toBe('failed');
    await expect(manager.callTool('late', 'echo', { message: 'x' })).rejects.toThrow(ServerNotRunningError);
    await stateReached(manager, 'late', 'starting');
  });
});
