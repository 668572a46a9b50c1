/**
 * Install benchmark: what a new user waits for and carries (README, "Install").
 *
 *   npx -y pnpm@10.34.9 bench:install
 *
 *   1. Cold build: a fresh clone of this repository's HEAD in a temporary folder, `pnpm install --prefer-offline
 *      --frozen-lockfile` (its warnings counted: goal none), then `pnpm build` with turbo's cache off. Goal ≤ 90 s on
 *      2 cores. The machine is shared, so the build's CPU time (user + system of every process it ran) and the load
 *      average are printed beside the wall-clock time: CPU time ÷ cores is a lower bound of an idle machine's wall
 *      clock (packages build in dependency order, so part of the build runs on one core).
 *   2. Installed size of the README's install: the packed apps and the libraries they use, installed with npm into an
 *      empty folder without `@search-mcp/embeddings` (the opt-in hybrid ranker), then with it.
 *   3. Token counts: `doctor`'s estimate (apps/stdio-server/src/commands/token-estimate.ts) against Anthropic's
 *      tokenizer (this bench's devDependency) on each of the 237 recorded real tools, each of the 22 servers' lists,
 *      their sum, and the meta-mode `tools/list` of `search-mcp serve`.
 *
 * Writes bench/results/install.json and .md and prints the markdown to stdout; progress goes to stderr. Takes a few
 * minutes (the clone's install and build). `INSTALL_BENCH_SKIP_BUILD=1` measures 2 and 3 on this checkout's build.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readRealServerDefinitions, realServerNames } from '@search-mcp/test-kit/real-servers';
import { estimateTokens } from '../apps/stdio-server/src/commands/token-estimate.js';
import { loadAverage, machineInfo, machineSummary, progressLog, round, writeResults } from './src/bench-support.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const pnpm = ['npx', '-y', 'pnpm@10.34.9'];
const buildGoalSeconds = 90;
const skipBuild = process.env['INSTALL_BENCH_SKIP_BUILD'] === '1';
const log = progressLog('install-bench');

interface Timed {
  wallSeconds: number;
  cpuSeconds: number;
  output: string;
}

/** Runs a command under bash's `time`: wall-clock and CPU seconds (user + system of it and all its children). */
async function timed(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  const script = `TIMEFORMAT='@@time %R %U %S'; time ${command.map((word) => `'${word}'`).join(' ')}`;
  const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}:\n${output.slice(-4000)}`);
  const match = /@@time ([\d.]+) ([\d.]+) ([\d.]+)/.exec(output);
  if (!match) throw new Error(`no timing in the output of ${command.join(' ')}`);
  return {
    wallSeconds: Number(match[1]),
    cpuSeconds: Number(match[2]) + Number(match[3]),
    output: output.replace(match[0], ''),
  };
}

/** Bytes of every file under `path` (what `du --apparent-size` counts; symbolic links are not followed). */
function folderBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += folderBytes(child);
    else if (entry.isFile()) total += statSync(child).size;
  }
  return total;
}

const megabytes = (bytes: number) => round(bytes / 1024 / 1024, 1);

interface BuildResult {
  installSeconds: number;
  installWarnings: string[];
  wallSeconds: number;
  cpuSeconds: number;
  cpuSecondsPerCore: number;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
}

async function coldBuild(clone: string): Promise<BuildResult> {
  log(`cloning HEAD into ${clone}`);
  await timed(['git', 'clone', '-q', repositoryRoot, clone], os.tmpdir());
  log('pnpm install --prefer-offline --frozen-lockfile');
  const install = await timed([...pnpm, 'install', '--prefer-offline', '--frozen-lockfile'], clone);
  const installWarnings = install.output.split('\n').filter((line) => /\bWARN\b/.test(line));
  const loadAverageBefore = loadAverage();
  log('pnpm build (turbo cache off)');
  const build = await timed([...pnpm, 'build'], clone, { ...process.env, TURBO_FORCE: 'true' });
  return {
    installSeconds: round(install.wallSeconds, 1),
    installWarnings,
    wallSeconds: round(build.wallSeconds, 1),
    cpuSeconds: round(build.cpuSeconds, 1),
    cpuSecondsPerCore: round(build.cpuSeconds / os.cpus().length, 1),
    loadAverageBefore,
    loadAverageAfter: loadAverage(),
  };
}

interface SizeResult {
  tarballs: string[];
  withoutHybridMb: number;
  withHybridMb: number;
  hybridPresentWithout: boolean;
}

/** The README's install (pack with `--filter-prod`, install all but the embeddings tarball), then the embeddings. */
async function installedSize(checkout: string): Promise<SizeResult> {
  const prefix = await mkdtemp(join(os.tmpdir(), 'search-mcp-install-bench-'));
  try {
    const packs = join(prefix, 'packs');
    log('packing the apps and the libraries they use');
    const filters = ['--filter-prod', '@search-mcp/cli...', '--filter-prod', '@search-mcp/http...'];
    await timed([...pnpm, '--recursive', ...filters, 'pack', '--pack-destination', packs], checkout);
    const tarballs = readdirSync(packs)
      .filter((name) => name.endsWith('.tgz'))
      .sort();
    const embeddings = tarballs.filter((name) => name.startsWith('search-mcp-embeddings-'));
    const npmInstall = ['npm', 'install', '--prefix', prefix, '--no-audit', '--no-fund'];
    const env = { ...process.env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
    log('npm install without the hybrid ranker');
    const first = tarballs.filter((name) => !embeddings.includes(name)).map((name) => join(packs, name));
    await timed([...npmInstall, ...first], prefix, env);
    const withoutHybrid = folderBytes(prefix);
    let hybridPresentWithout = true;
    try {
      statSync(join(prefix, 'node_modules', '@search-mcp', 'embeddings'));
    } catch {
      hybridPresentWithout = false;
    }
    log('npm install of the hybrid ranker');
    await timed([...npmInstall, ...embeddings.map((name) => join(packs, name))], prefix, env);
    return {
      tarballs,
      withoutHybridMb: megabytes(withoutHybrid),
      withHybridMb: megabytes(folderBytes(prefix)),
      hybridPresentWithout,
    };
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}

interface TokenRow {
  what: string;
  tokenizer: number;
  estimate: number;
  differencePercent: number;
}

interface TokenResult {
  servers: TokenRow[];
  allTools: TokenRow;
  metaTools: TokenRow;
  perToolMeanAbsolutePercent: number;
  perToolP90AbsolutePercent: number;
  perServerMeanAbsolutePercent: number;
  perServerMaxAbsolutePercent: number;
}

interface Tokenizer {
  encode(text: string, allowedSpecial?: 'all'): Uint32Array;
  free(): void;
}

/** The meta-mode `tools/list` of the built `search-mcp serve` with no server behind it. */
async function metaToolsList(checkout: string): Promise<unknown[]> {
  const folder = await mkdtemp(join(os.tmpdir(), 'search-mcp-install-bench-meta-'));
  const config = join(folder, 'search-mcp.json');
  await writeFile(config, '{ "mcpServers": {} }\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(checkout, 'apps', 'stdio-server', 'dist', 'cli.js'), 'serve', '--config', config],
    env: { ...(process.env as Record<string, string>), SEARCH_MCP_STATE_DIR: folder },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'install-bench', version: '1' });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await rm(folder, { recursive: true, force: true });
  }
}

async function tokenCounts(checkout: string): Promise<TokenResult> {
  const { getTokenizer } = createRequire(import.meta.url)('@anthropic-ai/tokenizer') as { getTokenizer(): Tokenizer };
  const tokenizer = getTokenizer();
  const count = (value: unknown) => tokenizer.encode(JSON.stringify(value).normalize('NFKC'), 'all').length;
  const row = (what: string, value: unknown): TokenRow => {
    const reference = count(value);
    const estimate = estimateTokens(JSON.stringify(value));
    return {
      what,
      tokenizer: reference,
      estimate,
      differencePercent: round((100 * (estimate - reference)) / reference, 2),
    };
  };
  try {
    const perTool: number[] = [];
    const servers: TokenRow[] = [];
    const everyTool: unknown[] = [];
    for (const server of realServerNames()) {
      const definitions = readRealServerDefinitions(server);
      servers.push(row(server, definitions));
      for (const definition of definitions) {
        perTool.push(Math.abs(row(definition.name, definition).differencePercent));
        everyTool.push(definition);
      }
    }
    perTool.sort((a, b) => a - b);
    const perServer = servers.map((entry) => Math.abs(entry.differencePercent));
    log('meta-mode tools/list of search-mcp serve');
    return {
      servers,
      allTools: row(`all ${everyTool.length} tools`, everyTool),
      metaTools: row('meta-mode tools/list', await metaToolsList(checkout)),
      perToolMeanAbsolutePercent: round(perTool.reduce((sum, value) => sum + value, 0) / perTool.length, 2),
      perToolP90AbsolutePercent: round(perTool[Math.floor(perTool.length * 0.9)] ?? Number.NaN, 2),
      perServerMeanAbsolutePercent: round(perServer.reduce((sum, value) => sum + value, 0) / perServer.length, 2),
      perServerMaxAbsolutePercent: round(Math.max(...perServer), 2),
    };
  } finally {
    tokenizer.free();
  }
}

function markdown(
  machine: ReturnType<typeof machineInfo>,
  build: BuildResult | undefined,
  size: SizeResult,
  tokens: TokenResult,
): string {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = [
    '# Install benchmark',
    '',
    `${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' / ')} at start`,
    '',
    '| figure | value | goal |',
    '| --- | ---: | --- |',
  ];
  if (build) {
    lines.push(
      `| cold build, wall clock (fresh clone, turbo cache off) | ${build.wallSeconds} s | ≤ ${buildGoalSeconds} s: ${met(build.wallSeconds <= buildGoalSeconds)} |`,
      `| cold build, CPU time (user + system) ÷ ${machine.cpus} cores | ${build.cpuSecondsPerCore} s (${build.cpuSeconds} s CPU) | a lower bound of an idle machine's wall clock (the packages' build chain adds to it) |`,
      `| install warnings of a fresh clone | ${build.installWarnings.length} | none: ${met(build.installWarnings.length === 0)} |`,
      `| load average before / after the build | ${build.loadAverageBefore.join(' / ')} → ${build.loadAverageAfter.join(' / ')} | |`,
    );
  }
  lines.push(
    `| README install without the hybrid ranker | ${size.withoutHybridMb} MB | quoted in the README; embeddings absent: ${met(!size.hybridPresentWithout)} |`,
    `| … with \`@search-mcp/embeddings\` added | ${size.withHybridMb} MB | |`,
    `| token estimate vs tokenizer, sum of the 237 tools | ${tokens.allTools.estimate} vs ${tokens.allTools.tokenizer} (${tokens.allTools.differencePercent} %) | within 3 %: ${met(Math.abs(tokens.allTools.differencePercent) <= 3)} |`,
    `| … per server: mean / worst absolute difference | ${tokens.perServerMeanAbsolutePercent} % / ${tokens.perServerMaxAbsolutePercent} % | |`,
    `| … per tool: mean / p90 absolute difference | ${tokens.perToolMeanAbsolutePercent} % / ${tokens.perToolP90AbsolutePercent} % | |`,
    `| … meta-mode tools/list | ${tokens.metaTools.estimate} vs ${tokens.metaTools.tokenizer} (${tokens.metaTools.differencePercent} %) | |`,
    '',
    `Tarballs: ${size.tarballs.join(', ')}.`,
    build?.installWarnings.length
      ? `\nInstall warnings:\n\n${build.installWarnings.map((line) => `    ${line}`).join('\n')}`
      : '',
    '',
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const clone = await mkdtemp(join(os.tmpdir(), 'search-mcp-cold-build-'));
  try {
    const build = skipBuild ? undefined : await coldBuild(join(clone, 'repository'));
    const checkout = skipBuild ? repositoryRoot : join(clone, 'repository');
    const size = await installedSize(checkout);
    const tokens = await tokenCounts(checkout);
    machine.loadAverageAtEnd = loadAverage();
    const report = markdown(machine, build, size, tokens);
    await writeResults('install', { machine, build, size, tokens }, report);
    process.stdout.write(report);
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

await main();
