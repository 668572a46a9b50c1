/**
 * Soak benchmark (issue 14): bounded load against a slow backend, to show that every request gets one answer and that
 * memory comes back when the load ends.
 *
 *   npx -y pnpm@10.34.9 bench:soak        (or: tsx bench/soak-bench.ts after a build)
 *
 * The backend is the test kit's slow-server.mjs: its `wait` tool answers after 50 ms. SOAK_CLIENTS
 * (default 50) clients call it back to back for SOAK_SECONDS (default 60) each, in three phases, each with a fresh
 * server process:
 *   1. stdio: `search-mcp serve` (apps/stdio-server/dist/cli.js) spawned by one SDK client over stdio. A stdio server
 *      has one client process, so the 50 clients are 50 callers sharing that connection (50 calls in flight);
 *   2. HTTP /mcp: `search-mcp-http` (apps/http-server/dist/cli.js); 50 SDK clients, each its own MCP session;
 *   3. HTTP REST: the same bin; 50 clients looping `POST /v1/tools/call`.
 * Over MCP each call is `tools/call tool_execute { toolKey: "slow:wait", arguments: { ms: 50 } }`.
 *
 * Per phase: requests sent; answers (ok, and errors: a JSON-RPC error, an HTTP error status, `isError`, or a wrong
 * text); lost answers (no answer at all: the 30 s client timeout fired or the connection failed); p50/p99 latency of
 * the answered calls; throughput; the server process's RSS (VmRSS) before the load (started, each client connected
 * and one call made), its peak (sampled every 250 ms), and 10 s and SOAK_SETTLE_SECONDS (default 60) after the load
 * ended and the clients disconnected (V8 gives memory back to the OS only once the process has idled a while). The HTTP app runs with `--rate-limit 0`: this measures soak, not the limiter.
 *
 * SOAK_PHASES (comma-separated: stdio, http-mcp, http-rest) runs only some phases.
 *
 * Writes bench/results/soak.json and soak.md and prints the markdown to stdout; progress goes to stderr. Exits 1 on a
 * lost answer, an error, or a process left behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixtureServerPath } from '@search-mcp/test-kit/fixture-servers';
import {
  descendantsOf,
  formatMb,
  kbToMb,
  leftoverProcesses,
  loadAverage,
  machineInfo,
  machineSummary,
  packageVersion,
  processStatusFieldKb,
  progressLog,
  round,
  roundSummary,
  sleep,
  type Summary,
  summarize,
  textContentOf,
  writeResults,
} from './src/bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const clients = Number(process.env['SOAK_CLIENTS'] ?? 50);
const loadSeconds = Number(process.env['SOAK_SECONDS'] ?? 60);
/** How long the idle server is watched after the load (V8 returns memory to the OS only after it has idled a while). */
const settleSeconds = Number(process.env['SOAK_SETTLE_SECONDS'] ?? 60);
/** The early reading after the load, next to the one at the end of the settle time. */
const earlyAfterSeconds = 10;
/** Which phases to run (comma-separated); default all three. */
const selectedPhases = (process.env['SOAK_PHASES'] ?? 'stdio,http-mcp,http-rest').split(',');
const backendWaitMs = 50;
/** A call without an answer after this long is lost. */
const answerTimeoutMs = 30_000;
const rssSampleIntervalMs = 250;
const soakToken = 'soak-token-0123456789-abcdefghijklmnop';
const expectedText = `waited ${backendWaitMs}`;

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const stdioCli = join(rootDirectory, 'apps', 'stdio-server', 'dist', 'cli.js');
const httpCli = join(rootDirectory, 'apps', 'http-server', 'dist', 'cli.js');
const slowServer = fixtureServerPath('slow-server.mjs');
const require = createRequire(import.meta.url);

const log = progressLog('soak-bench');
const seenPids = new Set<number>();

type PhaseName = 'stdio' | 'http-mcp' | 'http-rest';

/** One call's outcome: answered correctly, answered with an error, or not answered at all. */
type Outcome = { kind: 'ok' } | { kind: 'error'; detail: string } | { kind: 'lost'; detail: string };

interface LoadResult {
  requests: number;
  ok: number;
  errors: number;
  lost: number;
  /** Up to 5 distinct error and loss details. */
  samples: string[];
  latencyMs: Summary;
  loadSeconds: number;
  rssPeakKb: number;
}

