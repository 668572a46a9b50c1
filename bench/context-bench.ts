/**
 * Context benchmark: how many Claude tokens an AI client loads from search-mcp, measured with real MCP clients.
 *
 *   npx -y pnpm@10.34.9 bench:context
 *
 * The 22 real catalogs of fixtures/real-servers (237 tools) are mounted through
 * apps/stdio-server/test/fixtures/replay-server.mjs (one process per server, answering `tools/list` exactly as
 * recorded), so no server dependency or credential is needed. Measured, with SDK `Client` + `StdioClientTransport`
 * spawning the built `apps/stdio-server/dist/cli.js serve --config <temp config>`:
 *   1. tokens of the JSON of the `tools` array of `tools/list`: meta mode, proxy mode (after all servers connected),
 *      and the sum over the 22 servers of their own `tools/list` (a bare client connected to each one);
 *   2. tokens of a 5-hit `tool_discovery` answer for ~20 realistic requests, at `detail` summary (default),
 *      minimal and full: of the text content (what the model reads) and of the whole result JSON.
 * Token counts are deterministic, so nothing is repeated; timings shown are for orientation only.
 *
 * Writes bench/results/context.json and bench/results/context.md and prints the markdown to stdout.
 * Everything else (progress) goes to stderr. Exits 1 if a process it started is left at the end.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { realServerFixturesDirectory } from '@search-mcp/test-kit/real-servers';
import {
  collectStderrTail,
  leftoverProcesses,
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  packageVersion,
  processTreeIds,
  progressLog,
  round,
  sleep,
  textContentOf,
  waitForExit,
  writeResults,
  type MachineInfo,
} from './src/bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

/** The recorded real servers' tool lists (`SEARCH_MCP_REAL_SERVERS`: another folder of `<server>.tools.json`). */
const fixturesDirectory = process.env['SEARCH_MCP_REAL_SERVERS'] ?? realServerFixturesDirectory;
/** Goals: meta-mode tools/list ≤ 600 tokens and ≥ 99 % less than connecting every server directly. */
const metaGoalTokens = 600;
const metaGoalSavings = 0.99;
/** Goal: a 5-hit tool_discovery answer at the default detail ≤ 2,500 tokens (its text, what the model reads). */
const discoveryGoalTokens = 2500;
const discoveryMaxResults = 5;
/** How long to wait for all 22 servers to be connected (proxy tools/list complete; discovery without notice). */
const connectDeadlineMs = 45_000;
const pollIntervalMs = 100;
const doctorTimeoutMs = 60_000;

/** Realistic requests across the 22 servers (English and Japanese), written before looking at the answers. */
const discoveryQueries: string[] = [
  'create a GitHub issue',
  'take a screenshot of a web page',
  'list kubernetes pods',
  'query a postgres database',
  'send a Slack message',
  'search the web',
  'ファイルを読む',
  'open a pull request for my branch',
  'get driving directions from Tokyo Station to Shibuya',
  'scrape a page and return it as markdown',
  'store a value in redis under a key',
  'look up the docs of a library, e.g. React useEffect',
  'generate an image of a cat in watercolor',
  'remember that Alice works at Acme',
  'find the Q3 report in Google Drive',
  'run a SQL migration on my Supabase project',
  'add a comment to a Notion page',
  'show the logs of a crashing pod',
  'think through a hard problem step by step',
  'ディレクトリを作成する',
  'fill in the login form in the browser',
  'create a merge request on GitLab',
];
const discoveryDetails = ['summary', 'minimal', 'full'] as const;
type Detail = (typeof discoveryDetails)[number];

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const appDirectory = join(rootDirectory, 'apps', 'stdio-server');
const cliPath = join(appDirectory, 'dist', 'cli.js');
const replayServerPath = join(appDirectory, 'test', 'fixtures', 'replay-server.mjs');
/** The SDK as apps/stdio-server resolves it; Anthropic's tokenizer is this bench's own devDependency. */
const requireFromApp = createRequire(join(appDirectory, 'package.json'));
const requireFromBench = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const log = progressLog('context-bench');

