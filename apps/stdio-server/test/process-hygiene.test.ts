import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendantsOf, fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stillAlive, waitUntil } from './support/process-tree.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const fixture = fixtureServerPath('stdio-fixture-server.mjs');

/**
 * Backends that make shutting down hard: one ignores SIGTERM and stdin EOF and forks two workers that do too, one
 * hides behind `sh -c` (the shell outlives the server), and one is still starting (only in `slowConfig`).
 */
function servers(withSlowStart: boolean) {
  return {
    stubborn: {
      command: process.execPath,
      args: [fixture, '--stubborn', '--ignore-eof', '--grandchildren', '2'],
    },
    wrapped: { command: 'sh', args: ['-c', `"${process.execPath}" "${fixture}" --ignore-eof; sleep 60`] },
    ...(withSlowStart
      ? {
          slow: {
            command: process.execPath,
            args: [fixture, '--startup-delay-ms', '60000'],
            startupTimeoutMs: 120_000,
          },
        }
      : {}),
  };
}
/**
 * The backend processes each config starts: fixture servers, their workers, the shell (helpers not counted).
 * `call` starts only its key's server: `stubborn` and its two workers.
 */
const backendCount = { withSlowStart: 3 + 2 + 1, withoutSlowStart: 2 + 2 + 1, stubbornAlone: 1 + 2 };

function backendProcesses(pid: number) {
  return descendantsOf(pid).filter(
    (entry) =>
      entry.args.includes('stdio-fixture-server.mjs') ||
      entry.args.includes('setInterval') ||
      entry.args.startsWith('sh -c'),
  );
}

interface Run {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  stderr: () => string;
}

function start(args: string[]): Run {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on('error', () => {});
  return {
    child,
    exited: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>,
    stderr: () => stderr,
  };
}

/**
 * Waits for every backend process, then ends search-mcp with `end`; every process below it (backends and any helper
 * process) must be gone afterwards.
 */
async function expectNoOrphans(
  run: Run,
  count: number,
  end: () => void,
): Promise<[number | null, NodeJS.Signals | null]> {
  const pid = run.child.pid ?? -1;
  // Bounded generously: the runs of a test start side by side on a machine that may be busy.
  await waitUntil(() => backendProcesses(pid).length >= count, `${count} backend processes`, 60_000, 150);
  const tree = descendantsOf(pid).map((entry) => entry.pid);
  end();
  const exit = await run.exited;
  await waitUntil(() => stillAlive(tree).length === 0, 'every backend process to end', 20_000, 150).catch(() => {
    throw new Error(`orphans left: ${stillAlive(tree).join(', ')}`);
  });
  return exit;
}

