/**
 * Proxy benchmark: what search-mcp costs a client in latency, start-up time and memory, measured with real MCP
 * clients (SDK `Client` + `StdioClientTransport`) spawning the built `apps/stdio-server/dist/cli.js serve`.
 *
 *   npx -y pnpm@10.34.9 bench:proxy
 *
 * Measures, in one run (times are only comparable within a run: compare the ratios):
 *   1. start-up: spawn of `search-mcp serve` to the first `tools/list` answer while its only backend needs 10 s to
 *      start (packages/client-manager/test/fixtures/stdio-fixture-server.mjs --startup-delay-ms 10000), next to a
 *      bare replay server spawned directly (the floor: node + SDK start-up);
 *   2. `echo` latency on server-everything: a bare SDK client vs search-mcp `tool_execute` vs search-mcp direct
 *      `tools/call everything:echo`, interleaved, cycling through every order; next to a byte relay (a process that
 *      only copies stdio to a server-everything child), the floor for any stdio proxy;
 *   3. memory: VmRSS of the search-mcp process with the 22 replay servers of ../shared/fixtures/real-servers
 *      connected (after a tool_discovery), and its children's total VmRSS / PSS.
 *
 * Writes bench/results/proxy.json and bench/results/proxy.md and prints the markdown to stdout.
 * Everything else (progress) goes to stderr. Exits 1 if a process it started is left at the end.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
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
  packageBinEntry,
  packageVersion,
  processStatusFieldKb,
  processTreeIds,
  progressLog,
  proportionalSetSizeKb,
  ratioGoalCell,
  round,
  roundSummary,
  sleep,
  summarize,
  textContentOf,
  waitForExit,
  writeResults,
  type MachineInfo,
  type Summary,
} from './bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const fixturesDirectory =
  process.env['SEARCH_MCP_REAL_SERVERS'] ?? fileURLToPath(new URL('../fixtures/real-servers', import.meta.url));
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
const echoGoalRatio = 1.25;
const echoMessage = 'hello from the proxy bench';
const connectDeadlineMs = 45_000;

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const appDirectory = join(rootDirectory, 'apps', 'stdio-server');
const cliPath = join(appDirectory, 'dist', 'cli.js');
const replayServerPath = join(appDirectory, 'test', 'fixtures', 'replay-server.mjs');
const slowServerPath = join(
  rootDirectory,
  'packages',
  'client-manager',
  'test',
  'fixtures',
  'stdio-fixture-server.mjs',
);
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
// 2. echo latency: bare SDK client vs search-mcp tool_execute vs search-mcp direct tools/call

type EchoPath = 'bare' | 'relay' | 'toolExecute' | 'directCall';
const echoPaths: EchoPath[] = ['bare', 'relay', 'toolExecute', 'directCall'];

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

async function benchEcho(directory: string) {
  const configPath = await writeConfig(directory, 'echo', {
    everything: { command: process.execPath, args: [everythingEntry] },
  });
  const searchMcp = await connectClient('proxy-bench-echo', process.execPath, searchMcpArgs(configPath));
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

    const calls: Record<EchoPath, (message: string) => Promise<unknown>> = {
      bare: (message) => bareClient.callTool({ name: 'echo', arguments: { message } }),
      relay: (message) => relayClient.callTool({ name: 'echo', arguments: { message } }),
      toolExecute: (message) =>
        viaClient.callTool({ name: 'tool_execute', arguments: { toolKey: 'everything:echo', arguments: { message } } }),
      directCall: (message) => viaClient.callTool({ name: 'everything:echo', arguments: { message } }),
    };

    // All three must really echo, or we would be timing an error path.
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
    const samples: Record<EchoPath, number[]> = { bare: [], relay: [], toolExecute: [], directCall: [] };
    started = performance.now();
    await run(echoMeasuredRounds, samples);
    log(`echo measured: ${echoMeasuredRounds} rounds in ${(performance.now() - started).toFixed(0)} ms`);

    const summaries = Object.fromEntries(echoPaths.map((path) => [path, summarize(samples[path])])) as Record<
      EchoPath,
      Summary
    >;
    const ratios = (path: EchoPath) => ({
      p50: round3(summaries[path].p50 / summaries.bare.p50),
      p99: round3(summaries[path].p99 / summaries.bare.p99),
      mean: round3(summaries[path].mean / summaries.bare.mean),
    });
    const searchMcpRssKb = processStatusFieldKb(searchMcp.pid, 'VmRSS');
    return {
      warmupRounds: echoWarmupRounds,
      measuredRounds: echoMeasuredRounds,
      backendReadyMs: round3(backendReadyMs),
      bare: roundSummary(summaries.bare),
      relay: roundSummary(summaries.relay),
      toolExecute: roundSummary(summaries.toolExecute),
      directCall: roundSummary(summaries.directCall),
      ratios: { relay: ratios('relay'), toolExecute: ratios('toolExecute'), directCall: ratios('directCall') },
      /** The added time per call at the median, in ms. */
      addedP50Ms: {
        relay: round3(summaries.relay.p50 - summaries.bare.p50),
        toolExecute: round3(summaries.toolExecute.p50 - summaries.bare.p50),
        directCall: round3(summaries.directCall.p50 - summaries.bare.p50),
      },
      goalP50Ratio: echoGoalRatio,
      goalMet: {
        toolExecute: summaries.toolExecute.p50 / summaries.bare.p50 <= echoGoalRatio,
        directCall: summaries.directCall.p50 / summaries.bare.p50 <= echoGoalRatio,
      },
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
    const children = descendantsOf(session.pid).map((child) => {
      const childRssKb = processStatusFieldKb(child.pid, 'VmRSS');
      const childPssKb = proportionalSetSizeKb(child.pid);
      return {
        pid: child.pid,
        command: child.command.replace(fixturesDirectory, '…'),
        vmRssKb: childRssKb ?? 0,
        ...(childPssKb !== undefined ? { pssKb: childPssKb } : {}),
      };
    });
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
  const ratioGoal = (ratio: number) => ratioGoalCell(ratio, echoGoalRatio);
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
    ['echo latency (server-everything)', 'bare SDK `callTool(echo)` p50', formatMs(echo.bare.p50), ''],
    ['', 'bare SDK p99', formatMs(echo.bare.p99), ''],
    ['', 'search-mcp `tool_execute` p50', formatMs(echo.toolExecute.p50), ''],
    ['', 'search-mcp `tool_execute` p99', formatMs(echo.toolExecute.p99), ''],
    ['', 'search-mcp `tools/call everything:echo` p50', formatMs(echo.directCall.p50), ''],
    ['', 'search-mcp `tools/call everything:echo` p99', formatMs(echo.directCall.p99), ''],
    [
      '',
      '`tool_execute` p50 / bare p50',
      formatRatio(echo.ratios.toolExecute.p50),
      ratioGoal(echo.ratios.toolExecute.p50),
    ],
    ['', '`tools/call` p50 / bare p50', formatRatio(echo.ratios.directCall.p50), ratioGoal(echo.ratios.directCall.p50)],
    ['', '`tool_execute` p99 / bare p99', formatRatio(echo.ratios.toolExecute.p99), ''],
    ['', '`tools/call` p99 / bare p99', formatRatio(echo.ratios.directCall.p99), ''],
    [
      '',
      'added at p50: `tool_execute` / `tools/call`',
      `${formatMs(echo.addedP50Ms.toolExecute)} / ${formatMs(echo.addedP50Ms.directCall)}`,
      '',
    ],
    ['', 'reference: byte relay (one extra process, no parsing) p50', formatMs(echo.relay.p50), ''],
    ['', 'reference: byte relay p50 / bare p50', formatRatio(echo.ratios.relay.p50), ''],
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
      `${machine.totalMemoryGb} GB RAM · load ${machine.loadAverageAtStart.join(' / ')} at start · SDK ${machine.sdk} · server-everything ${machine.serverEverything}`,
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

