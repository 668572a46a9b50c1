import { inspect } from 'node:util';
import { BackendError, createSecretRedactor } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { describe } from 'vitest';
import { stateOf, statusOf } from '../test/manager-harness.js';
import { managerTest as it } from '../test/manager-test.js';
import { waitFor } from '../test/test-support.js';

/**
 * A configured secret never appears in what the manager reports, however a backend echoes it
 * (packages/client-manager/README.md, "Behaviour").
 */
// Every case has managers of its own (`managerTest`), so the cases run at once, their servers starting side by side.

const canary = 'CANARY-token-7f3a9c';

describe.concurrent('secrets', () => {
  it('masks a token a failing server prints, in lastError, the start error and every log record', async ({
    expect,
    managers,
  }) => {
    const { manager, records } = managers.createManager({
      leaky: fixtureServer('leaky-server.mjs', ['--fail-start'], { env: { LEAKY_TOKEN: canary } }),
    });
    const failure = await manager.start('leaky').catch((error: unknown) => error);
    expect(stateOf(manager, 'leaky')).toBe('failed');
    const lastError = statusOf(manager, 'leaky')?.lastError ?? '';
    expect(lastError).toContain('exit code 3');
    expect(lastError).toContain('leaky: the token *** was refused');
    expect(inspect(failure, { depth: 10 })).toContain('the token *** was refused');
    expect(inspect(failure, { depth: 10 })).not.toContain(canary);
    expect(records.some((record) => record.fields.line === 'leaky: starting with token ***')).toBe(true);
    expect(JSON.stringify(records)).not.toContain(canary);
    expect(JSON.stringify(manager.status())).not.toContain(canary);
  });

  it('masks a token a running server echoes in its errors, stderr and server info', async ({ expect, managers }) => {
    const { manager, records } = managers.createManager({
      leaky: fixtureServer('leaky-server.mjs', [], { env: { LEAKY_TOKEN: canary } }),
    });
    await manager.startAll();
    const failure = await manager.callTool('leaky', 'leak').catch((error: unknown) => error);
    expect(BackendError.isInstance(failure)).toBe(true);
    expect((failure as BackendError).message).toBe('bad credentials: ***');
    expect((failure as BackendError).data).toEqual({ token: '***' });
    expect((failure as BackendError).backendCode).toBe(-32602);
    // Message, stack, fields and the SDK error it was made from.
    expect(inspect(failure, { depth: 10 })).not.toContain(canary);
    expect(statusOf(manager, 'leaky')?.serverInfo).toEqual({ name: 'leaky', version: '1.0.0+***' });
    await waitFor(() => records.some((record) => record.fields.line === 'leaky: called with ***'), 'the stderr line');
    expect(JSON.stringify(records)).not.toContain(canary);
  });

  it("uses the host's redactor instead of the one built from the config", async ({ expect, managers }) => {
    const { manager } = managers.createManager(
      { leaky: fixtureServer('leaky-server.mjs', ['--fail-start'], { env: { LEAKY_TOKEN: 'config-value-5521' } }) },
      { redactor: createSecretRedactor(['was refused']) },
    );
    await manager.startAll();
    // The host decides: its redactor masks what it knows, and only that.
    expect(statusOf(manager, 'leaky')?.lastError).toContain('the token config-value-5521 ***');
  });
});
