/**
 * Proxy benchmark: what search-mcp costs a client in latency, start-up time and memory, measured with real MCP
 * clients (SDK `Client` + `StdioClientTransport`) spawning the built `apps/stdio-server/dist/cli.js serve`.
 *
 *   npx -y pnpm@10.34.9 bench:proxy
 *
 * Measures, in one run (times are only comparable within a run: compare the ratios):
 *   1. start-up: spawn of `search-mcp serve` to the first `tools/list` answer while its only backend needs 10 s to
 *      start (the test kit's stdio-fixture-server.mjs --startup-delay-ms 10000), next to a
 *      bare replay server spawned directly (the floor: node + SDK start-up);
 *   2. `echo` latency on server-everything: a bare SDK client vs search-mcp `tool_execute` vs search-mcp direct
 *      `tools/call everything:echo`, interleaved, cycling through every order; next to a byte relay (a process that
 *      only copies stdio to a server-everything child), the floor for any stdio proxy;
 *   3. memory: VmRSS of the search-mcp process with the 22 replay servers of fixtures/real-servers
 *      connected (after a tool_discovery), and its children's total VmRSS / PSS.
 *
 * Writes bench/results/proxy.json and bench/results/proxy.md and prints the markdown to stdout.
 * Everything else (progress) goes to stderr. Exits 1 if a process it started is left at the end.
 *
 * The goal (issue 9) is search-mcp's echo p50 over the byte relay's: ≤ 1.15×. To find where the time goes:
 *   --echo-only    the echo section alone, printed (quick before/after comparisons; results/ untouched);
 *   --profile      search-mcp under `node --cpu-prof` during the echo rounds: self and total time per function and
 *                  per package, cut to the measured rounds, and the `.cpuprofile` for DevTools or speedscope;
 *   --count        a probe preloaded into search-mcp: how long it holds each request and response (pipe to pipe),
 *                  promises and bytes allocated per forwarded call, and the functions that allocate them.
 * (`--help` lists every option.) `SEARCH_MCP_BENCH_CLI=<path to cli.js>` measures another build (before/after).
 */
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { fixtureServerPath } from '@search-mcp/test-kit/fixture-servers';
import { realServerFixturesDirectory } from '@search-mcp/test-kit/real-servers';
import {
  codeArea,
  collectStderrTail,
  descendantsOf,
  formatMb,
  formatMs,
  formatRatio,
  kbToMb,
  leftoverProcesses,
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  metricTableLines,
  monotonicMicroseconds,
  packageBinEntry,
  packageVersion,
  processCpuMs,
  processStatusFieldKb,
  processTreeIds,
  progressLog,
  proportionalSetSizeKb,
  ratioGoalCell,
  round,
  roundSummary,
  sleep,
  summarize,
  summarizeCpuProfile,
  textContentOf,
  waitForExit,
  writeResults,
  type CpuProfile,
  type MachineInfo,
  type SelfTime,
  type Summary,
} from './src/bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

/** The recorded real servers' tool lists (`SEARCH_MCP_REAL_SERVERS`: another folder of `<server>.tools.json`). */
const fixturesDirectory = process.env['SEARCH_MCP_REAL_SERVERS'] ?? realServerFixturesDirectory;
const startupRounds = 5;
/** One extra round before the measured ones, discarded (page cache). */
const startupWarmupRounds = 1;
const slowBackendDelayMs = 10_000;
const startupGoalMs = 500;
/** The small catalog the reference replay server serves in the start-up section. */
const startupReferenceFixture = 'postgres.tools.json';
/** Multiples of 24, the number of orders of the four calls: every order is used equally often. */
const echoWarmupRounds = 192;
const echoMeasuredRounds = 1008;
/** search-mcp's p50 over the byte relay's: close to the physical cost of one extra process hop (issue 9). */
const echoGoalRatioToRelay = 1.15;
const echoMessage = 'hello from the proxy bench';
const connectDeadlineMs = 45_000;

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const appDirectory = join(rootDirectory, 'apps', 'stdio-server');
// `SEARCH_MCP_BENCH_CLI` points at another build's `cli.js` (e.g. a worktree of an earlier commit) for before/after.
const cliPath = process.env.SEARCH_MCP_BENCH_CLI ?? join(appDirectory, 'dist', 'cli.js');
const replayServerPath = join(appDirectory, 'test', 'fixtures', 'replay-server.mjs');
const slowServerPath = fixtureServerPath('stdio-fixture-server.mjs');
/** server-everything is a devDependency of apps/stdio-server: resolve it from there. */
const requireFromApp = createRequire(join(appDirectory, 'package.json'));

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const log = progressLog('proxy-bench');

const everythingEntry = packageBinEntry('@modelcontextprotocol/server-everything', requireFromApp);

/** Every process this run started (directly or through search-mcp), to prove at the end that none is left. */
const seenPids = new Set<number>();
const openClients = new Set<Client>();

function rememberTree(pid: number): void {
  for (const treePid of processTreeIds(pid)) seenPids.add(treePid);
}

/** A `tools/call` result as sent (no CallToolResultSchema defaults or stripping). */
async function callToolRaw(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, ResultSchema)) as Record<
    string,
    unknown
  >;
}

type ServerConfig = { command: string; args: string[] };

