import { isJsonRpcMessage, LineSplitter, truncateText, type JsonRpcMessage } from '@search-mcp/shared';
import { normalizeResponse } from './malformed-response.js';
import { OutputTail } from './output-tail.js';
import { OversizedLine } from './oversized-line.js';
import type { ProcessExit, ProcessTransport } from './process-transport.js';
import type { ProcessWatchdog } from './process-watchdog.js';
import { ServerProcess } from './server-process.js';

export interface StdioProcessTransportOptions {
  command: string;
  args: string[];
  /** The complete environment of the child (the manager merges config `env` over the SDK's default one). */
  env: Record<string, string>;
  cwd?: string;
  /** Ends the server's process group if the host dies (see `watchdog.cjs`). Without it, SIGKILL of the host orphans it. */
  watchdog?: ProcessWatchdog;
  /**
   * A process already running this very launch (`prestartStdioServer`): `start()` takes it over instead of spawning.
   * One that has ended is never adopted, and `start()` follows the adoption in the same tick, so no event of its is
   * missed.
   */
  adopted?: ServerProcess;
  /** Called with each line the server writes to stderr (secrets already masked). */
  onStderrLine?: (line: string) => void;
  /** Called with each stdout line that is not a JSON-RPC message (skipped, never fatal; shortened, masked). */
  onGarbageLine?: (line: string) => void;
  /** Called when a reply was malformed or too large and its request was answered with an error instead. */
  onBadResponse?: (problem: string) => void;
  /** Masks secrets in everything this transport reports (stderr lines, garbage lines). Default: none. */
  redact?: (text: string) => string;
  /** How long `close()` waits after closing stdin, and again after SIGTERM, before escalating. */
  closeGraceMs?: number;
  /** How many stderr lines to keep for error reports. */
  stderrTailLines?: number;
  /** Longest stdout message, in characters: a longer one is dropped and its request fails. Default 64 Mi. */
  maxMessageSize?: number;
}

const defaultMaxMessageSize = 64 * 1024 * 1024;
/** A stderr "line" this long without a newline is reported as it is (a server writing a progress bar). */
const maxStderrLine = 8192;

/** Each wait of a prompt close (`close({ promptly: true })`): time for a quick exit on stdin EOF, then on SIGTERM. */
const promptGraceMs = 100;

/**
 * MCP stdio client transport that runs the server in its own process group, watched by the process watchdog.
 *
 * Why not the SDK's `StdioClientTransport`: it signals only the direct child, so a server started through `npx`,
 * `uvx` or a shell script leaves its real process running as an orphan; it also treats one non-JSON stdout line as
 * an error for the whole stream. Here `close()` ends the whole group (stdin EOF, then SIGTERM, then SIGKILL), the
 * watchdog ends it when the host dies, garbage lines are skipped, and a malformed or over-long reply fails its
 * request at once. Lines are framed by `LineSplitter`, in time linear in their size (a 50 MB result is one pass).
 */