interface TokenizerModule {
  countTokens(text: string): number;
  getTokenizer(): { encode(text: string, allowedSpecial?: 'all'): Uint32Array; free(): void };
}
const tokenizer = requireFromBench('@anthropic-ai/tokenizer') as TokenizerModule;
// `countTokens` builds a new tokenizer from the BPE ranks on every call (~100 ms); this does the same encode with one
// tokenizer built once. Checked against `countTokens` on the meta, proxy and discovery texts below.
const sharedTokenizer = tokenizer.getTokenizer();
function countText(text: string): number {
  return sharedTokenizer.encode(text.normalize('NFKC'), 'all').length;
}
/** Claude tokens of the JSON of a value, as apps/stdio-server/src/context-cost.ts counts them. */
function tokensOf(value: unknown): number {
  return countText(JSON.stringify(value));
}
const countTokenChecks: Array<{ what: string; cached: number; countTokens: number }> = [];
function checkAgainstCountTokens(what: string, text: string): void {
  const cached = countText(text);
  const reference = tokenizer.countTokens(text);
  countTokenChecks.push({ what, cached, countTokens: reference });
  if (cached !== reference) throw new Error(`tokenizer mismatch on ${what}: ${cached} vs countTokens ${reference}`);
}

/** Every process this run started (directly or through search-mcp), to prove at the end that none is left. */
const seenPids = new Set<number>();
const openClients = new Set<Client>();

function rememberTree(pid: number | null): void {
  if (pid === null) return;
  for (const treePid of processTreeIds(pid)) seenPids.add(treePid);
}

/** The `tools` of `tools/list` as sent, unparsed (ResultSchema is a loose object: every field passes unchanged). */
async function listToolsRaw(client: Client): Promise<unknown[]> {
  const result = await client.request({ method: 'tools/list', params: {} }, ResultSchema);
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools))
    throw new Error(`tools/list without a tools array: ${JSON.stringify(result).slice(0, 200)}`);
  return tools;
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

// ---------------------------------------------------------------------------------------------------------------
// Fixtures and config

interface Fixture {
  id: string;
  path: string;
  tools: unknown[];
}

function loadFixtures(): Fixture[] {
  const files = readdirSync(fixturesDirectory)
    .filter((file) => file.endsWith('.tools.json'))
    .sort();
  return files.map((file) => {
    const path = join(fixturesDirectory, file);
    const recorded = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    const tools = Array.isArray(recorded) ? recorded : (recorded as { tools?: unknown[] }).tools;
    if (!Array.isArray(tools)) throw new Error(`${path}: neither an array nor { tools: [...] }`);
    return { id: file.replace(/\.tools\.json$/, ''), path, tools };
  });
}

async function writeConfig(directory: string, fixtures: readonly Fixture[]): Promise<string> {
  const mcpServers: Record<string, { command: string; args: string[] }> = {};
  for (const fixture of fixtures)
    mcpServers[fixture.id] = { command: process.execPath, args: [replayServerPath, fixture.path] };
  const path = join(directory, 'mcp-servers.json');
  await writeFile(path, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
  return path;
}

// ---------------------------------------------------------------------------------------------------------------
// search-mcp through a real client

interface SearchMcpSession {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  spawnedAt: number;
  connectMs: number;
  listChangedNotifications: number;
  stderrTail: string[];
}

async function startSearchMcp(configPath: string, mode: 'meta' | 'proxy'): Promise<SearchMcpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--config', configPath, '--mode', mode, '--log-level', 'warn'],
    stderr: 'pipe',
  });
  const stderrTail = collectStderrTail(transport.stderr);
  const client = new Client({ name: `context-bench-${mode}`, version: '0.0.0' }, { capabilities: {} });
  openClients.add(client);
  const session: SearchMcpSession = {
    client,
    transport,
    pid: -1,
    spawnedAt: performance.now(),
    connectMs: 0,
    listChangedNotifications: 0,
    stderrTail,
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    session.listChangedNotifications += 1;
  });
  await client.connect(transport);
  session.connectMs = performance.now() - session.spawnedAt;
  if (transport.pid === null) throw new Error('search-mcp has no pid');
  session.pid = transport.pid;
  seenPids.add(session.pid);
  return session;
}

