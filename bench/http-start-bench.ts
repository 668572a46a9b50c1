/**
 * Benchmark of search-mcp-http's start: spawn → its "listening" log line, with an empty config (no backends), so the
 * figure is the app's own start. Two builds side by side, interleaved:
 *   (a) the published one, `apps/http-server/dist/cli.js`: one bundle (apps/http-server README, "How it is built");
 *   (b) the same source built as it was before the bundle: esbuild with every package left to node_modules
 *       (`apps/http-server/.bench-build/unbundled-cli.mjs`, inside the app so its packages resolve as the app's do).
 * For each: wall time to listening, and the process's CPU time (user + system, /proc) at that moment.
 *
 *   npx -y pnpm@10.34.9 bench:http-start
 *
 * Writes bench/results/http-start.json and .md and prints the markdown to stdout.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { machineInfo, machineSummary, median, progressLog, round, writeResults } from './src/bench-support.js';
import { buildWithPackagesOutside } from './src/packages-outside-build.js';

const appDirectory = fileURLToPath(new URL('../apps/http-server/', import.meta.url));
const runs = Number(process.env.HTTP_START_BENCH_RUNS ?? 9);
const log = progressLog('http-start');
const clockTicksPerSecond = 100;

interface Start {
  wallMs: number;
  cpuMs: number;
}

/** The pre-bundle build: the app's source with its packages left to node_modules. */
function buildUnbundled(): Promise<string> {
  return buildWithPackagesOutside(
    join(appDirectory, 'src', 'cli.ts'),
    join(appDirectory, '.bench-build', 'unbundled-cli.mjs'),
  );
}

/** CPU time of a live process so far (utime + stime of /proc/<pid>/stat). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

/** Starts `cli` on a free port and resolves at its "listening" line; the process is ended after. */
function startOnce(cli: string, config: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, '--config', config, '--port', '0', '--no-watch'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let start: Start | undefined;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (start !== undefined || !stderr.includes('search-mcp-http listening')) return;
      start = { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid ?? 0) };
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (start !== undefined) resolve(start);
      else reject(new Error(`${cli} exited (${code}) before listening:\n${stderr}`));
    });
  });
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'http-start-bench-'));
  try {
    const config = join(directory, 'config.json');
    await writeFile(config, `${JSON.stringify({ mcpServers: {}, auth: { allowAnonymous: true } })}\n`);
    const builds = { bundled: join(appDirectory, 'dist', 'cli.js'), unbundled: await buildUnbundled() };
    const starts: Record<keyof typeof builds, Start[]> = { bundled: [], unbundled: [] };
    // One start of each first, not counted: the file cache warm for both.
    for (const cli of Object.values(builds)) await startOnce(cli, config);
    for (let run = 0; run < runs; run++) {
      for (const [name, cli] of Object.entries(builds) as Array<[keyof typeof builds, string]>) {
        starts[name].push(await startOnce(cli, config));
      }
      log(`run ${run + 1}/${runs}`);
    }
    const summary = (list: Start[]) => ({
      wallMs: round(median(list.map((start) => start.wallMs)), 1),
      cpuMs: round(median(list.map((start) => start.cpuMs)), 1),
    });
    const bundled = summary(starts.bundled);
    const unbundled = summary(starts.unbundled);
    const machine = machineInfo();
    const results = {
      runs,
      machine,
      bundled,
      unbundled,
      ratio: { wall: round(bundled.wallMs / unbundled.wallMs), cpu: round(bundled.cpuMs / unbundled.cpuMs) },
    };
    const text = [
      '# search-mcp-http start',
      '',
      `Spawn → "listening", empty config, medians of ${runs} interleaved starts. ${machineSummary(machine)}`,
      '',
      '| build | to listening | CPU at listening |',
      '| --- | --- | --- |',
      `| one bundle (dist/cli.js, published) | ${bundled.wallMs} ms | ${bundled.cpuMs} ms |`,
      `| packages left to node_modules (before) | ${unbundled.wallMs} ms | ${unbundled.cpuMs} ms |`,
      `| ratio | ${results.ratio.wall}× | ${results.ratio.cpu}× |`,
      '',
    ].join('\n');
    await writeResults('http-start', results, text);
    process.stdout.write(text);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
