import { constants } from 'node:os';
import { errorMessage, type Logger, silentLogger } from '@search-mcp/shared';

/**
 * The signals that end Search MCP, all handled alike: Ctrl-C (SIGINT), a service manager or a client's stop
 * (SIGTERM), and a closed terminal (SIGHUP, whose default would kill us without stopping the backends).
 */
export const shutdownSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type ShutdownSignal = (typeof shutdownSignals)[number];

/** What the shutdown needs of the process: its signal events and its exit. Tests pass their own. */
export interface ShutdownProcess {
  on(signal: ShutdownSignal, listener: () => void): unknown;
  off(signal: ShutdownSignal, listener: () => void): unknown;
  exit(code: number): void;
}

export interface ShutdownOptions {
  /**
   * Releases everything (open sessions, backends and their process trees, the audit log). Called once, with the
   * reason: a signal's name or what the caller passed to `shutdown`. Its failure is logged; the exit follows anyway.
   */
  close: (reason: string) => Promise<void>;
  logger?: Logger;
  /** The exit code after a signal. Default 0: a signal is how servers are stopped. See `signalExitCode`. */
  exitCodeForSignal?: (signal: ShutdownSignal) => number;
  /** A second signal while closing. Default: exit at once, without waiting for backends that ignore theirs. */
  onSecondSignal?: (signal: ShutdownSignal) => void;
  /** The longest wait for `close` before exiting anyway. Default 10,000 ms. */
  forceExitAfterMs?: number;
  /** Default: the Node process. */
  process?: ShutdownProcess;
}

export interface ShutdownHandle {
  /**
   * Shuts down for a reason that is not a signal (stdin closed, stdout closed, the command finished): closes, then
   * exits with `exitCode` (default 0). Once a shutdown has begun, later calls return the same promise (do not await
   * it inside `close`: it settles after `close`).
   */
  shutdown(reason: string, exitCode?: number): Promise<void>;
  /** True from the first signal or `shutdown` call on. */
  readonly shuttingDown: boolean;
  /** Stops listening for the signals (the process keeps Node's default behaviour again). */
  dispose(): void;
}

const defaultForceExitAfterMs = 10_000;

const nodeProcess: ShutdownProcess = {
  on: (signal, listener) => process.on(signal, listener),
  off: (signal, listener) => process.off(signal, listener),
  exit: (code) => process.exit(code),
};

/**
 * The one shutdown path of every Search MCP program: SIGINT, SIGTERM and SIGHUP, and whatever else the caller routes
 * through `shutdown`, close everything once and then exit. A second signal exits at once. A `close` that takes
 * longer than `forceExitAfterMs` (a backend ignoring every signal) does not keep the process alive.
 */
export function handleShutdownSignals(options: ShutdownOptions): ShutdownHandle {
  const target = options.process ?? nodeProcess;
  const logger = options.logger ?? silentLogger;
  const exitCodeForSignal = options.exitCodeForSignal ?? (() => 0);
  const forceExitAfterMs = options.forceExitAfterMs ?? defaultForceExitAfterMs;
  let closing: Promise<void> | undefined;
  let exited = false;
  // Exits once: the forced exit, a second signal and the end of `close` may all try.
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    target.exit(code);
  };

  const shutdown = (reason: string, exitCode = 0): Promise<void> => {
    if (closing) return closing;
    // Set before `close` runs: closing often ends what triggers another shutdown (a closed transport reports
    // "stdin closed" while it closes), and that must find the shutdown already under way.
    let finished: () => void = () => {};
    closing = new Promise<void>((resolve) => {
      finished = resolve;
    });
    void (async () => {
      logger.info('shutting down', { reason });
      const force = setTimeout(() => {
        logger.warn('shutdown is taking too long; exiting without waiting further', { afterMs: forceExitAfterMs });
        exit(exitCode);
      }, forceExitAfterMs);
      force.unref();
      try {
        await options.close(reason);
      } catch (error) {
        logger.error('error while shutting down', { error: errorMessage(error) });
      } finally {
        clearTimeout(force);
      }
      exit(exitCode);
      finished();
    })();
    return closing;
  };

  const listeners = shutdownSignals.map((signal) => {
    const listener = () => {
      if (closing) {
        if (options.onSecondSignal) options.onSecondSignal(signal);
        else exit(exitCodeForSignal(signal));
        return;
      }
      void shutdown(signal, exitCodeForSignal(signal));
    };
    target.on(signal, listener);
    return [signal, listener] as const;
  });

  return {
    shutdown,
    get shuttingDown() {
      return closing !== undefined;
    },
    dispose: () => {
      for (const [signal, listener] of listeners) target.off(signal, listener);
    },
  };
}

/** The shell's convention for a command ended by a signal: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function signalExitCode(signal: ShutdownSignal): number {
  return 128 + constants.signals[signal];
}
