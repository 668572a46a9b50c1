/**
 * Benchmark of the HTTP app (apps/http-server, `buildHttpApp`) on loopback with autocannon.
 *
 *   npx -y pnpm@10.34.9 bench:http
 *
 * The server is built the way apps/http-server/test/http-test-support.ts builds it (bench/http-bench-server.ts): one
 * in-process registry tool `local:echo`, server-everything over stdio, one token, rate limit off
 * (`rateLimitPerMinute: 0`: this measures throughput, not the limiter), silent logger, no audit file.
 *
 * Measures, in one run:
 *   1. `POST /v1/tools/call` to `local:echo` (registry tool, in-process);
 *   2. `POST /v1/tools/call` to `everything:echo` (server-everything over stdio);
 *   3. `tools/call` over `/mcp` in both protocol eras, each 2025 row followed by its 2026 twin (same backend, same
 *      body apart from the envelope): 2025-06-18 in one session (JSON-RPC over POST, SSE answers) against
 *      2026-07-28 requests (no session, `Mcp-Method`/`Mcp-Name` headers, the envelope in `params._meta`; each request
 *      is served by a server instance of its caller's from a pool, with its own transport, JSON answers) —
 *      `tool_execute` for both tools, and a direct
 *      `everything__echo` call; the 2026/2025 ratios of req/s and latency are reported;
 *   4. leak check: the server process's RSS (after forced GCs) before and after 100,000 REST calls to `local:echo`;
 *   5. 200 MCP sessions opened (initialize, initialized, tools/list) and closed (DELETE): session count after, and
 *      no backend process spawned or lost.
 * 1–3 run twice: with the server in a child process (bench/http-bench-server.ts; autocannon alone in this process,
 * the headline numbers), and with the server in this process (sharing one event loop with autocannon), for
 * comparison. 4 and 5 run against the child-process server, whose RSS then holds nothing of autocannon's.
 *
 * Writes bench/results/http.json and bench/results/http.md and prints the markdown to stdout. Progress goes to
 * stderr. Exits 1 if a request failed, a check failed, or a process it started is left at the end.
 *
 *   HTTP_BENCH_ONLY=eras [HTTP_BENCH_APP=apps/http-server/<older copy of src>/http-app.ts] npx tsx bench/http-bench.ts
 *
 * runs only the `/mcp` era pairs of 3 (child-process server) and prints their ratios, writing nothing: run it
 * alternately with and without `HTTP_BENCH_APP` (a copy of the app's source from before a change, kept inside the
 * repo so its imports resolve) to compare the 2026-07-28 leg before and after in the same conditions.
 *
 *   npx tsx bench/http-bench.ts --profile [--profile-out FILE] [--top N]
 *
 * instead runs the child-process server under `node --cpu-prof` for the `tool_execute local:echo` pair only (2025
 * session, then 2026 requests, 10 s each after warm-up) and prints where each era's server CPU goes: self time per
 * area and function per request, cut to each measured window. Writes nothing to results/ (the profiler slows the
 * server down); the `.cpuprofile` is kept for DevTools or speedscope.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  bytesToMb,
  isEsbuildService,
  isProcessAlive,
  loadAverage,
  median,
  monotonicMicroseconds,
  processCpuMs,
  summarizeCpuProfile,
  type CpuProfile,
  type CpuProfileSummary,
  machineInfo,
  machineSummary,
  packageVersion,
  progressLog,
  round,
  sleep,
  writeResults,
  type MachineInfo,
} from './src/bench-support.js';
import {
  benchMaxSessions,
  benchToken,
  childrenOf,
  startBenchServer,
  type BenchServer,
  type MemoryReading,
  type ServerStats,
} from './http-bench-server.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const connections = 50;
const pipelining = 1;
const warmupSeconds = 2;
const durationSeconds = 10;
/** autocannon's per-request timeout (s); a request slower than this counts as an error. */
const requestTimeoutSeconds = 10;
const leakRequests = 100_000;
const leakGoalMb = 20;
const sessionRounds = 200;
/** Sessions opened (and closed) at the same time in section 5. */
const sessionConcurrency = 10;
const protocolVersion = '2025-06-18';
/** The stateless era: every request carries its envelope, nothing is negotiated. */
const modernProtocolVersion = '2026-07-28';
const echoMessage = 'hello from the http bench';
/**
 * `HTTP_BENCH_ONLY=eras`: only the `/mcp` era pairs of section 3 (child-process server unless `HTTP_BENCH_MODES`
 * says otherwise), their ratios printed, nothing written to results/: a quick before/after of the 2026-07-28 leg
 * (with `HTTP_BENCH_APP`, see bench/http-bench-server.ts, for the code before a change). `HTTP_BENCH_ROUNDS=N` runs
 * each pair N times in the same server and prints the median of its ratios too: one 10 s window on a shared 2-core
 * machine can be off by 15 %, the median of five much less. `HTTP_BENCH_PAIRS=mcp-local,…` keeps only the pairs whose
 * 2025 row has one of these keys.
 */
const erasOnly = process.env['HTTP_BENCH_ONLY'] === 'eras';
const eraRounds = erasOnly ? Math.max(1, Number(process.env['HTTP_BENCH_ROUNDS'] ?? '1')) : 1;
/** Which server placements to run sections 1–3 with; `child` also runs 4 and 5. */
const serverModes: readonly ServerMode[] =
  (process.env['HTTP_BENCH_MODES']?.split(',') as ServerMode[] | undefined) ??
  (erasOnly ? ['child'] : ['child', 'in-process']);

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const appDirectory = join(rootDirectory, 'apps', 'http-server');
const serverScript = join(benchDirectory, 'http-bench-server.ts');
const require = createRequire(import.meta.url);
/** What the app runs on (fastify, the SDKs, server-everything): resolved from apps/http-server, as it resolves them. */
const requireFromApp = createRequire(join(appDirectory, 'package.json'));

type ServerMode = 'child' | 'in-process';

// ---------------------------------------------------------------------------------------------------------------
// autocannon (8.x, no bundled types: the part of its API used here)

interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
}