interface PhaseResult {
  phase: PhaseName;
  description: string;
  clients: number;
  requests: number;
  answered: number;
  ok: number;
  errors: number;
  lost: number;
  samples: string[];
  throughputPerSecond: number;
  latencyMs: Summary;
  rssMb: { before: number; peak: number; after10s: number; after: number };
  serverPid: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Load

function rssKb(pid: number): number {
  return processStatusFieldKb(pid, 'VmRSS') ?? Number.NaN;
}

function rememberTree(pid: number): void {
  seenPids.add(pid);
  for (const child of descendantsOf(pid)) seenPids.add(child.pid);
}

/** `clients` workers calling `call` back to back until the load time is over; each waits for its call's outcome. */
async function runLoad(call: (client: number) => Promise<Outcome>, serverPid: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const samples = new Set<string>();
  let requests = 0;
  let ok = 0;
  let errors = 0;
  let lost = 0;
  let rssPeakKb = rssKb(serverPid);
  const sampler = setInterval(() => {
    const rss = rssKb(serverPid);
    if (rss > rssPeakKb) rssPeakKb = rss;
  }, rssSampleIntervalMs);
  const started = performance.now();
  const deadline = started + loadSeconds * 1000;
  let lastReport = started;
  const worker = async (client: number) => {
    while (performance.now() < deadline) {
      requests += 1;
      const callStarted = performance.now();
      const outcome = await call(client).catch(
        (error: unknown): Outcome => ({ kind: 'lost', detail: `threw: ${(error as Error)?.message ?? error}` }),
      );
      if (outcome.kind === 'ok') {
        ok += 1;
        latencies.push(performance.now() - callStarted);
      } else {
        if (outcome.kind === 'error') errors += 1;
        else lost += 1;
        if (samples.size < 5) samples.add(`${outcome.kind}: ${outcome.detail.slice(0, 200)}`);
      }
      if (client === 0 && performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        log(`  ${Math.round((lastReport - started) / 1000)} s: ${requests} requests, ${errors} errors, ${lost} lost`);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, client) => worker(client)));
  const elapsedSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    requests,
    ok,
    errors,
    lost,
    samples: [...samples],
    latencyMs: summarize(latencies),
    loadSeconds: elapsedSeconds,
    rssPeakKb,
  };
}

/** The outcome of an MCP `tool_execute` of `slow:wait`. */
async function mcpCall(client: Client): Promise<Outcome> {
  try {
    const result = (await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'slow:wait', arguments: { ms: backendWaitMs } } },
      undefined,
      { timeout: answerTimeoutMs },
    )) as Record<string, unknown>;
    const text = textContentOf(result);
    if (result['isError'] === true || text !== expectedText) return { kind: 'error', detail: text };
    return { kind: 'ok' };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as Error)?.message ?? String(error);
    // -32001 is the SDK's own request timeout: no answer came. Other codes are answers (JSON-RPC errors).
    if (typeof code === 'number' && code !== -32001) return { kind: 'error', detail: `${code} ${message}` };
    return { kind: 'lost', detail: message };
  }
}

/** The outcome of `POST /v1/tools/call` of `slow:wait`. */
async function restCall(url: string): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(`${url}/v1/tools/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${soakToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow:wait', parameters: { ms: backendWaitMs } }),
      signal: AbortSignal.timeout(answerTimeoutMs),
    });
  } catch (error) {
    return { kind: 'lost', detail: (error as Error)?.message ?? String(error) };
  }
  const text = await response.text().catch(() => '');
  if (response.status !== 200) return { kind: 'error', detail: `HTTP ${response.status} ${text}` };
  try {
    const body = JSON.parse(text) as { success?: boolean; result?: Record<string, unknown> };
    if (body.success === true && body.result && textContentOf(body.result) === expectedText) return { kind: 'ok' };
  } catch {
    // Falls through: an unreadable answer is an error.
  }
  return { kind: 'error', detail: text };
}

// ---------------------------------------------------------------------------------------------------------------
// Servers

async function writeConfig(directory: string): Promise<string> {
  const config = join(directory, 'soak-config.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { slow: { command: process.execPath, args: [slowServer] } },
      auth: { tokens: [{ id: 'soak', token: soakToken }] },
    }),
  );
  return config;
}

interface HttpServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startHttpServer(config: string, directory: string): Promise<HttpServer> {
  // Log level info: the "listening" line names the URL; nothing else is logged per request at info.
  const child: ChildProcess = spawn(
    process.execPath,
    [httpCli, '--config', config, '--port', '0', '--rate-limit', '0', '--log-level', 'info'],
    { cwd: directory, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const pid = child.pid as number;
  seenPids.add(pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`search-mcp-http: no listening line within 30 s:\n${text}`)),
      30_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`search-mcp-http exited:\n${text}`));
    });
  });
  return {
    url,
    pid,
    stop: async () => {
      rememberTree(pid);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function connectHttpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'soak-bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${soakToken}` } },
    }),
  );
  return client;
}

