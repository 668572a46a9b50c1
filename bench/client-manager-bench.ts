/**
 * Benchmark of McpClientManager against the real npm MCP servers (no network: the servers run from node_modules).
 *
 *   npx -y pnpm@10.34.9 bench
 *
 * Measures, in one run (the numbers are only comparable within a run: compare the ratios):
 *   1. connect time of everything + filesystem + memory: `startAll()` (parallel) vs `start(id)` one after another;
 *   2. `echo` latency through the manager vs a bare SDK Client + StdioClientTransport, interleaved;
 *   3. memory: the benchmark process's RSS growth for a manager with 10 server-memory instances, and the children's RSS.
 *
 * Writes bench/results/client-manager.json and bench/results/client-manager.md and prints the markdown to stdout.
 * Everything else (progress) goes to stderr.
 */
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
import {
  bytesToMb,
  childProcessesOf,
  findGarbageCollector,
  formatMb,
  formatMs,
  formatRatio,
  isEsbuildService,
  isProcessAlive,
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
} from './bench-support.js';

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

/** Our children other than tsx's own esbuild service (which lives as long as this process). */
function serverLikeChildren() {
  return childProcessesOf(process.pid).filter((child) => !isEsbuildService(child));
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
): McpClientManager {
  const manager = new McpClientManager({ mcpServers }, managerOptions);
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

function markdown(machine: Machine, connect: ConnectResult, echo: EchoResult, memory: MemoryResult): string {
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
      cleanup,
    };
    const md = markdown(machine, connect, echo, memory);
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
