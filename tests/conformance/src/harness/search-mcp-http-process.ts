import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);

/** The built `search-mcp-http` of this workspace (turbo builds it before this package's tests). */
export const searchMcpHttpCliPath = join(dirname(require.resolve('@search-mcp/http/package.json')), 'dist', 'cli.js');

export interface SearchMcpHttp {
  /** Its MCP endpoint. */
  url: URL;
  /** False once the process ended, by exit or by a signal (a crash or a kill): the run uses one process throughout. */
  readonly running: boolean;
  /** The last log lines (JSON, from stderr), for a failure message. */
  logTail(): string;
  close(): Promise<void>;
}

interface LogRecord {
  msg?: string;
  url?: string;
  mcp?: string;
  server?: string;
}

function parseLogLine(line: string): LogRecord | undefined {
  try {
    const record: unknown = JSON.parse(line);
    return record !== null && typeof record === 'object' ? (record as LogRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts `search-mcp-http` on 127.0.0.1 and an ephemeral port with `configPath`, on this Node (20). Ready when it
 * logged both its address ("search-mcp-http listening") and the connection to `backendId` ("connected"): the backend
 * starts after the listen, and a scenario run before it connected would see no tools.
 */
export async function startSearchMcpHttp(configPath: string, backendId: string): Promise<SearchMcpHttp> {
  const child: ChildProcess = spawn(
    process.execPath,
    [searchMcpHttpCliPath, '--config', configPath, '--host', '127.0.0.1', '--port', '0', '--no-watch'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const tail: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<URL>((resolve, reject) => {
    let url: URL | undefined;
    let connected = false;
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      const record = parseLogLine(line);
      if (record?.msg === 'search-mcp-http listening' && record.mcp) url = new URL(record.mcp);
      if (record?.msg === 'connected' && record.server === backendId) connected = true;
      if (url && connected) resolve(url);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      reject(new Error(`search-mcp-http exited before it was ready (${signal ?? code}):\n${tail.join('\n')}`));
    });
  });
  const url = await ready.catch(async (error: unknown) => {
    child.kill('SIGTERM');
    await exited;
    throw error;
  });
  return {
    url,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    logTail: () => tail.join('\n'),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
