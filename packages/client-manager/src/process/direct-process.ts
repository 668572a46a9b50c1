import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { isWindows, signalProcessGroup } from './process-group.js';
import type { ProcessExit } from './process-transport.js';
import type { ServerProcess, ServerProcessOptions } from './server-process.js';
import { describeSpawnError } from './spawn-error.js';

/**
 * A server spawned directly as our child, in its own process group. Used when no supervisor script is available
 * (a host that bundled this package without `supervisor.js`): `close()` and the host's `exit` handler still end the
 * whole group, but a host killed with SIGKILL leaves the server behind.
 */
export class DirectProcess implements ServerProcess {
  onexit?: (exit: ProcessExit) => void;
  onclose?: () => void;
  readonly spawned: Promise<void>;
  private readonly child: ChildProcess;
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
    this.spawned = new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      // Spawn failures (ENOENT, EACCES) arrive here instead of 'spawn'.
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) reject(describeSpawnError(error, options.command, options.cwd));
      });
    });
    this.spawned.catch(() => {});
    child.once('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      // The direct child is gone; anything it left in its group would be an orphan.
      this.signalGroup('SIGKILL');
      this.onexit?.(this.exitInfo);
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

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  watchServer(): void {
    // Without a supervisor only the direct child's exit is seen.
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) signalProcessGroup(this.child.pid, signal);
  }
}