interface AutocannonResult {
  requests: Histogram & { sent: number };
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonOptions {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body: string;
  connections: number;
  pipelining: number;
  timeout: number;
  duration?: number;
  amount?: number;
  /** `setupRequest` rebuilds each request (and its Content-Length) before it is sent. */
  requests?: Array<{ method: 'POST'; path: string; setupRequest: (request: { body?: unknown }) => { body?: unknown } }>;
  verifyBody?: (body: string) => boolean;
}

const autocannon = require('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const log = progressLog('http-bench');

/** Every process this run started (server child, backends), to prove at the end that none is left. */
const seenPids = new Set<number>();
/** Checks that failed; any makes the run exit 1. */
const failures: string[] = [];

function check(condition: boolean, what: string): boolean {
  if (!condition) {
    failures.push(what);
    log(`CHECK FAILED: ${what}`);
  }
  return condition;
}

function remember(stats: ServerStats): void {
  if (stats.pid !== process.pid) seenPids.add(stats.pid);
  for (const backend of stats.backends) if (backend.pid !== undefined) seenPids.add(backend.pid);
  for (const child of stats.childProcesses) seenPids.add(child.pid);
}

// ---------------------------------------------------------------------------------------------------------------
// The server: in this process, or in a child process over IPC

interface RunningServer extends BenchServer {
  mode: ServerMode;
}

async function startInProcess(): Promise<RunningServer> {
  const server = await startBenchServer();
  return Object.assign(server, { mode: 'in-process' as const });
}

/** `nodeFlags`: extra flags for the child's node (`--cpu-prof …` in profile mode). */
async function startChild(nodeFlags: readonly string[] = []): Promise<RunningServer> {
  // tsx's ESM loader, so the child can load the .ts server script (and the app's sources) like this process does.
  const tsxLoader = pathToFileURL(require.resolve('tsx')).href;
  // stdout of the child goes to our stderr: our stdout carries only the markdown.
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', tsxLoader, serverScript], {
    cwd: rootDirectory,
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  if (child.pid !== undefined) seenPids.add(child.pid);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const exit = new Promise<void>((done) => child.once('exit', () => done()));
  child.once('exit', (code, signal) => {
    exited = true;
    for (const { reject } of pending.values()) reject(new Error(`server child exited (${code ?? signal})`));
    pending.clear();
  });
  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server child: no ready message within 60 s')), 60_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server child exited before it was ready (${code ?? signal})`));
    });
    child.on(
      'message',
      (message: { type?: string; url?: string; pid?: number; error?: string; id?: number; result?: unknown }) => {
        if (message.type === 'ready' && message.url && message.pid) {
          clearTimeout(timer);
          resolve({ url: message.url, pid: message.pid });
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`server child failed to start: ${message.error}`));
        } else if (message.id !== undefined) {
          const waiter = pending.get(message.id);
          pending.delete(message.id);
          if (message.error !== undefined) waiter?.reject(new Error(message.error));
          else waiter?.resolve(message.result);
        }
      },
    );
  }).catch(async (error: unknown) => {
    if (!exited) child.kill('SIGTERM');
    await exit;
    throw error;
  });
  const call = <T>(op: 'stats' | 'memory' | 'close') =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error('server child has exited'));
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, op });
    });
  let closing: Promise<void> | undefined;
  return {
    mode: 'child',
    url: ready.url,
    pid: ready.pid,
    stats: () => call<ServerStats>('stats'),
    memory: () => call<MemoryReading>('memory'),
    close: () => {
      closing ??= (async () => {
        if (!exited) {
          await call<null>('close').catch((error: unknown) => log(`server child close: ${String(error)}`));
          const timer = setTimeout(() => {
            log('server child did not exit within 15 s of close: SIGKILL');
            child.kill('SIGKILL');
          }, 15_000);
          await exit;
          clearTimeout(timer);
        }
      })();
      return closing;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP and MCP helpers (fetch; outside autocannon)

const restHeaders = { authorization: `Bearer ${benchToken}`, 'content-type': 'application/json' };
const mcpHeaders = {
  authorization: `Bearer ${benchToken}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': protocolVersion,
};

const modernHeaders = (method: string, name: string) => ({
  authorization: `Bearer ${benchToken}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': modernProtocolVersion,
  'mcp-method': method,
  'mcp-name': name,
});

/** What a 2026-07-28 request carries in `params._meta` (the spec requires all three on every request). */
const modernEnvelope = {
  'io.modelcontextprotocol/protocolVersion': modernProtocolVersion,
  'io.modelcontextprotocol/clientInfo': { name: 'http-bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A JSON-RPC message as read off the wire: any fields, checked by the caller. */
// biome-ignore lint/suspicious/noExplicitAny: messages are read structurally, field by field
type WireMessage = Record<string, any>;

/** The JSON-RPC messages of an SSE body (`event: message` frames) or of a plain JSON body. */
function jsonRpcMessages(text: string, contentType: string | null): WireMessage[] {
  if (!contentType?.includes('text/event-stream')) return text.trim() === '' ? [] : [JSON.parse(text) as WireMessage];
  const messages: WireMessage[] = [];
  for (const frame of text.split(/\r?\n\r?\n/)) {
    const data = frame
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data !== '') messages.push(JSON.parse(data) as WireMessage);
  }
  return messages;
}

async function openSession(base: string): Promise<{ sessionId: string; initializeMs: number }> {
  const started = performance.now();
  const init = await post(
    `${base}/mcp`,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'http-bench', version: '0' } },
    },
    mcpHeaders,
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize: ${init.status} ${init.text.slice(0, 300)}`);
  const initMessages = jsonRpcMessages(init.text, init.headers.get('content-type'));
  if (!initMessages[0]?.result?.protocolVersion) throw new Error(`initialize: no result: ${init.text.slice(0, 300)}`);
  const initialized = await post(
    `${base}/mcp`,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...mcpHeaders, 'mcp-session-id': sessionId },
  );
  if (initialized.status !== 202)
    throw new Error(`notifications/initialized: ${initialized.status} ${initialized.text.slice(0, 300)}`);
  return { sessionId, initializeMs: performance.now() - started };
}

async function listTools(base: string, sessionId: string): Promise<string[]> {
  const response = await post(
    `${base}/mcp`,
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { ...mcpHeaders, 'mcp-session-id': sessionId },
  );
  if (response.status !== 200) throw new Error(`tools/list: ${response.status} ${response.text.slice(0, 300)}`);
  const [message] = jsonRpcMessages(response.text, response.headers.get('content-type'));
  return ((message?.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
}

async function deleteSession(base: string, sessionId: string): Promise<number> {
  // No content-type: Fastify answers a bodiless DELETE that claims application/json with 400 before /mcp sees it.
  const { 'content-type': _contentType, ...headers } = mcpHeaders;
  const response = await fetch(`${base}/mcp`, {
    method: 'DELETE',
    headers: { ...headers, 'mcp-session-id': sessionId },
  });
  await response.arrayBuffer();
  return response.status;
}

// ---------------------------------------------------------------------------------------------------------------
// Load scenarios

type Era = '2025' | '2026';

interface Scenario {
  key: string;
  label: string;
  path: '/v1/tools/call' | '/mcp';
  /** For `/mcp`: which protocol era the requests speak (2025: in the load session; 2026: no session). */
  era?: Era;
  /** For 2026 `/mcp`: the `Mcp-Name` header (the tool called). */
  toolName?: string;
  /**
   * For `/mcp`: `"[<id>]"` becomes a fresh number per request (JSON-RPC ids must be unique within a session; the
   * 2026 rows get fresh ids too, so the load generator does the same work for both eras).
   */
  body: string;
  /** Text every answer must contain (checked on every response by autocannon: `mismatches`). */
  expect: string;
  goalRps?: number;
}

function restScenario(key: string, label: string, toolKey: string, expect: string, goalRps?: number): Scenario {
  return {
    key,
    label,
    path: '/v1/tools/call',
    body: JSON.stringify({ name: toolKey, parameters: { message: echoMessage } }),
    expect,
    ...(goalRps !== undefined ? { goalRps } : {}),
  };
}

/**
 * A `tools/call` over `/mcp`: `tool_execute` with `toolKey`, or (toolKey undefined) the tool `toolName` directly.
 * The 2026 body is the 2025 one plus the envelope in `params._meta`.
 */
function mcpScenario(
  key: string,
  label: string,
  era: Era,
  call: { toolName: string; toolKey?: string },
  expect: string,
): Scenario {
  const toolArguments = { message: echoMessage };
  const params = {
    name: call.toolName,
    arguments: call.toolKey === undefined ? toolArguments : { toolKey: call.toolKey, arguments: toolArguments },
    ...(era === '2026' ? { _meta: modernEnvelope } : {}),
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: '[<id>]', method: 'tools/call', params });
  return { key, label, path: '/mcp', era, toolName: call.toolName, body, expect };
}

const eraLabel: Record<Era, string> = {
  '2025': `${protocolVersion}, session`,
  '2026': `${modernProtocolVersion}, no session`,
};

const scenarios = {
  restLocal: restScenario(
    'rest-local',
    '`POST /v1/tools/call` `local:echo` (registry tool)',
    'local:echo',
    `"text":"${echoMessage}"`,
    5000,
  ),
  restEverything: restScenario(
    'rest-everything',
    '`POST /v1/tools/call` `everything:echo` (server-everything, stdio)',
    'everything:echo',
    `"text":"Echo: ${echoMessage}"`,
    1500,
  ),
  mcpLocal: mcpScenario(
    'mcp-local',
    `\`/mcp\` \`tool_execute\` \`local:echo\` (${eraLabel['2025']})`,
    '2025',
    { toolName: 'tool_execute', toolKey: 'local:echo' },
    echoMessage,
  ),
  mcpModernLocal: mcpScenario(
    'mcp-2026-local',
    `\`/mcp\` \`tool_execute\` \`local:echo\` (${eraLabel['2026']})`,
    '2026',
    { toolName: 'tool_execute', toolKey: 'local:echo' },
    echoMessage,
  ),
  mcpEverything: mcpScenario(
    'mcp-everything',
    `\`/mcp\` \`tool_execute\` \`everything:echo\` (${eraLabel['2025']})`,
    '2025',
    { toolName: 'tool_execute', toolKey: 'everything:echo' },
    `Echo: ${echoMessage}`,
  ),
  mcpModernEverything: mcpScenario(
    'mcp-2026-everything',
    `\`/mcp\` \`tool_execute\` \`everything:echo\` (${eraLabel['2026']})`,
    '2026',
    { toolName: 'tool_execute', toolKey: 'everything:echo' },
    `Echo: ${echoMessage}`,
  ),
  mcpDirect: mcpScenario(
    'mcp-direct',
    `\`/mcp\` direct \`everything__echo\` (${eraLabel['2025']})`,
    '2025',
    { toolName: 'everything__echo' },
    `Echo: ${echoMessage}`,
  ),
  mcpModernDirect: mcpScenario(
    'mcp-2026-direct',
    `\`/mcp\` direct \`everything__echo\` (${eraLabel['2026']})`,
    '2026',
    { toolName: 'everything__echo' },
    `Echo: ${echoMessage}`,
  ),
} as const;

