import { fixtureServer } from '@search-mcp/test-kit';
import { describe, expect, it, vi } from 'vitest';
import { isProcessAlive } from '../test/test-support.js';
import { pidOf } from '../test/manager-harness.js';
import { managerTest } from '../test/manager-test.js';
import { prestartStdioServer } from './prestart.js';

async function gone(pid: number | undefined): Promise<void> {
  if (pid === undefined) throw new Error('the prestarted process has no pid');
  // The group is signalled at once; node reaps the child on its SIGCHLD a moment later.
  await vi.waitFor(() => expect(isProcessAlive(pid)).toBe(false), { timeout: 20_000, interval: 20 });
}

describe.concurrent('prestarted stdio servers (McpClientManagerOptions.prestarted)', () => {
  managerTest(
    'adopts the process started for an entry when its launch is the config’s',
    async ({ managers: { createManager } }) => {
      const entry = fixtureServer('stdio-fixture-server.mjs');
      const prestarted = prestartStdioServer('fixture', entry);
      const { manager, records } = createManager({ fixture: entry }, { prestarted: [prestarted] });
      await manager.start('fixture');
      expect(pidOf(manager, 'fixture')).toBe(prestarted.pid);
      expect(records.some((record) => record.message === 'adopted the process started before the manager')).toBe(true);
      // It serves as any started server does.
      const result = await manager.callTool('fixture', 'echo', { message: 'adopted' });
      expect(JSON.stringify(result.content)).toContain('adopted');
    },
  );

  managerTest(
    'ends a prestarted process whose launch differs and starts its own',
    async ({ managers: { createManager } }) => {
      const entry = fixtureServer('stdio-fixture-server.mjs');
      const prestarted = prestartStdioServer('fixture', { ...entry, env: { FIXTURE_EXTRA: 'not in the config' } });
      const { manager, records } = createManager({ fixture: entry }, { prestarted: [prestarted] });
      await manager.start('fixture');
      expect(pidOf(manager, 'fixture')).not.toBe(prestarted.pid);
      expect(records).toContainEqual(
        expect.objectContaining({ fields: expect.objectContaining({ reason: "its launch is not the config's" }) }),
      );
      await gone(prestarted.pid);
    },
  );

  managerTest(
    'ends a prestarted process no entry adopted when the manager closes',
    async ({ managers: { createManager } }) => {
      const entry = fixtureServer('stdio-fixture-server.mjs');
      const unclaimed = prestartStdioServer('not-in-the-config', entry);
      const { manager } = createManager({ fixture: entry }, { prestarted: [unclaimed] });
      await manager.start('fixture');
      expect(isProcessAlive(unclaimed.pid as number)).toBe(true);
      await manager.close();
      await gone(unclaimed.pid);
    },
  );

  managerTest(
    'starts its own process when the prestarted one has already ended, and reports why that failed',
    async ({ managers: { createManager } }) => {
      const entry = {
        command: process.execPath,
        args: ['-e', 'process.stderr.write("fixture: broken install\\n"); process.exit(3)'],
      };
      const prestarted = prestartStdioServer('broken', entry);
      await gone(prestarted.pid);
      const { manager, records } = createManager(
        { broken: entry },
        { prestarted: [prestarted], restartPolicy: { maxAttempts: 0 } },
      );
      const failure = manager.start('broken');
      await expect(failure).rejects.toThrow(/exit code 3/);
      await expect(failure).rejects.toThrow(/broken install/);
      expect(records).toContainEqual(
        expect.objectContaining({ fields: expect.objectContaining({ reason: 'it had already ended' }) }),
      );
    },
  );

  managerTest('does not adopt a process for an entry that pins its era', async ({ managers: { createManager } }) => {
    const entry = { ...fixtureServer('stdio-fixture-server.mjs'), protocol: '2025' };
    const prestarted = prestartStdioServer('fixture', entry);
    const { manager } = createManager({ fixture: entry }, { prestarted: [prestarted] });
    await manager.start('fixture');
    expect(pidOf(manager, 'fixture')).not.toBe(prestarted.pid);
    await gone(prestarted.pid);
  });

  it('discard() ends a prestarted process and is idempotent', async () => {
    const prestarted = prestartStdioServer('fixture', fixtureServer('stdio-fixture-server.mjs'));
    prestarted.discard();
    prestarted.discard();
    await gone(prestarted.pid);
  });
});
