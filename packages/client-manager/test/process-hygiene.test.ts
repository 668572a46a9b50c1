import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BackendError, type ServerStatus } from '@search-mcp/shared';
import { fixtureServer, fixtureServerPath, isRunning, type ProcessRow, processTable } from '@search-mcp/test-kit';
import { describe, type onTestFinished } from 'vitest';
import { pidOf, stateOf } from './manager-harness.js';
import { managerTest as it } from './manager-test.js';
import { waitFor } from './test-support.js';

/**
 * No backend outlives Search MCP, even when Search MCP is killed with SIGKILL and cannot clean up: its process
 * watchdog notices the closed IPC channel and ends every backend's process group. Survivors are counted in the
 * process table.
 */

const fixture = fixtureServerPath('stdio-fixture-server.mjs');
const host = fileURLToPath(new URL('./fixtures/manager-host.ts', import.meta.url));

/** Every live (not zombie) process. */
function livingProcesses(): ProcessRow[] {
  return processTable().filter(isRunning);
}

/** Whether a process carries our marker variable (inherited by everything a backend starts). */
function hasMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HYGIENE_MARKER=${marker}`);
  } catch {
    return false;
  }
}

/** A host process running a manager over `mcpServers`, killed when the test ends (`finished`: the test's own hook). */
async function startHost(
  finished: typeof onTestFinished,
  mcpServers: Record<string, unknown>,
): Promise<{ child: ChildProcess; statuses: ServerStatus[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', host, JSON.stringify({ mcpServers })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  finished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (text: string) => {
      output += text;
      if (output.includes('\n')) resolve(output.slice(0, output.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the host exited (${code}) before starting its servers`)));
  });
  return { child, statuses: (JSON.parse(line) as { statuses: ServerStatus[] }).statuses };
}

// The two cases run at once, each with its own host or manager and its own processes to count.
describe.concurrent('process hygiene', () => {
  it.runIf(process.platform === 'linux')(
    'leaves no process behind when the host is killed with SIGKILL, whatever the backends do',
    async ({ expect, onTestFinished: finished }) => {
      const marker = randomUUID();
      const env = { HYGIENE_MARKER: marker };
      const { child, statuses } = await startHost(finished, {
        'ignores-eof': fixtureServer('stdio-fixture-server.mjs', ['--ignore-eof'], { env }),
        'ignores-sigterm': fixtureServer('stdio-fixture-server.mjs', ['--stubborn'], { env }),
        forks: fixtureServer('stdio-fixture-server.mjs', ['--grandchildren', '2'], { env }),
        // `;` makes the shell fork the server instead of exec'ing it, and stay as its parent.
        'behind-sh': { command: 'sh', args: ['-c', `"${process.execPath}" "${fixture}" --stubborn; sleep 600`], env },
      });
      expect(statuses.map((status) => status.state)).toEqual(['running', 'running', 'running', 'running']);
      const groups = new Set(statuses.map((status) => status.pid));
      const ours = (entry: ProcessRow) => groups.has(entry.pgid) || hasMarker(entry.pid, marker);
      const watchdogs = () =>
        livingProcesses().filter((entry) => entry.ppid === child.pid && entry.args.includes('watchdog.cjs'));
      // One watchdog for every server of the host. Killed from outside, it is replaced and told every group again.
      const [first] = watchdogs();
      expect(watchdogs()).toHaveLength(1);
      process.kill(first?.pid as number, 'SIGKILL');
      await waitFor(() => watchdogs().length === 1 && watchdogs()[0]?.pid !== first?.pid, 'a new watchdog');
      const watchdogPids = new Set(watchdogs().map((entry) => entry.pid));
      // 4 servers, 2 grandchildren, and the shell in front of the fourth.
      await waitFor(() => livingProcesses().filter(ours).length === 7, 'the grandchildren to start');

      child.kill('SIGKILL');
      const survivors = () => livingProcesses().filter((entry) => ours(entry) || watchdogPids.has(entry.pid));
      await waitFor(() => survivors().length === 0, 'every backend and the watchdog to end');
      expect(survivors()).toEqual([]);
    },
    // A host under tsx and four servers take a while to start on a loaded machine.
    60_000,
  );

  it.runIf(process.platform === 'linux')(
    'notices the death of a server behind a wrapper that lives on, fails its call at once and restarts it',
    async ({ expect, managers }) => {
      const { manager } = managers.createManager({
        wrapped: {
          command: 'sh',
          args: ['-c', `"${process.execPath}" "${fixture}"; sleep 600`],
          timeoutMs: 20_000,
        },
      });
      await manager.startAll();
      const shellPid = pidOf(manager, 'wrapped');
      const serverPid = ((await manager.callTool('wrapped', 'pid')).structuredContent as { pid: number }).pid;
      expect(serverPid).not.toBe(shellPid);

      const started = performance.now();
      const failure = await manager.callTool('wrapped', 'crash').catch((error: unknown) => error);
      // Well before the 20 s timeout (a bound a loaded machine keeps clear of): the server's own death was seen, not a
      // silence; the message below says so too.
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(BackendError.isInstance(failure)).toBe(true);
      expect((failure as Error).message).toBe(
        `MCP server 'wrapped' closed the connection during tools/call crash (its server process ${serverPid} ended while the command that started it kept running)`,
      );
      await waitFor(() => stateOf(manager, 'wrapped') === 'running', 'the restart');
      expect(pidOf(manager, 'wrapped')).not.toBe(shellPid);
      // The shell and its `sleep 600` were ended with the group.
      await waitFor(() => !livingProcesses().some((entry) => entry.pgid === shellPid), 'the old group to end');
      expect((await manager.callTool('wrapped', 'echo', { message: 'back' })).content).toEqual([
        { type: 'text', text: 'Echo: back' },
      ]);
    },
  );
});
