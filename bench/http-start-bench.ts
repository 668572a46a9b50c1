/**
 * Benchmark of search-mcp-http's start: spawn → its "listening" log line, with an empty config (no backends), so the
 * figure is the app's own start. Two builds side by side, interleaved:
 *   (a) the published one, `apps/http-server/dist/cli.js`: one bundle (apps/http-server README, "How it is built");
 *   (b) the same source built as it was before the bundle: esbuild with every package left to node_modules
 *       (`apps/http-server/.bench-build/unbundled-cli.mjs`, inside the app so its packages resolve as the app's do).
 * For each: wall time to listening, and the process's CPU time at that moment (bench/src/app-start.ts).
 *
 *   npx -y pnpm@10.34.9 bench:http-start
 *
 * Writes bench/results/http-start.json and .md and prints the markdown to stdout.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareStarts, startOnce, startTable } from './src/app-start.js';
import { machineInfo, machineSummary, progressLog, writeResults } from './src/bench-support.js';
import { buildWithPackagesOutside } from './src/packages-outside-build.js';

const appDirectory = fileURLToPath(new URL('../apps/http-server/', import.meta.url));
const runs = Number(process.env.HTTP_START_BENCH_RUNS ?? 9);
const log = progressLog('http-start');

/** The pre-bundle build: the app's source with its packages left to node_modules. */
function buildUnbundled(): Promise<string> {
  return buildWithPackagesOutside(
    join(appDirectory, 'src', 'cli.ts'),
    join(appDirectory, '.bench-build', 'unbundled-cli.mjs'),
  );
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'http-start-bench-'));
  try {
    const config = join(directory, 'config.json');
    await writeFile(config, `${JSON.stringify({ mcpServers: {}, auth: { allowAnonymous: true } })}\n`);
    const builds = { bundled: join(appDirectory, 'dist', 'cli.js'), unbundled: await buildUnbundled() };
    const start = (cli: string) =>
      startOnce(cli, ['--config', config, '--port', '0', '--no-watch'], 'search-mcp-http listening');
    const comparison = await compareStarts(builds, start, runs, (run) => log(`run ${run}/${runs}`));
    const machine = machineInfo();
    const results = { ...comparison, machine };
    const text = [
      '# search-mcp-http start',
      '',
      `Spawn → "listening", empty config, medians of ${runs} interleaved starts. ${machineSummary(machine)}`,
      '',
      ...startTable(comparison, 'listening'),
      '',
    ].join('\n');
    await writeResults('http-start', results, text);
    process.stdout.write(text);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
