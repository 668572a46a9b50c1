import { BackendError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { useManagers } from '../test/manager-harness.js';

const { createManager } = useManagers();

/** The backend's JSON-RPC error of the fixture's `fail` tool, as a manager maps it. */
async function failureOf(manager: ReturnType<typeof createManager>['manager']): Promise<BackendError> {
  const failure = await manager.callTool('fixture', 'fail').catch((error: unknown) => error);
  expect(BackendError.isInstance(failure)).toBe(true);
  return failure as BackendError;
}

describe('how SDK errors are read, per manager', () => {
  // The 1.x SDK module loads once per process, but each manager's reader set is its own: the second manager must get
  // the reader from the module the first one loaded, and the first closing must not take it away.
  it('two managers in one process each read their backends errors from a module loaded once; one closing leaves the other as it was', async () => {
    const first = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') }).manager;
    const second = createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') }).manager;
    await Promise.all([first.startAll(), second.startAll()]);
    expect((await failureOf(first)).backendCode).toBe(-32602);
    expect((await failureOf(second)).backendCode).toBe(-32602);

    await first.close();
    const failure = await failureOf(second);
    expect(failure.backendCode).toBe(-32602);
    expect(failure.message).toBe('the fixture refused');
  });
});