export class StdioProcessTransport implements ProcessTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  onexit?: (exit: ProcessExit) => void;

  private server?: ServerProcess;
  private closing = false;
  private closeCalled = false;
  private closed = false;
  private exited?: Promise<void>;
  private readonly stderrTail: OutputTail;
  private readonly options: StdioProcessTransportOptions;
  private readonly redact: (text: string) => string;
  private readonly maxMessageSize: number;
  private readonly stdoutLines: LineSplitter;
  private readonly stderrLines: LineSplitter;
  private currentChunk?: Buffer;
  private oversized?: OversizedLine;

  constructor(options: StdioProcessTransportOptions) {
    this.options = options;
    this.redact = options.redact ?? ((text) => text);
    this.maxMessageSize = options.maxMessageSize ?? defaultMaxMessageSize;
    this.stderrTail = new OutputTail(options.stderrTailLines ?? 20);
    this.stdoutLines = new LineSplitter({
      maxLineLength: this.maxMessageSize,
      onLine: (line) => this.handleLine(line),
      onOverflow: (head, length) => {
        this.oversized = new OversizedLine(head, length, this.currentChunk ?? Buffer.alloc(0));
      },
    });
    this.stderrLines = new LineSplitter({
      maxLineLength: maxStderrLine,
      onLine: (line) => this.stderrLine(line),
      onOverflow: (head, length) => this.stderrLine(`${head}… (${length} characters without a newline)`),
    });
  }

  get pid(): number | undefined {
    return this.server?.pid;
  }

  get exit(): ProcessExit | undefined {
    return this.server?.exit;
  }

  get closeRequested(): boolean {
    return this.closeCalled;
  }

  recentStderr(): string[] {
    return this.stderrTail.lines();
  }

  async start(): Promise<void> {
    if (this.server) throw new Error('StdioProcessTransport already started');
    const server =
      this.options.adopted ??
      new ServerProcess({
        command: this.options.command,
        args: this.options.args,
        env: this.options.env,
        ...(this.options.cwd !== undefined ? { cwd: this.options.cwd } : {}),
        ...(this.options.watchdog ? { watchdog: this.options.watchdog } : {}),
      });
    this.server = server;
    this.exited = new Promise((resolve) => {
      server.onexit = (exit) => {
        resolve();
        this.onexit?.(exit);
      };
    });
    server.onclose = () => {
      // Whatever the server wrote last without a newline is still worth showing.
      this.stderrLines.push('\n');
      this.finish();
    };
    server.stdout.on('data', (chunk: Buffer) => this.readStdout(chunk));
    server.stdout.on('error', (error) => this.onerror?.(error));
    // EPIPE when the server died before reading what we wrote; the exit is reported through onclose.
    server.stdin.on('error', (error) => this.onerror?.(error));
    server.stderr.on('data', (chunk: Buffer) => this.stderrLines.push(chunk));
    try {
      await server.spawned;
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
  }

  send(message: JsonRpcMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.server?.stdin;
      if (!stdin || this.closed || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      const json = `${JSON.stringify(message)}\n`;
      if (stdin.write(json)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(options: { immediate?: boolean; promptly?: boolean } = {}): Promise<void> {
    this.closeCalled = true;
    const server = this.server;
    // An adopted process this transport never started has had no request: it ends at once.
    if (!server) this.options.adopted?.signalGroup('SIGKILL');
    // Nothing to end: never started, already ending, already gone, or never spawned at all.
    if (this.closing || !server || this.closed || server.pid === undefined) {
      this.finish();
      if (server) await this.options.watchdog?.releaseIfIdle();
      return;
    }
    this.closing = true;
    const defaultGrace = this.options.closeGraceMs ?? 2000;
    const grace = options.immediate
      ? Math.min(250, defaultGrace)
      : options.promptly
        ? Math.min(promptGraceMs, defaultGrace)
        : defaultGrace;
    if (!server.exit) {
      // Polite first: most MCP servers exit when stdin ends.
      try {
        server.stdin.end();
      } catch {
        // already gone
      }
      if (options.immediate || !(await this.waitForExit(grace))) {
        server.signalGroup('SIGTERM');
        if (!(await this.waitForExit(grace))) {
          server.signalGroup('SIGKILL');
          await this.waitForExit(grace);
        }
      }
    }
    this.finish();
    // The last server of this host is gone: its watchdog goes too, reaped by us (a host that exits next leaves
    // no zombie watchdog behind for init to collect).
    await this.options.watchdog?.releaseIfIdle();
  }

  killNow(): void {
    (this.server ?? this.options.adopted)?.signalGroup('SIGKILL');
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.server?.exit || !this.exited) return Promise.resolve(true);
    const exited = this.exited;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private readStdout(chunk: Buffer): void {
    if (this.oversized?.feed(chunk)) {
      const line = this.oversized;
      this.oversized = undefined;
      this.answerOversized(line);
    }
    this.currentChunk = chunk;
    this.stdoutLines.push(chunk);
    this.currentChunk = undefined;
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const response = normalizeResponse(value);
    if (response) {
      if (response.problem !== undefined) this.options.onBadResponse?.(this.redact(response.problem));
      // The first reply proves the server is up: from now on its serving process is watched (see watchdog.cjs).
      this.server?.watchServer();
      this.onmessage?.(response.message);
      return;
    }
    if (!isJsonRpcMessage(value)) {
      // A server that logs to stdout by mistake must not lose its connection over it.
      this.options.onGarbageLine?.(this.redact(truncateText(line, 500)));
      return;
    }
    this.onmessage?.(value as JsonRpcMessage);
  }

  /** An over-long reply fails its request (found by its id) with a clear error, instead of leaving it waiting. */
  private answerOversized(line: OversizedLine): void {
    const id = line.responseId();
    const size = `${line.length} characters, over the limit of ${this.maxMessageSize} (maxMessageSize)`;
    if (id === undefined) {
      this.options.onGarbageLine?.(this.redact(`${truncateText(line.head, 200)}… (${size}; dropped)`));
      return;
    }
    const problem = `the response was ${size}; it was dropped`;
    this.options.onBadResponse?.(problem);
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: -32603, message: `MCP server response too large: ${problem}` },
    });
  }

  private stderrLine(line: string): void {
    if (line === '') return;
    const masked = this.redact(line);
    this.stderrTail.push(masked);
    this.options.onStderrLine?.(masked);
  }
}