async function writeConfig(directory: string, name: string, mcpServers: Record<string, ServerConfig>): Promise<string> {
  const path = join(directory, `${name}.json`);
  await writeFile(path, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
  return path;
}

interface Session {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderrTail: string[];
}

/** Spawns a stdio MCP server and connects an SDK client to it (`connect()` includes `initialize`). */
async function connectClient(name: string, command: string, args: string[]): Promise<Session> {
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  const stderrTail = collectStderrTail(transport.stderr);
  const client = new Client({ name, version: '0.0.0' }, { capabilities: {} });
  openClients.add(client);
  try {
    await client.connect(transport);
  } catch (error) {
    openClients.delete(client);
    await client.close().catch(() => {});
    throw new Error(
      `${name}: ${error instanceof Error ? error.message : String(error)}; stderr: ${stderrTail.join(' | ')}`,
    );
  }
  if (transport.pid === null) throw new Error(`${name}: no pid`);
  seenPids.add(transport.pid);
  return { client, transport, pid: transport.pid, stderrTail };
}

function searchMcpArgs(configPath: string): string[] {
  return [cliPath, 'serve', '--config', configPath, '--log-level', 'warn'];
}

/** Closes the client (stdin EOF, then the SDK's SIGTERM/SIGKILL) and waits until the whole process tree is gone. */
async function closeSession(session: Session): Promise<number> {
  rememberTree(session.pid);
  const tree = processTreeIds(session.pid);
  const started = performance.now();
  await session.client.close();
  openClients.delete(session.client);
  await waitForExit(tree, 200, 25);
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Start-up: spawn → first tools/list answer, with a backend that needs 10 s

interface StartupSample {
  round: number;
  warmup: boolean;
  subject: 'search-mcp' | 'bare-replay-server';
  /** Spawn → `initialize` answered (client.connect()). */
  connectMs: number;
  /** Spawn → `tools/list` answered. */
  toolsListMs: number;
  tools: string[];
  closeMs: number;
}

async function startupOnce(
  subject: StartupSample['subject'],
  configPath: string,
  round: number,
  warmup: boolean,
): Promise<StartupSample> {
  const [command, args] =
    subject === 'search-mcp'
      ? [process.execPath, searchMcpArgs(configPath)]
      : [process.execPath, [replayServerPath, join(fixturesDirectory, startupReferenceFixture)]];
  const started = performance.now();
  const session = await connectClient(`proxy-bench-startup-${subject}`, command, args);
  const connectMs = performance.now() - started;
  try {
    const { tools } = await session.client.listTools();
    const toolsListMs = performance.now() - started;
    rememberTree(session.pid);
    if (
      subject === 'search-mcp' &&
      !descendantsOf(session.pid).some((entry) => entry.command.includes('stdio-fixture-server'))
    ) {
      log('startup: the slow backend was not (yet) spawned when tools/list was answered');
    }
    const closeMs = await closeSession(session);
    return {
      round,
      warmup,
      subject,
      connectMs: round3(connectMs),
      toolsListMs: round3(toolsListMs),
      tools: tools.map((tool) => tool.name),
      closeMs: round3(closeMs),
    };
  } catch (error) {
    await closeSession(session).catch(() => {});
    throw error;
  }
}

const round3 = (value: number) => round(value, 3);

async function benchStartup(directory: string) {
  const configPath = await writeConfig(directory, 'startup', {
    slow: { command: process.execPath, args: [slowServerPath, '--startup-delay-ms', String(slowBackendDelayMs)] },
  });
  const samples: StartupSample[] = [];
  for (let round = 0; round < startupWarmupRounds + startupRounds; round += 1) {
    const warmup = round < startupWarmupRounds;
    // Alternate which one goes first every round, so drift on the machine hits both.
    const order: Array<StartupSample['subject']> =
      round % 2 === 0 ? ['search-mcp', 'bare-replay-server'] : ['bare-replay-server', 'search-mcp'];
    for (const subject of order) {
      const sample = await startupOnce(subject, configPath, round, warmup);
      samples.push(sample);
      log(
        `startup ${warmup ? 'warm-up' : `round ${round - startupWarmupRounds + 1}/${startupRounds}`} ${subject}: tools/list after ${sample.toolsListMs.toFixed(0)} ms (close ${sample.closeMs.toFixed(0)} ms)`,
      );
    }
  }
  const measured = samples.filter((sample) => !sample.warmup);
  const of = (subject: StartupSample['subject']) => measured.filter((sample) => sample.subject === subject);
  const searchMcp = of('search-mcp');
  const bare = of('bare-replay-server');
  const searchMcpMedian = median(searchMcp.map((sample) => sample.toolsListMs));
  const searchMcpMax = Math.max(...searchMcp.map((sample) => sample.toolsListMs));
  return {
    backend: `stdio-fixture-server.mjs --startup-delay-ms ${slowBackendDelayMs}`,
    rounds: startupRounds,
    warmupRounds: startupWarmupRounds,
    searchMcp: {
      toolsListMedianMs: round3(searchMcpMedian),
      toolsListMaxMs: round3(searchMcpMax),
      connectMedianMs: round3(median(searchMcp.map((sample) => sample.connectMs))),
      closeMedianMs: round3(median(searchMcp.map((sample) => sample.closeMs))),
      tools: searchMcp[0]?.tools ?? [],
    },
    bareReplayServer: {
      fixture: startupReferenceFixture,
      toolsListMedianMs: round3(median(bare.map((sample) => sample.toolsListMs))),
      toolsListMaxMs: round3(Math.max(...bare.map((sample) => sample.toolsListMs))),
      connectMedianMs: round3(median(bare.map((sample) => sample.connectMs))),
    },
    goalMs: startupGoalMs,
    goalMet: searchMcpMedian <= startupGoalMs && searchMcpMax <= startupGoalMs,
    samples,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. echo latency: bare SDK client vs byte relay vs search-mcp tool_execute vs search-mcp direct tools/call

type EchoPath = 'bare' | 'relay' | 'toolExecute' | 'directCall';
const echoPaths: EchoPath[] = ['bare', 'relay', 'toolExecute', 'directCall'];
/** The two calls that go through search-mcp. */
const searchMcpPaths = ['toolExecute', 'directCall'] as const;
type EchoCall = (message: string) => Promise<unknown>;

/**
 * The floor for any stdio proxy: a process that only copies bytes between its stdio and a server-everything child
 * (no parsing). What it adds over bare is the cost of one more process and pipe on the path, not of search-mcp code.
 */
const relayScript = [
  "const { spawn } = require('node:child_process');",
  "const child = spawn(process.execPath, [process.argv[1]], { stdio: ['pipe', 'pipe', 'ignore'] });",
  'process.stdin.pipe(child.stdin);',
  'child.stdout.pipe(process.stdout);',
  "process.stdin.on('end', () => child.kill('SIGTERM'));",
  "child.on('exit', () => process.exit(0));",
].join('\n');

async function waitForBackend(session: Session): Promise<number> {
  const started = performance.now();
  for (;;) {
    const result = await callToolRaw(session.client, 'tool_execute', {
      toolKey: 'everything:echo',
      arguments: { message: 'ready?' },
    });
    if (result['isError'] !== true) return performance.now() - started;
    if (performance.now() - started > connectDeadlineMs)
      throw new Error(`everything not connected: ${textContentOf(result)}; stderr: ${session.stderrTail.join(' | ')}`);
    await sleep(100);
  }
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

/** The server-everything process below `pid` (search-mcp's or the relay's backend). */
function everythingBelow(pid: number): number | undefined {
  return descendantsOf(pid).find((entry) => entry.command.includes(everythingEntry))?.pid;
}

/** How a run of the echo section is set up (the profile and count modes change the search-mcp process). */
interface EchoSettings {
  measuredRounds: number;
  /** Node flags for the search-mcp process, before its script (`--cpu-prof …`, `--require probe.cjs`). */
  searchMcpNodeFlags?: string[];
  /** Runs after the measured rounds while everything is still connected (the count mode's own windows). */
  afterMeasured?: (context: { searchMcpPid: number; calls: Record<EchoPath, EchoCall> }) => Promise<void>;
}

async function benchEcho(directory: string, settings: EchoSettings) {
  const { measuredRounds } = settings;
  const configPath = await writeConfig(directory, 'echo', {
    everything: { command: process.execPath, args: [everythingEntry] },
  });
  const searchMcp = await connectClient('proxy-bench-echo', process.execPath, [
    ...(settings.searchMcpNodeFlags ?? []),
    ...searchMcpArgs(configPath),
  ]);
  let bare: Session | undefined;
  let relay: Session | undefined;
  try {
    bare = await connectClient('proxy-bench-bare', process.execPath, [everythingEntry]);
    relay = await connectClient('proxy-bench-relay', process.execPath, ['-e', relayScript, everythingEntry]);
    const backendReadyMs = await waitForBackend(searchMcp);
    rememberTree(searchMcp.pid);
    rememberTree(relay.pid);
    const bareClient = bare.client;
    const relayClient = relay.client;
    const viaClient = searchMcp.client;

    const calls: Record<EchoPath, EchoCall> = {
      bare: (message) => bareClient.callTool({ name: 'echo', arguments: { message } }),
      relay: (message) => relayClient.callTool({ name: 'echo', arguments: { message } }),
      toolExecute: (message) =>
        viaClient.callTool({ name: 'tool_execute', arguments: { toolKey: 'everything:echo', arguments: { message } } }),
      directCall: (message) => viaClient.callTool({ name: 'everything:echo', arguments: { message } }),
    };

    // All four must really echo, or we would be timing an error path.
    const expected = JSON.stringify([{ type: 'text', text: 'Echo: check' }]);
    for (const path of echoPaths) {
      const result = (await calls[path]('check')) as { content?: unknown; isError?: boolean };
      if (result.isError === true || JSON.stringify(result.content) !== expected)
        throw new Error(`echo via ${path}: unexpected result ${JSON.stringify(result)}`);
    }

    // Cycle through every order of the four calls. A plain rotation (B R T D, R T D B, …) keeps the cyclic order,
    // so `tools/call` would nearly always run right after `tool_execute` and find search-mcp and its backend awake
    // (measured: ~0.07 ms faster at p50 on 2 vCPUs for that reason alone).
    const orders = permutations(echoPaths);
    const run = async (rounds: number, samples: Record<EchoPath, number[]> | undefined) => {
      for (let i = 0; i < rounds; i += 1) {
        for (const path of orders[i % orders.length] as EchoPath[]) {
          const started = performance.now();
          await calls[path](`${echoMessage} ${i}`);
          samples?.[path].push(performance.now() - started);
        }
      }
    };

    let started = performance.now();
    await run(echoWarmupRounds, undefined);
    log(`echo warm-up: ${echoWarmupRounds} rounds in ${(performance.now() - started).toFixed(0)} ms`);

    // CPU time per call of each process on the paths, from /proc (whole ticks: only meaningful over many calls).
    const cpuPids = {
      searchMcp: searchMcp.pid,
      searchMcpBackend: everythingBelow(searchMcp.pid),
      relay: relay.pid,
      relayBackend: everythingBelow(relay.pid),
      bare: bare.pid,
    };
    const readCpu = () =>
      Object.fromEntries(
        Object.entries(cpuPids).map(([name, pid]) => [name, pid === undefined ? undefined : processCpuMs(pid)]),
      ) as Record<keyof typeof cpuPids, number | undefined>;
    const samples: Record<EchoPath, number[]> = { bare: [], relay: [], toolExecute: [], directCall: [] };
    const cpuBefore = readCpu();
    const windowStartUs = monotonicMicroseconds();
    started = performance.now();
    await run(measuredRounds, samples);
    const measuredMs = performance.now() - started;
    const windowEndUs = monotonicMicroseconds();
    const cpuAfter = readCpu();
    log(`echo measured: ${measuredRounds} rounds in ${measuredMs.toFixed(0)} ms`);
    const cpuPerCall = (name: keyof typeof cpuPids, callsThrough: number) => {
      const before = cpuBefore[name];
      const after = cpuAfter[name];
      return before === undefined || after === undefined ? undefined : round3((after - before) / callsThrough);
    };
    const searchMcpCalls = searchMcpPaths.length * measuredRounds;
    const cpuMsPerCall = {
      searchMcp: cpuPerCall('searchMcp', searchMcpCalls),
      searchMcpBackend: cpuPerCall('searchMcpBackend', searchMcpCalls),
      relay: cpuPerCall('relay', measuredRounds),
      relayBackend: cpuPerCall('relayBackend', measuredRounds),
      bare: cpuPerCall('bare', measuredRounds),
    };

    await settings.afterMeasured?.({ searchMcpPid: searchMcp.pid, calls });

    const summaries = Object.fromEntries(echoPaths.map((path) => [path, summarize(samples[path])])) as Record<
      EchoPath,
      Summary
    >;
    const ratiosTo = (reference: EchoPath) => (path: EchoPath) => ({
      p50: round3(summaries[path].p50 / summaries[reference].p50),
      p99: round3(summaries[path].p99 / summaries[reference].p99),
      mean: round3(summaries[path].mean / summaries[reference].mean),
    });
    const toBare = ratiosTo('bare');
    const toRelay = ratiosTo('relay');
    const searchMcpRssKb = processStatusFieldKb(searchMcp.pid, 'VmRSS');
    return {
      warmupRounds: echoWarmupRounds,
      measuredRounds,
      backendReadyMs: round3(backendReadyMs),
      bare: roundSummary(summaries.bare),
      relay: roundSummary(summaries.relay),
      toolExecute: roundSummary(summaries.toolExecute),
      directCall: roundSummary(summaries.directCall),
      /** Ratios to the bare client (what a client pays for any proxy) … */
      ratios: { relay: toBare('relay'), toolExecute: toBare('toolExecute'), directCall: toBare('directCall') },
      /** … and to the byte relay (what search-mcp costs over the floor of any stdio proxy): the goal. */
      ratiosToRelay: { toolExecute: toRelay('toolExecute'), directCall: toRelay('directCall') },
      /** The added time per call at the median, in ms, over the bare client … */
      addedP50Ms: {
        relay: round3(summaries.relay.p50 - summaries.bare.p50),
        toolExecute: round3(summaries.toolExecute.p50 - summaries.bare.p50),
        directCall: round3(summaries.directCall.p50 - summaries.bare.p50),
      },
      /** … and over the byte relay. */
      addedOverRelayP50Ms: {
        toolExecute: round3(summaries.toolExecute.p50 - summaries.relay.p50),
        directCall: round3(summaries.directCall.p50 - summaries.relay.p50),
      },
      goalP50RatioToRelay: echoGoalRatioToRelay,
      goalMet: {
        toolExecute: summaries.toolExecute.p50 / summaries.relay.p50 <= echoGoalRatioToRelay,
        directCall: summaries.directCall.p50 / summaries.relay.p50 <= echoGoalRatioToRelay,
      },
      /**
       * CPU time (user + system, from /proc) per call of each process on the paths during the measured rounds:
       * search-mcp and its backend per call through search-mcp (both kinds), the relay and its backend per relayed
       * call, the bare server per bare call.
       */
      cpuMsPerCall,
      /** CLOCK_MONOTONIC µs around the measured rounds, to cut them out of a CPU profile. */
      measuredWindow: { startUs: windowStartUs, endUs: windowEndUs },
      /** For the memory section: search-mcp with one backend. */
      searchMcpVmRssMbOneBackend: searchMcpRssKb !== undefined ? round3(kbToMb(searchMcpRssKb)) : undefined,
    };
  } finally {
    if (relay) await closeSession(relay).catch(() => {});
    if (bare) await closeSession(bare).catch(() => {});
    await closeSession(searchMcp).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Memory: search-mcp with the 22 replay servers connected

async function benchMemory(directory: string) {
  const fixtures = readdirSync(fixturesDirectory)
    .filter((file) => file.endsWith('.tools.json'))
    .sort();
  const mcpServers: Record<string, ServerConfig> = {};
  for (const file of fixtures)
    mcpServers[file.replace(/\.tools\.json$/, '')] = {
      command: process.execPath,
      args: [replayServerPath, join(fixturesDirectory, file)],
    };
  const configPath = await writeConfig(directory, 'memory', mcpServers);
  const started = performance.now();
  const session = await connectClient('proxy-bench-memory', process.execPath, searchMcpArgs(configPath));
  try {
    // A discovery waits up to 5 s for starting servers and then names the ones still starting: repeat until none is.
    let notice: string | undefined = 'not asked yet';
    while (notice !== undefined) {
      if (performance.now() - started > connectDeadlineMs) throw new Error(`not all servers connected: ${notice}`);
      const result = await callToolRaw(session.client, 'tool_discovery', {
        query: ['take a screenshot of a web page', 'create a GitHub issue'],
        maxResults: 5,
      });
      if (result['isError'] === true) throw new Error(`tool_discovery failed: ${textContentOf(result)}`);
      notice = (result['structuredContent'] as { notice?: string } | undefined)?.notice;
      if (notice !== undefined) await sleep(250);
    }
    const connectedMs = performance.now() - started;
    log(`memory: ${fixtures.length} servers connected ${connectedMs.toFixed(0)} ms after spawn`);
    // Let start-up garbage settle before reading.
    await sleep(1000);
    const vmRssKb = processStatusFieldKb(session.pid, 'VmRSS');
    const vmHwmKb = processStatusFieldKb(session.pid, 'VmHWM');
    const pssKb = proportionalSetSizeKb(session.pid);
    if (vmRssKb === undefined) throw new Error(`memory: cannot read /proc/${session.pid}/status`);
    const processes = descendantsOf(session.pid).map((child) => {
      const childRssKb = processStatusFieldKb(child.pid, 'VmRSS');
      const childPssKb = proportionalSetSizeKb(child.pid);
      return {
        pid: child.pid,
        command: child.command.replace(fixturesDirectory, '…'),
        vmRssKb: childRssKb ?? 0,
        ...(childPssKb !== undefined ? { pssKb: childPssKb } : {}),
      };
    });
    // The process watchdog (one per search-mcp, not per server) is reported apart, so "per server" means that.
    const isWatchdog = (child: { command: string }) => child.command.includes('watchdog.cjs');
    const children = processes.filter((child) => !isWatchdog(child));
    const watchdog = processes.find(isWatchdog);
    rememberTree(session.pid);
    const childrenRssKb = children.reduce((total, child) => total + child.vmRssKb, 0);
    const pssKnown = children.every((child) => child.pssKb !== undefined);
    const childrenPssKb = pssKnown ? children.reduce((total, child) => total + (child.pssKb ?? 0), 0) : undefined;
    return {
      servers: fixtures.length,
      connectedAfterMs: round3(connectedMs),
      searchMcp: {
        pid: session.pid,
        vmRssMb: round3(kbToMb(vmRssKb)),
        ...(vmHwmKb !== undefined ? { vmHwmMb: round3(kbToMb(vmHwmKb)) } : {}),
        ...(pssKb !== undefined ? { pssMb: round3(kbToMb(pssKb)) } : {}),
      },
      ...(watchdog ? { watchdog } : {}),
      children: {
        count: children.length,
        totalVmRssMb: round3(kbToMb(childrenRssKb)),
        perChildVmRssMb: round3(kbToMb(childrenRssKb) / Math.max(1, children.length)),
        ...(childrenPssKb !== undefined
          ? {
              totalPssMb: round3(kbToMb(childrenPssKb)),
              perChildPssMb: round3(kbToMb(childrenPssKb) / Math.max(1, children.length)),
            }
          : {}),
        processes: children,
      },
      closeMs: round3(await closeSession(session)),
    };
  } catch (error) {
    await closeSession(session).catch(() => {});
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Where the time goes: --profile (V8 CPU profile of search-mcp) and --count (promises and bytes per call)

/** 100 µs instead of V8's 1 ms: a forwarded echo costs search-mcp a few hundred µs of CPU. */
const profileIntervalUs = 100;

/** Echo rounds (all four calls) and, with --count, calls per counted path: multiples of 24, every order alike. */
const diagnosisRounds = 480;

/**
 * Preloaded into search-mcp by --count (`node --require`). The first SIGUSR2 starts a window: counters reset, V8's
 * sampling heap profiler started with objects the GC has already collected kept in (so it sees every allocation, not
 * only the live ones), and `<out>.<n>.started` written. The second ends it: `<out>.<n>.json` gets the async resources
 * created (`PROMISE` is every async function call, `await` and `then`) and the bytes allocated, by allocating function.
 */
const probeScript = `'use strict';
const { createHook } = require('node:async_hooks');
const { Session } = require('node:inspector');
const { readFileSync, writeFileSync } = require('node:fs');
const net = require('node:net');
const { Duplex, Readable } = require('node:stream');
const out = PROBE_OUT;
let window = 0;
let kind;
let created = new Map();
let promiseSites = new Map();
const hook = createHook({
  init(_id, type) {
    created.set(type, (created.get(type) || 0) + 1);
    if (type !== 'PROMISE' || kind !== 'sites') return;
    // Who made the promise: the first frame that is not this hook, Node's async_hooks or a built-in such as
    // \`Promise.then (<anonymous>)\` (then its caller is named).
    const stack = new Error().stack.split('\\n');
    let site = '(unknown)';
    for (let index = 1; index < stack.length; index += 1) {
      const frame = stack[index];
      if (frame.includes('node:internal/async_hooks') || frame.includes(__filename)) continue;
      if (frame.endsWith('<anonymous>)') || frame.trim() === 'at <anonymous>') continue;
      site = frame.trim().replace(/^at /, '');
      break;
    }
    promiseSites.set(site, (promiseSites.get(site) || 0) + 1);
  },
});
// Timing: when a message crosses each pipe. 0 client → search-mcp, 1 search-mcp → backend, 2 backend →
// search-mcp, 3 search-mcp → client. Backend stderr is not JSON and is left out by its first byte.
let events = [];
let cpu;
const push = Readable.prototype.push;
Readable.prototype.push = function (chunk, encoding) {
  if (kind === 'time' && chunk && this instanceof net.Socket && chunk[0] === 0x7b)
    events.push(this === process.stdin ? 0 : 2, process.hrtime.bigint());
  return push.call(this, chunk, encoding);
};
// Sockets are Duplex streams, which copied Writable's methods when they were defined.
const write = Duplex.prototype.write;
Duplex.prototype.write = function (chunk, encoding, callback) {
  if (kind === 'time' && this instanceof net.Socket && this !== process.stderr)
    events.push(this === process.stdout ? 3 : 1, process.hrtime.bigint());
  return write.call(this, chunk, encoding, callback);
};
const session = new Session();
session.connect();
const report = (value) => {
  writeFileSync(out + '.' + window + '.json', JSON.stringify(value));
  window += 1;
  kind = undefined;
};
process.on('SIGUSR2', () => {
  if (kind === undefined) {
    const next = readFileSync(out + '.' + window + '.kind', 'utf8');
    const started = () => writeFileSync(out + '.' + window + '.started', '');
    if (next === 'time') {
      events = [];
      cpu = process.cpuUsage();
      kind = 'time';
      started();
      return;
    }
    created = new Map();
    promiseSites = new Map();
    if (next === 'sites') {
      kind = 'sites';
      hook.enable();
      started();
      return;
    }
    const options = { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
    session.post('HeapProfiler.startSampling', options, (error) => {
      if (error) throw error;
      kind = 'count';
      hook.enable();
      started();
    });
    return;
  }
  if (kind === 'time') {
    const used = process.cpuUsage(cpu);
    const times = events.map((value) => (typeof value === 'bigint' ? Number(value) / 1000 : value));
    report({ events: times, cpuUs: used.user + used.system });
    return;
  }
  hook.disable();
  if (kind === 'sites') {
    report({ promiseSites: [...promiseSites].sort((a, b) => b[1] - a[1]) });
    return;
  }
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) throw error;
    const sites = new Map();
    let bytes = 0;
    const walk = (node) => {
      const frame = node.callFrame;
      // The async hook's own bookkeeping is the probe's, not search-mcp's.
      if (node.selfSize > 0 && frame.url !== 'node:internal/async_hooks') {
        const key = (frame.functionName || '(anonymous)') + ' ' + (frame.url || '(no script)') + ':' + (frame.lineNumber + 1);
        sites.set(key, (sites.get(key) || 0) + node.selfSize);
        bytes += node.selfSize;
      }
      for (const child of node.children) walk(child);
    };
    walk(result.profile.head);
    report({
      created: Object.fromEntries(created),
      bytes,
      sites: [...sites].sort((a, b) => b[1] - a[1]),
    });
  });
});
`;

interface CountWindow {
  created: Record<string, number>;
  bytes: number;
  sites: Array<[site: string, bytes: number]>;
}

/** Where promises were made: the frame that made each (stack traces cost much, so they get a window of their own). */
interface SitesWindow {
  promiseSites: Array<[site: string, count: number]>;
}

/** What a probe window records: pipe timing, counts and allocations, or where promises are made. */
type WindowKind = 'time' | 'count' | 'sites';

/** The probe's pipe events of a timing window: kind (0–3, see the probe) and CLOCK_MONOTONIC µs, flattened. */
interface TimeWindow {
  events: number[];
  /** CPU time (user + system, all threads) search-mcp used in the window, in µs. */
  cpuUs: number;
}

/**
 * Per call, the time search-mcp held the request (client → backend) and the response (backend → client), and the
 * backend's turn in between (pipe hops included), from the probe's events of calls made one at a time.
 */
function hopTimes(window: TimeWindow) {
  const request: number[] = [];
  const backend: number[] = [];
  const response: number[] = [];
  const { events } = window;
  let expected = 0;
  const times: number[] = [];
  for (let index = 0; index + 1 < events.length; index += 2) {
    const kind = events[index] as number;
    const time = events[index + 1] as number;
    if (kind !== expected) {
      // Another message on the way (a notification): start over at the next request.
      expected = 0;
      times.length = 0;
      if (kind !== 0) continue;
    }
    times.push(time);
    expected = (kind + 1) % 4;
    if (times.length === 4) {
      const [received, forwarded, answered, sent] = times as [number, number, number, number];
      request.push(forwarded - received);
      backend.push(answered - forwarded);
      response.push(sent - answered);
      times.length = 0;
    }
  }
  return {
    calls: request.length,
    request: summarize(request),
    backend: summarize(backend),
    response: summarize(response),
    cpuUsPerCall: window.cpuUs / Math.max(1, request.length),
  };
}

async function waitForFile(path: string, deadlineMs = 20_000): Promise<void> {
  const started = performance.now();
  while (!existsSync(path)) {
    if (performance.now() - started > deadlineMs) throw new Error(`the probe in search-mcp did not write ${path}`);
    await sleep(10);
  }
}

/** The echo section with search-mcp under `--cpu-prof`, and the self time of its measured rounds, busiest first. */
async function profileEcho(directory: string, outputPath: string, top: number) {
  const profileDirectory = join(directory, 'cpu-profile');
  const echo = await benchEcho(directory, {
    measuredRounds: diagnosisRounds,
    searchMcpNodeFlags: [
      '--cpu-prof',
      '--cpu-prof-dir',
      profileDirectory,
      '--cpu-prof-interval',
      String(profileIntervalUs),
    ],
  });
  // Written when search-mcp exits, which closeSession waited for.
  const files = existsSync(profileDirectory)
    ? readdirSync(profileDirectory).filter((file) => file.endsWith('.cpuprofile'))
    : [];
  if (files.length !== 1) throw new Error(`expected one .cpuprofile from search-mcp, found ${files.length}`);
  await copyFile(join(profileDirectory, files[0] as string), outputPath);
  const profile = JSON.parse(await readFile(outputPath, 'utf8')) as CpuProfile;
  const summary = summarizeCpuProfile(profile, echo.measuredWindow, top);
  if (summary.samples === 0)
    throw new Error('no profile samples fall in the measured rounds (the profile is not on CLOCK_MONOTONIC?)');
  const forwardedCalls = searchMcpPaths.length * echo.measuredRounds;
  const share = (entry: SelfTime) => `${(entry.share * 100).toFixed(1)} %`;
  const perCall = (entry: SelfTime) => `${((entry.selfMs * 1000) / forwardedCalls).toFixed(1)} µs`;
  const lines = [
    '# search-mcp CPU profile of the echo rounds',
    '',
    `${machineSummary(machineInfo())} · load ${loadAverage().join(' / ')} · profile: ${outputPath} ` +
      `(open it in Chrome DevTools or speedscope) · sampled every ${profileIntervalUs} µs`,
    '',
    `${echo.measuredRounds} rounds of the four calls, interleaved as in the benchmark; ${forwardedCalls} went through ` +
      `search-mcp. Its busy (non-idle) time in those rounds: ${formatMs(summary.busyMs)}, ` +
      `${((summary.busyMs * 1000) / forwardedCalls).toFixed(1)} µs per forwarded call ` +
      `(idle ${formatMs(summary.idleMs)}). The profiler slows search-mcp down: compare shares, not these latencies. ` +
      `The measured rounds in the profile's clock (CLOCK_MONOTONIC µs): ${echo.measuredWindow.startUs}–${echo.measuredWindow.endUs}.`,
    '',
    '| Area | Self time | Share of busy | Per forwarded call |',
    '| --- | ---: | ---: | ---: |',
    ...summary.areas.map(
      (entry) => `| ${entry.name} | ${formatMs(entry.selfMs)} | ${share(entry)} | ${perCall(entry)} |`,
    ),
    '',
    `| Top ${top} functions by self time | Area | Self time | Share of busy | Per forwarded call |`,
    '| --- | --- | ---: | ---: | ---: |',
    ...summary.functions.map(
      (entry) =>
        `| \`${entry.name}\` | ${entry.area} | ${formatMs(entry.selfMs)} | ${share(entry)} | ${perCall(entry)} |`,
    ),
    '',
    `| Top ${top} functions by total time (callees included) | Area | Total time | Share of busy | Per forwarded call |`,
    '| --- | --- | ---: | ---: | ---: |',
    ...summary.inclusive.map(
      (entry) =>
        `| \`${entry.name}\` | ${entry.area} | ${formatMs(entry.selfMs)} | ${share(entry)} | ${perCall(entry)} |`,
    ),
    '',
    'Latency under the profiler (for orientation only):',
    '',
    ...metricTableLines(echoRows(echo).slice(0, 6)),
    '',
  ];
  return lines.join('\n');
}

/**
 * The echo section with the probe preloaded into search-mcp, then two windows per search-mcp path of
 * `diagnosisRounds` calls of that path alone: one timing how long search-mcp holds each message, one counting the
 * async resources created and bytes allocated per call (async hooks slow it down, so never both at once).
 */
async function countEcho(directory: string, top: number) {
  const probePath = join(directory, 'probe.cjs');
  const probeOut = join(directory, 'probe');
  // Named in the script: the SDK passes search-mcp only a few environment variables.
  await writeFile(probePath, probeScript.replace('PROBE_OUT', JSON.stringify(probeOut)));
  const timed: Partial<Record<(typeof searchMcpPaths)[number], ReturnType<typeof hopTimes>>> = {};
  const counted: Partial<Record<(typeof searchMcpPaths)[number], CountWindow>> = {};
  const promiseSites: Partial<Record<(typeof searchMcpPaths)[number], SitesWindow>> = {};
  let window = 0;
  const inWindow = async (pid: number, kind: WindowKind, calls: () => Promise<void>): Promise<unknown> => {
    const prefix = `${probeOut}.${window}`;
    window += 1;
    await writeFile(`${prefix}.kind`, kind);
    process.kill(pid, 'SIGUSR2');
    await waitForFile(`${prefix}.started`);
    await calls();
    process.kill(pid, 'SIGUSR2');
    await waitForFile(`${prefix}.json`);
    return JSON.parse(await readFile(`${prefix}.json`, 'utf8'));
  };
  await benchEcho(directory, {
    measuredRounds: echoWarmupRounds,
    searchMcpNodeFlags: ['--require', probePath],
    afterMeasured: async ({ searchMcpPid, calls }) => {
      for (const path of searchMcpPaths) {
        const callMany = async () => {
          for (let i = 0; i < diagnosisRounds; i += 1) await calls[path](`${echoMessage} ${i}`);
        };
        timed[path] = hopTimes((await inWindow(searchMcpPid, 'time', callMany)) as TimeWindow);
        counted[path] = (await inWindow(searchMcpPid, 'count', callMany)) as CountWindow;
        promiseSites[path] = (await inWindow(searchMcpPid, 'sites', callMany)) as SitesWindow;
      }
    },
  });
  const perCall = (value: number) => (value / diagnosisRounds).toFixed(1);
  const µs = (value: number) => `${value.toFixed(1)} µs`;
  const lines = [
    '# search-mcp work per forwarded echo',
    '',
    `${machineSummary(machineInfo())} · load ${loadAverage().join(' / ')} · ${diagnosisRounds} calls per path and ` +
      'window, one at a time, measured inside search-mcp by a preloaded probe: when each message crosses a pipe ' +
      '(stream push and write), async resources created (async_hooks), bytes allocated (V8 sampling heap profiler ' +
      'with collected objects kept, every 64 bytes: estimates). `(no script)` is code made by `new Function` (zod).',
    '',
    '| Path | Calls timed | search-mcp holds the request: p50 / p90 | the response: p50 / p90 | backend turn (pipes included): p50 | search-mcp CPU per call | Promises per call | Async resources per call | Allocated per call |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const label = (path: (typeof searchMcpPaths)[number]) =>
    path === 'toolExecute' ? '`tool_execute`' : '`tools/call everything:echo`';
  for (const path of searchMcpPaths) {
    const hops = timed[path];
    const count = counted[path];
    if (!hops || !count) throw new Error(`no probe results for ${path}`);
    const resources = Object.entries(count.created).sort((a, b) => b[1] - a[1]);
    lines.push(
      `| ${label(path)} | ${hops.calls} | ${µs(hops.request.p50)} / ${µs(hops.request.p90)} | ` +
        `${µs(hops.response.p50)} / ${µs(hops.response.p90)} | ${µs(hops.backend.p50)} | ${µs(hops.cpuUsPerCall)} | ` +
        `${perCall(count.created['PROMISE'] ?? 0)} | ` +
        `${resources.map(([type, number]) => `${type} ${perCall(number)}`).join(', ')} | ` +
        `${(count.bytes / diagnosisRounds / 1024).toFixed(1)} KiB |`,
    );
  }
  lines.push(
    '',
    `| Promises per call, by where they are made | ${searchMcpPaths.map((path) => label(path)).join(' | ')} |`,
    '| --- | ---: | ---: |',
  );
  const byArea = searchMcpPaths.map((path) => promisesByArea(promiseSites[path] as SitesWindow));
  const areas = [...new Set(byArea.flatMap((areaCounts) => [...areaCounts.keys()]))].sort(
    (a, b) => (byArea[0]?.get(b) ?? 0) - (byArea[0]?.get(a) ?? 0),
  );
  for (const area of areas)
    lines.push(`| ${area} | ${byArea.map((areaCounts) => perCall(areaCounts.get(area) ?? 0)).join(' | ')} |`);
  for (const path of searchMcpPaths) {
    const count = counted[path] as CountWindow;
    lines.push(
      '',
      `| ${label(path)}: top ${top} allocating functions | Bytes per call |`,
      '| --- | ---: |',
      ...count.sites
        .slice(0, top)
        .map(([site, bytes]) => `| \`${shortSite(site)}\` | ${Math.round(bytes / diagnosisRounds)} |`),
      '',
      `| ${label(path)}: top ${top} places that make promises (async calls, awaits, thens) | Promises per call |`,
      '| --- | ---: |',
      ...(promiseSites[path] as SitesWindow).promiseSites
        .slice(0, top)
        .map(([site, number]) => `| \`${shortSite(site)}\` | ${perCall(number)} |`),
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** The count's promises summed by the package or area of the code that made them (see `codeArea`). */
function promisesByArea(count: SitesWindow): Map<string, number> {
  const areas = new Map<string, number>();
  for (const [site, number] of count.promiseSites) {
    // `fn (file:///…/x.js:12:5)` or a bare `file:///…/x.js:12:5` / `node:internal/…:95:5`.
    const url = site.match(/\(?((?:file|node):[^()\s]+?):\d+:\d+\)?$/)?.[1] ?? '';
    const area = url === '' ? '(unknown)' : codeArea(url, '');
    areas.set(area, (areas.get(area) ?? 0) + number);
  }
  return areas;
}

/** `name file:///…/node_modules/pkg/dist/x.js:12` → `name pkg/dist/x.js:12`. */
function shortSite(site: string): string {
  return site
    .replace(/file:\/\/\S*\/node_modules\//, '')
    .replace(/file:\/\/\S*\/((?:packages|apps)\/)/, '$1')
    .replace(/ :0$/, '');
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup check

function leftoverCheck(directory: string) {
  return leftoverProcesses(seenPids, directory, {
    replayServer: 'replay-server',
    serverEverything: 'server-everything',
    distCli: 'dist/cli.js',
    stdioFixtureServer: 'stdio-fixture-server',
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Report

type StartupResult = Awaited<ReturnType<typeof benchStartup>>;
type EchoResult = Awaited<ReturnType<typeof benchEcho>>;
type MemoryResult = Awaited<ReturnType<typeof benchMemory>>;

function markdown(machine: Machine, startup: StartupResult, echo: EchoResult, memory: MemoryResult): string {
  const msGoal = (ms: number) =>
    ms <= startupGoalMs
      ? `≤ ${startupGoalMs} ms — met`
      : `≤ ${startupGoalMs} ms — **missed by ${(ms - startupGoalMs).toFixed(0)} ms**`;
  const rows: Array<[string, string, string, string]> = [
    [
      `Spawn → first \`tools/list\` (backend needs ${slowBackendDelayMs / 1000} s)`,
      `search-mcp serve, median of ${startup.rounds}`,
      formatMs(startup.searchMcp.toolsListMedianMs),
      msGoal(startup.searchMcp.toolsListMedianMs),
    ],
    [
      '',
      `search-mcp serve, max of ${startup.rounds}`,
      formatMs(startup.searchMcp.toolsListMaxMs),
      msGoal(startup.searchMcp.toolsListMaxMs),
    ],
    ['', 'search-mcp spawn → `initialize` answered, median', formatMs(startup.searchMcp.connectMedianMs), ''],
    [
      '',
      `reference: bare replay server (${startup.bareReplayServer.fixture}) spawn → \`tools/list\`, median`,
      formatMs(startup.bareReplayServer.toolsListMedianMs),
      '',
    ],
    ['', 'search-mcp close (backend still starting), median', formatMs(startup.searchMcp.closeMedianMs), ''],
    ...echoRows(echo),
    [`Memory (${memory.servers} replay servers connected)`, 'search-mcp VmRSS', formatMb(memory.searchMcp.vmRssMb), ''],
  ];
  if (memory.searchMcp.vmHwmMb !== undefined)
    rows.push(['', 'search-mcp VmHWM (peak)', formatMb(memory.searchMcp.vmHwmMb), '']);
  if (memory.searchMcp.pssMb !== undefined) rows.push(['', 'search-mcp PSS', formatMb(memory.searchMcp.pssMb), '']);
  if (echo.searchMcpVmRssMbOneBackend !== undefined)
    rows.push([
      '',
      'for comparison: search-mcp VmRSS with 1 backend (echo section)',
      formatMb(echo.searchMcpVmRssMbOneBackend),
      '',
    ]);
  if (memory.watchdog) {
    const pss = memory.watchdog.pssKb !== undefined ? ` (PSS ${formatMb(kbToMb(memory.watchdog.pssKb))})` : '';
    rows.push([
      '',
      'process watchdog VmRSS (one per search-mcp)',
      `${formatMb(kbToMb(memory.watchdog.vmRssKb))}${pss}`,
      '',
    ]);
  }
  rows.push(['', `children (${memory.children.count}) total VmRSS`, formatMb(memory.children.totalVmRssMb), '']);
  rows.push(['', 'children VmRSS per server', formatMb(memory.children.perChildVmRssMb), '']);
  if (memory.children.totalPssMb !== undefined && memory.children.perChildPssMb !== undefined) {
    rows.push(['', 'children total PSS (shared pages split)', formatMb(memory.children.totalPssMb), '']);
    rows.push(['', 'children PSS per server', formatMb(memory.children.perChildPssMb), '']);
  }
  const lines = [
    '# search-mcp proxy benchmark',
    '',
    `${machineSummary(machine)} · ` +
      `${machine.totalMemoryGb} GB RAM · load ${machine.loadAverageAtStart.join(' / ')} at start` +
      `${machine.loadAverageAtEnd ? `, ${machine.loadAverageAtEnd.join(' / ')} at end` : ''}${niceNote(machine.nice)} · ` +
      `SDK ${machine.sdk} · server-everything ${machine.serverEverything}`,
    '',
    'Real SDK clients (`Client` + `StdioClientTransport`) spawning `apps/stdio-server/dist/cli.js serve`. ' +
      `echo: ${echo.warmupRounds} warm-up + ${echo.measuredRounds} measured rounds of the four calls, cycling through all 24 orders ` +
      '(the byte relay is `node -e` copying stdio to a server-everything child: the floor for any stdio proxy). ' +
      `Start-up: ${startup.warmupRounds} discarded warm-up + ${startup.rounds} rounds, alternating with the reference. ` +
      'Only compare numbers (ratios) within one run.',
    '',
    ...metricTableLines(rows),
    '',
  ];
  return lines.join('\n');
}

/** The echo section's rows of the report table (also printed alone by `--echo-only`). */
function echoRows(echo: EchoResult): Array<[string, string, string, string]> {
  const goal = (ratio: number) => ratioGoalCell(ratio, echoGoalRatioToRelay);
  const cpu = (ms: number | undefined) => (ms === undefined ? 'n/a' : formatMs(ms));
  const { cpuMsPerCall: cpuMs } = echo;
  return [
    ['echo latency (server-everything)', 'bare SDK `callTool(echo)` p50 / p99', pair(echo.bare), ''],
    ['', 'byte relay (one extra process, no parsing) p50 / p99', pair(echo.relay), ''],
    ['', 'search-mcp `tool_execute` p50 / p99', pair(echo.toolExecute), ''],
    ['', 'search-mcp `tools/call everything:echo` p50 / p99', pair(echo.directCall), ''],
    [
      '',
      '**`tool_execute` p50 / relay p50**',
      formatRatio(echo.ratiosToRelay.toolExecute.p50),
      goal(echo.ratiosToRelay.toolExecute.p50),
    ],
    [
      '',
      '**`tools/call` p50 / relay p50**',
      formatRatio(echo.ratiosToRelay.directCall.p50),
      goal(echo.ratiosToRelay.directCall.p50),
    ],
    [
      '',
      '`tool_execute` / `tools/call` p99 / relay p99',
      `${formatRatio(echo.ratiosToRelay.toolExecute.p99)} / ${formatRatio(echo.ratiosToRelay.directCall.p99)}`,
      '',
    ],
    [
      '',
      'added over the relay at p50: `tool_execute` / `tools/call`',
      `${formatMs(echo.addedOverRelayP50Ms.toolExecute)} / ${formatMs(echo.addedOverRelayP50Ms.directCall)}`,
      '',
    ],
    [
      '',
      'p50 / bare p50: relay / `tool_execute` / `tools/call`',
      [echo.ratios.relay.p50, echo.ratios.toolExecute.p50, echo.ratios.directCall.p50].map(formatRatio).join(' / '),
      '',
    ],
    [
      '',
      'added over bare at p50: relay / `tool_execute` / `tools/call`',
      [echo.addedP50Ms.relay, echo.addedP50Ms.toolExecute, echo.addedP50Ms.directCall].map(formatMs).join(' / '),
      '',
    ],
    ['', 'CPU per call: search-mcp process / relay process', `${cpu(cpuMs.searchMcp)} / ${cpu(cpuMs.relay)}`, ''],
    [
      '',
      'CPU per call of server-everything: behind search-mcp / behind relay / bare',
      [cpuMs.searchMcpBackend, cpuMs.relayBackend, cpuMs.bare].map(cpu).join(' / '),
      '',
    ],
  ];
}

function pair(summary: Summary): string {
  return `${formatMs(summary.p50)} / ${formatMs(summary.p99)}`;
}

interface Machine extends MachineInfo {
  sdk: string;
  serverEverything: string;
  /** The scheduling priority this run (and every process it starts) had: `nice -n -10` shields it from other load. */
  nice: number;
}

function niceNote(nice: number): string {
  return nice === 0 ? '' : ` · run at nice ${nice}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

const usage = `usage: tsx bench/proxy-bench.ts [--echo-only] [--rounds N] [--profile [--profile-out FILE]] [--count] [--top N]
  (no option)    every section; writes bench/results/proxy.json and proxy.md
  --echo-only    only the echo section, printed (results/ untouched)
  --rounds N     measured echo rounds, a multiple of 24 (default ${echoMeasuredRounds})
  --profile      search-mcp under node --cpu-prof during the echo rounds: top self-time functions and areas,
                 and the .cpuprofile (default: search-mcp-proxy-<time>.cpuprofile in the temp directory)
  --count        inside search-mcp, per forwarded call: how long it holds the request and the response, its CPU,
                 promises (and where they are made), async resources and bytes allocated (and by what)
  --top N        how many functions the --profile and --count tables list (default 25)
On a shared machine, \`nice -n -10 npx tsx bench/proxy-bench.ts …\` keeps other load from swamping the ratios.`;

type Mode =
  | { kind: 'full' | 'echo-only'; rounds: number }
  | { kind: 'profile'; out: string; top: number }
  | {
      kind: 'count';
      top: number;
    };

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UsageError(`--${name} must be a positive integer, not "${text}"`);
  return value;
}

class UsageError extends Error {}

function readMode(argv: string[]): Mode {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'echo-only': { type: 'boolean' },
        rounds: { type: 'string' },
        profile: { type: 'boolean' },
        'profile-out': { type: 'string' },
        count: { type: 'boolean' },
        top: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values['help']) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const top = positiveInteger('top', values['top'] as string | undefined, 25);
  if (values['profile'] && values['count'])
    throw new UsageError('--profile and --count distort each other: run them one at a time');
  if (values['profile-out'] !== undefined && !values['profile']) throw new UsageError('--profile-out needs --profile');
  if ((values['profile'] || values['count']) && (values['rounds'] !== undefined || values['echo-only']))
    throw new UsageError(
      `--profile and --count run ${diagnosisRounds} echo rounds of their own; leave out --rounds and --echo-only`,
    );
  if (values['profile']) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out =
      (values['profile-out'] as string | undefined) ?? join(os.tmpdir(), `search-mcp-proxy-${stamp}.cpuprofile`);
    return { kind: 'profile', out: resolve(out), top };
  }
  if (values['count']) return { kind: 'count', top };
  const rounds = positiveInteger('rounds', values['rounds'] as string | undefined, echoMeasuredRounds);
  if (rounds % 24 !== 0)
    throw new UsageError(`--rounds must be a multiple of 24 (every order of the four calls alike), not ${rounds}`);
  return { kind: values['echo-only'] ? 'echo-only' : 'full', rounds };
}

type Leftovers = Awaited<ReturnType<typeof leftoverCheck>>;

/** `--profile`: echo rounds with search-mcp under --cpu-prof; the report of its hottest functions and packages. */
async function profileRun(directory: string, mode: Extract<Mode, { kind: 'profile' }>): Promise<string> {
  log(`profile: echo rounds with search-mcp under --cpu-prof (every ${profileIntervalUs} µs)`);
  const md = await profileEcho(directory, mode.out, mode.top);
  log(`wrote ${mode.out}`);
  return md;
}

/** `--count`: what search-mcp holds, allocates and awaits per forwarded echo. */
function countRun(directory: string, mode: Extract<Mode, { kind: 'count' }>): Promise<string> {
  log('count: promises and allocations in search-mcp per forwarded echo');
  return countEcho(directory, mode.top);
}

/** `--echo-only`: the echo section alone, printed, not written to results/. */
async function echoOnlyRun(directory: string, machine: Machine, rounds: number): Promise<string> {
  log('echo: bare SDK client vs byte relay vs search-mcp tool_execute vs search-mcp tools/call');
  const echo = await benchEcho(directory, { measuredRounds: rounds });
  return [
    '# search-mcp echo latency (--echo-only)',
    '',
    `${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' / ')} at start, ${loadAverage().join(' / ')} at end` +
      `${niceNote(machine.nice)} · ` +
      `${echo.warmupRounds} warm-up + ${echo.measuredRounds} measured rounds, interleaved`,
    '',
    ...metricTableLines(echoRows(echo)),
    '',
  ].join('\n');
}

/** The whole benchmark: start-up, echo, memory; written to results/proxy.json and .md. */
async function fullRun(
  directory: string,
  machine: Machine,
  rounds: number,
  runStarted: number,
): Promise<{ md: string; cleanup: Leftovers }> {
  // Start-up first, while the machine is quiet (the other sections start many processes).
  log(`startup: search-mcp with one backend that needs ${slowBackendDelayMs} ms`);
  const startup = await benchStartup(directory);
  log('echo: bare SDK client vs byte relay vs search-mcp tool_execute vs search-mcp tools/call');
  const echo = await benchEcho(directory, { measuredRounds: rounds });
  log('memory: search-mcp with the 22 replay servers');
  const memory = await benchMemory(directory);
  machine.loadAverageAtEnd = loadAverage();
  const cleanup = await leftoverCheck(directory);
  const result = {
    machine,
    durationMs: round(performance.now() - runStarted, 0),
    startup,
    echo,
    memory,
    cleanup,
  };
  const md = markdown(machine, startup, echo, memory);
  const jsonPath = await writeResults('proxy', result, md);
  log(`wrote ${jsonPath} and proxy.md in ${(result.durationMs / 1000).toFixed(1)} s`);
  return { md, cleanup };
}

/** Sets the exit code when a process this run started is still alive. */
function reportLeftovers(cleanup: Leftovers): void {
  const leftovers =
    cleanup.aliveSeenPids.length +
    cleanup.childProcesses.length +
    Object.values(cleanup.pgrepOurs).reduce((total, pids) => total + pids.length, 0);
  if (leftovers > 0) {
    log(`LEFTOVER PROCESSES: ${JSON.stringify(cleanup)}`);
    process.exitCode = 1;
  } else {
    log(`cleanup ok: all ${cleanup.processesSeen} processes this run started have ended`);
  }
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  let mode: Mode;
  try {
    mode = readMode(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`proxy-bench: ${error.message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  for (const path of [cliPath, replayServerPath, slowServerPath, everythingEntry]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing${path === cliPath ? ': run `npx -y pnpm@10.34.9 build` first' : ''}`);
  }
  const machine: Machine = {
    ...machineInfo(),
    sdk: packageVersion('@modelcontextprotocol/sdk', requireFromApp, '@modelcontextprotocol/sdk/client/index.js'),
    serverEverything: packageVersion(
      '@modelcontextprotocol/server-everything',
      requireFromApp,
      '@modelcontextprotocol/server-everything/package.json',
    ),
    nice: os.getPriority(),
  };
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-proxy-bench-'));
  try {
    let md: string;
    let cleanup: Leftovers | undefined;
    if (mode.kind === 'profile') md = await profileRun(directory, mode);
    else if (mode.kind === 'count') md = await countRun(directory, mode);
    else if (mode.kind === 'echo-only') md = await echoOnlyRun(directory, machine, mode.rounds);
    else ({ md, cleanup } = await fullRun(directory, machine, mode.rounds, runStarted));
    reportLeftovers(cleanup ?? (await leftoverCheck(directory)));
    process.stdout.write(md);
  } finally {
    // On failure: close whatever is still open so no server outlives the run.
    for (const client of openClients) await client.close().catch(() => {});
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