describe('no process is left behind, whichever way search-mcp ends', { timeout: 150_000 }, () => {
  let directory: string;
  let slowConfig: string;
  let quickConfig: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-hygiene-'));
    slowConfig = join(directory, 'slow.json');
    quickConfig = join(directory, 'quick.json');
    await writeFile(slowConfig, JSON.stringify({ mcpServers: servers(true) }));
    await writeFile(quickConfig, JSON.stringify({ mcpServers: servers(false) }));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const interrupted = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

  /**
   * Runs one `serve` per signal at the same time: each run is its own process tree, and most of a run is waiting for
   * backends that ignore SIGTERM and stdin EOF to be escalated (2 s after EOF, 2 s after SIGTERM: the client
   * manager's `shutdownGraceMs`), so three side by side take about the time of one.
   */
  function eachSignalAtOnce(check: (signal: (typeof signals)[number]) => Promise<void>): Promise<void> {
    return Promise.all(
      signals.map((signal) =>
        check(signal).catch((error: unknown) => {
          throw new Error(`${signal}: ${error instanceof Error ? error.message : String(error)}`);
        }),
      ),
    ).then(() => {});
  }

  it('serve: SIGINT, SIGTERM and SIGHUP each close every backend and exit 0', async () => {
    await eachSignalAtOnce(async (signal) => {
      const run = start(['--config', slowConfig]);
      expect(await expectNoOrphans(run, backendCount.withSlowStart, () => run.child.kill(signal))).toEqual([0, null]);
    });
  });

  it('serve: stdin EOF (the client went away), a closed stdout (EPIPE) at its next answer and SIGKILL (the client-manager watchdog) each end every backend', async () => {
    const eof = async () => {
      const run = start(['--config', slowConfig]);
      expect(await expectNoOrphans(run, backendCount.withSlowStart, () => run.child.stdin.end())).toEqual([0, null]);
    };
    const closedStdout = async () => {
      const run = start(['--config', slowConfig]);
      const exit = await expectNoOrphans(run, backendCount.withSlowStart, () => {
        run.child.stdout.destroy();
        run.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      });
      expect(exit).toEqual([0, null]);
      expect(run.stderr()).toContain('"reason":"stdout closed"');
    };
    const killed = async () => {
      const run = start(['--config', slowConfig]);
      expect(await expectNoOrphans(run, backendCount.withSlowStart, () => run.child.kill('SIGKILL'))).toEqual([
        null,
        'SIGKILL',
      ]);
    };
    const labelled = (what: string, run: () => Promise<void>) =>
      run().catch((error: unknown) => {
        throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      });
    await Promise.all([labelled('stdin EOF', eof), labelled('EPIPE', closedStdout), labelled('SIGKILL', killed)]);
  });

  // The one-shot commands end their backends at once (no grace to wait out): one run at a time, as their start is
  // most of a run and three side by side on a busy machine outlast the wait for their backends.
  for (const command of ['search', 'list', 'doctor'] as const) {
    const args = command === 'search' ? ['search', 'echo'] : [command];
    it.each(signals)(`${command} during a slow start: %s closes every backend and exits 128 + n`, async (signal) => {
      const run = start([...args, '--config', slowConfig]);
      expect(await expectNoOrphans(run, backendCount.withSlowStart, () => run.child.kill(signal))).toEqual([
        interrupted[signal],
        null,
      ]);
      expect(run.stderr()).not.toMatch(/at .*\(.*:\d+:\d+\)/);
    });
  }

  it.each(signals)(
    'call during a call that never answers: %s closes every backend and exits 128 + n',
    async (signal) => {
      const run = start(['call', 'stubborn:sleep', '{"ms":600000}', '--config', quickConfig, '--log-level', 'debug']);
      const inFlight = new Promise<void>((resolve) => {
        const listener = () => {
          if (!run.stderr().includes('fixture: sleeping 600000 ms')) return;
          run.child.stderr.off('data', listener);
          resolve();
        };
        run.child.stderr.on('data', listener);
      });
      const exit = await expectNoOrphans(run, backendCount.stubbornAlone, () => {
        // Signal only once the call is in flight (the backend's stderr line, relayed at debug level).
        void inFlight.then(() => run.child.kill(signal));
      });
      expect(exit).toEqual([interrupted[signal], null]);
      expect(run.stderr()).toContain(`"reason":"${signal}"`);
    },
  );

  it('list into a reader that closed early (EPIPE) exits 0 without a stack trace, and leaves nothing behind', async () => {
    const run = start(['list', '--config', quickConfig]);
    run.child.stdout.destroy();
    const exit = await expectNoOrphans(run, backendCount.withoutSlowStart, () => {});
    expect(exit).toEqual([0, null]);
    expect(run.stderr()).toBe('');
  });

  it('call does not treat a closed stdin as a reason to stop (scripts run it with </dev/null)', async () => {
    const run = start(['call', 'stubborn:echo', '{"message":"hi"}', '--config', quickConfig]);
    let stdout = '';
    run.child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    run.child.stdin.end();
    expect(await run.exited).toEqual([0, null]);
    expect(stdout).toBe('Echo: hi\n');
  });
});
