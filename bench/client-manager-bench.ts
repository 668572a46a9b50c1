/**
 * Benchmark of McpClientManager against the real npm MCP servers (no network: the servers run from node_modules).
 *
 *   npx -y pnpm@10.34.9 bench
 *
 * Measures, in one run (the numbers are only comparable within a run: compare the ratios):
 *   1. connect time of everything + filesystem + memory: `startAll()` (parallel) vs `start(id)` one after another;
 *   2. `echo` latency through the manager vs a bare SDK Client + StdioClientTransport, interleaved;
 *   3. memory: the benchmark process's RSS growth for a manager with 10 server-memory instances, the servers' RSS, and
 *      the RSS of the process watchdog (one per host process, whatever the number of servers);
 *   4. large results: 10/25/50 MB tool results through the manager vs a bare SDK client vs a raw pipe read (no MCP
 *      client at all) on the same fixture server, and the latency of small calls to another server meanwhile;
 *   5. memory under load: RSS before, at its peak and after 50 MB results and floods of 20,000 log and 10,000
 *      progress notifications.
 *
 * Writes bench/results/client-manager.json and bench/results/client-manager.md and prints the markdown to stdout.
 * Everything else (progress) goes to stderr.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpClientManager, type McpClientManagerOptions } from '@search-mcp/client-manager';
import { silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit/fixture-servers';
import {
  bytesToMb,
  childProcessesOf,
  findGarbageCollector,
  formatMb,
  formatMs,
  formatRatio,
  isEsbuildService,
  isProcessAlive,
  kbToMb,
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  metricTableLines,
  packageBinEntry,
  processIdsMatching,
  processStatusFieldKb,
  progressLog,
  proportionalSetSizeKb,
  ratioGoalCell,
  round,
  roundSummary,
  settleMemory,
  sleep,
  summarize,
  writeResults,
  type MachineInfo,
  type ProcessInfo,
} from './src/bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const connectRounds = 5;
/** One extra round of each mode before the measured ones, discarded (page cache, JIT of the manager). */
const connectWarmupRounds = 1;
const echoWarmupCalls = 200;
const echoMeasuredCalls = 2000;
const echoGoalRatio = 1.1;
const memoryServerCount = 10;
const echoMessage = 'hello from the client-manager bench';

const managerOptions: McpClientManagerOptions = { logger: silentLogger, shutdownGraceMs: 500 };
const largeSizesMb = [10, 25, 50];
const largeRounds = 3;
const idleEchoCalls = 300;
const floodLogs = 20_000;
/** The SDK's `StdioClientTransport` refuses a message over 10 MiB (`ReadBuffer`), so it is timed below that only. */
const sdkReadBufferLimit = 10 * 1024 * 1024;
const floodProgress = 10_000;
/** The hand-written fixture server that answers `big` (a text of any size) and `flood` (notifications). */
const rawReplyServer = fixtureServerPath('raw-reply-server.mjs');

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const log = progressLog('bench');

/**
 * The `version` of the package.json that `<name>/package.json` resolves to. Not bench-support's `packageVersion`:
 * for the SDK this resolves to dist/cjs/package.json, which has no version, so client-manager.json has no
 * `machine.sdk`; the shared one would add it and change the results' keys.
 */
function packageVersion(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  return (JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string }).version;
}

const entries = {
  everything: packageBinEntry('@modelcontextprotocol/server-everything', require),
  filesystem: packageBinEntry('@modelcontextprotocol/server-filesystem', require),
  memory: packageBinEntry('@modelcontextprotocol/server-memory', require),
};

const { gc, source: gcSource } = findGarbageCollector();

/** The manager's process watchdog: one per process, living as long as this process by design. */
function isWatchdog(child: ProcessInfo): boolean {
  return child.command.includes('watchdog.cjs');
}

/** Our children other than tsx's own esbuild service and the watchdog (both live as long as this process). */
function serverLikeChildren() {
  return childProcessesOf(process.pid).filter((child) => !isEsbuildService(child) && !isWatchdog(child));
}