async function closeSession(session: SearchMcpSession): Promise<number> {
  rememberTree(session.pid);
  const tree = processTreeIds(session.pid);
  const started = performance.now();
  await session.client.close();
  openClients.delete(session.client);
  await waitForExit(tree, 100, 50);
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. What a client loads: meta, proxy, direct

async function measureMeta(configPath: string) {
  const session = await startSearchMcp(configPath, 'meta');
  try {
    const tools = await listToolsRaw(session.client);
    const listMs = performance.now() - session.spawnedAt;
    const names = tools.map((tool) => (tool as { name?: string }).name);
    if (!names.includes('tool_discovery') || !names.includes('tool_execute'))
      throw new Error(`meta tools/list: ${JSON.stringify(names)}`);
    const json = JSON.stringify(tools);
    checkAgainstCountTokens('meta tools/list', json);
    const instructions = session.client.getInstructions() ?? '';
    return {
      tools: tools.length,
      names,
      tokens: countText(json),
      jsonChars: json.length,
      instructionsTokens: instructions ? countText(instructions) : 0,
      instructionsChars: instructions.length,
      spawnToListMs: round(listMs, 1),
      session,
    };
  } catch (error) {
    await closeSession(session);
    throw error;
  }
}

async function measureProxy(configPath: string, expectedTools: number) {
  const session = await startSearchMcp(configPath, 'proxy');
  try {
    const deadline = session.spawnedAt + connectDeadlineMs;
    let tools = await listToolsRaw(session.client);
    const firstListTools = tools.length;
    const growth: Array<{ ms: number; tools: number }> = [
      { ms: round(performance.now() - session.spawnedAt, 0), tools: tools.length },
    ];
    while (tools.length < expectedTools && performance.now() < deadline) {
      await sleep(pollIntervalMs);
      tools = await listToolsRaw(session.client);
      if (tools.length !== growth[growth.length - 1]?.tools)
        growth.push({ ms: round(performance.now() - session.spawnedAt, 0), tools: tools.length });
    }
    const completeMs = performance.now() - session.spawnedAt;
    const complete = tools.length >= expectedTools;
    if (!complete)
      log(
        `proxy: only ${tools.length}/${expectedTools} tools after ${connectDeadlineMs} ms; stderr: ${session.stderrTail.join(' | ')}`,
      );
    // Let the last debounced list_changed arrive before counting them.
    await sleep(400);
    rememberTree(session.pid);
    const json = JSON.stringify(tools);
    checkAgainstCountTokens('proxy tools/list', json);
    const names = tools.map((tool) => (tool as { name?: string }).name ?? '');
    return {
      tools: tools.length,
      complete,
      firstListTools,
      spawnToCompleteMs: round(completeMs, 0),
      growth,
      listChangedNotifications: session.listChangedNotifications,
      tokens: countText(json),
      jsonChars: json.length,
      badNames: names.filter((name) => !/^[a-zA-Z0-9_-]{1,64}$/.test(name)),
      listed: tools,
      closeMs: round(await closeSession(session), 0),
    };
  } catch (error) {
    await closeSession(session);
    throw error;
  }
}

async function measureDirect(fixtures: readonly Fixture[]) {
  const started = performance.now();
  const perServer = await Promise.all(
    fixtures.map(async (fixture) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [replayServerPath, fixture.path],
        stderr: 'ignore',
      });
      const client = new Client({ name: 'context-bench-direct', version: '0.0.0' }, { capabilities: {} });
      openClients.add(client);
      try {
        await client.connect(transport);
        if (transport.pid !== null) seenPids.add(transport.pid);
        const tools = await listToolsRaw(client);
        const serverName = client.getServerVersion()?.name;
        const json = JSON.stringify(tools);
        const basics = tools.map((tool) => {
          const { name, description, inputSchema } = tool as {
            name?: string;
            description?: string;
            inputSchema?: unknown;
          };
          return { name, description, inputSchema };
        });
        return {
          id: fixture.id,
          /** Only name, description and inputSchema of each tool (no title, annotations, outputSchema, …). */
          tokensNameDescriptionSchema: tokensOf(basics),
          serverName,
          tools: tools.length,
          tokens: countText(json),
          jsonChars: json.length,
          /** The replay server must send the recording unchanged, or we would be measuring something else. */
          identicalToFixture: json === JSON.stringify(fixture.tools),
          listed: tools,
        };
      } finally {
        await client.close().catch(() => {});
        openClients.delete(client);
      }
    }),
  );
  const wrong = perServer.filter((entry) => !entry.identicalToFixture || entry.serverName !== entry.id);
  if (wrong.length > 0)
    throw new Error(`replay servers differ from their fixtures: ${wrong.map((entry) => entry.id).join(', ')}`);
  return {
    servers: perServer.length,
    tools: perServer.reduce((total, entry) => total + entry.tools, 0),
    tokens: perServer.reduce((total, entry) => total + entry.tokens, 0),
    tokensNameDescriptionSchema: perServer.reduce((total, entry) => total + entry.tokensNameDescriptionSchema, 0),
    /** All 22 lists as one JSON array, for comparison (one tokenization instead of 22). */
    tokensAsOneList: tokensOf(perServer.flatMap((entry) => entry.listed)),
    wallMs: round(performance.now() - started, 0),
    perServer: perServer.map(({ listed: _listed, ...rest }) => rest),
    listed: perServer.flatMap((entry) => entry.listed.map((tool) => ({ server: entry.id, tool }))),
  };
}

