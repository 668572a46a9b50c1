import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

  it('reports the death of a server behind a wrapper that crashes right after answering, while the watchdog still boots', async () => {
    // Behind `sh -c "node …; sleep 600"`: node answers a first request and exits at the second; sh then runs `sleep`,
    // which holds the same stdout. The watchdog boots 1.5 s late (a busy machine), long after node is gone: the
    // serving process must have been found when node answered, or `sleep` would be watched and the death never seen.
    const slowScript = fileURLToPath(new URL('../../test/fixtures/slow-booting-watchdog.cjs', import.meta.url));
    const watchdog = new ProcessWatchdog(slowScript, 1000);
    const server =
      "let n=0;process.stdin.on('data',(d)=>{for(const line of String(d).split('\\n')){if(!line)continue;n++;" +
      "if(n>1)process.exit(1);process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:JSON.parse(line).id,result:{pid:process.pid}})+'\\n')}})";
    const transport = new StdioProcessTransport({
      command: 'sh',
      args: ['-c', `"${process.execPath}" -e "${server}"; sleep 600`],
      env: { PATH: process.env['PATH'] ?? '' },
      closeGraceMs: 500,
      watchdog,
    });
    transports.push(transport);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    const answered = new Promise<{ pid: number }>((resolve) => {
      transport.onmessage = (message) => {
        if ('result' in message) resolve(message.result as { pid: number });
      };
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const { pid } = await answered;
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await closed;
    expect(transport.exit).toEqual({ code: null, signal: null, servingPid: pid });
  });
});
