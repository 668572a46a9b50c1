/**
 * Benchmark of a new user's first session (issue 26; README, "The first call of a session" and "Discovery before the
 * servers are up").
 *
 *   npx -y pnpm@10.34.9 bench:first-session
 *
 * Each run starts from a fresh HOME and a cold npx cache (a new `npm_config_cache` folder: every example server is
 * downloaded from the npm registry again) and spawns the built stdio app (`apps/stdio-server/dist/cli.js serve`) on
 * a copy of examples/mcp-servers.json without the web-search entry (it needs an OpenAI key), with an SDK client:
 *   (a) first session: right after `initialize`, the first `tool_execute` (`everything:get-sum`) and the first
 *       `tool_discovery` (one query per server) are sent at once. Goal: the call succeeds in 10 of 10 runs; the
 *       discovery returns every server's tools, waiting at most its documented bound (`discoveryWaitMs`, 30 s);
 *   (b) second session with the same HOME: the first `tool_discovery` returns every server's tools at once, from
 *       the kept lists (goal ≤ 1 s), while the servers are still starting.
 * FIRST_SESSION_BENCH_RUNS sets the run count (default 10).
 *
 * Writes bench/results/first-session.json and .md and prints the markdown to stdout.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { machineInfo, machineSummary, median, progressLog, round, writeResults } from './src/bench-support.js';

const cli = fileURLToPath(new URL('../apps/stdio-server/dist/cli.js', import.meta.url));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const runs = Number(process.env.FIRST_SESSION_BENCH_RUNS ?? 10);
const discoveryBoundMs = 30_000;
const keptListGoalMs = 1000;
const log = progressLog('first-session');

/** One query per example server, and the server whose tools it must find. */
const queries = [
  'add two numbers and return the sum',
  'read the contents of a text file',
  'create entities in the knowledge graph',
];
const servers = ['everything', 'filesystem', 'memory'];

interface Discovery {
  ms: number;
  serversFound: string[];
  everyServer: boolean;
  notice?: string;
}

interface RunResult {
  executeOk: boolean;
  executeMs: number;
  executeProgress: number;
  executeError?: string;
  firstDiscovery: Discovery;
  secondDiscovery: Discovery;
}

async function exampleConfig(directory: string): Promise<string> {
  const config = JSON.parse(await readFile(join(examples, 'mcp-servers.json'), 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };
  delete config.mcpServers['web-search'];
  // The copy lives elsewhere: the filesystem server's folder stays examples/sample-files.
  for (const server of Object.values(config.mcpServers)) if (server.cwd === '.') server.cwd = examples;
  const path = join(directory, 'mcp-servers.json');
  await writeFile(path, JSON.stringify(config));
  return path;
}

function sessionEnvironment(home: string, npmCache: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('SEARCH_MCP_') || key.startsWith('XDG_')) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, npm_config_cache: npmCache };
}

async function connect(config: string, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'serve', '--config', config],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'first-session-bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function discover(client: Client): Promise<Discovery> {
  const started = performance.now();
  const result = await client.callTool(
    { name: 'tool_discovery', arguments: { query: queries, maxResults: 20 } },
    undefined,
    { timeout: 120_000 },
  );
  const ms = performance.now() - started;
  const answer = result.structuredContent as { results: Array<{ serverName: string }>; notice?: string };
  const serversFound = [...new Set(answer.results.map((hit) => hit.serverName))].sort();
  return {
    ms,
    serversFound,
    everyServer: servers.every((id) => serversFound.includes(id)),
    ...(answer.notice ? { notice: answer.notice } : {}),
  };
}

async function execute(
  client: Client,
): Promise<Pick<RunResult, 'executeOk' | 'executeMs' | 'executeProgress' | 'executeError'>> {
  const started = performance.now();
  let progress = 0;
  try {
    const result = await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'everything:get-sum', arguments: { a: 20, b: 22 } } },
      undefined,
      { timeout: 120_000, onprogress: () => (progress += 1) },
    );
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    const ok = result.isError !== true && text.includes('42');
    return {
      executeOk: ok,
      executeMs: performance.now() - started,
      executeProgress: progress,
      ...(ok ? {} : { executeError: text }),
    };
  } catch (error) {
    return {
      executeOk: false,
      executeMs: performance.now() - started,
      executeProgress: progress,
      executeError: error instanceof Error ? error.message : String(error),
    };
  }
}

