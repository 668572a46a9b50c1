/**
 * The scale-out rig (issue 24, README "Scale-out"): a real `redis-server`, `replicas` built `search-mcp-http`
 * processes with one config whose `cluster: { redis: { url } }` points at it, and a real HAProxy in front, all on
 * 127.0.0.1. Every replica runs the same stdio backend (`fixture`: the 2026-07-28 fixture of the test kit serving both
 * eras, with its task tool) and knows the same token, as replicas of one deployment do.
 *
 * `killReplica(i)` is a SIGKILL (the replica and its backends), `startReplica(i)` brings it back on its port,
 * `restartRedis()` stops and starts Redis on its data (append-only, so nothing written is lost).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServer } from '@search-mcp/test-kit/fixture-servers';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { freePort } from '@search-mcp/test-kit';
import { type HaproxyProcess, replicaName, startHaproxy } from './haproxy-process.js';
import { type ReplicaProcess, startReplica } from './replica-process.js';

export interface ClusterRigOptions {
  /** How many replicas (default 3). */
  replicas?: number;
  /** Give the replicas the `cluster` section (default true); false runs them each on its own, as before scale-out. */
  cluster?: boolean;
  /** `--rate-limit N` for every replica (requests per minute per token). */
  rateLimitPerMinute?: number;
  /**
   * Redis syncs every write to its append-only file before it answers (default true), so `restartRedis()` loses
   * nothing; false runs it without persistence (Redis's default), as a benchmark of request cost wants: an fsync per
   * write would be measured, not the store.
   */
  durableRedis?: boolean;
}

export interface ClusterRig {
  /** HAProxy's URL: what clients use. */
  url: string;
  /** Each replica's own URL, for a request that must land on one. */
  replicaUrls: readonly string[];
  redisUrl: string;
  /** The bearer token every replica accepts. */
  token: string;
  /** What HAProxy's health checks ask the replicas for. */
  healthPath: string;
  /** The `Authorization` header of the token. */
  authorization: { authorization: string };
  killReplica(index: number): Promise<void>;
  startReplica(index: number): Promise<void>;
  restartRedis(): Promise<void>;
  /** Resolves once HAProxy sees exactly the replicas of `up` (indexes) UP and the others not. */
  waitForBalancer(up: readonly number[], timeoutMs?: number): Promise<void>;
  /** Replica logs, Redis and HAProxy output, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startClusterRig(options: ClusterRigOptions = {}): Promise<ClusterRig> {
  const replicaCount = options.replicas ?? 3;
  const withCluster = options.cluster ?? true;
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-cluster-'));
  const token = randomBytes(24).toString('hex');
  const logs: string[] = Array.from({ length: replicaCount }, () => '');
  const replicas: Array<ReplicaProcess | undefined> = [];
  let redis: RedisServer | undefined;
  let haproxy: HaproxyProcess | undefined;

  const close = async () => {
    await haproxy?.close();
    await Promise.all(replicas.map((replica) => replica?.close()));
    await redis?.stop();
    await rm(directory, { recursive: true, force: true });
  };

  try {
    // Append-only, every write synced: a restart keeps what was written (test kit, `./redis`).
    redis = await startRedisServer({ appendOnly: options.durableRedis ?? true });
    const configFile = join(directory, 'mcp-servers.json');
    await writeFile(
      configFile,
      JSON.stringify(
        {
          mcpServers: { fixture: fixtureServer('modern-server.mjs', ['--both', '--tasks']) },
          auth: { tokens: [{ id: 'cluster', token }] },
          ...(withCluster ? { cluster: { redis: { url: redis.url } } } : {}),
        },
        null,
        2,
      ),
    );
    const ports = await Promise.all(Array.from({ length: replicaCount }, () => freePort()));
    const args = options.rateLimitPerMinute !== undefined ? ['--rate-limit', String(options.rateLimitPerMinute)] : [];
    const start = async (index: number) => {
      const port = ports[index];
      if (port === undefined) throw new Error(`no replica ${index}`);
      logs[index] += `--- ${replicaName(index)} starting ---\n`;
      replicas[index] = await startReplica({
        configFile,
        port,
        args,
        log: (text) => {
          logs[index] += text;
        },
      });
    };
    await Promise.all(ports.map((_port, index) => start(index)));
    const replicaUrls = ports.map((port) => `http://127.0.0.1:${port}`);
    const healthPath = await readinessPath(replicaUrls[0] ?? '');
    haproxy = await startHaproxy({ port: await freePort(), replicaPorts: ports, healthPath, directory });
    const balancer = haproxy;
    const waitForBalancer = async (up: readonly number[], timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      let states: string[] = [];
      for (;;) {
        states = await balancer.replicaStates();
        const matches = ports.every((_port, index) => (states[index] === 'UP') === up.includes(index));
        if (matches) return;
        if (Date.now() > deadline) {
          throw new Error(`HAProxy sees ${JSON.stringify(states)}, waited for ${JSON.stringify(up)} UP`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await waitForBalancer(ports.map((_port, index) => index));
    const runningRedis = redis;
    return {
      url: haproxy.url,
      replicaUrls,
      redisUrl: redis.url,
      token,
      healthPath,
      authorization: { authorization: `Bearer ${token}` },
      killReplica: async (index) => {
        await replicas[index]?.kill();
        replicas[index] = undefined;
        logs[index] += `--- ${replicaName(index)} killed (SIGKILL) ---\n`;
      },
      startReplica: start,
      restartRedis: () => runningRedis.restart(),
      waitForBalancer,
      output: () =>
        [
          ...logs.map((log, index) => `=== ${replicaName(index)} ===\n${log}`),
          `=== haproxy ===\n${balancer.output()}`,
        ].join('\n'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `/readyz` when the replicas have it (a replica that is not ready, draining or shutting down, answers 503 and HAProxy
 * sends it nothing); `/` (health, always 200) on a build without it.
 */
async function readinessPath(replicaUrl: string): Promise<string> {
  const response = await fetch(`${replicaUrl}/readyz`);
  await response.arrayBuffer();
  return response.status === 200 || response.status === 503 ? '/readyz' : '/';
}
