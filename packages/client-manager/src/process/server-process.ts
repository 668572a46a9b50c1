import type { Readable, Writable } from 'node:stream';
import { DirectProcess } from './direct-process.js';
import type { ProcessExit } from './process-transport.js';
import { SupervisedProcess } from './supervised-process.js';

export interface ServerProcessOptions {
  command: string;
  args: string[];
  /** The complete environment of the server. */
  env: Record<string, string>;
  cwd?: string;
  /** Path of `supervisor.js`; without it the server is spawned directly (no protection if the host is SIGKILLed). */
  supervisorScript?: string;
  /** How long the supervisor waits after SIGTERM before SIGKILL when the host died. Default 1,000 ms. */
  orphanGraceMs?: number;
}

/**
 * A running stdio server: its pipes, its pid and how it ended. Two kinds: supervised (the default; see
 * `supervisor.js`) and direct. The transport above frames messages and never asks which kind it has.
 */
export interface ServerProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The server's pid (the config's command, not the supervisor), once spawned. */
  readonly pid: number | undefined;
  readonly exit: ProcessExit | undefined;
  /** Resolves once the server runs; rejects with a readable spawn failure (`command not found: …`). */
  readonly spawned: Promise<void>;
  /** Called once when the server ends. */
  onexit?: (exit: ProcessExit) => void;
  /** Called once when the server is gone and its pipes are closed (all output has been read). */
  onclose?: () => void;
  /** The server has answered: from now on, watch the process that serves, not only the one started (Linux). */
  watchServer(): void;
  /** Signals the server's whole process group. */
  signalGroup(signal: NodeJS.Signals): void;
}

export function spawnServerProcess(options: ServerProcessOptions): ServerProcess {
  return options.supervisorScript !== undefined
    ? new SupervisedProcess({ ...options, supervisorScript: options.supervisorScript })
    : new DirectProcess(options);
}
