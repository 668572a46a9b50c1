import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { isRecord } from '@search-mcp/shared';
import { isWindows, signalProcessGroup } from './process-group.js';
import type { ProcessExit } from './process-transport.js';
import type { ServerProcess, ServerProcessOptions } from './server-process.js';
import { describeSpawnError } from './spawn-error.js';

/**
 * A server started by `supervisor.js` (see there for why and how). The supervisor's stdin, stdout and stderr are
 * the server's own (inherited, not copied), so this class reads and writes them as if the server were our child;
 * pid and exit come over the IPC channel.
 */
export class SupervisedProcess implements ServerProcess {
  onexit?: (exit: ProcessExit) => void;
  onclose?: () => void;
  readonly spawned: Promise<void>;
  private readonly supervisor: ChildProcess;
  private serverPid?: number;
  private exitInfo?: ProcessExit;
  private watching = false;
  /** The server could not be spawned: the supervisor's exit that follows says nothing about a server. */
  private spawnFailed = false;

  constructor(options: ServerProcessOptions & { supervisorScript: string }) {
    this.supervisor = spawn(process.execPath, [options.supervisorScript], {
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
      // Only what node needs: the server's env (NODE_OPTIONS, secrets) is sent over the IPC channel instead, so it
      // neither changes the supervisor nor shows in `ps`.
      env: supervisorEnvironment(),
      // Its own process group, so a terminal's Ctrl-C reaches the host, which then stops servers politely.
      detached: !isWindows,
      windowsHide: true,
    });
    const supervisor = this.supervisor;
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    this.spawned = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.spawned.catch(() => {});
    const fail = (error: Error) => {
      settle?.reject(error);
      settle = undefined;
    };

    supervisor.on('message', (message: unknown) => {
      if (!isRecord(message)) return;
      switch (message.type) {
        case 'spawned':
          this.serverPid = typeof message.pid === 'number' ? message.pid : undefined;
          settle?.resolve();
          settle = undefined;
          break;
        case 'spawn-error':
          this.spawnFailed = true;
          fail(
            describeSpawnError(
              { code: typeof message.code === 'string' ? message.code : undefined, message: String(message.message) },
              options.command,
              options.cwd,
            ),
          );
          break;
        case 'server-exit':
          this.ended({ code: null, signal: null, servingPid: Number(message.pid) });
          break;
        case 'exit':
          this.ended({
            code: typeof message.code === 'number' ? message.code : null,
            signal: typeof message.signal === 'string' ? (message.signal as NodeJS.Signals) : null,
          });
          break;
      }
    });
    // The supervisor itself could not run (node missing from execPath: only in broken installs).
    supervisor.on('error', (error: NodeJS.ErrnoException) => {
      if (supervisor.pid === undefined) fail(describeSpawnError(error, process.execPath, undefined));
    });
    supervisor.once('exit', (code, signal) => {
      if (this.exitInfo || this.spawnFailed) return;
      // Killed from outside before its server ended: nobody watches the server now, so it ends too.
      if (this.serverPid !== undefined) signalProcessGroup(this.serverPid, 'SIGKILL');
      fail(new Error(`the process supervisor ended (${signal ?? `exit code ${code}`}) before the server started`));
      this.ended({ code: null, signal, supervisorLost: true });
    });
    supervisor.once('close', () => this.onclose?.());
    supervisor.send(
      {
        type: 'spawn',
        command: options.command,
        args: options.args,
        env: options.env,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        orphanGraceMs: options.orphanGraceMs ?? 1000,
      },
      () => {
        // A send that fails means the supervisor is gone; its 'exit' reports that.
      },
    );
  }

  get stdin(): Writable {
    return this.supervisor.stdin as Writable;
  }

  get stdout(): Readable {
    return this.supervisor.stdout as Readable;
  }

  get stderr(): Readable {
    return this.supervisor.stderr as Readable;
  }

  get pid(): number | undefined {
    return this.serverPid;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  watchServer(): void {
    if (this.watching || this.exitInfo || !this.supervisor.connected) return;
    this.watching = true;
    this.supervisor.send({ type: 'watch-server' }, () => {
      // A send that fails means the supervisor is gone; its 'exit' reports that.
    });
  }

  signalGroup(signal: NodeJS.Signals): void {
    // Only while the server lives: after its exit the supervisor has ended the group, and the number may be reused.
    if (this.serverPid !== undefined && !this.exitInfo) signalProcessGroup(this.serverPid, signal);
  }

  private ended(exit: ProcessExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.onexit?.(exit);
  }
}

function supervisorEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of ['PATH', 'SystemRoot', 'TEMP', 'TMP']) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}
