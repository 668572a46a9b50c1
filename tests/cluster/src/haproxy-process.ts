/**
 * A real HAProxy (Debian's package, `/usr/sbin/haproxy`; `.ci/run` installs it when missing) in front of the
 * replicas, configured as the README's scale section describes a stateless deployment: round robin, health checks on
 * the replicas' readiness path, and retries of requests a dead replica dropped (`retry-on conn-failure empty-response
 * response-timeout`, `option redispatch`, `retries 3`) so a SIGKILLed replica costs a 2026-07-28 client nothing.
 * Every answer names the replica that gave it (`X-Search-Mcp-Replica`), for tests that must know where a task ran.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';

export const haproxyPath = process.env.HAPROXY ?? '/usr/sbin/haproxy';
/** The answer header naming the replica (`replica-<index>`). */
export const replicaHeader = 'x-search-mcp-replica';

export interface HaproxyProcess {
  url: string;
  /** Each replica's state as HAProxy's health checks see it: `UP`, `DOWN`, `MAINT`, … (`show stat`). */
  replicaStates(): Promise<string[]>;
  output(): string;
  close(): Promise<void>;
}

export function replicaName(index: number): string {
  return `replica-${index}`;
}

export function haproxyConfig(options: {
  port: number;
  replicaPorts: readonly number[];
  healthPath: string;
  statsSocket: string;
}): string {
  return [
    'global',
    `  stats socket ${options.statsSocket} mode 600 level admin`,
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    // A tool call may take long; response-timeout retries only what no replica answered in time.
    '  timeout server 30s',
    '  timeout http-keep-alive 5s',
    // A busy machine can keep a live replica's health answer waiting: only a refused connection (a dead replica,
    // detected at once) or a real timeout marks it down.
    '  timeout check 5s',
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure empty-response response-timeout',
    // Retrying a POST needs its body in HAProxy's buffer.
    '  option http-buffer-request',
    'frontend mcp',
    `  bind 127.0.0.1:${options.port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    // HTTP/1.1 with a loopback Host: the replicas refuse a Host they do not know (apps/http-server, --allowed-host).
    '  option httpchk',
    `  http-check send meth GET uri ${options.healthPath} ver HTTP/1.1 hdr Host 127.0.0.1`,
    '  http-check expect status 200',
    '  default-server inter 300ms fall 2 rise 1',
    `  http-response set-header ${replicaHeader} %s`,
    ...options.replicaPorts.map((port, index) => `  server ${replicaName(index)} 127.0.0.1:${port} check`),
    '',
  ].join('\n');
}

export async function startHaproxy(options: {
  port: number;
  replicaPorts: readonly number[];
  healthPath: string;
  directory: string;
}): Promise<HaproxyProcess> {
  if (!existsSync(haproxyPath)) {
    throw new Error(`no haproxy at ${haproxyPath}: install Debian's haproxy package (.ci/run does)`);
  }
  const configFile = join(options.directory, 'haproxy.cfg');
  const statsSocket = join(options.directory, 'haproxy.sock');
  await writeFile(configFile, haproxyConfig({ ...options, statsSocket }));
  const child: ChildProcess = spawn(haproxyPath, ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const replicaStates = async () => {
    const csv = await askStatsSocket(statsSocket, 'show stat');
    const states: string[] = [];
    for (const line of csv.split('\n')) {
      const fields = line.split(',');
      const match = /^replica-(\d+)$/.exec(fields[1] ?? '');
      if (fields[0] === 'replicas' && match) states[Number(match[1])] = fields[17] ?? '';
    }
    return states;
  };
  // Ready once the stats socket answers (HAProxy listens on every address before it opens the socket).
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited at start:\n${output}`);
    try {
      await replicaStates();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await close();
        throw new Error(`haproxy's stats socket never answered (${String(error)}):\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url: `http://127.0.0.1:${options.port}`, replicaStates, output: () => output, close };
}

/** One command on HAProxy's stats socket; its whole answer. */
function askStatsSocket(path: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (text: string) => {
      answer += text;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
