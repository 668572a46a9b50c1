import { fixtureServer } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { pidOf, useManagers } from '../test/manager-harness.js';
import { isProcessAlive } from '../test/test-support.js';

const { createManager } = useManagers();

describe('McpClientManager.close({ promptly })', () => {
  it('ends a running server at once instead of giving it the shutdown grace to exit by itself', async () => {
    // The grace a polite close waits after closing stdin is longer than the test's timeout: only a prompt close
    // (SIGTERM 100 ms after stdin ends) lets this test finish.
    const { manager } = createManager(
      { lingering: fixtureServer('stdio-fixture-server.mjs', ['--ignore-eof']) },
      { shutdownGraceMs: 120_000 },
    );
    await manager.start('lingering');
    const pid = pidOf(manager, 'lingering');
    await manager.close({ promptly: true });
    expect(isProcessAlive(pid)).toBe(false);
  });
});
