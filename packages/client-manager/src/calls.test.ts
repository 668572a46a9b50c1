import { BackendError, TimeoutError, ToolNotFoundError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { stateOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import { waitFor } from '../test/test-support.js';

// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

describe.concurrent('calls', () => {
  it('returns results unchanged, including error results with structuredContent and _meta', async ({
    expect,
    managers,
  }) => {
    const { manager } = managers.createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const result = await manager.callTool('fixture', 'error-result');
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'it went wrong' }],
      structuredContent: { reason: 'on purpose' },
      _meta: { 'fixture/trace': 'abc' },
    });
  });

  it("maps a backend's JSON-RPC error without doubled prefixes", async ({ expect, managers }) => {
    const { manager } = managers.createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const failure = await manager.callTool('fixture', 'fail').catch((error: unknown) => error);
    expect(BackendError.isInstance(failure)).toBe(true);
    expect((failure as BackendError).message).toBe('the fixture refused');
    expect((failure as BackendError).backendCode).toBe(-32602);
    expect((failure as BackendError).jsonRpcCode).toBe(-32000);
  });

  it('rejects unknown server ids with ToolNotFoundError', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await expect(manager.callTool('ghost', 'echo')).rejects.toThrow(ToolNotFoundError);
    await expect(manager.callTool('ghost', 'echo')).rejects.toThrow('Tool not found: ghost:echo');
  });

  it('times out a call, and lets progress reset the timeout', async ({ expect, managers }) => {
    // The fixture reports progress every 100 ms: a timeout ten times that is never reached between two reports, even
    // on a machine running two suites at once (a 400 ms timeout was, once).
    const { manager } = managers.createManager({
      fixture: fixtureServer('stdio-fixture-server.mjs', [], { timeoutMs: 1000 }),
    });
    await manager.startAll();
    const timedOut = await manager.callTool('fixture', 'sleep', { ms: 3000 }).catch((error: unknown) => error);
    expect(TimeoutError.isInstance(timedOut)).toBe(true);
    expect((timedOut as TimeoutError).jsonRpcCode).toBe(-32001);
    expect((timedOut as TimeoutError).message).toMatch(/did not answer tools\/call sleep within 1000 ms/);
    const progress: number[] = [];
    // More than twice the timeout: only progress resetting it lets the call end.
    const result = await manager.callTool(
      'fixture',
      'sleep',
      { ms: 2400 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slept 2400' }]);
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('cancels a call by AbortSignal and keeps the server usable', async ({ expect, managers }) => {
    const { manager } = managers.createManager({ fixture: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    const controller = new AbortController();
    const progress: number[] = [];
    const call = manager.callTool(
      'fixture',
      'sleep',
      { ms: 10_000 },
      { signal: controller.signal, onProgress: (update) => progress.push(update.progress) },
    );
    await waitFor(() => progress.length >= 2, 'progress before cancelling');
    controller.abort(new Error('user cancelled'));
    await expect(call).rejects.toThrow('user cancelled');
    expect(stateOf(manager, 'fixture')).toBe('running');
    expect((await manager.callTool('fixture', 'echo', { message: 'after' })).content).toEqual([
      { type: 'text', text: 'Echo: after' },
    ]);
  });

  it('health-checks running and failed servers', async ({ expect, managers }) => {
    const { manager } = managers.createManager({
      good: fixtureServer('stdio-fixture-server.mjs'),
      bad: fixtureServer('exit-immediately-server.mjs'),
    });
    await manager.startAll();
    const health = await manager.healthCheck();
    const good = health.find((entry) => entry.id === 'good');
    expect(good?.ok).toBe(true);
    expect(good?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(health.find((entry) => entry.id === 'bad')).toEqual({ id: 'bad', ok: false, error: 'not running (failed)' });
  });

  it('drains stderr into the log with the server id', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({ talker: fixtureServer('stdio-fixture-server.mjs') });
    await manager.startAll();
    await waitFor(
      () => records.some((record) => record.fields.line === 'fixture: ready'),
      'the stderr line in the log',
    );
    const line = records.find((record) => record.fields.line === 'fixture: ready');
    expect(line).toMatchObject({ level: 'debug', message: 'stderr', fields: { server: 'talker' } });
  });
});
