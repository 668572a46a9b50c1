/**
 * Client hop benchmark: the per-call cost of our backend hop on a 2025 backend with the 1.x SDK `Client.request`
 * (what `BackendClient` uses) against the 2.x `Client.request` in `versionNegotiation: 'legacy'` (what a 2.x-only
 * client manager would use), both as `forward-request.ts` calls them: `request({ method: 'tools/call', params },
 * looseObject)` — no `callTool` (no output validation, no response cache).
 *
 *   npx tsx bench/client-hop-bench.ts [--calls 3000] [--warmup 300]
 *
 * The same server code answers both (the 1.x `McpServer` with an `echo` tool), over the same transport class:
 *   1. in memory: the 1.x SDK's `InMemoryTransport` pair, one server instance per client (CPU only, no I/O);
 *   2. a real stdio process: server-everything's `echo`, spawned with the 1.x `StdioClientTransport` for both
 *      clients (two processes of the same server).
 * Calls are interleaved in blocks of 100 (1.x block, 2.x block, …) after a warm-up of each, so load changes on the
 * shared machine hit both alike. Writes bench/results/client-hop.json and .md and prints the markdown.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { z as zodNamespace } from 'zod';
import {
  formatRatio,
  isProcessAlive,
  loadAverage,
  machineInfo,
  machineSummary,
  packageBinEntry,
  percentile,
  progressLog,
  round,
  roundSummary,
  type Summary,
  summarize,
  waitForExit,
  writeResults,
} from './src/bench-support.js';

const { values: options } = parseArgs({
  options: {
    calls: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '300' },
  },
});
const calls = Number(options.calls);
const warmup = Number(options.warmup);
const blockSize = 100;

const log = progressLog('client-hop');
const require = createRequire(import.meta.url);
const clientManagerDirectory = join(dirname(fileURLToPath(import.meta.url)), '../packages/client-manager');
const requireFromClientManager = createRequire(join(clientManagerDirectory, 'package.json'));

/** The part of the 2.x client package used here (typed locally: the root resolves only the 1.x SDK). */
interface ModernClientPackage {
  Client: new (
    info: { name: string; version: string },
    options: { versionNegotiation: { mode: 'legacy' } },
  ) => {
    connect(transport: Transport): Promise<void>;
    request(
      request: { method: string; params: Record<string, unknown> },
      schema: zodNamespace.ZodType,
    ): Promise<unknown>;
    getNegotiatedProtocolVersion(): string | undefined;
    close(): Promise<void>;
  };
}

/** The 2.x client package, as client-manager resolves it (the root has only the 1.x SDK). */
async function loadModernClientPackage(): Promise<ModernClientPackage> {
  const entry = requireFromClientManager.resolve('@modelcontextprotocol/client');
  const distributionDirectory = dirname(entry);
  return import(pathToFileURL(join(distributionDirectory, 'index.mjs')).href);
}

function versionOf(packageDirectoryFile: string): string {
  let directory = dirname(packageDirectoryFile);
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name?.startsWith('@modelcontextprotocol/') && manifest.version) return manifest.version;
    } catch {
      // no package.json here
    }
    directory = dirname(directory);
  }
  return 'unknown';
}

/** zod as client-manager resolves it (the workspace's one copy; not a root dependency). */
const { z } = (await import(
  pathToFileURL(join(dirname(requireFromClientManager.resolve('zod')), 'index.js')).href
)) as { z: typeof zodNamespace };

/** What forward-request.ts passes as the result schema: every field kept, nothing else checked. */
const PassThroughResultSchema = z.looseObject({});

/** One request the way our hop sends it; resolves with the result. */
type Hop = () => Promise<unknown>;

const echoParams = { name: 'echo', arguments: { message: 'hop' } };

function echoServer(): McpServer {
  const server = new McpServer({ name: 'hop-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }],
  }));
  return server;
}

interface Peer {
  hop: Hop;
  protocolVersion: string | undefined;
  close: () => Promise<void>;
}

async function legacyPeer(transport: Transport): Promise<Peer> {
  const client = new LegacyClient({ name: 'client-hop-bench', version: '1' });
  await client.connect(transport);
  return {
    hop: () => client.request({ method: 'tools/call', params: echoParams }, PassThroughResultSchema),
    // The 1.x client keeps the negotiated revision nowhere public; it offers its latest, 2025-11-25.
    protocolVersion: undefined,
    close: () => client.close(),
  };
}

