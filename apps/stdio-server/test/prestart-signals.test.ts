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

  it("ends with a host whose own handler decides how it exits (the host's handler is left to do so)", async () => {
    const marker = `search-mcp-prestart-signal-handled-${process.pid}`;
    expect(await hostGets('SIGTERM', marker, true)).toEqual({ code: 7, ended: null });
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 20_000, interval: 50 });
  });
});
