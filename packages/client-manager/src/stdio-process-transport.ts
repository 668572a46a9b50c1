import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage } from '@search-mcp/shared';
import { OutputTail } from './output-tail.js';

export interface StdioProcessTransportOptions {
  command: string;
  args: string[];
  /** The complete environment of the child (the manager merges config `env` over the SDK's default one). */
  env: Record<string, string>;
  cwd?: string;
  /** Called with each line the server writes to stderr. */
  onStderrLine?: (line: string) => void;
  /** Called with each stdout line that is not a JSON-RPC message (skipped, never fatal). */
  onGarbageLine?: (line: string) => void;
  /** How long `close()` waits after closing stdin, and again after SIGTERM, before escalating. */
  closeGraceMs?: number;
  /** How many stderr lines to keep for error reports. */
  stderrTailLines?: number;
  /** Largest stdout line accepted; a larger one is dropped and reported as garbage. */
  maxLineBytes?: number;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const isWindows = process.platform === 'win32';

/**
 * MCP stdio client transport that runs the server in its own process group.
 *
 * Why not the SDK's `StdioClientTransport`: it signals only the direct child, so a server started through `npx`,
 * `uvx` or a shell script leaves its real process running as an orphan; it also treats one non-JSON stdout line as
 * an error for the whole stream. Here `close()` ends the whole group (stdin EOF, then SIGTERM, then SIGKILL), an
 * unexpected exit of the direct child also ends the rest of its group, and garbage lines are skipped.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private pending = '';
  // Keeps the bytes of a character split between two reads until the rest arrives.
  private readonly stdoutDecoder = new StringDecoder('utf8');
  private closing = false;
  private closed = false;
  private exitInfo?: ProcessExit;
  private readonly exited: Promise<void>;
  private resolveExited!: () => void;
  private readonly stderrTail: OutputTail;
  private readonly options: StdioProcessTransportOptions;

  constructor(options: StdioProcessTransportOptions) {
    this.options = options;
    this.stderrTail = new OutputTail(options.stderrTailLines ?? 20);
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
  }

  /** Process id of the direct child, once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** The last lines the server wrote to stderr. */
  recentStderr(): string[] {
    return this.stderrTail.lines();
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.options.command, this.options.args, {
          env: this.options.env,
          cwd: this.options.cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          // Its own process group on POSIX, so the whole tree can be signalled at once.
          detached: !isWindows,
          // Windows needs a shell to run `npx.cmd` and friends.
          shell: isWindows,
          windowsHide: true,
        });
      } catch (error) {
        reject(toError(error));
        return;
      }
      this.child = child;

      child.once('error', (error) => {
        // Spawn failures (ENOENT, EACCES) arrive here before 'spawn'.
        reject(describeSpawnError(error, this.options.command));
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        // The direct child is gone; anything it left in its group would be an orphan.
        this.signalGroup('SIGKILL');
        this.resolveExited();
      });
      child.once('close', () => {
        this.resolveExited();
        this.finish();
      });

      child.stdout?.on('data', (chunk: Buffer) => this.readStdout(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      // EPIPE when the server died before reading what we wrote; the exit is reported through onclose.
      child.stdin?.on('error', (error) => this.onerror?.(error));

      let stderrPending = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        stderrPending += text;
        let index: number;
        while ((index = stderrPending.indexOf('\n')) !== -1) {
          const line = stderrPending.slice(0, index).replace(/\r$/, '');
          stderrPending = stderrPending.slice(index + 1);
          this.stderrLine(line);
        }
        if (stderrPending.length > 8192) {
          this.stderrLine(stderrPending);
          stderrPending = '';
        }
      });
      child.stderr?.on('end', () => {
        if (stderrPending) this.stderrLine(stderrPending);
        stderrPending = '';
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      const json = `${JSON.stringify(message)}\n`;
      if (stdin.write(json)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the server: stdin EOF, then SIGTERM to its process group, then SIGKILL, each after `closeGraceMs`.
   * `{ immediate: true }` skips the stdin step and waits only briefly: for a server that is still starting and has
   * no work to lose.
   */
  async close(options: { immediate?: boolean } = {}): Promise<void> {
    if (this.closing || !this.child) {
      this.finish();
      return;
    }
    this.closing = true;
    const grace = options.immediate
      ? Math.min(250, this.options.closeGraceMs ?? 2000)
      : (this.options.closeGraceMs ?? 2000);
    const child = this.child;
    if (!this.exitInfo) {
      // Polite first: most MCP servers exit when stdin ends.
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      if (options.immediate || !(await this.waitForExit(grace))) {
        this.signalGroup('SIGTERM');
        if (!(await this.waitForExit(grace))) {
          this.signalGroup('SIGKILL');
          await this.waitForExit(grace);
        }
      }
    }
    // The direct child may have exited while its group lives on (an npx wrapper that was told to stop).
    this.signalGroup('SIGKILL');
    this.finish();
  }

  /** Ends the whole process group at once, synchronously (for a host's `exit` handler). */
  killNow(): void {
    if (!this.exitInfo) this.signalGroup('SIGKILL');
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (isWindows) {
        if (signal === 'SIGKILL') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
        else this.child?.kill(signal);
      } else {
        process.kill(-pid, signal);
      }
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private readStdout(chunk: Buffer): void {
    this.pending += this.stdoutDecoder.write(chunk);
    const maxLineBytes = this.options.maxLineBytes ?? 64 * 1024 * 1024;
    let index: number;
    while ((index = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, index).replace(/\r$/, '');
      this.pending = this.pending.slice(index + 1);
      this.handleLine(line);
    }
    if (this.pending.length > maxLineBytes) {
      this.options.onGarbageLine?.(`${this.pending.slice(0, 200)}… (${this.pending.length} bytes without a newline)`);
      this.pending = '';
    }
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (!isJsonRpcMessage(value)) {
      // A server that logs to stdout by mistake must not lose its connection over it.
      this.options.onGarbageLine?.(line.length > 500 ? `${line.slice(0, 500)}…` : line);
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  private stderrLine(line: string): void {
    this.stderrTail.push(line);
    this.options.onStderrLine?.(line);
  }
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function describeSpawnError(error: Error, command: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return new Error(`command not found: ${command} (is it installed and on PATH?)`, { cause: error });
  if (code === 'EACCES') return new Error(`command is not executable: ${command}`, { cause: error });
  return new Error(`could not start ${command}: ${error.message}`, { cause: error });
}
