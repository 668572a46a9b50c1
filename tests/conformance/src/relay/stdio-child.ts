import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

const require = createRequire(import.meta.url);

/**
 * The built stdio app of this workspace (`search-mcp`, `@search-mcp/cli`, apps/stdio-server): a devDependency of this
 * package, so `turbo run test` builds it first.
 */
export const searchMcpStdioCliPath = join(dirname(require.resolve('@search-mcp/cli/package.json')), 'dist', 'cli.js');

export interface StdioChild {
  readonly pid: number | undefined;
  /** Called with every JSON-RPC message the child writes to stdout (one per line). */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Writes one message to the child's stdin, as one line. */
  send(message: JSONRPCMessage): void;
  /** Lines on stdout that were not JSON (the stdio app must print none). */
  readonly strayOutput: readonly string[];
  /** Until it exited. */
  readonly running: boolean;
  /** Set when the child exited before `close()` asked it to. */
  readonly unexpectedExit: string | undefined;
  logTail(): string;
  /** Ends stdin (the stdio app's shutdown path) and waits for the exit. */
  close(): Promise<void>;
}

interface LogRecord {
  msg?: string;
  server?: string;
}

/**
 * When a child is ready for its client. `serving`: it logged "search-mcp serving on stdio" (a 2025 child: its
 * backends start on the client's `initialize`, which the child then answers once they connected, see
 * `instructionsWaitMs`). `connected`: it logged the connection to the backend (a 2026-07-28 child: there is no
 * `initialize`, the backends start by themselves two seconds after the start, and a request before that would find
 * no tools).
 */
export type ChildReadiness = { when: 'serving' } | { when: 'connected'; backendId: string };

/**
 * `SEARCH_MCP_INSTRUCTIONS_WAIT_MS` for the children: how long `initialize` waits for backends still starting (the
 * default, half a second, is a race with the fixture's connection on a busy machine; the answer comes as soon as the
 * backend connected, so this only bounds a failure).
 */
const instructionsWaitMs = '10000';

/**
 * Starts `search-mcp serve --config <configPath> --no-watch` on this Node (20). Nothing is written to its stdin but
 * protocol messages, and its stdout is read only as protocol.
 */
export async function startStdioChild(configPath: string, readiness: ChildReadiness): Promise<StdioChild> {
  if (!existsSync(searchMcpStdioCliPath)) {
    throw new Error(
      `${searchMcpStdioCliPath} is missing: build the stdio app (npx turbo run build --filter=@search-mcp/cli...)`,
    );
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [searchMcpStdioCliPath, 'serve', '--config', configPath, '--no-watch'],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, SEARCH_MCP_INSTRUCTIONS_WAIT_MS: instructionsWaitMs } },
  );
  const tail: string[] = [];
  const strayOutput: string[] = [];
  let closing = false;
  let unexpectedExit: string | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!closing) unexpectedExit = `exited by itself (${signal ?? code}):\n${tail.join('\n')}`;
  });
  // A write after the child went away must not crash the test process.
  child.stdin?.on('error', () => {});

  const handle: StdioChild = {
    get pid() {
      return child.pid;
    },
    send(message) {
      if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    strayOutput,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    get unexpectedExit() {
      return unexpectedExit;
    },
    logTail: () => tail.join('\n'),
    async close() {
      closing = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      await exited;
    },
  };

  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(line) as JSONRPCMessage;
    } catch {
      strayOutput.push(line);
      return;
    }
    handle.onmessage?.(message);
  });

  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      let record: LogRecord | undefined;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        return;
      }
      if (readiness.when === 'serving' && record?.msg === 'search-mcp serving on stdio') resolve();
      if (readiness.when === 'connected' && record?.msg === 'connected' && record.server === readiness.backendId) {
        resolve();
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      reject(new Error(`search-mcp serve exited before it was ready (${signal ?? code}):\n${tail.join('\n')}`));
    });
  });
  await ready.catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  return handle;
}
