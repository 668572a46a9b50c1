/**
 * Index build benchmark: what the local BM25 ranker (`Bm25SearchProvider`, packages/catalog) costs when it meets a
 * tool set, at 50,000 tools (Seal-Tools replicated under distinct server ids, as in search-bench.ts).
 *
 *   npx -y pnpm@10.34.9 bench:index-build
 *   npx -y pnpm@10.34.9 bench:index-build -- --baseline /tmp/old/packages/catalog/dist/index.js
 *
 * Per round, a fresh provider:
 * - index build: `onIndexBuilt`'s duration of the first search, and the first search itself (build and lookups);
 * - the same array again: a search's p50 (the catalog's case);
 * - a fresh array of the same tool objects (`tools.slice()` before every search: an embedding host that copies its
 *   list per query): a search's p50;
 * - new objects with the same content (a host that rebuilds its tool objects): a search's p50;
 * - one tool changed (a new object with another description): the rebuild, which re-tokenizes only that tool.
 * Goals (issue 25): index build ≤ 1 s, fresh array of the same tools ≤ 15 ms p50.
 *
 * `--baseline <dist/index.js>` (or $INDEX_BUILD_BASELINE) measures an older build of @search-mcp/catalog beside this
 * one, the two interleaved round by round (the machine is shared: compare within one run). To make one:
 *   git worktree add /tmp/old <rev> && cd /tmp/old &&
 *   npx -y pnpm@10.34.9 install --offline --frozen-lockfile --filter @search-mcp/catalog... &&
 *   npx -y pnpm@10.34.9 exec turbo run build --filter=@search-mcp/catalog
 * and pass `--baseline /tmp/old/packages/catalog/dist/index.js` (afterwards `git worktree remove --force /tmp/old`).
 * Options: `--rounds N` (default 5), `--size N` (default 50,000).
 *
 * Writes bench/results/index-build.json and .md and prints the markdown. Progress goes to stderr.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import * as current from '@search-mcp/catalog';
import type { Bm25IndexStats, Bm25SearchProviderOptions } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import {
  formatMs,
  machineInfo,
  machineSummary,
  median,
  percentile,
  progressLog,
  round,
  writeResults,
} from './src/bench-support.js';
import type { DatasetTool } from './src/datasets/dataset-catalog.js';
import { loadPublicSet } from './src/datasets/public-retrieval-sets.js';
import { loadRealServers } from './src/datasets/real-server-queries.js';
import { scaledCatalog } from './src/datasets/scaled-catalog.js';

const log = progressLog('index-build-bench');

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const rounds = Number(option('--rounds') ?? 5);
const size = Number(option('--size') ?? 50_000);
const baselinePath = option('--baseline') ?? process.env['INDEX_BUILD_BASELINE'];
const buildGoalMs = 1_000;
const freshArrayGoalMs = 15;
const searchesPerCase = 60;
const contentCopies = 5;
const changedTools = 3;
const maxResults = 20;

interface SearchProviderLike {
  searchSync(request: { queries: string[]; tools: readonly ToolInfo[]; maxResults: number }): unknown[];
  readonly indexBuilds: number;
}

interface CatalogBuild {
  label: string;
  create(options: Bm25SearchProviderOptions): SearchProviderLike;
}

interface RoundFigures {
  buildMs: number;
  buildCpuMs: number;
  firstSearchMs: number;
  sameArrayP50: number;
  freshArrayP50: number;
  newObjectsP50: number;
  oneChangedBuildMs: number;
  oneChangedSearchMs: number;
  builds: number;
}

function p50(samples: number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function measureRound(build: CatalogBuild, tools: readonly ToolInfo[], queries: readonly string[]): RoundFigures {
  let stats: Bm25IndexStats | undefined;
  const provider = build.create({ onIndexBuilt: (built) => (stats = built) });
  const query = (at: number) => [queries[at % queries.length] as string];

  const cpuBefore = cpuMs();
  const started = performance.now();
  provider.searchSync({ queries: query(0), tools, maxResults });
  const firstSearchMs = performance.now() - started;
  const buildCpuMs = cpuMs() - cpuBefore;
  const buildMs = stats?.durationMs ?? Number.NaN;

  const timed = (count: number, toolsFor: (at: number) => readonly ToolInfo[]): number[] => {
    const samples: number[] = [];
    for (let at = 0; at < count; at++) {
      // The array is made before the clock starts: what is measured is the provider's work.
      const list = toolsFor(at);
      const t0 = performance.now();
      provider.searchSync({ queries: query(at + 1), tools: list, maxResults });
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  const sameArrayP50 = p50(timed(searchesPerCase, () => tools));
  const freshArrayP50 = p50(timed(searchesPerCase, () => tools.slice()));
  const newObjectsP50 = p50(timed(contentCopies, () => tools.map((tool) => ({ ...tool }))));
  if (provider.indexBuilds !== 1) throw new Error(`${build.label}: ${provider.indexBuilds} builds for one tool set`);

  const changedBuilds: number[] = [];
  const changedSearches: number[] = [];
  for (let change = 0; change < changedTools; change++) {
    const at = Math.floor(((change + 1) * tools.length) / (changedTools + 1));
    const changed = tools.slice();
    const tool = changed[at] as ToolInfo;
    changed[at] = { ...tool, description: `${tool.description ?? ''} (changed ${change})` };
    const t0 = performance.now();
    provider.searchSync({ queries: query(change), tools: changed, maxResults });
    changedSearches.push(performance.now() - t0);
    changedBuilds.push(stats?.durationMs ?? Number.NaN);
  }
  return {
    buildMs,
    buildCpuMs,
    firstSearchMs,
    sameArrayP50,
    freshArrayP50,
    newObjectsP50,
    oneChangedBuildMs: median(changedBuilds),
    oneChangedSearchMs: median(changedSearches),
    builds: provider.indexBuilds,
  };
}

async function loadBaseline(path: string): Promise<CatalogBuild> {
  const module = (await import(pathToFileURL(path).href)) as typeof current;
  return { label: `baseline (${path})`, create: (options) => new module.Bm25SearchProvider(options) };
}

function loadTools(): { tools: ToolInfo[]; queries: string[]; source: string } {
  const seal = loadPublicSet('seal-tools', log);
  if (seal !== undefined) {
    return {
      tools: scaledCatalog(seal.source, size),
      queries: seal.queries.map((query) => query.query),
      source: 'Seal-Tools',
    };
  }
  const real = loadRealServers();
  return {
    tools: scaledCatalog(real.source as DatasetTool[], size),
    queries: real.queries.map((query) => query.query),
    source: 'the 237 real-server tools (Seal-Tools not found)',
  };
}

async function main(): Promise<void> {
  const { tools, queries, source } = loadTools();
  const builds: CatalogBuild[] = [
    { label: 'this build', create: (options) => new current.Bm25SearchProvider(options) },
  ];
  if (baselinePath !== undefined) builds.push(await loadBaseline(baselinePath));
  const perBuild = builds.map(() => [] as RoundFigures[]);
  for (let at = 0; at < rounds; at++) {
    // Interleaved, and the order alternates: neither build always runs on the warmer (or busier) machine.
    const order = at % 2 === 0 ? builds.map((_, index) => index) : builds.map((_, index) => index).reverse();
    for (const index of order) {
      const figures = measureRound(builds[index] as CatalogBuild, tools, queries);
      (perBuild[index] as RoundFigures[]).push(figures);
      log(
        `round ${at + 1} ${(builds[index] as CatalogBuild).label}: build ${formatMs(figures.buildMs)}, fresh array p50 ${formatMs(figures.freshArrayP50)}`,
      );
    }
  }
  const summaries = builds.map((build, index) => {
    const all = perBuild[index] as RoundFigures[];
    const of = (pick: (figures: RoundFigures) => number) => round(median(all.map(pick)), 2);
    return {
      label: build.label,
      buildMs: of((figures) => figures.buildMs),
      buildCpuMs: of((figures) => figures.buildCpuMs),
      firstSearchMs: of((figures) => figures.firstSearchMs),
      sameArrayP50: of((figures) => figures.sameArrayP50),
      freshArrayP50: of((figures) => figures.freshArrayP50),
      newObjectsP50: of((figures) => figures.newObjectsP50),
      oneChangedBuildMs: of((figures) => figures.oneChangedBuildMs),
      oneChangedSearchMs: of((figures) => figures.oneChangedSearchMs),
      rounds: all,
    };
  });
  const mine = summaries[0] as (typeof summaries)[number];
  const buildGoalMet = mine.buildMs <= buildGoalMs;
  const freshGoalMet = mine.freshArrayP50 <= freshArrayGoalMs;
  const machine = machineInfo();
  const goal = (met: boolean) => (met ? 'met' : '**not met**');
  const header = ['', ...summaries.map((summary) => summary.label), 'goal'];
  const row = (name: string, pick: (summary: (typeof summaries)[number]) => number, goalCell = '') => [
    name,
    ...summaries.map((summary) => formatMs(pick(summary))),
    goalCell,
  ];
  const markdown = [
    '# Index build (Bm25SearchProvider)',
    '',
    machineSummary(machine),
    '',
    `${tools.length.toLocaleString('en')} tools: ${source} replicated under distinct server ids. ${rounds} rounds, a fresh provider each, medians over the rounds${baselinePath === undefined ? '' : ', the builds interleaved'}. A search asks for ${maxResults} results.`,
    '',
    ...[
      header,
      header.map((_, column) => (column === 0 || column === header.length - 1 ? '---' : '---:')),
      row(
        'index build (`onIndexBuilt`)',
        (summary) => summary.buildMs,
        `≤ ${formatMs(buildGoalMs)}: ${goal(buildGoalMet)}`,
      ),
      row('CPU of the first search', (summary) => summary.buildCpuMs),
      row('first search (build + lookups)', (summary) => summary.firstSearchMs),
      row('search, same array (p50)', (summary) => summary.sameArrayP50),
      row(
        'search, fresh array of the same tools (p50)',
        (summary) => summary.freshArrayP50,
        `≤ ${formatMs(freshArrayGoalMs)}: ${goal(freshGoalMet)}`,
      ),
      row('search, new objects with the same content (p50)', (summary) => summary.newObjectsP50),
      row('one tool changed: its rebuild', (summary) => summary.oneChangedBuildMs),
      row('one tool changed: that search', (summary) => summary.oneChangedSearchMs),
    ].map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'A fresh array of the same objects is recognized by identity, one comparison per tool; new objects by comparing their text with the kept ones (the same strings: one pointer comparison each); a changed set re-tokenizes only the objects the provider has not seen (packages/catalog/README.md, "Search providers").',
    '',
  ].join('\n');
  const path = await writeResults(
    'index-build',
    {
      machine,
      tools: tools.length,
      source,
      rounds,
      buildGoalMs,
      freshArrayGoalMs,
      buildGoalMet,
      freshGoalMet,
      summaries,
    },
    markdown,
  );
  log(`wrote ${path}`);
  process.stdout.write(markdown);
}

await main();