/** The `/mcp` rows in the order they run: each 2025 row, then its 2026 twin right after it. */
/** `HTTP_BENCH_PAIRS=mcp-local,…` (eras-only runs): only the pairs whose 2025 row has one of these keys. */
const pairFilter = erasOnly ? process.env['HTTP_BENCH_PAIRS']?.split(',') : undefined;
const eraPairs: ReadonlyArray<readonly [Scenario, Scenario]> = (
  [
    [scenarios.mcpLocal, scenarios.mcpModernLocal],
    [scenarios.mcpEverything, scenarios.mcpModernEverything],
    [scenarios.mcpDirect, scenarios.mcpModernDirect],
  ] as const
).filter(([legacy]) => pairFilter === undefined || pairFilter.includes(legacy.key));

interface LoadResult {
  scenario: string;
  mode: ServerMode;
  connections: number;
  pipelining: number;
  durationSeconds: number;
  /** autocannon's `requests.average`: mean of the per-second request counts. */
  requestsPerSecond: number;
  /** Completed requests / duration. */
  completedPerSecond: number;
  completed: number;
  sent: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  goalRps?: number;
  goalMet?: boolean;
  /**
   * Child-process server only: its CPU time (user + system, /proc) over the measured run divided by the requests
   * completed, in ms. Independent of how busy the rest of the machine is, unlike req/s.
   */
  serverCpuMsPerRequest?: number;
}

let nextJsonRpcId = 1_000;

function withId(scenario: Scenario, id: number | string): string {
  return scenario.body.replace('"[<id>]"', JSON.stringify(id));
}

function verifier(scenario: Scenario): (body: string) => boolean {
  if (scenario.era === '2026') {
    // JSON (or SSE, should the app ever stream first): a complete result, never an error.
    return (body) =>
      body.includes('"result"') &&
      body.includes('"resultType":"complete"') &&
      body.includes(scenario.expect) &&
      !body.includes('"isError":true') &&
      !body.includes('"error"');
  }
  if (scenario.path === '/mcp') {
    return (body) =>
      body.includes('event: message') &&
      body.includes('"result"') &&
      body.includes(scenario.expect) &&
      !body.includes('"isError":true');
  }
  return (body) => body.includes('"success":true') && body.includes(scenario.expect);
}

