/**
 * Benchmark of scale-out (issue 24, README "Scale-out"), on the rig of tests/cluster (`startClusterRig`: a real
 * redis-server, built search-mcp-http replicas with `cluster: { redis: { url } }`, HAProxy in front, all on 127.0.0.1).
 *
 *   npx -y pnpm@10.34.9 bench:cluster
 *
 *   1. Throughput: req/s of 2026-07-28 `tools/call` of a fast fixture tool (`fixture__echo`, stdio backend per
 *      replica) through HAProxy to 1 and to 3 replicas, both with Redis; autocannon, every answer's text checked.
 *   2. The added latency of the shared store: the same request, one at a time, straight to one replica with `cluster`
 *      and to one without, interleaved request by request (so both see the same machine load); the difference of
 *      their p50s is what the store costs per request. Goal ≤ 0.5 ms. Then the same with the rate limit off, and
 *      one bare Redis round trip (PING) for scale: where the added time goes.
 * Redis runs without persistence (its default; the tests' rig syncs every write to disk so a restart keeps it, which
 * here would measure the disk). Every replica runs with a rate limit far above the load (`--rate-limit 100000000`), so each request still takes its
 * rate-limit window (in Redis with `cluster`) as in production, without ever being refused.
 *
 * On a 2-core machine three replicas, HAProxy, Redis and autocannon share two cores: 3 replicas need not beat 1
 * there; the numbers are what they are.
 *
 * Writes bench/results/cluster.json and .md and prints the markdown to stdout; progress on stderr. Exits 1 when a
 * request failed or answered something else than the echo.
 */
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type ClusterRig, startClusterRig } from '../tests/cluster/src/cluster-rig.js';
import { isToolSuccess, modernRequest } from '../tests/cluster/src/modern-requests.js';
import {
  formatMs,
  loadAverage,
  machineInfo,
  machineSummary,
  metricTableLines,
  progressLog,
  round,
  summarize,
  writeResults,
} from './src/bench-support.js';

const require = createRequire(import.meta.url);
const log = progressLog('cluster-bench');
const seconds = Number(process.env.CLUSTER_BENCH_SECONDS ?? 10);
const warmupSeconds = 2;
const connections = Number(process.env.CLUSTER_BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.CLUSTER_BENCH_ROUNDS ?? 3000);
const goalAddedMs = 0.5;
const rateLimitPerMinute = 100_000_000;
const message = 'hello from the cluster bench';

// autocannon (8.x, no bundled types: the part of its API used here)
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = require('autocannon') as (options: {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  timeout: number;
  verifyBody?: (body: string) => boolean;
}) => Promise<AutocannonResult>;

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'fixture__echo',
    arguments: { message },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'cluster-bench', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

const headersOf = (rig: ClusterRig) => ({
  ...rig.authorization,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'fixture__echo',
});

