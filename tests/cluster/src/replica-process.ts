/**
 * One `search-mcp-http` replica: the built CLI of apps/http-server (`@search-mcp/http`'s `dist/cli.js`; `turbo run
 * test` builds it first) as a child process on a port fixed by the rig. It runs in a process group of its own, so a
 * kill takes its stdio backends with it, as a container's end does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The `search-mcp-http` bin. */
export const searchMcpHttpEntry = join(dirname(require.resolve('@search-mcp/http/package.json')), 'dist/cli.js');

export interface ReplicaProcess {
  url: string;
  pid: number;
  /** SIGKILL to the whole group (the replica and its backends): no drain, no goodbye. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful drain), then SIGKILL to whatever of the group is left. */
  close(): Promise<void>;
}

export async function startReplica(options: {
  configFile: string;
  port: number;
  /** Extra command-line arguments (`--rate-limit N`, …). */
  args: readonly string[];
  /** Everything it logs goes here (stderr), for failure messages. */
  log: (text: string) => void;
}): Promise<ReplicaProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      searchMcpHttpEntry,
      '--config',
      options.configFile,
      '--port',
      String(options.port),
      '--no-watch',
      '--mode',
      'proxy',
      ...options.args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('search-mcp-http did not start');
  const exited = once(child, 'exit');
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      options.log(text);
      if (output.includes('search-mcp-http listening')) resolve();
    });
    void exited.then(() => reject(new Error(`search-mcp-http exited before listening:\n${output}`)));
  });
  const kill = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    killGroup('SIGKILL');
    if (running) await exited;
  };
  try {
    await listening;
  } catch (error) {
    await kill();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    pid,
    kill,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => killGroup('SIGKILL'), 10_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      // Backends a drained replica left behind (none, normally).
      killGroup('SIGKILL');
    },
  };
}