interface Machine extends MachineInfo {
  sdk: string;
  serverEverything: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const runStarted = performance.now();
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
  };
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-proxy-bench-'));
  try {
    // Start-up first, while the machine is quiet (the other sections start many processes).
    log(`startup: search-mcp with one backend that needs ${slowBackendDelayMs} ms`);
    const startup = await benchStartup(directory);
    log('echo: bare SDK client vs search-mcp tool_execute vs search-mcp tools/call');
    const echo = await benchEcho(directory);
    log('memory: search-mcp with the 22 replay servers');
    const memory = await benchMemory(directory);
    machine.loadAverageAtEnd = loadAverage();

    const cleanup = await leftoverCheck(directory);
    const leftovers =
      cleanup.aliveSeenPids.length +
      cleanup.childProcesses.length +
      Object.values(cleanup.pgrepOurs).reduce((total, pids) => total + pids.length, 0);

    const result = { machine, durationMs: round(performance.now() - runStarted, 0), startup, echo, memory, cleanup };
    const md = markdown(machine, startup, echo, memory);
    const jsonPath = await writeResults('proxy', result, md);
    log(`wrote ${jsonPath} and proxy.md in ${(result.durationMs / 1000).toFixed(1)} s`);
    if (leftovers > 0) {
      log(`LEFTOVER PROCESSES: ${JSON.stringify(cleanup)}`);
      process.exitCode = 1;
    } else {
      log(`cleanup ok: all ${cleanup.processesSeen} processes this run started have ended`);
    }
    process.stdout.write(md);
  } finally {
    // On failure: close whatever is still open so no server outlives the run.
    for (const client of openClients) await client.close().catch(() => {});
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