/** Every server pid this run saw, to prove at the end that none is left. */
const seenPids = new Set<number>();
const openManagers = new Set<McpClientManager>();
const openClients = new Set<Client>();

function rememberPids(manager: McpClientManager): void {
  for (const status of manager.status()) if (status.pid !== undefined) seenPids.add(status.pid);
}

function createManager(
  mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>,
  options: McpClientManagerOptions = {},
): McpClientManager {
  const manager = new McpClientManager({ mcpServers }, { ...managerOptions, ...options });
  openManagers.add(manager);
  return manager;
}

async function closeManager(manager: McpClientManager): Promise<number> {
  const started = performance.now();
  await manager.close();
  openManagers.delete(manager);
  return performance.now() - started;
}

function assertAllRunning(manager: McpClientManager, what: string): void {
  const broken = manager.status().filter((status) => status.state !== 'running');
  if (broken.length > 0) {
    throw new Error(
      `${what}: not running: ${broken.map((status) => `${status.id}=${status.state} ${status.lastError ?? ''}`).join('; ')}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Connect: startAll() vs start(id) one after another

type ConnectMode = 'parallel' | 'sequential';

interface ConnectSample {
  round: number;
  mode: ConnectMode;
  warmup: boolean;
  totalMs: number;
  /** The manager's own per-server connect time (spawn + initialize + tools/list). */
  serverConnectMs: Record<string, number>;
  closeMs: number;
}

async function connectOnce(
  directory: string,
  mode: ConnectMode,
  round: number,
  warmup: boolean,
): Promise<ConnectSample> {
  const manager = createManager({
    everything: { command: process.execPath, args: [entries.everything] },
    filesystem: { command: process.execPath, args: [entries.filesystem, join(directory, 'files')] },
    memory: {
      command: process.execPath,
      args: [entries.memory],
      env: { MEMORY_FILE_PATH: join(directory, `connect-memory-${round}-${mode}.jsonl`) },
    },
  });
  let totalMs: number;
  try {
    const started = performance.now();
    if (mode === 'parallel') {
      await manager.startAll();
    } else {
      for (const id of manager.serverIds) await manager.start(id);
    }
    totalMs = performance.now() - started;
    assertAllRunning(manager, `connect ${mode} round ${round}`);
    rememberPids(manager);
  } catch (error) {
    await closeManager(manager);
    throw error;
  }
  const serverConnectMs: Record<string, number> = {};
  for (const status of manager.status())
    if (status.connectMs !== undefined) serverConnectMs[status.id] = status.connectMs;
  const closeMs = await closeManager(manager);
  return { round, mode, warmup, totalMs: round3(totalMs), serverConnectMs, closeMs: round3(closeMs) };
}

function round3(value: number): number {
  return round(value, 3);
}

async function benchConnect(directory: string) {
  await mkdir(join(directory, 'files'), { recursive: true });
  const samples: ConnectSample[] = [];
  for (let round = 0; round < connectWarmupRounds + connectRounds; round += 1) {
    const warmup = round < connectWarmupRounds;
    // Alternate, and swap which mode goes first every round (P S, S P, P S, ...) so drift hits both alike.
    const order: ConnectMode[] = round % 2 === 0 ? ['parallel', 'sequential'] : ['sequential', 'parallel'];
    for (const mode of order) {
      const sample = await connectOnce(directory, mode, round, warmup);
      samples.push(sample);
      log(
        `connect ${warmup ? 'warm-up' : `round ${round - connectWarmupRounds + 1}/${connectRounds}`} ${mode}: ${sample.totalMs.toFixed(1)} ms`,
      );
    }
  }
  const measured = samples.filter((sample) => !sample.warmup);
  const parallelMs = measured.filter((sample) => sample.mode === 'parallel').map((sample) => sample.totalMs);
  const sequentialMs = measured.filter((sample) => sample.mode === 'sequential').map((sample) => sample.totalMs);
  const parallelMedianMs = median(parallelMs);
  const sequentialMedianMs = median(sequentialMs);
  return {
    servers: ['everything', 'filesystem', 'memory'],
    rounds: connectRounds,
    warmupRounds: connectWarmupRounds,
    parallel: {
      medianMs: round3(parallelMedianMs),
      summary: roundSummary(summarize(parallelMs)),
      samplesMs: parallelMs,
    },
    sequential: {
      medianMs: round3(sequentialMedianMs),
      summary: roundSummary(summarize(sequentialMs)),
      samplesMs: sequentialMs,
    },
    sequentialOverParallel: round3(sequentialMedianMs / parallelMedianMs),
    samples,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. echo latency: manager vs bare SDK client

async function benchEcho() {
  const manager = createManager({ everything: { command: process.execPath, args: [entries.everything] } });
  await manager.start('everything');
  rememberPids(manager);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entries.everything],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-bare-sdk', version: '0.0.0' }, { capabilities: {} });
  openClients.add(client);
  await client.connect(transport);
  if (transport.pid !== null) seenPids.add(transport.pid);

  try {
    // Both must really echo, or we would be timing an error path.
    const viaManager = await manager.callTool('everything', 'echo', { message: 'check' });
    const viaBare = await client.callTool({ name: 'echo', arguments: { message: 'check' } });
    const expected = JSON.stringify([{ type: 'text', text: 'Echo: check' }]);
    if (JSON.stringify(viaManager.content) !== expected || JSON.stringify(viaBare.content) !== expected) {
      throw new Error(`unexpected echo result: manager ${JSON.stringify(viaManager)}, bare ${JSON.stringify(viaBare)}`);
    }

    const timeManager = async (i: number) => {
      const started = performance.now();
      await manager.callTool('everything', 'echo', { message: `${echoMessage} ${i}` });
      return performance.now() - started;
    };
    const timeBare = async (i: number) => {
      const started = performance.now();
      await client.callTool({ name: 'echo', arguments: { message: `${echoMessage} ${i}` } });
      return performance.now() - started;
    };

    const run = async (count: number, managerMs: number[], bareMs: number[]) => {
      for (let i = 0; i < count; i += 1) {
        // Interleaved, and the first of each pair alternates so neither side always runs right after the other.
        if (i % 2 === 0) {
          managerMs.push(await timeManager(i));
          bareMs.push(await timeBare(i));
        } else {
          bareMs.push(await timeBare(i));
          managerMs.push(await timeManager(i));
        }
      }
    };

    const started = performance.now();
    await run(echoWarmupCalls, [], []);
    log(`echo warm-up: ${echoWarmupCalls} calls each in ${(performance.now() - started).toFixed(0)} ms`);
    const managerMs: number[] = [];
    const bareMs: number[] = [];
    const measuredStarted = performance.now();
    await run(echoMeasuredCalls, managerMs, bareMs);
    log(`echo measured: ${echoMeasuredCalls} calls each in ${(performance.now() - measuredStarted).toFixed(0)} ms`);

    const managerSummary = summarize(managerMs);
    const bareSummary = summarize(bareMs);
    return {
      warmupCalls: echoWarmupCalls,
      measuredCalls: echoMeasuredCalls,
      manager: roundSummary(managerSummary),
      bare: roundSummary(bareSummary),
      p50Ratio: round3(managerSummary.p50 / bareSummary.p50),
      p99Ratio: round3(managerSummary.p99 / bareSummary.p99),
      meanRatio: round3(managerSummary.mean / bareSummary.mean),
      goalP50Ratio: echoGoalRatio,
      goalMet: managerSummary.p50 / bareSummary.p50 <= echoGoalRatio,
    };
  } finally {
    await client.close().catch(() => {});
    openClients.delete(client);
    await closeManager(manager);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Memory: a manager with 10 server-memory instances

async function benchMemory(directory: string) {
  await settleMemory(gc);
  const before = process.memoryUsage();
  const mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> = {};
  for (let i = 1; i <= memoryServerCount; i += 1) {
    mcpServers[`mem-${i}`] = {
      command: process.execPath,
      args: [entries.memory],
      env: { MEMORY_FILE_PATH: join(directory, `memory-${i}.jsonl`) },
    };
  }
  const manager = createManager(mcpServers);
  try {
    const started = performance.now();
    await manager.startAll();
    const startMs = performance.now() - started;
    assertAllRunning(manager, 'memory');
    rememberPids(manager);
    log(`memory: ${memoryServerCount} servers running after ${startMs.toFixed(0)} ms`);
    // Let start-up garbage and lazy initialisation settle on both sides before reading.
    await sleep(500);
    await settleMemory(gc);
    const after = process.memoryUsage();

    const children = manager.status().map((status) => {
      const pid = status.pid;
      if (pid === undefined) throw new Error(`memory: ${status.id} has no pid`);
      const vmRssKb = processStatusFieldKb(pid, 'VmRSS');
      if (vmRssKb === undefined) throw new Error(`memory: cannot read /proc/${pid}/status`);
      const pssKb = proportionalSetSizeKb(pid);
      return { id: status.id, pid, vmRssKb, ...(pssKb !== undefined ? { pssKb } : {}) };
    });
    // The process watchdog that ends every server if this process dies: one per process, measured apart.
    const watchdog = childProcessesOf(process.pid).find(isWatchdog);
    const watchdogPssKb = watchdog ? proportionalSetSizeKb(watchdog.pid) : undefined;
    const childrenRssMb = bytesToMb(children.reduce((total, child) => total + child.vmRssKb * 1024, 0));
    const pssKnown = children.every((child) => child.pssKb !== undefined);
    const childrenPssMb = pssKnown
      ? bytesToMb(children.reduce((total, child) => total + (child.pssKb ?? 0) * 1024, 0))
      : undefined;

    return {
      servers: memoryServerCount,
      gc: gcSource,
      startAllMs: round3(startMs),
      manager: {
        rssBeforeMb: round3(bytesToMb(before.rss)),
        rssAfterMb: round3(bytesToMb(after.rss)),
        rssGrowthMb: round3(bytesToMb(after.rss - before.rss)),
        rssGrowthPerServerMb: round3(bytesToMb(after.rss - before.rss) / memoryServerCount),
        heapUsedBeforeMb: round3(bytesToMb(before.heapUsed)),
        heapUsedAfterMb: round3(bytesToMb(after.heapUsed)),
        heapUsedGrowthMb: round3(bytesToMb(after.heapUsed - before.heapUsed)),
      },
      children: {
        totalVmRssMb: round3(childrenRssMb),
        perServerVmRssMb: round3(childrenRssMb / memoryServerCount),
        ...(childrenPssMb !== undefined
          ? { totalPssMb: round3(childrenPssMb), perServerPssMb: round3(childrenPssMb / memoryServerCount) }
          : {}),
        processes: children,
      },
      watchdog: {
        pid: watchdog?.pid ?? null,
        vmRssMb: watchdog ? round3(kbToMb(processStatusFieldKb(watchdog.pid, 'VmRSS') ?? 0)) : null,
        pssMb: watchdogPssKb === undefined ? null : round3(kbToMb(watchdogPssKb)),
      },
    };
  } finally {
    await closeManager(manager);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Large results: manager vs bare SDK client vs raw pipe, and small calls to another server meanwhile

/** The text of a `big` result, checked so that no side is timed on an error path. */
function checkBigText(result: Record<string, unknown>, bytes: number, who: string): void {
  const text = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text;
  if (text?.length !== bytes) throw new Error(`${who}: expected ${bytes} characters, got ${text?.length}`);
}

/**
 * The floor: the fixture's bytes read from a plain pipe, split at the newline found in each chunk and parsed once,
 * with no MCP client at all (what "the backend directly" costs).
 */
async function openRawPipe() {
  const child = spawn(process.execPath, [rawReplyServer], { stdio: ['pipe', 'pipe', 'ignore'] });
  if (child.pid !== undefined) seenPids.add(child.pid);
  let chunks: Buffer[] = [];
  let waiting: ((line: string) => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    const newline = chunk.indexOf(0x0a);
    if (newline === -1) {
      chunks.push(chunk);
      return;
    }
    chunks.push(chunk.subarray(0, newline));
    const line = Buffer.concat(chunks).toString('utf8');
    chunks = [chunk.subarray(newline + 1)];
    waiting?.(line);
  });
  let id = 0;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting = (line) => resolve((JSON.parse(line) as { result: Record<string, unknown> }).result);
      id += 1;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  });
  return {
    call: (bytes: number) => request('tools/call', { name: 'big', arguments: { bytes } }),
    close: () => {
      child.stdin.end();
      child.kill();
    },
  };
}

async function benchLargeResults() {
  const raw = { command: process.execPath, args: [rawReplyServer] };
  const manager = createManager({ big: raw, small: raw });
  await manager.startAll();
  assertAllRunning(manager, 'large results');
  rememberPids(manager);
  const transport = new StdioClientTransport({ ...raw, stderr: 'ignore' });
  const client = new Client({ name: 'bench-bare-sdk', version: '0.0.0' }, { capabilities: {} });
  openClients.add(client);
  await client.connect(transport);
  if (transport.pid !== null) seenPids.add(transport.pid);
  const pipe = await openRawPipe();

  const echoOnce = async () => {
    const started = performance.now();
    await manager.callTool('small', 'echo', { message: echoMessage });
    return performance.now() - started;
  };
  try {
    const sizes = [];
    for (const megabytes of largeSizesMb) {
      const bytes = megabytes * 1_000_000;
      const samples = { managerMs: [] as number[], bareMs: [] as number[], rawMs: [] as number[] };
      for (let round = 0; round < largeRounds; round += 1) {
        // Rotate which side goes first, so a warm cache or a GC debt does not always favour one.
        const sides = [
          async () => {
            const started = performance.now();
            checkBigText(await manager.callTool('big', 'big', { bytes }), bytes, 'manager');
            samples.managerMs.push(performance.now() - started);
          },
          async () => {
            // The SDK's stdio transport refuses messages over 10 MiB (its ReadBuffer limit) and then closes.
            if (bytes > sdkReadBufferLimit) return;
            const started = performance.now();
            const result = await client.callTool({ name: 'big', arguments: { bytes } }, undefined, {
              timeout: 120_000,
            });
            checkBigText(result, bytes, 'bare SDK');
            samples.bareMs.push(performance.now() - started);
          },
          async () => {
            const started = performance.now();
            checkBigText(await pipe.call(bytes), bytes, 'raw pipe');
            samples.rawMs.push(performance.now() - started);
          },
        ];
        for (let turn = 0; turn < sides.length; turn += 1) await sides[(round + turn) % sides.length]?.();
        await settleMemory(gc);
      }
      const managerMs = median(samples.managerMs);
      const bareMs = samples.bareMs.length > 0 ? median(samples.bareMs) : undefined;
      const rawMs = median(samples.rawMs);
      log(
        `large ${megabytes} MB: manager ${managerMs.toFixed(0)} ms, bare ${bareMs?.toFixed(0) ?? 'n/a'} ms, raw ${rawMs.toFixed(0)} ms`,
      );
      sizes.push({
        megabytes,
        managerMedianMs: round3(managerMs),
        bareSdkMedianMs: bareMs === undefined ? null : round3(bareMs),
        rawPipeMedianMs: round3(rawMs),
        managerOverRaw: round3(managerMs / rawMs),
        managerOverBareSdk: bareMs === undefined ? null : round3(managerMs / bareMs),
        managerMsPerMb: round3(managerMs / megabytes),
        samples,
      });
    }

    // Small calls to another server: idle, then while the largest result is in flight through the same manager.
    const idleMs: number[] = [];
    for (let i = 0; i < idleEchoCalls; i += 1) idleMs.push(await echoOnce());
    const largestBytes = Math.max(...largeSizesMb) * 1_000_000;
    const duringMs: number[] = [];
    let transferring = true;
    const transferStarted = performance.now();
    const transfer = manager.callTool('big', 'big', { bytes: largestBytes }).finally(() => {
      transferring = false;
    });
    while (transferring) duringMs.push(await echoOnce());
    checkBigText(await transfer, largestBytes, 'manager during small calls');
    const transferMs = performance.now() - transferStarted;
    const idle = summarize(idleMs);
    const during = summarize(duringMs);
    log(
      `small calls during the ${Math.max(...largeSizesMb)} MB transfer: ${duringMs.length}, p50 ${during.p50.toFixed(3)} ms (idle ${idle.p50.toFixed(3)} ms)`,
    );
    return {
      rounds: largeRounds,
      sizes,
      smallCallsDuringTransfer: {
        transferMb: Math.max(...largeSizesMb),
        transferMs: round3(transferMs),
        idle: roundSummary(idle),
        during: roundSummary(during),
        calls: duringMs.length,
      },
    };
  } finally {
    pipe.close();
    await client.close().catch(() => {});
    openClients.delete(client);
    await closeManager(manager);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Memory under load: RSS before, at the peak and after large results and notification floods

async function benchMemoryUnderLoad() {
  const raw = { command: process.execPath, args: [rawReplyServer] };
  const manager = createManager({ load: raw });
  await manager.startAll();
  assertAllRunning(manager, 'memory under load');
  rememberPids(manager);
  try {
    await settleMemory(gc);
    const beforeMb = bytesToMb(process.memoryUsage().rss);
    let peakMb = beforeMb;
    const sampler = setInterval(() => {
      peakMb = Math.max(peakMb, bytesToMb(process.memoryUsage().rss));
    }, 10);
    const started = performance.now();
    let progressSeen = 0;
    for (const megabytes of largeSizesMb) {
      const bytes = megabytes * 1_000_000;
      checkBigText(await manager.callTool('load', 'big', { bytes }), bytes, 'memory under load');
      peakMb = Math.max(peakMb, bytesToMb(process.memoryUsage().rss));
    }
    const flood = await manager.callTool(
      'load',
      'flood',
      { logs: floodLogs, progress: floodProgress },
      { onProgress: () => (progressSeen += 1) },
    );
    if (JSON.stringify(flood.content) !== JSON.stringify([{ type: 'text', text: 'flooded' }])) {
      throw new Error(`flood: unexpected result ${JSON.stringify(flood)}`);
    }
    const loadMs = performance.now() - started;
    clearInterval(sampler);
    peakMb = Math.max(peakMb, bytesToMb(process.memoryUsage().rss));
    // Let the allocator give pages back, as a long-running host would between bursts.
    await sleep(1000);
    await settleMemory(gc);
    const afterMb = bytesToMb(process.memoryUsage().rss);
    log(`memory under load: RSS ${beforeMb.toFixed(0)} → peak ${peakMb.toFixed(0)} → ${afterMb.toFixed(0)} MB`);
    return {
      load: `${largeSizesMb.join(' + ')} MB results, then ${floodLogs} log + ${floodProgress} progress notifications`,
      loadMs: round3(loadMs),
      progressSeen,
      rssBeforeMb: round3(beforeMb),
      rssPeakMb: round3(peakMb),
      rssAfterMb: round3(afterMb),
      rssAfterOverBeforeMb: round3(afterMb - beforeMb),
    };
  } finally {
    await closeManager(manager);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup check

async function leftoverCheck() {
  // Give exiting children a moment to be reaped.
  for (let i = 0; i < 20 && (serverLikeChildren().length > 0 || [...seenPids].some(isProcessAlive)); i += 1)
    await sleep(100);
  const allChildren = childProcessesOf(process.pid);
  const children = serverLikeChildren();
  const aliveServerPids = [...seenPids].filter(isProcessAlive);
  const pgrepServerMemory = processIdsMatching('server-memory');
  return {
    serverPidsSeen: seenPids.size,
    aliveServerPids,
    /** Child processes left, not counting tsx's esbuild service. */
    childProcesses: children,
    /** Every child process at the end, esbuild service included. */
    allChildProcesses: allChildren,
    // Other users' server-memory processes may show up here; only the ones this run started count as leftovers.
    pgrepServerMemory,
    pgrepServerMemoryOurs: pgrepServerMemory.filter((pid) => seenPids.has(pid)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

type ConnectResult = Awaited<ReturnType<typeof benchConnect>>;
type EchoResult = Awaited<ReturnType<typeof benchEcho>>;
type MemoryResult = Awaited<ReturnType<typeof benchMemory>>;
type LargeResult = Awaited<ReturnType<typeof benchLargeResults>>;
type LoadResult = Awaited<ReturnType<typeof benchMemoryUnderLoad>>;

function markdown(
  machine: Machine,
  connect: ConnectResult,
  echo: EchoResult,
  memory: MemoryResult,
  large: LargeResult,
  load: LoadResult,
): string {
  const rows: Array<[string, string, string, string]> = [
    [
      'Connect (everything + filesystem + memory)',
      `parallel \`startAll()\`, median of ${connect.rounds}`,
      formatMs(connect.parallel.medianMs),
      '',
    ],
    ['', `sequential \`start(id)\` × 3, median of ${connect.rounds}`, formatMs(connect.sequential.medianMs), ''],
    ['', 'sequential / parallel', formatRatio(connect.sequentialOverParallel), ''],
    ['echo latency', 'manager `callTool` p50', formatMs(echo.manager.p50), ''],
    ['', 'manager `callTool` p99', formatMs(echo.manager.p99), ''],
    ['', 'manager `callTool` mean', formatMs(echo.manager.mean), ''],
    ['', 'bare SDK `client.callTool` p50', formatMs(echo.bare.p50), ''],
    ['', 'bare SDK `client.callTool` p99', formatMs(echo.bare.p99), ''],
    ['', 'bare SDK `client.callTool` mean', formatMs(echo.bare.mean), ''],
    ['', 'manager p50 / bare p50', formatRatio(echo.p50Ratio), ratioGoalCell(echo.p50Ratio, echoGoalRatio)],
    ['', 'manager p99 / bare p99', formatRatio(echo.p99Ratio), ''],
    ['', 'manager mean / bare mean', formatRatio(echo.meanRatio), ''],
    [`Memory (${memory.servers} × server-memory)`, 'manager-side RSS growth', formatMb(memory.manager.rssGrowthMb), ''],
    ['', 'manager-side heapUsed growth', formatMb(memory.manager.heapUsedGrowthMb), ''],
    ['', 'children total VmRSS', formatMb(memory.children.totalVmRssMb), ''],
    ['', 'children VmRSS per server', formatMb(memory.children.perServerVmRssMb), ''],
  ];
  if (memory.children.totalPssMb !== undefined && memory.children.perServerPssMb !== undefined) {
    rows.push(['', 'children total PSS (shared pages split)', formatMb(memory.children.totalPssMb), '']);
    rows.push(['', 'children PSS per server', formatMb(memory.children.perServerPssMb), '']);
  }
  if (memory.watchdog.pssMb !== null) {
    rows.push(['', 'process watchdog PSS (one per host)', formatMb(memory.watchdog.pssMb), '']);
  }
  large.sizes.forEach((size, index) => {
    const section = index === 0 ? `Large results (median of ${large.rounds})` : '';
    rows.push([section, `${size.megabytes} MB: manager`, formatMs(size.managerMedianMs), '']);
    const bare = size.bareSdkMedianMs === null ? 'n/a (over its 10 MiB limit)' : formatMs(size.bareSdkMedianMs);
    rows.push(['', `${size.megabytes} MB: bare SDK client`, bare, '']);
    rows.push(['', `${size.megabytes} MB: raw pipe, no MCP client`, formatMs(size.rawPipeMedianMs), '']);
    rows.push([
      '',
      `${size.megabytes} MB: manager / raw pipe`,
      formatRatio(size.managerOverRaw),
      ratioGoalCell(size.managerOverRaw, 2),
    ]);
    rows.push(['', `${size.megabytes} MB: manager ms per MB`, formatMs(size.managerMsPerMb), '']);
  });
  const during = large.smallCallsDuringTransfer;
  rows.push([`Small calls during a ${during.transferMb} MB result`, 'idle p50', formatMs(during.idle.p50), '']);
  rows.push(['', `during the transfer p50 (${during.calls} calls)`, formatMs(during.during.p50), '']);
  rows.push(['', 'during the transfer p99', formatMs(during.during.p99), '']);
  rows.push(['', 'during the transfer max', formatMs(during.during.max), '']);
  rows.push(['Memory under load', load.load, '', '']);
  rows.push(['', 'RSS before', formatMb(load.rssBeforeMb), '']);
  rows.push(['', 'RSS peak', formatMb(load.rssPeakMb), '']);
  rows.push(['', 'RSS after (1 s idle, GC)', formatMb(load.rssAfterMb), '']);
  const lines = [
    '# McpClientManager benchmark',
    '',
    `${machineSummary(machine)} · ` +
      `${machine.totalMemoryGb} GB RAM · load ${machine.loadAverageAtStart.join(' / ')} at start · GC: ${memory.gc}`,
    '',
    `echo: ${echo.warmupCalls} warm-up + ${echo.measuredCalls} measured calls each, interleaved. ` +
      `Connect: ${connect.warmupRounds} discarded warm-up round + ${connect.rounds} rounds, alternating. ` +
      'Only compare numbers (ratios) within one run.',
    '',
    ...metricTableLines(rows),
    '',
  ];
  return lines.join('\n');
}