/** Proxy mode must pass every definition unchanged except its name: compare with what the servers sent. */
function compareProxyWithDirect(
  proxyListed: readonly unknown[],
  directListed: ReadonlyArray<{ server: string; tool: unknown }>,
) {
  const byExposedName = new Map<string, unknown>();
  for (const tool of proxyListed) byExposedName.set((tool as { name: string }).name, tool);
  const missing: string[] = [];
  const changed: string[] = [];
  for (const { server, tool } of directListed) {
    const name = (tool as { name: string }).name;
    const exposed = `${server}__${name}`;
    const listed = byExposedName.get(exposed);
    if (listed === undefined) {
      missing.push(exposed);
      continue;
    }
    if (JSON.stringify({ ...(listed as object), name }) !== JSON.stringify(tool)) changed.push(exposed);
  }
  return { missing, changed };
}

/** Cross-check: what `search-mcp doctor --json` computes in-process (apps/stdio-server/src/context-cost.ts). */
async function doctorContextCost(configPath: string): Promise<Record<string, number> | { error: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, 'doctor', '--config', configPath, '--json'],
      { timeout: doctorTimeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout) => {
        try {
          const parsed = JSON.parse(stdout) as { contextCost?: Record<string, number> };
          if (parsed.contextCost) resolve(parsed.contextCost);
          else resolve({ error: `no contextCost in doctor output (${error?.message ?? 'exit 0'})` });
        } catch {
          resolve({ error: `doctor failed: ${error?.message ?? 'unparseable output'}` });
        }
      },
    );
    if (child.pid !== undefined) {
      seenPids.add(child.pid);
      // Remember doctor's servers while they run, for the clean-up check.
      const timer = setInterval(() => child.pid !== undefined && rememberTree(child.pid), 200);
      child.once('exit', () => clearInterval(timer));
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 2. tool_discovery answers

interface DiscoverySample {
  query: string;
  detail: Detail;
  hits: number;
  topToolKeys: string[];
  textTokens: number;
  resultTokens: number;
  textChars: number;
  ms: number;
}

async function waitUntilAllConnected(session: SearchMcpSession): Promise<{ ms: number; calls: number }> {
  // tool_discovery itself waits up to 5 s for starting servers, then answers with a `notice` naming them.
  let calls = 0;
  while (performance.now() - session.spawnedAt < connectDeadlineMs) {
    calls += 1;
    const result = await callToolRaw(session.client, 'tool_discovery', { query: 'warm up', maxResults: 1 });
    const structured = result['structuredContent'] as { notice?: string } | undefined;
    // The notice also says when nothing matches 'warm up' well; only its connection sentences mean "not yet".
    const notice = structured?.notice ?? '';
    if (result['isError'] !== true && !/Still connecting|Not available/.test(notice))
      return { ms: round(performance.now() - session.spawnedAt, 0), calls };
    log(`discovery: not all connected yet (${structured?.notice ?? textContentOf(result)})`);
    await sleep(250);
  }
  throw new Error(
    `not all servers connected after ${connectDeadlineMs} ms; search-mcp stderr: ${session.stderrTail.join(' | ')}`,
  );
}

async function measureDiscovery(session: SearchMcpSession) {
  const ready = await waitUntilAllConnected(session);
  rememberTree(session.pid);
  log(`discovery: all servers connected ${ready.ms} ms after spawn`);
  const samples: DiscoverySample[] = [];
  for (const query of discoveryQueries) {
    for (const detail of discoveryDetails) {
      const started = performance.now();
      const result = await callToolRaw(session.client, 'tool_discovery', {
        query,
        maxResults: discoveryMaxResults,
        detail,
      });
      const ms = performance.now() - started;
      if (result['isError'] === true)
        throw new Error(`tool_discovery "${query}" (${detail}) failed: ${textContentOf(result)}`);
      const structured = result['structuredContent'] as
        | { results?: Array<{ toolKey: string }>; notice?: string }
        | undefined;
      const results = structured?.results ?? [];
      if (structured?.notice) log(`discovery "${query}": notice ${structured.notice}`);
      const text = textContentOf(result);
      if (samples.length === 0) checkAgainstCountTokens(`discovery text "${query}" ${detail}`, text);
      samples.push({
        query,
        detail,
        hits: results.length,
        topToolKeys: results.map((hit) => hit.toolKey),
        textTokens: countText(text),
        resultTokens: tokensOf(result),
        textChars: text.length,
        ms: round(ms, 1),
      });
    }
  }
  const byDetail = Object.fromEntries(
    discoveryDetails.map((detail) => {
      const of = samples.filter((sample) => sample.detail === detail);
      const text = of.map((sample) => sample.textTokens);
      const whole = of.map((sample) => sample.resultTokens);
      const largest = of.reduce((max, sample) => (sample.textTokens > max.textTokens ? sample : max));
      return [
        detail,
        {
          queries: of.length,
          textTokensMedian: median(text),
          textTokensMax: Math.max(...text),
          resultTokensMedian: median(whole),
          resultTokensMax: Math.max(...whole),
          largestQuery: largest.query,
          largestTopToolKeys: largest.topToolKeys,
          fewerHitsThanAsked: of.filter((sample) => sample.hits < discoveryMaxResults).map((sample) => sample.query),
        },
      ];
    }),
  ) as Record<
    Detail,
    {
      queries: number;
      textTokensMedian: number;
      textTokensMax: number;
      resultTokensMedian: number;
      resultTokensMax: number;
      largestQuery: string;
      largestTopToolKeys: string[];
      fewerHitsThanAsked: string[];
    }
  >;
  return { maxResults: discoveryMaxResults, allConnectedAfterMs: ready.ms, byDetail, samples };
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup check

function leftoverCheck(directory: string) {
  return leftoverProcesses(seenPids, directory, {
    replayServer: 'replay-server',
    serverEverything: 'server-everything',
    distCli: 'dist/cli.js',
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const number = (value: number) => Math.round(value).toLocaleString('en-US');

type MetaResult = Omit<Awaited<ReturnType<typeof measureMeta>>, 'session'>;
type ProxyResult = Omit<Awaited<ReturnType<typeof measureProxy>>, 'listed'>;
type DirectResult = Omit<Awaited<ReturnType<typeof measureDirect>>, 'listed'>;
type DiscoveryResult = Awaited<ReturnType<typeof measureDiscovery>>;

function markdown(
  machine: Machine,
  meta: MetaResult,
  proxy: ProxyResult,
  direct: DirectResult,
  savings: number,
  discovery: DiscoveryResult,
  doctor: Record<string, number> | { error: string },
): string {
  const met = (ok: boolean, goal: string, miss: string) =>
    ok ? `${goal} — met` : `${goal} — **missed${miss ? ` by ${miss}` : ''}**`;
  const summary = discovery.byDetail.summary;
  const lines = [
    '# Context benchmark (what an AI client loads)',
    '',
    `${machineSummary(machine)} · ` +
      `load ${machine.loadAverageAtStart.join(' / ')} at start · SDK ${machine.sdk} · @anthropic-ai/tokenizer ${machine.tokenizer}`,
    '',
    `${direct.servers} real MCP server catalogs (${direct.tools} tools, fixtures/real-servers) replayed by ` +
      '`apps/stdio-server/test/fixtures/replay-server.mjs`; real SDK clients spawning `apps/stdio-server/dist/cli.js serve`. ' +
      'Tokens: Claude tokenizer on the JSON of the `tools` array of `tools/list` (as `context-cost.ts` counts).',
    '',
    '## Before the first message: `tools/list`',
    '',
    '| What the client loads | Tools | Claude tokens | Goal |',
    '| --- | ---: | ---: | --- |',
    `| search-mcp, meta mode (default) | ${meta.tools} | ${number(meta.tokens)} | ${met(meta.tokens <= metaGoalTokens, `≤ ${metaGoalTokens}`, `${number(meta.tokens - metaGoalTokens)} tokens`)} |`,
    `| search-mcp, proxy mode (all ${direct.servers} connected) | ${proxy.tools} | ${number(proxy.tokens)} | |`,
    `| every server connected directly (sum of ${direct.servers} \`tools/list\`) | ${direct.tools} | ${number(direct.tokens)} | |`,
    `| meta vs direct | | ${(savings * 100).toFixed(2)} % less | ${met(savings >= metaGoalSavings, `≥ ${metaGoalSavings * 100} % less`, `${((metaGoalSavings - savings) * 100).toFixed(2)} points`)} |`,
    `| direct, counting only name + description + inputSchema of each tool | ${direct.tools} | ${number(direct.tokensNameDescriptionSchema)} | |`,
    `| meta mode \`initialize\` instructions (not in tools/list; clients may also load it) | | ${number(meta.instructionsTokens)} | |`,
    '',
    `Meta mode answered \`tools/list\` ${meta.spawnToListMs} ms after spawn. Proxy mode: the first \`tools/list\` had ` +
      `${proxy.firstListTools} tools; all ${proxy.tools} were listed ${number(proxy.spawnToCompleteMs)} ms after spawn, ` +
      `${proxy.listChangedNotifications} \`notifications/tools/list_changed\` received. ` +
      (proxy.tokens > direct.tokens
        ? `Proxy costs ${number(proxy.tokens - direct.tokens)} tokens more than direct (the \`server__\` prefixes). `
        : '') +
      ('error' in doctor
        ? `\`search-mcp doctor --json\` cross-check failed: ${doctor.error}.`
        : `\`search-mcp doctor --json\` (in-process, context-cost.ts) says meta ${number(doctor['metaTokens'] ?? NaN)} / proxy ` +
          `${number(doctor['proxyTokens'] ?? NaN)} / direct ${number(doctor['directTokens'] ?? NaN)} tokens.`),
    '',
    `## A ${discovery.maxResults}-hit \`tool_discovery\` answer (${summary.queries} requests)`,
    '',
    'Text = the text content (compact JSON, what the model reads); whole result = JSON of the entire `CallToolResult` (text + structuredContent).',
    '',
    '| detail | text median | text max | whole result median | whole result max | Goal |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...discoveryDetails.map((detail) => {
      const entry = discovery.byDetail[detail];
      const over = discovery.samples.filter(
        (sample) => sample.detail === detail && sample.textTokens > discoveryGoalTokens,
      ).length;
      const goal =
        detail === 'summary'
          ? `${met(entry.textTokensMedian <= discoveryGoalTokens, `median ≤ ${number(discoveryGoalTokens)}`, `${number(entry.textTokensMedian - discoveryGoalTokens)} tokens`)}; ` +
            `${met(entry.textTokensMax <= discoveryGoalTokens, 'max', `${number(entry.textTokensMax - discoveryGoalTokens)} tokens`)} ` +
            `(${over}/${entry.queries} requests over)`
          : '';
      return `| ${detail}${detail === 'summary' ? ' (default)' : ''} | ${number(entry.textTokensMedian)} | ${number(entry.textTokensMax)} | ${number(entry.resultTokensMedian)} | ${number(entry.resultTokensMax)} | ${goal} |`;
    }),
    '',
    `Largest summary answer: "${summary.largestQuery}" (${summary.largestTopToolKeys.join(', ')}).`,
    '',
    '| Request | Top hit | summary | minimal | full |',
    '| --- | --- | ---: | ---: | ---: |',
    ...discoveryQueries.map((query) => {
      const of = (detail: Detail) =>
        discovery.samples.find((sample) => sample.query === query && sample.detail === detail);
      return `| ${query} | ${of('summary')?.topToolKeys[0] ?? '—'} | ${number(of('summary')?.textTokens ?? NaN)} | ${number(of('minimal')?.textTokens ?? NaN)} | ${number(of('full')?.textTokens ?? NaN)} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

interface Machine extends MachineInfo {
  sdk: string;
  tokenizer: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const runStarted = performance.now();
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npx -y pnpm@10.34.9 build\` first`);
  const machine: Machine = {
    ...machineInfo(),
    sdk: packageVersion('@modelcontextprotocol/sdk', requireFromApp, '@modelcontextprotocol/sdk/client/index.js'),
    tokenizer: packageVersion('@anthropic-ai/tokenizer', requireFromBench),
  };
  const fixtures = loadFixtures();
  const expectedTools = fixtures.reduce((total, fixture) => total + fixture.tools.length, 0);
  log(`${fixtures.length} fixtures, ${expectedTools} tools`);
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-context-bench-'));
  let metaSession: SearchMcpSession | undefined;
  try {
    const configPath = await writeConfig(directory, fixtures);

    log('direct: a bare SDK client to each replay server');
    const directFull = await measureDirect(fixtures);
    log(`direct: ${directFull.tools} tools, ${directFull.tokens} tokens (${directFull.wallMs} ms)`);

    log('meta: search-mcp serve (meta mode)');
    const metaFull = await measureMeta(configPath);
    metaSession = metaFull.session;
    log(
      `meta: ${metaFull.tools} tools, ${metaFull.tokens} tokens, tools/list ${metaFull.spawnToListMs} ms after spawn`,
    );

    log('discovery: requests through the meta-mode client');
    const discovery = await measureDiscovery(metaSession);
    const metaCloseMs = round(await closeSession(metaSession), 0);
    metaSession = undefined;
    const { session: _session, ...meta } = metaFull;

    log('proxy: search-mcp serve --mode proxy, waiting for every server');
    const proxyFull = await measureProxy(configPath, expectedTools);
    log(
      `proxy: ${proxyFull.tools} tools, ${proxyFull.tokens} tokens, complete after ${proxyFull.spawnToCompleteMs} ms`,
    );
    const proxyVsDirect = compareProxyWithDirect(proxyFull.listed, directFull.listed);
    if (proxyVsDirect.missing.length + proxyVsDirect.changed.length > 0) {
      log(
        `proxy vs direct: missing ${proxyVsDirect.missing.join(', ') || 'none'}; changed ${proxyVsDirect.changed.join(', ') || 'none'}`,
      );
    }
    const { listed: _proxyListed, ...proxy } = proxyFull;
    const { listed: _directListed, ...direct } = directFull;

    log('doctor: cross-check with `search-mcp doctor --json`');
    const doctor = await doctorContextCost(configPath);

    const savings = 1 - meta.tokens / direct.tokens;
    machine.loadAverageAtEnd = loadAverage();
    const cleanup = await leftoverCheck(directory);
    const leftovers =
      cleanup.aliveSeenPids.length +
      cleanup.childProcesses.length +
      cleanup.pgrepOurs.replayServer.length +
      cleanup.pgrepOurs.serverEverything.length +
      cleanup.pgrepOurs.distCli.length;

    const result = {
      machine,
      durationMs: round(performance.now() - runStarted, 0),
      goals: {
        metaTokens: metaGoalTokens,
        metaSavings: metaGoalSavings,
        discoverySummaryTextTokens: discoveryGoalTokens,
      },
      contextAtStart: {
        meta: { ...meta, closeMs: metaCloseMs },
        proxy: { ...proxy, vsDirect: proxyVsDirect },
        direct,
        metaSavings: round(savings, 5),
        goalsMet: { metaTokens: meta.tokens <= metaGoalTokens, metaSavings: savings >= metaGoalSavings },
        doctorCrossCheck: doctor,
      },
      discovery: {
        ...discovery,
        goalMet: {
          summaryTextMedian: discovery.byDetail.summary.textTokensMedian <= discoveryGoalTokens,
          summaryTextMax: discovery.byDetail.summary.textTokensMax <= discoveryGoalTokens,
        },
      },
      tokenizerCheck: countTokenChecks,
      cleanup,
    };
    const md = markdown(machine, meta, proxy, direct, savings, discovery, doctor);
    const jsonPath = await writeResults('context', result, md);
    log(`wrote ${jsonPath} and context.md in ${(result.durationMs / 1000).toFixed(1)} s`);
    if (leftovers > 0) {
      log(`LEFTOVER PROCESSES: ${JSON.stringify(cleanup)}`);
      process.exitCode = 1;
    } else {
      log(`cleanup ok: all ${cleanup.processesSeen} processes this run started have ended`);
    }
    process.stdout.write(md);
  } finally {
    // On failure: close whatever is still open so no server outlives the run.
    if (metaSession) await closeSession(metaSession).catch(() => {});
    for (const client of openClients) await client.close().catch(() => {});
    sharedTokenizer.free();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
