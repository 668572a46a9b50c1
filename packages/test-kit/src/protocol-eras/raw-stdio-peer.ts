/**
 * A bare JSON-RPC peer over a stdio server's pipes, for what the SDK clients will not send: a 2025 `initialize` at an
 * older revision (2025-06-18, 2025-03-26: every SDK client offers its newest), a 2026-07-28 request as the very
 * first message (no `server/discover`, no handshake), and requests that claim a revision nobody speaks. Lines are
 * framed with `LineSplitter`; anything on stdout that is not JSON-RPC is kept in `noise` for the test to check.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { isRecord, LineSplitter } from '@search-mcp/shared';
import { collectStderr, type StderrCollector } from './stderr-collector.js';

export interface JsonRpcAnswer {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawStdioPeer {
  /** Sends a request and waits (bounded) for its answer, result or error. */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<JsonRpcAnswer>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Writes one raw line (bad input on purpose). */
  writeLine(line: string): void;
  /** Notifications the server sent, in order. */
  notifications: Array<{ method: string; params?: Record<string, unknown> }>;
  /** stdout lines that were not JSON-RPC messages (must stay empty: stdout carries only the protocol). */
  noise: string[];
  stderr: StderrCollector;
  /** Ends stdin and waits (bounded) for the process to exit; resolves with its exit code. */
  close(timeoutMs?: number): Promise<number | null>;
}

export interface RawStdioTarget {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** The 2026-07-28 per-request envelope: the reserved `_meta` keys a modern request carries instead of a handshake. */
export function modernRequestMeta(
  protocolVersion: string,
  clientInfo: { name: string; version: string } = { name: 'raw-peer', version: '1.0.0' },
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': protocolVersion,
    'io.modelcontextprotocol/clientInfo': clientInfo,
    'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
  };
}

export function startRawStdioPeer(target: RawStdioTarget): RawStdioPeer {
  const child: ChildProcessWithoutNullStreams = spawn(target.command, target.args ?? [], {
    env: { PATH: process.env.PATH ?? '', ...target.env },
    stdio: 'pipe',
  });
  const waiting = new Map<number, (answer: JsonRpcAnswer) => void>();
  const notifications: RawStdioPeer['notifications'] = [];
  const noise: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let nextId = 1;

  const splitter = new LineSplitter({
    onLine: (line) => {
      if (line.trim() === '') return;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        noise.push(line);
        return;
      }
      if (!isRecord(message) || message.jsonrpc !== '2.0') {
        noise.push(line);
        return;
      }
      if (typeof message.id === 'number' && ('result' in message || 'error' in message)) {
        waiting.get(message.id)?.(message as unknown as JsonRpcAnswer);
        waiting.delete(message.id);
      } else if (typeof message.method === 'string' && message.id === undefined) {
        notifications.push({
          method: message.method,
          ...(isRecord(message.params) ? { params: message.params } : {}),
        });
      } else {
        // A server→client request is not expected by these tests; keep it visible.
        noise.push(line);
      }
    },
  });
  child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
  const stderr = collectStderr(child.stderr);

  const write = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(message)}\n`);

  return {
    request(method, params, timeoutMs = 30_000) {
      const id = nextId++;
      return new Promise<JsonRpcAnswer>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`no answer to ${method} (id ${id}) within ${timeoutMs} ms; stderr: ${stderr.text()}`));
        }, timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        write({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      });
    },
    notify(method, params) {
      write({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
    },
    writeLine(line) {
      child.stdin.write(`${line}\n`);
    },
    notifications,
    noise,
    stderr,
    async close(timeoutMs = 20_000) {
      child.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([exited, limit]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`the server did not exit within ${timeoutMs} ms of stdin closing`);
      }
      return outcome;
    },
  };
}