/** One checked call, so a broken set-up fails before it is measured. */
async function checkedCall(url: string, rig: ClusterRig): Promise<void> {
  const answer = await modernRequest(url, rig.authorization, 'tools/call', {
    name: 'fixture__echo',
    arguments: { message },
  });
  if (!isToolSuccess(answer) || !answer.text.includes(`Echo: ${message}`)) {
    throw new Error(`the echo call failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
}

/** Whether the replicas use Redis: the Redis URL appears in what they log at start (the store's description). */
function usesRedis(rig: ClusterRig): boolean {
  const address = rig.redisUrl.replace(/\/\d+$/, '');
  return rig.output().split('=== haproxy ===')[0]?.includes(address) ?? false;
}

interface Throughput {
  replicas: number;
  requestsPerSecond: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  /** Why they failed: autocannon's error, timeout and wrong-body counts, and the HTTP statuses seen. */
  failures: { errors: number; timeouts: number; mismatches: number; statusCodes: Record<string, number> };
  storeInUse: 'redis' | 'in-process';
}

async function throughput(replicas: number): Promise<Throughput> {
  log(`throughput: ${replicas} replica(s) behind HAProxy, with Redis`);
  const rig = await startClusterRig({ replicas, cluster: true, rateLimitPerMinute, durableRedis: false });
  try {
    for (let index = 0; index < replicas * 3; index += 1) await checkedCall(rig.url, rig);
    const options = {
      url: `${rig.url}/mcp`,
      method: 'POST' as const,
      headers: headersOf(rig),
      body,
      connections,
      timeout: 30,
      verifyBody: (text: string) => text.includes(`Echo: ${message}`),
    };
    await autocannon({ ...options, duration: warmupSeconds });
    const result = await autocannon({ ...options, duration: seconds });
    return {
      replicas,
      requestsPerSecond: round(result.requests.average, 1),
      total: result.requests.total,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      failed: result.errors + result.timeouts + result.mismatches + result.non2xx,
      failures: {
        errors: result.errors,
        timeouts: result.timeouts,
        mismatches: result.mismatches,
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
        ),
      },
      storeInUse: usesRedis(rig) ? 'redis' : 'in-process',
    };
  } finally {
    await rig.close();
  }
}

interface AddedLatency {
  rounds: number;
  withClusterP50Ms: number;
  withoutClusterP50Ms: number;
  addedP50Ms: number;
  goalMs: number;
  met: boolean;
  storeInUse: 'redis' | 'in-process';
  /** One bare Redis round trip (PING) from this process at the same time, p50: what each store call costs here. */
  redisRoundTripP50Ms: number;
}

/** p50 of `count` PINGs on one connection to Redis (RESP by hand: the bench has no Redis client of its own). */
async function redisRoundTripP50(redisUrl: string, count: number): Promise<number> {
  const { hostname, port } = new URL(redisUrl);
  const socket = createConnection({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  try {
    const times: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.write('*1\r\n$4\r\nPING\r\n');
      });
      times.push(performance.now() - started);
    }
    return summarize(times).p50;
  } finally {
    socket.destroy();
  }
}

async function addedLatency(rateLimit: number): Promise<AddedLatency> {
  log(
    `added latency (--rate-limit ${rateLimit}): one replica with cluster and one without, ${rounds} interleaved requests each`,
  );
  const withCluster = await startClusterRig({
    replicas: 1,
    cluster: true,
    rateLimitPerMinute: rateLimit,
    durableRedis: false,
  });
  try {
    const without = await startClusterRig({
      replicas: 1,
      cluster: false,
      rateLimitPerMinute: rateLimit,
      durableRedis: false,
    });
    try {
      const targets = [
        { rig: withCluster, url: withCluster.replicaUrls[0] ?? '', times: [] as number[] },
        { rig: without, url: without.replicaUrls[0] ?? '', times: [] as number[] },
      ];
      for (let index = 0; index < rounds + 200; index += 1) {
        // Alternate which goes first, so neither always follows the other's garbage.
        for (const target of index % 2 === 0 ? targets : [...targets].reverse()) {
          const started = performance.now();
          await checkedCall(target.url, target.rig);
          if (index >= 200) target.times.push(performance.now() - started);
        }
      }
      const pingP50 = await redisRoundTripP50(withCluster.redisUrl, 2000);
      const withP50 = summarize(targets[0]?.times ?? []).p50;
      const withoutP50 = summarize(targets[1]?.times ?? []).p50;
      const added = withP50 - withoutP50;
      return {
        rounds,
        withClusterP50Ms: round(withP50, 3),
        withoutClusterP50Ms: round(withoutP50, 3),
        addedP50Ms: round(added, 3),
        goalMs: goalAddedMs,
        met: added <= goalAddedMs,
        storeInUse: usesRedis(withCluster) ? 'redis' : 'in-process',
        redisRoundTripP50Ms: round(pingP50, 3),
      };
    } finally {
      await without.close();
    }
  } finally {
    await withCluster.close();
  }
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const one = await throughput(1);
  log(`1 replica: ${JSON.stringify(one)}`);
  const three = await throughput(3);
  log(`3 replicas: ${JSON.stringify(three)}`);
  const added = await addedLatency(rateLimitPerMinute);
  // The same with the rate limit off: what the store costs a request apart from its rate-limit window.
  const addedWithoutRateLimit = await addedLatency(0);
  const result = {
    machine: { ...machine, loadAverageAtEnd: loadAverage() },
    settings: { seconds, warmupSeconds, connections, rounds, rateLimitPerMinute },
    throughput: [one, three],
    addedLatency: added,
    addedLatencyWithoutRateLimit: addedWithoutRateLimit,
  };
  const storeNote = (store: 'redis' | 'in-process') =>
    store === 'redis' ? 'Redis' : 'in-process (the replicas did not report Redis: `cluster` not wired in this build)';
  const markdown = [
    '# Scale-out (cluster)',
    '',
    `${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' ')} → ${result.machine.loadAverageAtEnd.join(' ')}`,
    '',
    `2026-07-28 \`tools/call\` of \`fixture__echo\` (a stdio backend per replica). Throughput: autocannon, ${connections} ` +
      `connections, ${warmupSeconds} s warm-up then ${seconds} s, through HAProxy (round robin). Added latency: one ` +
      `request at a time straight to a replica, with \`cluster\` and without, interleaved, ${rounds} each after 200 of ` +
      'warm-up. Rate limit on (far above the load) so each request takes its window as in production.',
    '',
    ...metricTableLines([
      ['throughput', `1 replica (store: ${storeNote(one.storeInUse)})`, `${one.requestsPerSecond} req/s`, '—'],
      ['throughput', `3 replicas (store: ${storeNote(three.storeInUse)})`, `${three.requestsPerSecond} req/s`, '—'],
      ['throughput', '3 replicas ÷ 1', `${(three.requestsPerSecond / one.requestsPerSecond).toFixed(2)}×`, '—'],
      ['latency', 'p50 with `cluster`', formatMs(added.withClusterP50Ms), '—'],
      ['latency', 'p50 without', formatMs(added.withoutClusterP50Ms), '—'],
      [
        'latency',
        `added p50 of the shared store (${storeNote(added.storeInUse)})`,
        formatMs(added.addedP50Ms),
        `≤ ${goalAddedMs} ms — ${added.met ? 'met' : '**not met**'}`,
      ],
      [
        'latency',
        'added p50 with the rate limit off (`--rate-limit 0`), for the breakdown',
        formatMs(addedWithoutRateLimit.addedP50Ms),
        '—',
      ],
      ['latency', 'one bare Redis round trip (PING), p50, for scale', formatMs(added.redisRoundTripP50Ms), '—'],
    ]),
    '',
    `Failed or wrong answers under load: ${one.failed} (1 replica), ${three.failed} (3 replicas). p50/p99 under ` +
      `load: ${one.p50Ms}/${one.p99Ms} ms (1), ${three.p50Ms}/${three.p99Ms} ms (3). ${machine.cpus} cores are shared by ` +
      'the replicas, their backends, HAProxy, Redis and autocannon: more replicas than cores cannot add throughput here.',
    '',
  ].join('\n');
  const path = await writeResults('cluster', result, markdown);
  log(`wrote ${path}`);
  process.stdout.write(markdown);
  if (one.failed + three.failed > 0) process.exitCode = 1;
}

await main();