/** RSS of the idle server `earlyAfterSeconds` and `settleSeconds` after the load. */
async function settle(pid: number): Promise<{ after10s: number; after: number }> {
  const early = Math.min(earlyAfterSeconds, settleSeconds);
  await sleep(early * 1000);
  const after10s = rssKb(pid);
  await sleep((settleSeconds - early) * 1000);
  return { after10s, after: rssKb(pid) };
}

function phaseResult(
  phase: PhaseName,
  description: string,
  load: LoadResult,
  rss: { before: number; after10s: number; after: number },
  serverPid: number,
): PhaseResult {
  log(
    `  ${phase}: ${load.requests} requests, ${load.errors} errors, ${load.lost} lost; RSS ` +
      `${formatMb(kbToMb(rss.before))} → peak ${formatMb(kbToMb(load.rssPeakKb))} → ${formatMb(kbToMb(rss.after10s))} ` +
      `(+${earlyAfterSeconds} s) → ${formatMb(kbToMb(rss.after))} (+${settleSeconds} s)`,
  );
  return {
    phase,
    description,
    clients,
    requests: load.requests,
    answered: load.ok + load.errors,
    ok: load.ok,
    errors: load.errors,
    lost: load.lost,
    samples: load.samples,
    throughputPerSecond: round(load.ok / load.loadSeconds, 1),
    latencyMs: roundSummary(load.latencyMs),
    rssMb: {
      before: round(kbToMb(rss.before), 1),
      peak: round(kbToMb(load.rssPeakKb), 1),
      after10s: round(kbToMb(rss.after10s), 1),
      after: round(kbToMb(rss.after), 1),
    },
    serverPid,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Phases

async function stdioPhase(config: string, directory: string): Promise<PhaseResult> {
  log(`stdio: search-mcp serve, ${clients} callers on one connection, ${loadSeconds} s`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [stdioCli, 'serve', '--config', config, '--log-level', 'warn'],
    cwd: directory,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'soak-bench', version: '1' });
  await client.connect(transport);
  const pid = transport.pid as number;
  rememberTree(pid);
  await Promise.all(Array.from({ length: clients }, () => mcpCall(client)));
  rememberTree(pid);
  const before = rssKb(pid);
  const load = await runLoad(() => mcpCall(client), pid);
  const after = await settle(pid);
  rememberTree(pid);
  await client.close();
  return phaseResult(
    'stdio',
    `search-mcp serve over stdio, ${clients} concurrent callers on one connection, tool_execute`,
    load,
    { before, ...after },
    pid,
  );
}

async function httpMcpPhase(config: string, directory: string): Promise<PhaseResult> {
  log(`http-mcp: search-mcp-http, ${clients} MCP sessions, ${loadSeconds} s`);
  const server = await startHttpServer(config, directory);
  const sessions = await Promise.all(Array.from({ length: clients }, () => connectHttpClient(server.url)));
  await Promise.all(sessions.map((session) => mcpCall(session)));
  rememberTree(server.pid);
  const before = rssKb(server.pid);
  const load = await runLoad((index) => mcpCall(sessions[index] as Client), server.pid);
  await Promise.all(
    sessions.map(async (session) => {
      await (session.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
      await session.close();
    }),
  );
  const after = await settle(server.pid);
  await server.stop();
  return phaseResult(
    'http-mcp',
    `search-mcp-http /mcp, ${clients} clients with a session each, tool_execute`,
    load,
    { before, ...after },
    server.pid,
  );
}

async function httpRestPhase(config: string, directory: string): Promise<PhaseResult> {
  log(`http-rest: search-mcp-http, ${clients} REST clients, ${loadSeconds} s`);
  const server = await startHttpServer(config, directory);
  await Promise.all(Array.from({ length: clients }, () => restCall(server.url)));
  rememberTree(server.pid);
  const before = rssKb(server.pid);
  const load = await runLoad(() => restCall(server.url), server.pid);
  const after = await settle(server.pid);
  await server.stop();
  return phaseResult(
    'http-rest',
    `search-mcp-http POST /v1/tools/call, ${clients} clients`,
    load,
    { before, ...after },
    server.pid,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function markdown(
  result: { machine: ReturnType<typeof machineInfo>; phases: PhaseResult[]; leftovers: unknown },
  versions: Record<string, string>,
): string {
  const { machine, phases } = result;
  const rows = phases.map(
    (phase) =>
      `| ${phase.phase} | ${phase.clients} | ${phase.requests.toLocaleString('en-US')} | ` +
      `${phase.answered.toLocaleString('en-US')} | ${phase.errors} | **${phase.lost}** | ` +
      `${phase.throughputPerSecond.toLocaleString('en-US')} | ${phase.latencyMs.p50.toFixed(1)} ms | ` +
      `${phase.latencyMs.p99.toFixed(1)} ms | ${formatMb(phase.rssMb.before)} | ${formatMb(phase.rssMb.peak)} | ` +
      `${formatMb(phase.rssMb.after10s)} | ${formatMb(phase.rssMb.after)} |`,
  );
  const samples = phases.flatMap((phase) => phase.samples.map((sample) => `- ${phase.phase}: ${sample}`));
  return [
    '# Soak benchmark (stdio and HTTP under bounded load)',
    '',
    `${machineSummary(machine)} · ${round(os.totalmem() / 1024 ** 3, 1)} GB RAM · load ` +
      `${machine.loadAverageAtStart.join(' / ')} at start, ${(machine.loadAverageAtEnd ?? []).join(' / ')} at end · ` +
      `SDK ${versions['sdk']}`,
    '',
    `${clients} concurrent clients for ${loadSeconds} s per phase, each calling a backend tool that answers after ` +
      `${backendWaitMs} ms (the test kit's slow-server.mjs \`wait\`), back to back. stdio: one ` +
      `\`search-mcp serve\` process, its one stdio connection shared by the callers (${clients} calls in flight). ` +
      'HTTP: the ' +
      '`search-mcp-http` bin with `--rate-limit 0`, a fresh process per phase; /mcp with one session per client, ' +
      'REST with `POST /v1/tools/call`. The load generator shares the 2 cores with the servers. *Lost*: no answer ' +
      `within ${answerTimeoutMs / 1000} s or a failed connection; *errors*: an answer that is an error or not the ` +
      `expected text. Latency of the correct answers (includes the backend's ${backendWaitMs} ms). RSS: VmRSS of ` +
      'the server process (backends not included) once every client had made one call, its peak while loaded ' +
      `(every ${rssSampleIntervalMs} ms), and ${earlyAfterSeconds} s and ${settleSeconds} s after the load ended and the ` +
      'clients disconnected: V8 keeps the pages it grew into until the process has idled a while, then gives them back.',
    '',
    `| Phase | Clients | Requests | Answered | Errors | Lost | Answers/s | p50 | p99 | RSS before | RSS peak | RSS +${earlyAfterSeconds} s | RSS +${settleSeconds} s |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    samples.length > 0
      ? `Errors and losses (first of each kind):\n\n${samples.join('\n')}`
      : 'No errors, no lost answers.',
    '',
    `Processes left at the end: ${JSON.stringify(result.leftovers)}.`,
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const machine = machineInfo();
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-soak-'));
  const phases: PhaseResult[] = [];
  let leftovers: Awaited<ReturnType<typeof leftoverProcesses>> | undefined;
  try {
    const config = await writeConfig(directory);
    if (selectedPhases.includes('stdio')) phases.push(await stdioPhase(config, directory));
    if (selectedPhases.includes('http-mcp')) phases.push(await httpMcpPhase(config, directory));
    if (selectedPhases.includes('http-rest')) phases.push(await httpRestPhase(config, directory));
  } finally {
    leftovers = await leftoverProcesses(seenPids, directory, {
      slowServer: 'slow-server.mjs',
      stdioServer: 'stdio-server/dist/cli.js',
      httpServer: 'http-server/dist/cli.js',
    });
    await rm(directory, { recursive: true, force: true });
  }
  machine.loadAverageAtEnd = loadAverage();
  const versions = { sdk: packageVersion('@modelcontextprotocol/sdk', require, '@modelcontextprotocol/sdk/client') };
  const left = leftovers.aliveSeenPids.length + Object.values(leftovers.pgrepOurs).flat().length;
  const result = {
    machine,
    settings: {
      clients,
      loadSeconds,
      settleSeconds,
      earlyAfterSeconds,
      backendWaitMs,
      answerTimeoutMs,
      rssSampleIntervalMs,
    },
    versions,
    phases,
    leftovers: { processesSeen: leftovers.processesSeen, alive: leftovers.aliveSeenPids, ours: leftovers.pgrepOurs },
  };
  const report = markdown({ machine, phases, leftovers: result.leftovers }, versions);
  log(`wrote ${await writeResults('soak', result, report)}`);
  process.stdout.write(report);
  const failed = phases.some((phase) => phase.errors > 0 || phase.lost > 0) || left > 0;
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`soak-bench: ${(error as Error)?.stack ?? error}\n`);
  process.exit(1);
});
