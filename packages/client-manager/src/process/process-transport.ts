import type { McpTransport } from '@search-mcp/shared';

/** How a server process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /**
   * The pid of the process that served MCP, when it ended while the process started for it (a wrapper such as
   * `sh -c "node server.js; sleep 600"`) still ran. Its exit code cannot be known: it was not our child.
   */
  servingPid?: number;
}

/**
 * A transport that runs its server as a local process. The connection state machine asks these questions of any
 * transport that has a process, instead of checking for one implementation.
 */
export interface ProcessTransport extends McpTransport {
  /** Process id of the server (the command of the config), once spawned. */
  readonly pid: number | undefined;
  /** How the server ended, once it has. */
  readonly exit: ProcessExit | undefined;
  /** Called once when the server ends (before `onclose`, which waits for its output to be read). */
  onexit?: (exit: ProcessExit) => void;
  /**
   * `close()` has been called: the process is being (or has been) ended on purpose, so its end is no reason to start
   * it again.
   */
  readonly closeRequested: boolean;
  /** The last lines the server wrote to stderr (secrets already masked). */
  recentStderr(): string[];
  /**
   * Ends the server: stdin EOF, then SIGTERM to its process group, then SIGKILL, each step after the shutdown grace.
   * `{ immediate: true }` skips the polite steps' waiting, for a server that is still starting and has no work to
   * lose; `{ promptly: true }` shortens each wait to 100 ms, for a host that has what it needed from the server (a
   * server that exits on stdin EOF, as most do, still ends by itself if it does so quickly).
   */
  close(options?: { immediate?: boolean; promptly?: boolean }): Promise<void>;
  /** Ends the whole process group at once, synchronously (for a host's `exit` handler). */
  killNow(): void;
}
