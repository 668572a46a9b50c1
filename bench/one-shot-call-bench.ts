/**
 * Benchmark of a one-shot `search-mcp call` beside broken and slow servers (issue 26: "one-shot commands start only
 * what they need").
 *
 *   npx -y pnpm@10.34.9 bench:one-shot-call
 *
 * The config holds server-everything, a broken entry (a typo'd `arg`: `node` without its script reads a program from
 * stdin and never answers) and a slow one (server-everything again, started 8 s late; it leaves a mark when spawned).
 * Measured in the same run, interleaved:
 *   (a) server-everything's own start: spawn → initialized, with a bare SDK client over stdio;
 *   (b) `search-mcp call everything:get-sum '{"a":20,"b":22}'`: spawn of the CLI → its answer on stdout, and → its
 *       exit (after it has ended the server), answer checked.
 *   (c) for the breakdown: a fresh `node` loading the CLI's `call` command chunk and what it imports (the runtime),
 *       which the CLI loads while the server starts (the server is spawned first, `prestart-call-server.ts`; the SDK
 *       client loads after the runtime);
 *   (d) for context: the same call without Search MCP, a fresh `node` whose 1.x SDK client spawns server-everything,
 *       calls get-sum and exits.
 * Goal: (b)'s answer ≤ 2 × (a) (medians); its exit is reported beside. The slow entry's mark must never appear: `call` starts only its own server.
 *
 * Writes bench/results/one-shot-call.json and .md and prints the markdown to stdout.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  machineInfo,
  machineSummary,
  median,
  packageBinEntry,
  progressLog,
  round,
  writeResults,
} from './src/bench-support.js';

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL('../apps/stdio-server/dist/cli.js', import.meta.url));
const everything = packageBinEntry('@modelcontextprotocol/server-everything', require);
const runs = Number(process.env.ONE_SHOT_CALL_BENCH_RUNS ?? 7);
const goalRatio = 2;
const slowDelayMs = 8000;
const log = progressLog('one-shot-call');

/** (a): spawn → initialized of server-everything with a bare SDK client; the process is closed after. */
async function everythingStartMs(): Promise<number> {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [everything], stderr: 'ignore' });
  const client = new Client({ name: 'one-shot-call-bench', version: '1' });
  await client.connect(transport);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

/**
 * (b): the CLI's wall time from spawn to its answer on stdout (what the issue measures: "answers in") and to its exit
 * (a script reading the output waits for that), with the answer checked.
 */
function callMs(config: string): Promise<{ answerMs: number; exitMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'call', 'everything:get-sum', '{"a":20,"b":22}', '--config', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answerMs: number | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (answerMs === undefined && stdout.includes('42')) answerMs = performance.now() - started;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const exitMs = performance.now() - started;
      if (code !== 0) reject(new Error(`call failed (exit ${code}):\n${stderr}`));
      else if (answerMs === undefined) reject(new Error(`call answered without 42: ${stdout}`));
      else resolve({ answerMs, exitMs });
    });
  });
}

/**
 * (c): a fresh node loading the `call` command of the built CLI, as the CLI does while its server starts: the chunk
 * esbuild made for `src/commands/call-command.ts` (the CLI is one bundle: apps/stdio-server README, "How it is
 * built"), with the runtime and the rest of what it imports statically. The SDK client loads later, at the connect.
 */
function bootMs(): Promise<number> {
  const metafile = JSON.parse(readFileSync(join(dirname(cli), 'metafile-esm.json'), 'utf8')) as {
    outputs: Record<string, { entryPoint?: string }>;
  };
  const output = Object.entries(metafile.outputs).find(([, { entryPoint }]) =>
    entryPoint?.endsWith('src/commands/call-command.ts'),
  )?.[0];
  if (output === undefined) throw new Error('the CLI build has no chunk for src/commands/call-command.ts');
  const chunk = join(dirname(dirname(cli)), output);
  return nodeScriptMs(`await import(${JSON.stringify(pathToFileURL(chunk).href)});`);
}

/**
 * (d): the same call without Search MCP: a fresh node with the 1.x SDK client spawns server-everything, connects,
 * calls get-sum, closes and exits (what any Node MCP client pays for this one-shot call).
 */
function bareCallMs(): Promise<number> {
  const sdk = (path: string) =>
    JSON.stringify(pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href);
  const script = `
    const { Client } = await import(${sdk('client/index.js')});
    const { StdioClientTransport } = await import(${sdk('client/stdio.js')});
    const client = new Client({ name: 'bare-one-shot', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(everything)}], stderr: 'ignore' }));
    const result = await client.callTool({ name: 'get-sum', arguments: { a: 20, b: 22 } });
    if (!JSON.stringify(result).includes('42')) throw new Error('no 42: ' + JSON.stringify(result));
    await client.close();`;
  return nodeScriptMs(script);
}

