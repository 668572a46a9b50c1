/**
 * Benchmark of search-mcp-web-search's start: spawn → its "started" log line (settings read, stdio served), without
 * an OpenAI key. Two builds side by side, interleaved:
 *   (a) the published one, `apps/web-search-server/dist/cli.js`: one bundle (apps/web-search-server README, "How it is
 *       built");
 *   (b) the same source built as it was before the bundle: esbuild with every package left to node_modules
 *       (`apps/web-search-server/.bench-build/unbundled-cli.mjs`, inside the app so its packages resolve as the app's
 *       do).
 * For each: wall time to "started", and the process's CPU time at that moment (bench/src/app-start.ts).
 *
 *   npx -y pnpm@10.34.9 bench:web-search-start
 *
 * Writes bench/results/web-search-start.json and .md and prints the markdown to stdout.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareStarts, startOnce, startTable } from './src/app-start.js';
import { machineInfo, machineSummary, progressLog, writeResults } from './src/bench-support.js';
import { buildWithPackagesOutside } from './src/packages-outside-build.js';

const appDirectory = fileURLToPath(new URL('../apps/web-search-server/', import.meta.url));
const runs = Number(process.env.WEB_SEARCH_START_BENCH_RUNS ?? 9);
const log = progressLog('web-search-start');

async function main(): Promise<void> {
  const builds = {
    bundled: join(appDirectory, 'dist', 'cli.js'),
    unbundled: await buildWithPackagesOutside(
      join(appDirectory, 'src', 'cli.ts'),
      join(appDirectory, '.bench-build', 'unbundled-cli.mjs'),
    ),
  };
  const start = (cli: string) => startOnce(cli, [], '"msg":"started"');
  const comparison = await compareStarts(builds, start, runs, (run) => log(`run ${run}/${runs}`));
  const machine = machineInfo();
  const text = [
    '# search-mcp-web-search start',
    '',
    `Spawn → "started", no OpenAI key, medians of ${runs} interleaved starts. ${machineSummary(machine)}`,
    '',
    ...startTable(comparison, 'started'),
    '',
  ].join('\n');
  await writeResults('web-search-start', { ...comparison, machine }, text);
  process.stdout.write(text);
}

await main();
