import { handleShutdownSignals, type ShutdownHandle, signalExitCode } from '@search-mcp/runtime';
import { errorMessage, type Logger, silentLogger } from '@search-mcp/shared';

export interface CliLifecycle {
  /** Adds something the shutdown closes (the runtime, the MCP server); the last added closes first. */
  onClose(close: () => Promise<void>): void;
  /** The logger shutdown messages go to, once the command has one. */
  useLogger(logger: Logger): void;
  /** Shuts down for a reason that is not a signal (stdin closed, the command finished): close all, then exit. */
  shutdown(reason: string, exitCode?: number): Promise<void>;
  /** True once a shutdown has begun: errors after that are its consequences, not news. */
  readonly shuttingDown: boolean;
}

export interface CliLifecycleOptions {
  /**
   * Whether a signal is the normal way to stop this command (`serve`: exit 0) or an interruption (the shell's
   * 128 + n: 130 for Ctrl-C).
   */
  stoppedBySignal: boolean;
}

/** How long the exit waits for stdout to take the rest of a command's output. */
const stdoutFlushMs = 2000;

/**
 * The one way every command ends: SIGINT, SIGTERM and SIGHUP (through `handleShutdownSignals` of the runtime), a
 * closed stdout (EPIPE: the reader is gone, e.g. `search-mcp list | head -1`, or an MCP client that closed our
 * stdout), an unexpected error, and the command finishing all close what was opened — backends and their process
 * trees first — and then exit.
 */
export function startCliLifecycle(options: CliLifecycleOptions): CliLifecycle {
  const closers: Array<() => Promise<void>> = [];
  let logger: Logger = silentLogger;
  const forwardingLogger: Logger = {
    debug: (message, fields) => logger.debug(message, fields),
    info: (message, fields) => logger.info(message, fields),
    warn: (message, fields) => logger.warn(message, fields),
    error: (message, fields) => logger.error(message, fields),
    child: (fields) => logger.child(fields),
  };
  const handle: ShutdownHandle = handleShutdownSignals({
    close: async () => {
      for (const close of closers.toReversed()) {
        await close().catch((error: unknown) =>
          logger.error('error while shutting down', { error: errorMessage(error) }),
        );
      }
    },
    logger: forwardingLogger,
    ...(options.stoppedBySignal ? {} : { exitCodeForSignal: signalExitCode }),
    process: {
      on: (signal, listener) => process.on(signal, listener),
      off: (signal, listener) => process.off(signal, listener),
      exit: (code) => exitAfterStdout(code),
    },
  });

  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE: whoever read our stdout is gone. Nothing more can be said there; end as if the input had ended.
    void handle.shutdown(error.code === 'EPIPE' ? 'stdout closed' : `stdout failed: ${error.message}`, 0);
  });
  // A closed terminal (SIGHUP) makes writes to stderr fail; logging must not turn that into a crash.
  process.stderr.on('error', () => {});
  process.on('uncaughtException', (error) => {
    process.stderr.write(`search-mcp: internal error: ${error.stack ?? error.message}\n`);
    void handle.shutdown('internal error', 1);
  });

  return {
    onClose: (close) => {
      closers.push(close);
    },
    useLogger: (next) => {
      logger = next;
    },
    shutdown: (reason, exitCode) => handle.shutdown(reason, exitCode),
    get shuttingDown() {
      return handle.shuttingDown;
    },
  };
}

/** Exits once stdout has taken what was written to it (a pipe to a slow reader), or after `stdoutFlushMs`. */
function exitAfterStdout(code: number): void {
  if (process.stdout.writableLength === 0 || process.stdout.destroyed) process.exit(code);
  const timer = setTimeout(() => process.exit(code), stdoutFlushMs);
  process.stdout.write('', () => {
    clearTimeout(timer);
    process.exit(code);
  });
}