/** Spawn → exit of `node` running an ES module script. */
function nodeScriptMs(script: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(performance.now() - started),
    );
  });
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-one-shot-call-'));
  try {
    const config = join(directory, 'config.json');
    const slowMark = join(directory, 'slow-was-spawned');
    const slowScript =
      `require('node:fs').writeFileSync(${JSON.stringify(slowMark)}, 'x'); ` +
      `setTimeout(() => import(${JSON.stringify(pathToFileURL(everything).href)}), ${slowDelayMs})`;
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [everything] },
          broken: { command: process.execPath, arg: [everything] },
          slow: { command: process.execPath, args: ['-e', slowScript] },
        },
      }),
    );
    // One of each first, unmeasured: the file system cache and V8's code cache warm up as for a user's second run.
    await everythingStartMs();
    await callMs(config);
    const starts: number[] = [];
    const calls: number[] = [];
    const exits: number[] = [];
    const boots: number[] = [];
    const bareCalls: number[] = [];
    await bareCallMs();
    for (let run = 0; run < runs; run += 1) {
      starts.push(await everythingStartMs());
      const call = await callMs(config);
      calls.push(call.answerMs);
      exits.push(call.exitMs);
      boots.push(await bootMs());
      bareCalls.push(await bareCallMs());
      log(
        `run ${run + 1}/${runs}: start ${round(starts.at(-1) ?? 0, 0)} ms, call answered ${round(calls.at(-1) ?? 0, 0)} ms, exited ${round(exits.at(-1) ?? 0, 0)} ms`,
      );
    }
    const slowSpawned = existsSync(slowMark);
    const startMedian = median(starts);
    const callMedian = median(calls);
    const ratio = callMedian / startMedian;
    const exitMedian = median(exits);
    const goalMet = ratio <= goalRatio && !slowSpawned;
    const results = {
      machine: machineInfo(),
      runs,
      everythingStartMs: { median: round(startMedian, 1), all: starts.map((value) => round(value, 1)) },
      callMs: { median: round(callMedian, 1), all: calls.map((value) => round(value, 1)) },
      callExitMs: { median: round(exitMedian, 1), all: exits.map((value) => round(value, 1)) },
      exitRatio: round(exitMedian / startMedian, 2),
      cliBootMs: { median: round(median(boots), 1), all: boots.map((value) => round(value, 1)) },
      bareCallMs: { median: round(median(bareCalls), 1), all: bareCalls.map((value) => round(value, 1)) },
      ratio: round(ratio, 2),
      ratioToBareCall: round(callMedian / median(bareCalls), 2),
      goalRatio,
      slowSpawned,
      goalMet,
    };
    const text = `# One-shot call beside a broken and a slow server

${machineSummary(results.machine)}

Config: server-everything, a broken entry (a typo'd \`arg\`: \`node\` waits on stdin forever) and a slow one (starts
${slowDelayMs / 1000} s late). ${runs} interleaved runs of each, after one unmeasured of each:

| measure | median | runs |
|---|---|---|
| (a) server-everything's own start (spawn → initialized, bare SDK client) | ${results.everythingStartMs.median} ms | ${results.everythingStartMs.all.join(', ')} |
| (b) \`search-mcp call everything:get-sum\` (spawn → the answer 42 on stdout) | ${results.callMs.median} ms | ${results.callMs.all.join(', ')} |
| (b′) the same call, spawn → exit (the server ended first) | ${results.callExitMs.median} ms | ${results.callExitMs.all.join(', ')} |
| (c) part of (b): node loading the CLI's \`call\` command and the runtime it imports (after the server's spawn, while it starts) | ${results.cliBootMs.median} ms | ${results.cliBootMs.all.join(', ')} |
| (d) the same call without Search MCP: node + the 1.x SDK client spawning server-everything (spawn → exit) | ${results.bareCallMs.median} ms | ${results.bareCallMs.all.join(', ')} |

(b) / (a): **${results.ratio}×** (goal ≤ ${goalRatio}×: **${ratio <= goalRatio ? 'met' : 'not met'}**); to its exit, (b′) / (a):
${results.exitRatio}×. The slow entry was
spawned: **${slowSpawned ? 'yes (not met: call started it)' : 'no'}**. For context, (b) / (d): ${results.ratioToBareCall}× the same
one-shot call made by a bare SDK script.
`;
    await writeResults('one-shot-call', results, text);
    process.stdout.write(text);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
