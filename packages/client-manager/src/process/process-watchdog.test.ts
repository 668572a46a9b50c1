import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessWatchdog } from './process-watchdog.js';
import { StdioProcessTransport } from './stdio-process-transport.js';
import { defaultWatchdogScript } from './watchdog-script.js';

const script = defaultWatchdogScript();
if (script === undefined) throw new Error('src/process/watchdog.cjs is missing');

const transports: StdioProcessTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close({ immediate: true })));
});

/** A server that runs until it is ended (stdin EOF does not end `node -e`), watched by `watchdog`. */
async function startServer(watchdog: ProcessWatchdog): Promise<StdioProcessTransport> {
  const transport = new StdioProcessTransport({
    command: process.execPath,
    args: ['-e', 'setInterval(() => {}, 60_000)'],
    env: { PATH: process.env['PATH'] ?? '' },
    closeGraceMs: 500,
    watchdog,
  });
  transports.push(transport);
  await transport.start();
  return transport;
}

/** Whether the process exists at all: a zombie (exited, not reaped) still has its /proc entry. */
const exists = (pid: number) => existsSync(`/proc/${pid}`);

describe.runIf(process.platform === 'linux')('ProcessWatchdog', () => {
  it('ends with the last server it watches and is reaped by the host: not even a zombie is left', async () => {
    const watchdog = new ProcessWatchdog(script, 1000);
    const first = await startServer(watchdog);
    const second = await startServer(watchdog);
    const watchdogPid = watchdog.pid as number;
    expect(watchdogPid).toBeGreaterThan(0);

    await first.close();
    // Another server is still watched: the watchdog stays.
    expect(watchdog.pid).toBe(watchdogPid);
    expect(exists(watchdogPid)).toBe(true);

    await second.close();
    // Gone when the last close resolves, reaped by this process (a host exiting now leaves nothing to init).
    expect(watchdog.pid).toBeUndefined();
    expect(exists(watchdogPid)).toBe(false);
    expect(exists(first.pid as number)).toBe(false);
    expect(exists(second.pid as number)).toBe(false);
  });

  it('starts a new watchdog for the next server, however often it was let go', async () => {
    const watchdog = new ProcessWatchdog(script, 1000);
    const seen = new Set<number>();
    // More than the three quick deaths after which a watchdog that keeps dying is no longer restarted: letting one
    // go is not a death.
    for (let round = 0; round < 5; round += 1) {
      const server = await startServer(watchdog);
      const pid = watchdog.pid as number;
      expect(pid).toBeGreaterThan(0);
      expect(seen.has(pid)).toBe(false);
      seen.add(pid);
      await server.close({ immediate: true });
      expect(exists(pid)).toBe(false);
    }
  });

  it('a server that ended on its own lets the watchdog go when its transport is closed', async () => {
    const watchdog = new ProcessWatchdog(script, 1000);
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ['-e', 'setTimeout(() => process.exit(3), 50)'],
      env: { PATH: process.env['PATH'] ?? '' },
      watchdog,
    });
    transports.push(transport);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    const watchdogPid = watchdog.pid as number;
    await closed;
    expect(transport.exit).toEqual({ code: 3, signal: null });
    await transport.close();
    expect(exists(watchdogPid)).toBe(false);
  });
});