async function modernPeer(modern: ModernClientPackage, transport: Transport): Promise<Peer> {
  const client = new modern.Client(
    { name: 'client-hop-bench', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  // Our transports are the 1.x `Transport`, the same shape the 2.x client drives (as in client-manager).
  await client.connect(transport);
  return {
    hop: () => client.request({ method: 'tools/call', params: echoParams }, PassThroughResultSchema),
    protocolVersion: client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}

/** Runs `count` calls of each peer, interleaved in blocks; per-call microseconds of each. */
async function interleave(
  peers: Record<'sdk1' | 'sdk2', Peer>,
  count: number,
): Promise<Record<'sdk1' | 'sdk2', number[]>> {
  const samples = { sdk1: [] as number[], sdk2: [] as number[] };
  const order: Array<'sdk1' | 'sdk2'> = ['sdk1', 'sdk2'];
  for (let done = 0; done < count; done += blockSize) {
    const size = Math.min(blockSize, count - done);
    for (const name of order) {
      const { hop } = peers[name];
      for (let call = 0; call < size; call += 1) {
        const started = performance.now();
        await hop();
        samples[name].push((performance.now() - started) * 1000);
      }
    }
    order.reverse();
  }
  return samples;
}

type LegSummary = Summary & { p95: number };

interface Leg {
  name: string;
  /** The revision the 2.x client negotiated (the 1.x client offers 2025-11-25 and exposes nothing). */
  sdk2ProtocolVersion: string | undefined;
  sdk1: LegSummary;
  sdk2: LegSummary;
  p50Ratio: number;
  p95Ratio: number;
}

function summarizeLeg(samples: number[]): LegSummary {
  const summary = summarize(samples);
  return {
    ...summary,
    p95: percentile(
      [...samples].sort((a, b) => a - b),
      95,
    ),
  };
}

async function measure(name: string, peers: Record<'sdk1' | 'sdk2', Peer>): Promise<Leg> {
  log(`${name}: warm-up (${warmup} calls each)`);
  await interleave(peers, warmup);
  log(`${name}: ${calls} calls each, interleaved in blocks of ${blockSize}`);
  const samples = await interleave(peers, calls);
  const sdk1 = summarizeLeg(samples.sdk1);
  const sdk2 = summarizeLeg(samples.sdk2);
  return {
    name,
    sdk2ProtocolVersion: peers.sdk2.protocolVersion,
    sdk1: { ...roundSummary(sdk1), p95: round(sdk1.p95) },
    sdk2: { ...roundSummary(sdk2), p95: round(sdk2.p95) },
    p50Ratio: round(sdk2.p50 / sdk1.p50),
    p95Ratio: round(sdk2.p95 / sdk1.p95),
  };
}

async function inMemoryLeg(modern: ModernClientPackage): Promise<Leg> {
  const pair = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await echoServer().connect(serverSide);
    return clientSide;
  };
  const peers = { sdk1: await legacyPeer(await pair()), sdk2: await modernPeer(modern, await pair()) };
  try {
    return await measure('in memory (1.x McpServer, InMemoryTransport)', peers);
  } finally {
    await Promise.all([peers.sdk1.close(), peers.sdk2.close()]);
  }
}

const everythingEntry = packageBinEntry('@modelcontextprotocol/server-everything', require);
const spawnedPids = new Set<number>();

async function stdioLeg(modern: ModernClientPackage): Promise<Leg> {
  const transport = () => {
    const stdio = new StdioClientTransport({ command: process.execPath, args: [everythingEntry], stderr: 'ignore' });
    return stdio;
  };
  const sdk1Transport = transport();
  const sdk2Transport = transport();
  const peers = { sdk1: await legacyPeer(sdk1Transport), sdk2: await modernPeer(modern, sdk2Transport) };
  for (const stdio of [sdk1Transport, sdk2Transport]) if (stdio.pid !== null) spawnedPids.add(stdio.pid);
  try {
    return await measure('stdio (server-everything echo, one process per client)', peers);
  } finally {
    await Promise.all([peers.sdk1.close(), peers.sdk2.close()]);
  }
}

function table(rows: ReadonlyArray<readonly string[]>): string[] {
  const [head = [], ...body] = rows;
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, index) => (index < 2 ? '---' : '---:')).join(' | ')} |`,
    ...body.map((row) => `| ${row.join(' | ')} |`),
  ];
}

function markdown(legs: Leg[], machine: ReturnType<typeof machineInfo>, versions: Record<string, string>): string {
  const micro = (value: number) => `${Math.round(value)} µs`;
  const rows = [
    ['path', 'client', 'p50', 'p95', 'p99', 'mean', '2.x / 1.x (p50, p95)'],
    ...legs.flatMap((leg) => [
      [
        leg.name,
        `1.x ${versions.sdk1} request()`,
        micro(leg.sdk1.p50),
        micro(leg.sdk1.p95),
        micro(leg.sdk1.p99),
        micro(leg.sdk1.mean),
        '',
      ],
      [
        '',
        `2.x ${versions.client} request() (legacy)`,
        micro(leg.sdk2.p50),
        micro(leg.sdk2.p95),
        micro(leg.sdk2.p99),
        micro(leg.sdk2.mean),
        `${formatRatio(leg.p50Ratio)}, ${formatRatio(leg.p95Ratio)}`,
      ],
    ]),
  ];
  return [
    '# Backend client hop: 1.x vs 2.x `Client.request` on a 2025 backend',
    '',
    `${machineSummary(machine)}. ${calls} calls per client after ${warmup} warm-up, interleaved in blocks of ${blockSize}; one run.`,
    '',
    ...table(rows),
    '',
    'Both clients send `tools/call` as `forward-request.ts` does (`request(…, looseObject)`, no `callTool`), to the same',
    `server code over the same transport class; the 2.x client negotiated ${legs.map((leg) => leg.sdk2ProtocolVersion).join(' / ')}.`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const modern = await loadModernClientPackage();
  const versions = {
    sdk1: versionOf(require.resolve('@modelcontextprotocol/sdk/client/index.js')),
    client: versionOf(requireFromClientManager.resolve('@modelcontextprotocol/client')),
  };
  const machine = machineInfo();
  const legs = [await inMemoryLeg(modern), await stdioLeg(modern)];
  machine.loadAverageAtEnd = loadAverage();
  const md = markdown(legs, machine, versions);
  const jsonPath = await writeResults('client-hop', { machine, versions, calls, warmup, blockSize, legs }, md);
  log(`wrote ${jsonPath}`);
  process.stdout.write(md);
  await waitForExit([...spawnedPids], 40, 100);
  const left = [...spawnedPids].filter(isProcessAlive);
  if (left.length > 0) {
    process.stderr.write(`server processes left behind: ${left.join(', ')}\n`);
    process.exitCode = 1;
  }
}

await main();