async function fire(
  base: string,
  mode: ServerMode,
  scenario: Scenario,
  limit: { duration: number } | { amount: number },
  sessionId?: string,
): Promise<LoadResult> {
  const headers: Record<string, string> =
    scenario.path !== '/mcp'
      ? { ...restHeaders }
      : scenario.era === '2026'
        ? modernHeaders('tools/call', scenario.toolName ?? '')
        : { ...mcpHeaders, 'mcp-session-id': sessionId ?? '' };
  const result = await autocannon({
    url: `${base}${scenario.path}`,
    method: 'POST',
    headers,
    body: scenario.body,
    connections,
    pipelining,
    timeout: requestTimeoutSeconds,
    ...limit,
    // Not autocannon's `idReplacement`: it assumes every id is 27 characters longer than `[<id>]` when it sets
    // Content-Length, but hyperid's ids grow with their counter, so the server would wait for missing bytes.
    ...(scenario.path === '/mcp'
      ? {
          requests: [
            {
              method: 'POST' as const,
              path: scenario.path,
              setupRequest: (request: { body?: unknown }) => ({ ...request, body: withId(scenario, nextJsonRpcId++) }),
            },
          ],
        }
      : {}),
    verifyBody: verifier(scenario),
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = Number(count);
  const load: LoadResult = {
    scenario: scenario.key,
    mode,
    connections,
    pipelining,
    durationSeconds: round(result.duration, 2),
    requestsPerSecond: round(result.requests.average, 1),
    completedPerSecond: round(result.requests.total / result.duration, 1),
    completed: result.requests.total,
    sent: result.requests.sent,
    latencyMs: {
      average: round(result.latency.average, 2),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    statusCodes,
  };
  if (scenario.goalRps !== undefined) {
    load.goalRps = scenario.goalRps;
    load.goalMet = load.requestsPerSecond >= scenario.goalRps;
  }
  return load;
}

async function measure(server: RunningServer, scenario: Scenario, sessionId?: string): Promise<LoadResult> {
  const { url: base, mode } = server;
  const warmup = await fire(base, mode, scenario, { duration: warmupSeconds }, sessionId);
  check(
    warmup.errors + warmup.non2xx + warmup.mismatches === 0,
    `${mode} ${scenario.key} warm-up: ${warmup.errors} errors, ${warmup.non2xx} non-2xx, ${warmup.mismatches} mismatches`,
  );
  // In process the server's CPU cannot be told apart from autocannon's.
  const cpuBefore = mode === 'child' ? processCpuMs(server.pid) : undefined;
  const load = await fire(base, mode, scenario, { duration: durationSeconds }, sessionId);
  const cpuAfter = cpuBefore !== undefined ? processCpuMs(server.pid) : undefined;
  if (cpuBefore !== undefined && cpuAfter !== undefined && load.completed > 0)
    load.serverCpuMsPerRequest = round((cpuAfter - cpuBefore) / load.completed, 4);
  log(
    `${mode} ${scenario.key}: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, ` +
      `${load.serverCpuMsPerRequest !== undefined ? `server CPU ${(load.serverCpuMsPerRequest * 1000).toFixed(0)} µs/request, ` : ''}` +
      `${load.errors} errors, ${load.non2xx} non-2xx, ${load.mismatches} mismatches`,
  );
  check(
    load.errors + load.timeouts + load.non2xx + load.mismatches === 0,
    `${mode} ${scenario.key}: ${load.errors} errors, ${load.timeouts} timeouts, ${load.non2xx} non-2xx, ${load.mismatches} mismatches`,
  );
  check(load.completed > 0, `${mode} ${scenario.key}: no request completed`);
  return load;
}

/** One call of each scenario with fetch, the answer checked in full (autocannon only checks a substring). */
async function sampleCalls(base: string, sessionId: string) {
  const samples: Record<string, { status: number; contentType: string | null; body: string }> = {};
  for (const scenario of [scenarios.restLocal, scenarios.restEverything]) {
    const response = await post(`${base}${scenario.path}`, scenario.body, restHeaders);
    samples[scenario.key] = {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: response.text,
    };
    const parsed = JSON.parse(response.text) as { success?: boolean; result?: { content?: Array<{ text?: string }> } };
    const expected = scenario === scenarios.restLocal ? echoMessage : `Echo: ${echoMessage}`;
    check(
      response.status === 200 && parsed.success === true && parsed.result?.content?.[0]?.text === expected,
      `sample ${scenario.key}: ${response.status} ${response.text.slice(0, 300)}`,
    );
    check(
      verifier(scenario)(response.text),
      `sample ${scenario.key}: autocannon's body check would not accept ${response.text.slice(0, 300)}`,
    );
  }
  for (const scenario of eraPairs.flat()) {
    const modern = scenario.era === '2026';
    const headers = modern
      ? modernHeaders('tools/call', scenario.toolName ?? '')
      : { ...mcpHeaders, 'mcp-session-id': sessionId };
    const response = await post(`${base}/mcp`, withId(scenario, `sample-${scenario.key}`), headers);
    const contentType = response.headers.get('content-type');
    samples[scenario.key] = { status: response.status, contentType, body: response.text };
    const messages = jsonRpcMessages(response.text, contentType);
    const message = messages.find((candidate) => candidate.id === `sample-${scenario.key}`);
    const text =
      (message?.result?.content as Array<{ text?: string }> | undefined)?.map((part) => part.text ?? '').join('\n') ??
      '';
    check(
      response.status === 200 &&
        message !== undefined &&
        message.error === undefined &&
        message.result?.isError !== true &&
        text.includes(scenario.expect) &&
        // 2025: SSE in the session; 2026: a complete result, and no session handed out.
        (modern
          ? message.result?.resultType === 'complete' && response.headers.get('mcp-session-id') === null
          : contentType?.includes('text/event-stream') === true && message.result?.resultType === undefined),
      `sample ${scenario.key}: ${response.status} ${contentType} ${response.text.slice(0, 300)}`,
    );
    check(
      verifier(scenario)(response.text),
      `sample ${scenario.key}: autocannon's body check would not accept ${response.text.slice(0, 300)}`,
    );
  }
  return samples;
}

/** The 2026 row against the 2025 row run just before it: above 1 the 2026 leg is faster (req/s) or slower (latency). */
function eraRatio(legacy: LoadResult, modern: LoadResult) {
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : Number.NaN);
  return {
    legacy: legacy.scenario,
    modern: modern.scenario,
    requestsPerSecond: ratio(modern.requestsPerSecond, legacy.requestsPerSecond),
    p50: ratio(modern.latencyMs.p50, legacy.latencyMs.p50),
    p99: ratio(modern.latencyMs.p99, legacy.latencyMs.p99),
    ...(modern.serverCpuMsPerRequest !== undefined && legacy.serverCpuMsPerRequest !== undefined
      ? {
          serverCpuPerRequest: ratio(modern.serverCpuMsPerRequest, legacy.serverCpuMsPerRequest),
          serverCpuMsPerRequest: { legacy: legacy.serverCpuMsPerRequest, modern: modern.serverCpuMsPerRequest },
        }
      : {}),
  };
}

async function throughput(server: RunningServer) {
  const { sessionId } = await openSession(server.url);
  const sessionsWithLoadSession = (await server.stats()).sessionCount;
  const samples = await sampleCalls(server.url, sessionId);
  const results: LoadResult[] = [];
  const eraRatios: Array<ReturnType<typeof eraRatio>> = [];
  let sessionsAfterModernLoad: number | undefined;
  try {
    if (!erasOnly)
      for (const scenario of [scenarios.restLocal, scenarios.restEverything])
        results.push(await measure(server, scenario));
    for (let round = 0; round < eraRounds; round += 1)
      for (const [legacy, modern] of eraPairs) {
        const legacyLoad = await measure(server, legacy, sessionId);
        const modernLoad = await measure(server, modern);
        results.push(legacyLoad, modernLoad);
        const ratio = eraRatio(legacyLoad, modernLoad);
        eraRatios.push(ratio);
        log(
          `${server.mode} ${modern.key} / ${legacy.key}: req/s × ${ratio.requestsPerSecond}, p50 × ${ratio.p50}, p99 × ${ratio.p99}` +
            `${ratio.serverCpuPerRequest !== undefined ? `, server CPU/request × ${ratio.serverCpuPerRequest}` : ''}`,
        );
      }
    // Hundreds of thousands of 2026 requests must not have left a session (or anything counted as one) behind.
    sessionsAfterModernLoad = (await server.stats()).sessionCount;
    check(
      sessionsAfterModernLoad === sessionsWithLoadSession,
      `2026 load: ${sessionsAfterModernLoad} sessions open after it, ${sessionsWithLoadSession} before (the load session)`,
    );
  } finally {
    const status = await deleteSession(server.url, sessionId);
    check(status === 200, `DELETE of the load session: ${status}`);
  }
  return {
    samples,
    results,
    eraRatios,
    sessionCount: { withLoadSession: sessionsWithLoadSession, afterModernLoad: sessionsAfterModernLoad },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Leak check

function memoryMb(reading: MemoryReading) {
  return {
    rssMb: round(bytesToMb(reading.rss)),
    heapTotalMb: round(bytesToMb(reading.heapTotal)),
    heapUsedMb: round(bytesToMb(reading.heapUsed)),
    externalMb: round(bytesToMb(reading.external)),
    arrayBuffersMb: round(bytesToMb(reading.arrayBuffers)),
    newSpaceMb: round(bytesToMb(reading.newSpaceSize)),
    oldSpaceMb: round(bytesToMb(reading.oldSpaceSize)),
  };
}

function growthMb(before: MemoryReading, after: MemoryReading) {
  const a = memoryMb(after);
  const b = memoryMb(before);
  return Object.fromEntries(
    Object.entries(a).map(([key, value]) => [key, round(value - b[key as keyof typeof b])]),
  ) as ReturnType<typeof memoryMb>;
}

async function leakBatch(server: RunningServer, label: string) {
  const started = performance.now();
  const load = await fire(server.url, server.mode, scenarios.restLocal, { amount: leakRequests });
  const loadMs = performance.now() - started;
  const after = await server.memory();
  check(load.completed >= leakRequests, `leak ${label}: only ${load.completed} of ${leakRequests} requests completed`);
  check(
    load.errors + load.timeouts + load.non2xx + load.mismatches === 0,
    `leak ${label}: ${load.errors} errors, ${load.non2xx} non-2xx, ${load.mismatches} mismatches`,
  );
  log(
    `leak ${label}: RSS ${bytesToMb(after.rss).toFixed(1)} MB, heapUsed ${bytesToMb(after.heapUsed).toFixed(1)} MB after ${load.completed} calls in ${(loadMs / 1000).toFixed(1)} s`,
  );
  return { load, loadSeconds: round(loadMs / 1000, 2), after };
}

/**
 * The measured batch (goal: RSS growth < 20 MB) is followed by a second, identical one: growth that stops after the
 * first batch is the allocator and V8 sizing themselves to the load; growth that repeats is a leak.
 */
async function leakCheck(server: RunningServer, atStart: MemoryReading) {
  const before = await server.memory();
  log(
    `leak: 2 × ${leakRequests.toLocaleString('en-US')} REST calls to local:echo, RSS before ${bytesToMb(before.rss).toFixed(1)} MB (GC: ${before.gc})`,
  );
  const first = await leakBatch(server, 'batch 1');
  const second = await leakBatch(server, 'batch 2');
  const rssGrowthMb = bytesToMb(first.after.rss - before.rss);
  return {
    requests: leakRequests,
    gc: before.gc,
    /** Right after start, before any load: what sections 1–3 grew the process by is V8 and the allocator warming up. */
    atStart: memoryMb(atStart),
    load: first.load,
    loadSeconds: first.loadSeconds,
    before: memoryMb(before),
    after: memoryMb(first.after),
    growth: growthMb(before, first.after),
    rssGrowthMb: round(rssGrowthMb),
    heapUsedGrowthMb: round(bytesToMb(first.after.heapUsed - before.heapUsed)),
    goalMb: leakGoalMb,
    goalMet: rssGrowthMb < leakGoalMb,
    secondBatch: {
      load: second.load,
      loadSeconds: second.loadSeconds,
      after: memoryMb(second.after),
      growth: growthMb(first.after, second.after),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 5. 200 sessions opened and closed

async function pool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

const pidsOf = (stats: ServerStats) => stats.backends.map((backend) => `${backend.id}:${backend.pid ?? '-'}`).join(',');
const childPids = (stats: ServerStats) =>
  stats.childProcesses
    .map((child) => child.pid)
    .sort((a, b) => a - b)
    .join(',');

async function sessionChurn(server: RunningServer) {
  const before = await server.stats();
  remember(before);
  log(
    `sessions: opening ${sessionRounds} (initialize + initialized + tools/list, ${sessionConcurrency} at a time); sessionCount before ${before.sessionCount}`,
  );
  const openStarted = performance.now();
  const opened = await pool(sessionRounds, sessionConcurrency, async () => {
    const { sessionId, initializeMs } = await openSession(server.url);
    const tools = await listTools(server.url, sessionId);
    return { sessionId, initializeMs, tools };
  });
  const openMs = performance.now() - openStarted;
  const peak = await server.stats();
  remember(peak);
  const badLists = opened.filter(({ tools }) => tools.join(',') !== 'tool_discovery,tool_execute').length;
  log(`sessions: ${opened.length} open after ${openMs.toFixed(0)} ms; sessionCount ${peak.sessionCount}; closing`);
  const closeStarted = performance.now();
  const deleteStatuses = await pool(opened.length, sessionConcurrency, (index) =>
    deleteSession(server.url, opened[index]?.sessionId ?? ''),
  );
  const closeMs = performance.now() - closeStarted;
  // The transport's onclose ends the session; give it a tick.
  let after = await server.stats();
  for (let i = 0; i < 20 && after.sessionCount !== before.sessionCount; i += 1) {
    await sleep(50);
    after = await server.stats();
  }
  remember(after);
  const deleteFailures = deleteStatuses.filter((status) => status !== 200).length;
  log(`sessions: closed in ${closeMs.toFixed(0)} ms; sessionCount after ${after.sessionCount}`);
  const initializeMs = opened.map(({ initializeMs }) => initializeMs).sort((a, b) => a - b);
  const result = {
    sessions: sessionRounds,
    concurrency: sessionConcurrency,
    maxSessions: benchMaxSessions,
    openMs: round(openMs, 1),
    closeMs: round(closeMs, 1),
    initializeP50Ms: round(initializeMs[Math.floor(initializeMs.length / 2)] ?? Number.NaN, 2),
    toolsListWrong: badLists,
    deleteNon200: deleteFailures,
    sessionCount: { before: before.sessionCount, peak: peak.sessionCount, after: after.sessionCount },
    toolsChangedListeners: {
      before: before.toolsChangedListeners,
      peak: peak.toolsChangedListeners,
      after: after.toolsChangedListeners,
    },
    backends: { before: before.backends, peak: peak.backends, after: after.backends },
    backendPidsUnchanged: pidsOf(before) === pidsOf(peak) && pidsOf(before) === pidsOf(after),
    serverChildProcesses: { before: before.childProcesses, peak: peak.childProcesses, after: after.childProcesses },
    serverChildProcessesUnchanged: childPids(before) === childPids(peak) && childPids(before) === childPids(after),
  };
  check(
    peak.sessionCount === before.sessionCount + sessionRounds,
    `sessions: ${peak.sessionCount} open at the peak, expected ${before.sessionCount + sessionRounds}`,
  );
  check(after.sessionCount === 0, `sessions: ${after.sessionCount} left after DELETE`);
  check(
    after.toolsChangedListeners === before.toolsChangedListeners,
    `sessions: ${after.toolsChangedListeners} tools-changed listeners on the manager after, ${before.toolsChangedListeners} before`,
  );
  check(badLists === 0, `sessions: ${badLists} tools/list answers without exactly tool_discovery, tool_execute`);
  check(deleteFailures === 0, `sessions: ${deleteFailures} DELETEs not answered 200`);
  check(
    result.backendPidsUnchanged,
    `sessions: backend pids changed: ${pidsOf(before)} / ${pidsOf(peak)} / ${pidsOf(after)}`,
  );
  check(
    result.serverChildProcessesUnchanged,
    `sessions: server child processes changed: ${childPids(before)} / ${childPids(peak)} / ${childPids(after)}`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup check

async function leftoverCheck() {
  const ours = () => childrenOf(process.pid).filter((child) => !isEsbuildService(child));
  for (let i = 0; i < 30 && (ours().length > 0 || [...seenPids].some(isProcessAlive)); i += 1) await sleep(100);
  return {
    pidsSeen: [...seenPids].sort((a, b) => a - b),
    alivePids: [...seenPids].filter(isProcessAlive),
    /** Children of this process left, not counting tsx's esbuild service. */
    childProcesses: ours(),
    allChildProcesses: childrenOf(process.pid),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface Machine extends MachineInfo {
  autocannon: string;
  fastify: string;
  sdk: string;
  sdkServer: string;
  serverEverything: string;
}

type Throughput = Awaited<ReturnType<typeof throughput>>;
type Leak = Awaited<ReturnType<typeof leakCheck>>;
type Sessions = Awaited<ReturnType<typeof sessionChurn>>;

const modeLabel: Record<ServerMode, string> = { child: 'child process', 'in-process': 'in-process' };

function goalCell(load: LoadResult): string {
  if (load.goalRps === undefined) return '';
  const goal = `≥ ${load.goalRps.toLocaleString('en-US')}/s`;
  if (load.goalMet) return `${goal} — met`;
  return `${goal} — **missed by ${((1 - load.requestsPerSecond / load.goalRps) * 100).toFixed(1)} %**`;
}

function markdown(
  machine: Machine,
  runs: Partial<Record<ServerMode, Throughput>>,
  leak: Leak | undefined,
  sessions: Sessions | undefined,
): string {
  const labels: Record<string, string> = Object.fromEntries(
    Object.values(scenarios).map((scenario) => [scenario.key, scenario.label]),
  );
  const rows: string[] = [];
  for (const scenario of Object.values(scenarios)) {
    for (const mode of serverModes) {
      const load = runs[mode]?.results.find((result) => result.scenario === scenario.key);
      if (!load) continue;
      rows.push(
        `| ${labels[scenario.key]} | ${modeLabel[mode]} | ${Math.round(load.requestsPerSecond).toLocaleString('en-US')} | ${load.latencyMs.p50} ms | ` +
          `${load.latencyMs.p99} ms | ${load.latencyMs.max} ms | ${load.completed.toLocaleString('en-US')} | ` +
          `${load.serverCpuMsPerRequest !== undefined ? `${(load.serverCpuMsPerRequest * 1000).toFixed(0)} µs` : '–'} | ` +
          `${load.errors} / ${load.timeouts} / ${load.non2xx} / ${load.mismatches} | ${goalCell(load)} |`,
      );
    }
  }
  const lines = [
    '# HTTP app benchmark (apps/http-server)',
    '',
    `${machineSummary(machine)} · ` +
      `${machine.totalMemoryGb} GB RAM · load ${machine.loadAverageAtStart.join(' / ')} at start, ${(machine.loadAverageAtEnd ?? []).join(' / ')} at end · ` +
      `autocannon ${machine.autocannon} · fastify ${machine.fastify} · SDK ${machine.sdk} (2025 sessions) · ` +
      `@modelcontextprotocol/server ${machine.sdkServer} (2026 leg) · server-everything ${machine.serverEverything}`,
    '',
    `Loopback only (127.0.0.1). autocannon ${connections} connections, pipelining ${pipelining}, ${warmupSeconds} s warm-up (discarded) then ` +
      `${durationSeconds} s measured per row; every response body is checked (mismatches). Server: \`buildHttpApp\` as in the app tests, ` +
      '`rateLimitPerMinute: 0`, silent logger, no audit file, one token, server-everything over stdio. ' +
      '*child process*: the server runs in its own process (bench/http-bench-server.ts under tsx), autocannon alone in the bench ' +
      'process (the headline numbers); *in-process*: server and autocannon share the bench process and its one event loop. ' +
      'On 2 cores the load generator, the server and (for `everything:echo`) the server-everything process compete for CPU. ' +
      `\`/mcp\` ${protocolVersion}: one session opened with initialize + notifications/initialized, then all connections POST \`tools/call\` ` +
      `in it (unique JSON-RPC ids, \`mcp-protocol-version: ${protocolVersion}\`), answers as SSE \`event: message\`. ` +
      `\`/mcp\` ${modernProtocolVersion}: the same \`tools/call\` body plus the request envelope in \`params._meta\` ` +
      '(protocolVersion, clientInfo, clientCapabilities), headers `mcp-protocol-version`, `mcp-method: tools/call`, `mcp-name: <tool>`, ' +
      "no session: the app serves each request with a server instance of its caller's, taken from a pool, and a transport of its own (`createMcpHandler`), answers as JSON " +
      '(checked: `resultType: "complete"`, no `mcp-session-id`). Each 2026 row runs right after its 2025 twin, same backend. ' +
      "req/s is autocannon's mean of per-second counts; latency has 1 ms resolution. *Server CPU / request* (child process only): " +
      "the server process's user + system CPU time over the measured 10 s (/proc, 10 ms ticks) divided by the requests " +
      'completed (server-everything not included): it depends less than req/s on how much CPU other processes leave the server, ' +
      'though a busy machine still inflates it (shared caches, the other vCPU). Compare rows of one run, not runs on other machines.',
    '',
    '| Scenario | Server | req/s | p50 | p99 | max | completed | server CPU / request | errors / timeouts / non-2xx / mismatches | Goal |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
  ];
  const ratioRows: string[] = [];
  for (const mode of serverModes) {
    for (const ratio of runs[mode]?.eraRatios ?? []) {
      const times = (value: number) => `× ${value.toFixed(2)}`;
      ratioRows.push(
        `| ${(labels[ratio.modern] ?? ratio.modern).replace(/ \(.*\)$/, '')} | ${modeLabel[mode]} | ` +
          `**${times(ratio.requestsPerSecond)}** | ${times(ratio.p50)} | ${times(ratio.p99)} | ` +
          `${ratio.serverCpuPerRequest !== undefined ? `**${times(ratio.serverCpuPerRequest)}**` : '–'} |`,
      );
    }
  }
  if (ratioRows.length > 0) {
    lines.push(
      `**${modernProtocolVersion} against ${protocolVersion}** on \`/mcp\` (the 2026 row divided by the 2025 row run just before it; ` +
        'req/s above 1: the 2026 leg serves more; latency above 1: it answers slower):',
      '',
      '| Call | Server | req/s 2026 / 2025 | p50 2026 / 2025 | p99 2026 / 2025 | server CPU per request 2026 / 2025 |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
      ...ratioRows,
      '',
    );
  }
  if (leak) {
    const signed = (mb: number) => `${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`;
    lines.push(
      `**Leak check** (server in a child process; \`process.memoryUsage()\` of that process after forced GCs, GC: ${leak.gc}): ` +
        `${leak.requests.toLocaleString('en-US')} REST calls to \`local:echo\` (${leak.load.requestsPerSecond.toFixed(0)} req/s, ` +
        `${leak.load.errors + leak.load.non2xx + leak.load.mismatches} failed), after sections 1–3 had warmed the server up ` +
        `(RSS right after start, before any load: ${leak.atStart.rssMb.toFixed(1)} MB, V8 new space ${leak.atStart.newSpaceMb.toFixed(1)} MB).`,
      '',
      '| Memory | before | after 100k | growth | after another 100k | growth |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...(
        [
          ['RSS', 'rssMb'],
          ['heapTotal', 'heapTotalMb'],
          ['heapUsed', 'heapUsedMb'],
          ['V8 new space (size)', 'newSpaceMb'],
          ['V8 old space (size)', 'oldSpaceMb'],
          ['external', 'externalMb'],
        ] as const
      ).map(
        ([label, key]) =>
          `| ${label} | ${leak.before[key].toFixed(1)} MB | ${leak.after[key].toFixed(1)} MB | ${key === 'rssMb' ? '**' : ''}${signed(leak.growth[key])}${key === 'rssMb' ? '**' : ''} | ` +
          `${leak.secondBatch.after[key].toFixed(1)} MB | ${signed(leak.secondBatch.growth[key])} |`,
      ),
      '',
      `RSS growth over the first 100k: goal < ${leak.goalMb} MB — ${leak.goalMet ? 'met' : `**missed by ${(leak.rssGrowthMb - leak.goalMb).toFixed(1)} MB**`}.`,
      '',
    );
  }
  if (sessions) {
    const pids = (backends: Sessions['backends']['before']) =>
      backends.map((backend) => `${backend.id} ${backend.pid ?? '-'}`).join(', ');
    lines.push(
      `**Sessions**: ${sessions.sessions} MCP sessions opened (initialize + initialized + tools/list, ${sessions.concurrency} at a time, ` +
        `${sessions.openMs.toFixed(0)} ms, initialize p50 ${sessions.initializeP50Ms} ms; app built with \`maxSessions: ${sessions.maxSessions}\`, the default cap is 100) ` +
        `and closed with DELETE (${sessions.closeMs.toFixed(0)} ms, ${sessions.deleteNon200} not 200). \`http.mcp.sessionCount\`: ` +
        `${sessions.sessionCount.before} before, ${sessions.sessionCount.peak} at the peak, **${sessions.sessionCount.after} after**; ` +
        `\`tools-changed\` listeners on the shared manager ${sessions.toolsChangedListeners.before} / ${sessions.toolsChangedListeners.peak} / ${sessions.toolsChangedListeners.after}. ` +
        `Backend pids ${sessions.backendPidsUnchanged ? 'unchanged' : '**changed**'} (${pids(sessions.backends.before)}); ` +
        `server's child processes (ps --ppid, without esbuild) ${sessions.serverChildProcessesUnchanged ? 'unchanged' : '**changed**'} ` +
        `(${sessions.serverChildProcesses.before.length} before, ${sessions.serverChildProcesses.peak.length} at the peak, ${sessions.serverChildProcesses.after.length} after).`,
      '',
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// --profile: where each era's server CPU goes

const profileIntervalUs = 100;

interface ProfiledWindow {
  load: LoadResult;
  startUs: number;
  endUs: number;
  summary: CpuProfileSummary;
}

async function profileEras(outputPath: string, top: number): Promise<string> {
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-http-bench-'));
  try {
    const server = await startChild([
      '--cpu-prof',
      '--cpu-prof-dir',
      directory,
      '--cpu-prof-interval',
      `${profileIntervalUs}`,
    ]);
    const windows: Array<Omit<ProfiledWindow, 'summary'>> = [];
    try {
      remember(await server.stats());
      const { sessionId } = await openSession(server.url);
      await sampleCalls(server.url, sessionId);
      for (const scenario of [scenarios.mcpLocal, scenarios.mcpModernLocal]) {
        const sessionOf = scenario.era === '2025' ? sessionId : undefined;
        await fire(server.url, server.mode, scenario, { duration: warmupSeconds }, sessionOf);
        const startUs = monotonicMicroseconds();
        const load = await fire(server.url, server.mode, scenario, { duration: durationSeconds }, sessionOf);
        windows.push({ load, startUs, endUs: monotonicMicroseconds() });
        log(
          `profile ${scenario.key}: ${load.completed} requests, ${load.errors + load.non2xx + load.mismatches} failed`,
        );
        check(
          load.completed > 0 && load.errors + load.timeouts + load.non2xx + load.mismatches === 0,
          `profile ${scenario.key}: ${load.completed} completed, ${load.errors} errors, ${load.non2xx} non-2xx, ${load.mismatches} mismatches`,
        );
      }
      check((await deleteSession(server.url, sessionId)) === 200, 'DELETE of the load session');
      remember(await server.stats());
    } finally {
      // The child writes its profile when it exits, which close waits for.
      await server.close();
    }
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: the server's main thread, not a worker's.
    const all = (await readdir(directory)).filter((file) => file.endsWith('.cpuprofile'));
    const files = all.filter((file) => file.split('.')[3] === String(server.pid) && file.split('.')[4] === '0');
    log(`profiles written: ${all.join(', ')}; summarising ${files.join(', ')}`);
    if (files.length !== 1)
      throw new Error(
        `expected one main-thread .cpuprofile of the server (pid ${server.pid}), found ${all.join(', ')}`,
      );
    await copyFile(join(directory, files[0] as string), outputPath);
    const profile = JSON.parse(await readFile(outputPath, 'utf8')) as CpuProfile;
    // Every function and area, so the two eras can be matched row by row; the tables show the top ones.
    const profiled: ProfiledWindow[] = windows.map((window) => ({
      ...window,
      summary: summarizeCpuProfile(profile, window, Number.MAX_SAFE_INTEGER),
    }));
    for (const window of profiled)
      if (window.summary.samples === 0) throw new Error(`no profile samples in the ${window.load.scenario} window`);
    return profileMarkdown(profiled, outputPath, top);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function profileMarkdown(windows: ProfiledWindow[], outputPath: string, top: number): string {
  const [legacy, modern] = windows as [ProfiledWindow, ProfiledWindow];
  const perRequestUs = (window: ProfiledWindow, ms: number) => (ms * 1000) / window.load.completed;
  const us = (value: number) => `${value.toFixed(1)} µs`;
  /** The top `limit` entries of the 2026 window, each with its 2025 self time per request next to it. */
  const compare = (
    pick: (summary: CpuProfileSummary) => CpuProfileSummary['functions'],
    limit: number,
    withArea = true,
  ) => {
    const legacyByName = new Map(pick(legacy.summary).map((entry) => [entry.name, entry]));
    return pick(modern.summary)
      .slice(0, limit)
      .map((entry) => {
        const before = legacyByName.get(entry.name);
        const modernUs = perRequestUs(modern, entry.selfMs);
        const legacyUs = before ? perRequestUs(legacy, before.selfMs) : 0;
        const name =
          entry.name === '' ? '(anonymous native)' : entry.name.includes(' (') ? `\`${entry.name}\`` : entry.name;
        const area = withArea ? ` ${entry.area} |` : '';
        return `| ${name} |${area} ${us(legacyUs)} | ${us(modernUs)} | ${us(modernUs - legacyUs)} |`;
      });
  };
  const header = (what: string, withArea = true) => [
    `| ${what} |${withArea ? ' Area |' : ''} 2025 per request | 2026 per request | 2026 − 2025 |`,
    `| --- |${withArea ? ' --- |' : ''} ---: | ---: | ---: |`,
  ];
  const windowLine = (window: ProfiledWindow, label: string) =>
    `- ${label}: ${window.load.completed.toLocaleString('en-US')} requests (${Math.round(window.load.requestsPerSecond)} req/s under the profiler), ` +
    `server busy ${(window.summary.busyMs / 1000).toFixed(2)} s of ${(window.summary.windowMs / 1000).toFixed(2)} s: ` +
    `**${us(perRequestUs(window, window.summary.busyMs))} of CPU per request**`;
  return [
    '# HTTP app CPU profile: `/mcp` `tool_execute` `local:echo`, 2025 session against 2026 requests',
    '',
    `${machineSummary(machineInfo())} · load ${loadAverage().join(' / ')} · profile: ${outputPath} ` +
      `(open it in Chrome DevTools or speedscope) · sampled every ${profileIntervalUs} µs · ${connections} connections`,
    '',
    windowLine(legacy, `${protocolVersion}, one session`),
    windowLine(modern, `${modernProtocolVersion}, no session`),
    '',
    'Self time per request, by area (package) and by function, the 2026 window against the 2025 one (each cut to its ' +
      'measured seconds; the profiler slows the server down: compare the two columns, not with the table of a normal run).',
    '',
    ...header('Area', false),
    ...compare((summary) => summary.areas, top, false),
    '',
    ...header(`Top ${top} functions by self time (2026)`),
    ...compare((summary) => summary.functions, top),
    '',
    ...header(`Top ${top} functions by total time, callees included (2026)`),
    ...compare((summary) => summary.inclusive, top),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Command line

const usage = `usage: tsx bench/http-bench.ts [--profile [--profile-out FILE] [--top N]]
  (no flags)     the benchmark: writes bench/results/http.{json,md}
  --profile      the server child under node --cpu-prof for the tool_execute local:echo pair (2025 session, then
                 2026 requests): CPU per request and where it goes; writes nothing to results/
  --profile-out  where to keep the .cpuprofile (default: search-mcp-http-<time>.cpuprofile in the temp directory)
  --top N        how many rows the profile tables list (default 25)`;

class UsageError extends Error {}

type Mode = { kind: 'bench' } | { kind: 'profile'; out: string; top: number };

function readMode(argv: string[]): Mode {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        profile: { type: 'boolean' },
        'profile-out': { type: 'string' },
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
  if (!values['profile']) {
    if (values['profile-out'] !== undefined || values['top'] !== undefined)
      throw new UsageError('--profile-out and --top need --profile');
    return { kind: 'bench' };
  }
  const topText = values['top'] as string | undefined;
  const top = topText === undefined ? 25 : Number(topText);
  if (!Number.isSafeInteger(top) || top <= 0)
    throw new UsageError(`--top must be a positive integer, not "${topText}"`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = (values['profile-out'] as string | undefined) ?? join(os.tmpdir(), `search-mcp-http-${stamp}.cpuprofile`);
  return { kind: 'profile', out: resolve(out), top };
}

async function profileMain(mode: Extract<Mode, { kind: 'profile' }>): Promise<void> {
  log(
    `profile: the server child under --cpu-prof (every ${profileIntervalUs} µs), tool_execute local:echo, 2025 then 2026`,
  );
  const md = await profileEras(mode.out, mode.top);
  log(`wrote ${mode.out}`);
  const cleanup = await leftoverCheck();
  check(cleanup.alivePids.length === 0, `processes left: ${cleanup.alivePids.join(', ')}`);
  check(cleanup.childProcesses.length === 0, `child processes left: ${JSON.stringify(cleanup.childProcesses)}`);
  if (failures.length > 0) {
    log(`${failures.length} CHECK(S) FAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
  process.stdout.write(md);
}

/**
 * Each server mode in turn: throughput, then (on the child, or the only mode) the leak check and session churn.
 * `open` holds the server while it runs, so the caller can close it on failure.
 */
async function measureServerModes(open: Set<RunningServer>): Promise<{
  runs: Partial<Record<ServerMode, Throughput>>;
  leak: Leak | undefined;
  sessions: Sessions | undefined;
}> {
  const runs: Partial<Record<ServerMode, Throughput>> = {};
  let leak: Leak | undefined;
  let sessions: Sessions | undefined;
  for (const mode of serverModes) {
    log(`${mode}: starting the server`);
    const server = mode === 'child' ? await startChild() : await startInProcess();
    open.add(server);
    try {
      remember(await server.stats());
      const atStart = await server.memory();
      log(`${mode}: listening on ${server.url} (pid ${server.pid}), RSS ${bytesToMb(atStart.rss).toFixed(1)} MB`);
      runs[mode] = await throughput(server);
      if (!erasOnly && (mode === 'child' || !serverModes.includes('child'))) {
        leak = await leakCheck(server, atStart);
        sessions = await sessionChurn(server);
      }
      remember(await server.stats());
    } finally {
      await server.close();
      open.delete(server);
    }
  }
  return { runs, leak, sessions };
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  let mode: Mode;
  try {
    mode = readMode(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`http-bench: ${error.message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (mode.kind === 'profile') return profileMain(mode);
  const runStarted = performance.now();
  const machine: Machine = {
    ...machineInfo(),
    autocannon: packageVersion('autocannon', require),
    fastify: packageVersion('fastify', requireFromApp),
    sdk: packageVersion('@modelcontextprotocol/sdk', requireFromApp, '@modelcontextprotocol/sdk/server/index.js'),
    /** The 2.x server package: the 2026-07-28 leg (`createMcpHandler`) and the per-request instances. */
    sdkServer: packageVersion('@modelcontextprotocol/server', requireFromApp),
    serverEverything: packageVersion(
      '@modelcontextprotocol/server-everything',
      requireFromApp,
      '@modelcontextprotocol/server-everything/package.json',
    ),
  };
  const childrenAtStart = childrenOf(process.pid);
  const open = new Set<RunningServer>();
  try {
    const { runs, leak, sessions } = await measureServerModes(open);
    machine.loadAverageAtEnd = loadAverage();
    if (erasOnly) {
      for (const [mode, run] of Object.entries(runs)) {
        for (const ratio of run?.eraRatios ?? [])
          process.stdout.write(`${mode} ${ratio.modern} / ${ratio.legacy}: ${JSON.stringify(ratio)}\n`);
        for (const [legacy, modern] of eraRounds > 1 ? eraPairs : []) {
          const rounds = (run?.eraRatios ?? []).filter((ratio) => ratio.modern === modern.key);
          const middle = (values: number[]) => round(median(values), 3);
          process.stdout.write(
            `${mode} ${modern.key} / ${legacy.key}, median of ${rounds.length}: req/s × ${middle(rounds.map((ratio) => ratio.requestsPerSecond))}, ` +
              `server CPU/request × ${middle(rounds.map((ratio) => ratio.serverCpuPerRequest ?? Number.NaN))}\n`,
          );
        }
      }
      if (failures.length > 0) {
        log(`${failures.length} CHECK(S) FAILED:\n  ${failures.join('\n  ')}`);
        process.exitCode = 1;
      }
      return;
    }

    const cleanup = await leftoverCheck();
    check(cleanup.alivePids.length === 0, `processes left: ${cleanup.alivePids.join(', ')}`);
    check(cleanup.childProcesses.length === 0, `child processes left: ${JSON.stringify(cleanup.childProcesses)}`);
    const result = {
      machine,
      durationMs: round(performance.now() - runStarted, 0),
      settings: {
        connections,
        pipelining,
        warmupSeconds,
        durationSeconds,
        requestTimeoutSeconds,
        leakRequests,
        sessionRounds,
        sessionConcurrency,
        protocolVersion,
        modernProtocolVersion,
        serverModes,
        rateLimitPerMinute: 0,
        maxSessions: benchMaxSessions,
      },
      throughput: runs,
      leak,
      sessions,
      cleanup: { ...cleanup, childProcessesAtStart: childrenAtStart },
      failures,
    };
    const md = markdown(machine, runs, leak, sessions);
    const jsonPath = await writeResults('http', result, md);
    log(`wrote ${jsonPath} and http.md in ${(result.durationMs / 1000).toFixed(1)} s`);
    if (failures.length > 0) {
      log(`${failures.length} CHECK(S) FAILED:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      log(`all checks passed; cleanup ok: ${cleanup.pidsSeen.length} processes seen, none left`);
    }
    process.stdout.write(md);
  } finally {
    // On failure: close whatever is still open so no server or backend outlives the run.
    for (const server of open) await server.close().catch(() => {});
  }
}

await main();
