import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { isWindows, signalProcessGroup } from './process-group.js';
import type { ProcessExit } from './process-transport.js';
import type { ProcessWatchdog, WatchedGroup } from './process-watchdog.js';
import { describeSpawnError } from './spawn-error.js';

export interface ServerProcessOptions {
  command: string;
  args: string[];
  /** The complete environment of the server. */
  env: Record<string, string>;
  cwd?: string;
  /** Ends the server's group if the host dies; without one, a host killed with SIGKILL leaves the server behind. */
  watchdog?: ProcessWatchdog;
}

/**
 * A stdio server running as our child, in its own process group, its pipes straight to us. `close()` of the
 * transport and the host's `exit` handler end the group; the watchdog ends it when the host is killed; on Linux the
 * watchdog also reports the death of the process that serves behind a wrapper.
 */
export class ServerProcess {
  /** Called once when the server ends (not if it ended before this was set: read `exit` then). */
  onexit?: (exit: ProcessExit) => void;
  /** Called once when the server is gone and its pipes are closed (all output has been read). */
  onclose?: () => void;
  /** Resolves once the server runs; rejects with a readable spawn failure (`command not found: …`). */
  readonly spawned: Promise<void>;
  private readonly child: ChildProcess;
  private watched?: WatchedGroup;
  private exitInfo?: ProcessExit;

  constructor(options: ServerProcessOptions) {
    this.child = spawn(options.command, options.args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group on POSIX, so the whole tree can be signalled at once.
      detached: !isWindows,
      // Windows needs a shell to run `npx.cmd` and friends.
      shell: isWindows,
      windowsHide: true,
    });
    const child = this.child;
    // Registered before anything can go wrong: from here on, the host's death ends this group.
    if (options.watchdog) this.watchWith(options.watchdog);
    this.spawned = new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      // Spawn failures (ENOENT, EACCES, a missing cwd) arrive here instead of 'spawn'.
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) reject(describeSpawnError(error, options.command, options.cwd));
      });
    });
    this.spawned.catch(() => {});
    child.once('exit', (code, signal) => {
      this.end({ code, signal });
      this.watched?.forget();
    });
    child.once('close', () => this.onclose?.());
  }

  get stdin(): Writable {
    return this.child.stdin as Writable;
  }

  get stdout(): Readable {
    return this.child.stdout as Readable;
  }

  get stderr(): Readable {
    return this.child.stderr as Readable;
  }

  /** The server's pid (the command of the config), once spawned. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /**
   * From now on the watchdog ends this group if the host dies. Given at the spawn, or when a manager adopts a process
   * started before it existed (`prestartStdioServer`); a process already watched or ended is left as it is.
   */
  watchWith(watchdog: ProcessWatchdog): void {
    if (this.watched || this.exitInfo || this.child.pid === undefined) return;
    this.watched = watchdog.watch(this.child.pid, (pid) => this.end({ code: null, signal: null, servingPid: pid }));
  }

  /** The server has answered: from now on its serving process is watched too, not only the one started. */
  watchServer(): void {
    this.watched?.findServer();
  }

  /** Signals the server's whole process group. */
  signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) signalProcessGroup(this.child.pid, signal);
  }

  /**
   * The server ended: its direct child exited, or (reported by the watchdog) the process that served behind a
   * wrapper did. Whatever is left in its group would be an orphan, or a wrapper serving nobody: it is killed.
   */
  private end(exit: ProcessExit): void {
    this.signalGroup('SIGKILL');
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.onexit?.(exit);
  }
}
