/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it when missing) on 127.0.0.1, its data in a folder of
 * the test's with the append-only file on and synced at every write, so a restart (`restart()`) finds every key
 * written before it, as a Redis deployment with persistence does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';

/** Where Debian puts it; `REDIS_SERVER` names another. */
export const redisServerPath = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisServerProcess {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Stops it (SIGTERM: Redis flushes and exits) and starts it again on the same port and folder. */
  restart(): Promise<void>;
  output(): string;
  close(): Promise<void>;
}

export async function startRedisServer(options: { port: number; directory: string }): Promise<RedisServerProcess> {
  if (!existsSync(redisServerPath)) {
    throw new Error(`no redis-server at ${redisServerPath}: install Debian's redis-server package (.ci/run does)`);
  }
  let output = '';
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      redisServerPath,
      [
        '--port',
        String(options.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        options.directory,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--daemonize',
        'no',
        '--protected-mode',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    const exited = once(started, 'exit');
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
      void exited.then(() => reject(new Error(`redis-server exited before it was ready:\n${output}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${options.port}`,
    restart: async () => {
      await stop();
      // Only the lines of this start are searched for "Ready".
      output += '\n--- restarted ---\n';
      const before = output;
      output = '';
      try {
        await start();
      } finally {
        output = before + output;
      }
    },
    output: () => output,
    close: stop,
  };
}
