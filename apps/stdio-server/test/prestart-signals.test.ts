/**
 * A server prestarted by `@search-mcp/client-manager/prestart` runs in its own process group, which nothing else ends
 * while it waits for its manager: a signal that ends the host must end it too (packages/client-manager/README.md,
 * "Prestarted servers"). Checked in a bare host, so that no other handler (the CLI's lifecycle) can be what ended it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { processesWith } from './support/process-tree.js';

const prestartModule = fileURLToPath(
  new URL('../node_modules/@search-mcp/client-manager/dist/prestart.js', import.meta.url),
);

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** A host that prestarts a server, then gets `signal` (with or without a handler of its own). */
async function hostGets(signal: NodeJS.Signals, marker: string, ownHandler: boolean) {
  const script = `
    const { prestartStdioServer } = await import(${JSON.stringify(prestartModule)});
    prestartStdioServer('waiting', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1e6) // ${marker}'] });
    ${ownHandler ? `process.on(${JSON.stringify(signal)}, () => process.exit(7));` : ''}
    setInterval(() => {}, 1e6);
    process.kill(process.pid, ${JSON.stringify(signal)});`;
  const host = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
  const [code, ended] = (await once(host, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, ended };
}

describe.concurrent('a prestarted server waiting for its manager', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) {
    it(`ends with a host that has no ${signal} handler, and the host still dies of ${signal}`, async () => {
      const marker = `search-mcp-prestart-signal-${signal}-${process.pid}`;
      expect(await hostGets(signal, marker, false)).toEqual({ code: null, ended: signal });
      await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 20_000, interval: 50 });
    });
  }

  it('ends with a host interrupted while the spawn still returns (the server signals its host at once)', async () => {
    // The server's first act is to send SIGINT to its host: the signal lands while the host's spawn returns, before
    // anything else of the host runs. A host whose handlers were installed after the spawn died of the signal's
    // default action there, the server left running in its own group (about one round in two, so ten rounds).
    for (let round = 0; round < 10; round++) {
      const marker = `search-mcp-prestart-signal-at-spawn-${process.pid}-${round}`;
      const script = `
        const { prestartStdioServer } = await import(${JSON.stringify(prestartModule)});
        prestartStdioServer('waiting', { command: 'sh', args: ['-c', 'kill -INT $PPID; while :; do sleep 1; done # ${marker}'] });
        setInterval(() => {}, 1e6);`;
      const host = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
      try {
        expect(await once(host, 'exit')).toEqual([null, 'SIGINT']);
        await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 20_000, interval: 50 });
      } finally {
        // A server left behind (the failure this checks) leads its own group: ended with it, not left to the machine.
        for (const pid of processesWith(marker)) killGroup(pid);
      }
    }
  });

  it("ends with a host whose own handler decides how it exits (the host's handler is left to do so)", async () => {
    const marker = `search-mcp-prestart-signal-handled-${process.pid}`;
    expect(await hostGets('SIGTERM', marker, true)).toEqual({ code: 7, ended: null });
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 20_000, interval: 50 });
  });
});