async function oneRun(run: number): Promise<RunResult> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-first-session-'));
  try {
    const config = await exampleConfig(directory);
    const env = sessionEnvironment(join(directory, 'home'), join(directory, 'npm-cache'));
    const first = await connect(config, env);
    const [executed, firstDiscovery] = await Promise.all([execute(first), discover(first)]);
    await first.close();
    log(
      `run ${run}: execute ${executed.executeOk ? 'ok' : `FAILED (${executed.executeError})`} in ${Math.round(executed.executeMs)} ms; first discovery ${firstDiscovery.serversFound.join(', ')} in ${Math.round(firstDiscovery.ms)} ms`,
    );
    const second = await connect(config, env);
    const secondDiscovery = await discover(second);
    await second.close();
    log(
      `run ${run}: second session discovery ${secondDiscovery.serversFound.join(', ')} in ${Math.round(secondDiscovery.ms)} ms`,
    );
    return { ...executed, firstDiscovery, secondDiscovery };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const results: RunResult[] = [];
  for (let run = 1; run <= runs; run += 1) results.push(await oneRun(run));
  const executeOk = results.filter((result) => result.executeOk).length;
  const firstEvery = results.filter((result) => result.firstDiscovery.everyServer).length;
  const secondEvery = results.filter((result) => result.secondDiscovery.everyServer).length;
  const executeMs = results.map((result) => result.executeMs);
  const firstMs = results.map((result) => result.firstDiscovery.ms);
  const secondMs = results.map((result) => result.secondDiscovery.ms);
  const figures = {
    runs,
    firstExecute: {
      succeeded: executeOk,
      medianMs: round(median(executeMs), 0),
      maxMs: round(Math.max(...executeMs), 0),
    },
    firstDiscovery: {
      everyServer: firstEvery,
      medianMs: round(median(firstMs), 0),
      maxMs: round(Math.max(...firstMs), 0),
      boundMs: discoveryBoundMs,
    },
    secondSessionDiscovery: {
      everyServer: secondEvery,
      medianMs: round(median(secondMs), 0),
      maxMs: round(Math.max(...secondMs), 0),
      goalMs: keptListGoalMs,
    },
  };
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const markdown = [
    '# First session (fresh HOME, cold npx cache)',
    '',
    `${machineSummary(machine)}. ${runs} runs; examples/mcp-servers.json without web-search (everything, filesystem, memory).`,
    '',
    '| figure | result | goal | |',
    '| --- | --- | --- | --- |',
    `| first \`tool_execute\` (everything:get-sum) succeeds | ${executeOk}/${runs} | ${runs}/${runs} | ${met(executeOk === runs)} |`,
    `| its latency (call sent right after initialize), median / max | ${formatSeconds(figures.firstExecute.medianMs)} / ${formatSeconds(figures.firstExecute.maxMs)} | within the server's timeoutMs (60 s) | ${met(figures.firstExecute.maxMs <= 60_000)} |`,
    `| first \`tool_discovery\` of the first session finds every server's tools | ${firstEvery}/${runs} | ${runs}/${runs} | ${met(firstEvery === runs)} |`,
    `| its latency, median / max | ${formatSeconds(figures.firstDiscovery.medianMs)} / ${formatSeconds(figures.firstDiscovery.maxMs)} | ≤ ${discoveryBoundMs / 1000} s (discoveryWaitMs) | ${met(figures.firstDiscovery.maxMs <= discoveryBoundMs + 1000)} |`,
    `| first \`tool_discovery\` of the second session finds every server's tools | ${secondEvery}/${runs} | ${runs}/${runs} | ${met(secondEvery === runs)} |`,
    `| its latency (kept lists), median / max | ${figures.secondSessionDiscovery.medianMs} ms / ${figures.secondSessionDiscovery.maxMs} ms | ≤ ${keptListGoalMs} ms | ${met(figures.secondSessionDiscovery.maxMs <= keptListGoalMs)} |`,
    '',
  ].join('\n');
  const path = await writeResults('first-session', { machine, figures, results }, markdown);
  log(`wrote ${path}`);
  process.stdout.write(markdown);
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