interface Machine extends MachineInfo {
  sdk: string;
  servers: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const runStarted = performance.now();
  const machine: Machine = {
    ...machineInfo(),
    sdk: packageVersion('@modelcontextprotocol/sdk'),
    servers: {
      everything: packageVersion('@modelcontextprotocol/server-everything'),
      filesystem: packageVersion('@modelcontextprotocol/server-filesystem'),
      memory: packageVersion('@modelcontextprotocol/server-memory'),
    },
  };
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-bench-'));
  try {
    // Memory first, while the process heap is still small and unfragmented by the other sections.
    log(`memory: starting ${memoryServerCount} server-memory instances (GC: ${gcSource})`);
    const memory = await benchMemory(directory);
    log('connect: parallel vs sequential');
    const connect = await benchConnect(directory);
    log('echo: manager vs bare SDK client');
    const echo = await benchEcho();
    log('large results: manager vs bare SDK client vs raw pipe');
    const large = await benchLargeResults();
    log('memory under load: large results and notification floods');
    const load = await benchMemoryUnderLoad();
    machine.loadAverageAtEnd = loadAverage();

    const cleanup = await leftoverCheck();
    const leftovers =
      cleanup.aliveServerPids.length + cleanup.childProcesses.length + cleanup.pgrepServerMemoryOurs.length;

    const result = {
      machine,
      durationMs: round(performance.now() - runStarted, 0),
      connect,
      echo,
      memory,
      large,
      load,
      cleanup,
    };
    const md = markdown(machine, connect, echo, memory, large, load);
    const jsonPath = await writeResults('client-manager', result, md);
    log(`wrote ${jsonPath} and client-manager.md in ${(result.durationMs / 1000).toFixed(1)} s`);
    if (leftovers > 0) {
      log(`LEFTOVER PROCESSES: ${JSON.stringify(cleanup)}`);
      process.exitCode = 1;
    } else {
      log(`cleanup ok: all ${cleanup.serverPidsSeen} server processes ended, no child processes left`);
    }
    process.stdout.write(md);
  } finally {
    // On failure: close whatever is still open so no server outlives the run.
    for (const client of openClients) await client.close().catch(() => {});
    for (const manager of openManagers) await manager.close().catch(() => {});
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
