import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import {
  handleShutdownSignals,
  type ShutdownProcess,
  type ShutdownSignal,
  shutdownSignals,
  signalExitCode,
} from './handle-shutdown-signals.js';

/** A process stand-in: signals are emitted by the test, exits are recorded. */
class FakeProcess extends EventEmitter implements ShutdownProcess {
  readonly exits: number[] = [];
  private exited: (code: number) => void = () => {};
  readonly firstExit = new Promise<number>((resolve) => {
    this.exited = resolve;
  });
  exit(code: number): void {
    this.exits.push(code);
    this.exited(code);
  }
  signal(signal: ShutdownSignal): void {
    this.emit(signal);
  }
}

function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: (message) => lines.push(`debug ${message}`),
    info: (message, fields) => lines.push(`info ${message} ${JSON.stringify(fields ?? {})}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message, fields) => lines.push(`error ${message} ${JSON.stringify(fields ?? {})}`),
    child: () => logger,
  };
  return logger;
}

describe('handleShutdownSignals', () => {
  it.each(shutdownSignals)('closes once on %s, then exits with the code for that signal', async (signal) => {
    const target = new FakeProcess();
    const reasons: string[] = [];
    const logs: string[] = [];
    handleShutdownSignals({
      close: async (reason) => {
        reasons.push(reason);
      },
      logger: recordingLogger(logs),
      exitCodeForSignal: signalExitCode,
      process: target,
    });
    target.signal(signal);
    expect(await target.firstExit).toBe(signalExitCode(signal));
    expect(reasons).toEqual([signal]);
    expect(target.exits).toEqual([signalExitCode(signal)]);
    expect(logs).toEqual([`info shutting down {"reason":"${signal}"}`]);
  });

  it('exits 0 after a signal unless told otherwise', async () => {
    const target = new FakeProcess();
    handleShutdownSignals({ close: async () => {}, process: target });
    target.signal('SIGHUP');
    expect(await target.firstExit).toBe(0);
  });

  it('exits at once on a second signal while close is still running', async () => {
    const target = new FakeProcess();
    let closeStarted = false;
    handleShutdownSignals({
      close: () => {
        closeStarted = true;
        return new Promise(() => {});
      },
      exitCodeForSignal: signalExitCode,
      process: target,
    });
    target.signal('SIGTERM');
    expect(closeStarted).toBe(true);
    expect(target.exits).toEqual([]);
    target.signal('SIGINT');
    expect(target.exits).toEqual([130]);
  });

  it('lets the host decide what a second signal does', async () => {
    const target = new FakeProcess();
    const second: ShutdownSignal[] = [];
    handleShutdownSignals({
      close: () => new Promise(() => {}),
      onSecondSignal: (signal) => second.push(signal),
      process: target,
    });
    target.signal('SIGINT');
    target.signal('SIGHUP');
    expect(second).toEqual(['SIGHUP']);
    expect(target.exits).toEqual([]);
  });

  it('routes other reasons through the same path, once, with their exit code', async () => {
    const target = new FakeProcess();
    const reasons: string[] = [];
    const handle = handleShutdownSignals({
      close: async (reason) => {
        reasons.push(reason);
      },
      process: target,
    });
    expect(handle.shuttingDown).toBe(false);
    const first = handle.shutdown('stdin closed', 0);
    const again = handle.shutdown('stdout closed', 1);
    expect(handle.shuttingDown).toBe(true);
    expect(again).toBe(first);
    await first;
    target.signal('SIGTERM');
    expect(reasons).toEqual(['stdin closed']);
    // A signal after the shutdown neither closes again nor changes the exit that already happened.
    expect(target.exits).toEqual([0]);
  });

  it('closes once when closing itself triggers another shutdown', async () => {
    const target = new FakeProcess();
    const reasons: string[] = [];
    const logs: string[] = [];
    const handle = handleShutdownSignals({
      close: async (reason) => {
        reasons.push(reason);
        // Closing a transport reports that its input ended, which asks for a shutdown again.
        void handle.shutdown('stdin closed');
      },
      logger: recordingLogger(logs),
      process: target,
    });
    target.signal('SIGTERM');
    expect(await target.firstExit).toBe(0);
    expect(reasons).toEqual(['SIGTERM']);
    expect(logs).toEqual(['info shutting down {"reason":"SIGTERM"}']);
  });

  it('logs a failing close and still exits', async () => {
    const target = new FakeProcess();
    const logs: string[] = [];
    handleShutdownSignals({
      close: async () => {
        throw new Error('backend would not stop');
      },
      logger: recordingLogger(logs),
      process: target,
    });
    target.signal('SIGTERM');
    expect(await target.firstExit).toBe(0);
    expect(logs).toContain('error error while shutting down {"error":"backend would not stop"}');
  });

  it('exits anyway when close takes longer than forceExitAfterMs', async () => {
    const target = new FakeProcess();
    const logs: string[] = [];
    handleShutdownSignals({
      close: () => new Promise(() => {}),
      forceExitAfterMs: 20,
      logger: recordingLogger(logs),
      process: target,
    });
    target.signal('SIGTERM');
    expect(await target.firstExit).toBe(0);
    expect(logs).toContain('warn shutdown is taking too long; exiting without waiting further');
  });

  it('stops listening after dispose', () => {
    const target = new FakeProcess();
    const handle = handleShutdownSignals({ close: async () => {}, process: target });
    expect(shutdownSignals.map((signal) => target.listenerCount(signal))).toEqual([1, 1, 1]);
    handle.dispose();
    expect(shutdownSignals.map((signal) => target.listenerCount(signal))).toEqual([0, 0, 0]);
  });

  it('maps signals to the shell convention 128 + number', () => {
    expect(shutdownSignals.map(signalExitCode)).toEqual([130, 143, 129]);
  });
});

describe('handleShutdownSignals in a real process', () => {
  const host = fileURLToPath(new URL('../../test/fixtures/shutdown-host.ts', import.meta.url));

  async function startHost(args: string[] = []) {
    const child = spawn(process.execPath, ['--import', 'tsx', host, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let output = '';
    const waitFor = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) resolve();
        };
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        child.once('exit', () => reject(new Error(`exited before printing "${text}": ${output}`)));
        check();
      });
    await waitFor('ready');
    return { child, exited, waitFor };
  }

  it('handles SIGHUP like SIGTERM: closes, then exits with its code instead of dying of the signal', async () => {
    const { child, exited, waitFor } = await startHost();
    child.kill('SIGHUP');
    await waitFor('closing SIGHUP');
    expect(await exited).toEqual([3, null]);
  });

  it('exits on a second signal while close hangs', async () => {
    const { child, exited, waitFor } = await startHost(['--hang']);
    child.kill('SIGTERM');
    await waitFor('closing SIGTERM');
    child.kill('SIGINT');
    expect(await exited).toEqual([4, null]);
  });
});
