/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it when missing) on 127.0.0.1 for tests and benchmarks:
 * a free port, its own temporary directory, no config file of the machine's. With `appendOnly`, every write is
 * fsynced to the append-only file before Redis answers, so `restart()` (a new process on the same port and directory)
 * finds everything written before it — the "Redis restarted" case of packages/cluster/README.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../network/free-port.js';
import { claimRealService } from '../real-services/real-service-phase.js';

export interface RedisServerOptions {
  /** Keep data across `restart()` (`--appendonly yes --appendfsync always`). Default false. */
  appendOnly?: boolean;
  /** The executable. Default `REDIS_SERVER` from the environment, else `redis-server` on PATH. */
  command?: string;
  /** How long a start may take. Default 10,000 ms. */
  startTimeoutMs?: number;
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>/0`. */
  readonly url: string;
  readonly port: number;
  /** True while the process runs. */
  readonly running: boolean;
  /** Stops the process (SIGTERM, as an operator's restart would) and waits until it has exited. */
  stopProcess(): Promise<void>;
  /** Starts it again on the same port and directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** `stopProcess()` then `start()`. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

const readyLine = 'Ready to accept connections';

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  claimRealService('Redis');
  const command = options.command ?? process.env.REDIS_SERVER ?? 'redis-server';
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-redis-'));
  const port = await freePort();
  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--dir',
    directory,
    '--save',
    '',
    '--protected-mode',
    'yes',
    ...(options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  let child: ChildProcess | undefined;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const redisProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = redisProcess;
      let output = '';
      const timer = setTimeout(() => {
        redisProcess.kill('SIGKILL');
        reject(new Error(`redis-server did not start within ${startTimeoutMs} ms:\n${output}`));
      }, startTimeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes(readyLine)) {
          clearTimeout(timer);
          resolve();
        }
      };
      redisProcess.stdout?.on('data', onData);
      redisProcess.stderr?.on('data', onData);
      redisProcess.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${command} (install Debian's redis-server package): ${error.message}`));
      });
      redisProcess.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (child === redisProcess) child = undefined;
        reject(new Error(`redis-server exited (${signal ?? code}) before it was ready:\n${output}`));
      });
    });

  const stopProcess = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    get running() {
      return child !== undefined && child.exitCode === null;
    },
    stopProcess,
    start: launch,
    async restart() {
      await stopProcess();
      await launch();
    },
    async stop() {
      await stopProcess();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
