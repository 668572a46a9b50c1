/**
 * Search benchmark: quality and speed of the local BM25 ranker (`Bm25SearchProvider`, packages/catalog).
 *
 *   npx -y pnpm@10.34.9 bench:search          (`-- --no-ablation` skips the what-helped table, ~1 min)
 *
 * Quality, on public tool-retrieval sets normalized in ../shared/bench (see each SOURCE.md) and on our own
 * hand-written queries over 22 real MCP servers (bench/queries/real-servers.json over fixtures/real-servers, English
 * and Japanese): hit@1, hit@5, recall@1/5/10, NDCG@5, MRR, next to the plain-BM25 baselines of SOURCE.md.
 * Match calibration: the same queries against the catalog with and without their gold tools; how often the
 * "no good match" call (catalog `match` ≠ good) is right (precision) and how many gold-less catalogs it catches
 * (recall), and the threshold sweep behind the default `goodMatch`.
 * Speed: index build (first search) and per-search p50/p99 at 500, 5,000 and 50,000 tools, and heap growth.
 *
 * The public sets are not in the repository (ToolLens has no licence). They are read from $SEARCH_BENCH_DATA
 * (default ../shared/bench beside the clone: one folder per set with tools.json, queries.json, SOURCE.md). When they
 * are missing, the benchmark says where to get them and runs the rest (real servers; speed over the real tools).
 *
 * Writes bench/results/search.json (everything) and bench/results/search.md (tables), prints the markdown.
 * Progress goes to stderr. The provider is @search-mcp/catalog's build (`bench:search` builds first).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  Bm25SearchProvider,
  type Bm25IndexStats,
  type Bm25SearchProviderOptions,
  defaultGoodMatch,
} from '@search-mcp/catalog';
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import type { Dataset, DatasetQuery, DatasetTool } from './src/datasets/dataset-catalog.js';
import { loadPublicSet } from './src/datasets/public-retrieval-sets.js';
import { loadRealServers, pairQueries } from './src/datasets/real-server-queries.js';
import { scaledCatalog } from './src/datasets/scaled-catalog.js';
import { findGarbageCollector, percentile, progressLog, writeResults } from './src/bench-support.js';
import {
  type CalibrationRow,
  type CalibrationSet,
  calibrationPairs,
  calibrationRow,
  sweepThresholds,
} from './src/search/match-calibration.js';
import {
  averageMetrics,
  metricNames,
  type Metrics,
  type RankingScores,
  scoreRanking,
} from './src/search/retrieval-metrics.js';
import {
  type AblationRow,
  type Baseline,
  type ExpansionRow,
  f1,
  f3,
  type QualityRow,
  searchMarkdown,
  type SpeedRow,
} from './src/search/search-bench-report.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const ablation = !process.argv.includes('--no-ablation');
/** Depth of each ranking (the largest `maxResults` a search takes); MRR counts ranks up to here. */
const rankingDepth = 50;
const speedSizes = [50_000, 5_000, 500];
const speedQueries = 400;
const speedWarmup = 50;
const speedMaxResults = 20;

const log = progressLog('search-bench');

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

interface EvalSet {
  id: string;
  label: string;
  tools: ToolInfo[];
  queries: DatasetQuery[];
  /** How a dataset query becomes a search request. */
  request: (query: DatasetQuery) => { queries: string[]; context?: string };
  /** Plain-BM25 baselines from SOURCE.md. */
  baseline?: Baseline;
}

function evaluate(
  provider: Bm25SearchProvider,
  set: EvalSet,
): { metrics: Metrics; perQuery: Array<{ id: string; top: string[] }> } {
  const rows: RankingScores[] = [];
  const perQuery: Array<{ id: string; top: string[] }> = [];
  for (const query of set.queries) {
    const request = set.request(query);
    const results: SearchResult[] = provider.searchSync({ ...request, tools: set.tools, maxResults: rankingDepth });
    const ranking = results.map((result) => result.toolKey);
    rows.push(scoreRanking(ranking, query.gold));
    perQuery.push({ id: query.id, top: ranking.slice(0, 5) });
  }
  return { metrics: averageMetrics(rows, metricNames), perQuery };
}

// ---------------------------------------------------------------------------------------------------------------
// Speed

let gc: (() => void) | undefined;
let gcSource = 'none';
function setupGc(): void {
  const found = findGarbageCollector();
  gc = found.gc;
  // This report has always called `global.gc` "--expose-gc" (the flag that provides it).
  gcSource = found.source === 'global.gc' ? '--expose-gc' : found.source;
}

function heapUsedAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function measureSpeed(
  source: readonly DatasetTool[],
  queries: readonly string[],
  size: number,
  measureHeap: boolean,
): SpeedRow {
  const tools = scaledCatalog(source, size);
  let stats: Bm25IndexStats | undefined;
  const provider = new Bm25SearchProvider({ onIndexBuilt: (s) => (stats = s) });
  const heapBefore = measureHeap ? heapUsedAfterGc() : 0;
  const started = performance.now();
  provider.searchSync({ queries: [queries[0] ?? 'search'], tools, maxResults: speedMaxResults });
  const firstSearchMs = performance.now() - started;
  const heapAfter = measureHeap ? heapUsedAfterGc() : 0;
  for (let i = 0; i < speedWarmup; i++) {
    provider.searchSync({ queries: [queries[i % queries.length] as string], tools, maxResults: speedMaxResults });
  }
  const samples: number[] = [];
  for (let i = 0; i < speedQueries; i++) {
    const query = queries[(i * 7 + 3) % queries.length] as string;
    const t0 = performance.now();
    provider.searchSync({ queries: [query], tools, maxResults: speedMaxResults });
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const row: SpeedRow = {
    tools: tools.length,
    firstSearchMs,
    indexBuildMs: stats?.durationMs ?? Number.NaN,
    terms: stats?.terms ?? 0,
    postings: stats?.postings ?? 0,
    // Nearest rank, also for p50 (400 samples: not the mean of the two middle ones, unlike `median`).
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
  if (measureHeap) row.heapGrowthMb = (heapAfter - heapBefore) / 2 ** 20;
  if (provider.indexBuilds !== 1) throw new Error(`expected one index build, got ${provider.indexBuilds}`);
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Steps of a run

interface LoadedSets {
  live: Dataset | undefined;
  toollens: Dataset | undefined;
  seal: Dataset | undefined;
  real: Dataset;
}

/** The public sets that are there (a missing one is named on stderr with where to get it) and the real servers. */
function loadSets(): LoadedSets {
  return {
    live: loadPublicSet('livemcpbench', log),
    toollens: loadPublicSet('toollens', log),
    seal: loadPublicSet('seal-tools', log),
    real: loadRealServers(),
  };
}

/** The real-server queries by group (main, held out, held out 2nd) and language. */
function realServerGroups(real: Dataset) {
  const main = real.queries.filter((query) => query.set === undefined);
  const holdout = real.queries.filter((query) => query.set === 'holdout');
  const holdout2 = real.queries.filter((query) => query.set === 'holdout2');
  const inLanguage = (queries: DatasetQuery[], lang: string) => queries.filter((query) => query.lang === lang);
  return {
    main,
    en: inLanguage(main, 'en'),
    ja: inLanguage(main, 'ja'),
    holdoutEn: inLanguage(holdout, 'en'),
    holdoutJa: inLanguage(holdout, 'ja'),
    holdout2En: inLanguage(holdout2, 'en'),
    holdout2Ja: inLanguage(holdout2, 'ja'),
  };
}

const whole = (query: DatasetQuery) => ({ queries: [query.query] });
const stepsRequest = (query: DatasetQuery) => ({
  queries: query.steps && query.steps.length > 0 ? query.steps : [query.query],
});

/** Speed over Seal-Tools (4,076 tools), or over the 237 real tools when the public sets are missing. */
function speedSource({ seal, real }: LoadedSets): { set: Dataset; name: string } {
  return seal
    ? { set: seal, name: 'Seal-Tools tools (4,076)' }
    : { set: real, name: `the ${real.tools.length} real-server tools` };
}

function measureSpeedRows(source: { set: Dataset }): SpeedRow[] {
  log('speed…');
  const speedQueryTexts = source.set.queries.map((query) => query.query);
  return speedSizes.map((size) => {
    const row = measureSpeed(source.set.source, speedQueryTexts, size, size === 50_000);
    log(`  ${size} tools: first search ${f1(row.firstSearchMs)} ms, p50 ${f3(row.p50)} ms, p99 ${f3(row.p99)} ms`);
    return row;
  });
}

/** Every quality set: each public set that is there, then the real-server groups. */
function qualitySets({ live, toollens, seal, real }: LoadedSets): EvalSet[] {
  const groups = realServerGroups(real);
  return [
    ...(live
      ? ([
          {
            id: 'livemcpbench-task',
            label: 'LiveMCPBench — task as one query',
            tools: live.tools,
            queries: live.queries,
            request: whole,
            baseline: { recall1: 0.104, recall5: 0.288, ndcg5: 0.257, recall10: 0.347, mrr: 0.361 },
          },
          {
            id: 'livemcpbench-steps',
            label: 'LiveMCPBench — steps as `queries`',
            tools: live.tools,
            queries: live.queries,
            request: stepsRequest,
          },
          {
            id: 'livemcpbench-steps-context',
            label: 'LiveMCPBench — steps as `queries`, task as `context`',
            tools: live.tools,
            queries: live.queries,
            request: (query) => ({ ...stepsRequest(query), context: query.query }),
          },
        ] satisfies EvalSet[])
      : []),
    ...(toollens
      ? ([
          {
            id: 'toollens',
            label: 'ToolLens',
            tools: toollens.tools,
            queries: toollens.queries,
            request: whole,
            baseline: { recall1: 0.085, recall5: 0.194, ndcg5: 0.185, recall10: 0.252, mrr: 0.317 },
          },
        ] satisfies EvalSet[])
      : []),
    ...(seal
      ? ([
          {
            id: 'seal-tools',
            label: 'Seal-Tools',
            tools: seal.tools,
            queries: seal.queries,
            request: whole,
            baseline: { recall1: 0.394, recall5: 0.811, ndcg5: 0.805, recall10: 0.895, mrr: 0.922 },
          },
        ] satisfies EvalSet[])
      : []),
    {
      id: 'real-en',
      label: 'Real servers (237 tools) — English',
      tools: real.tools,
      queries: groups.en,
      request: whole,
    },
    {
      id: 'real-ja',
      label: 'Real servers (237 tools) — Japanese',
      tools: real.tools,
      queries: groups.ja,
      request: whole,
    },
    {
      id: 'real-en-holdout',
      label: 'Real servers — English, held out',
      tools: real.tools,
      queries: groups.holdoutEn,
      request: whole,
    },
    {
      id: 'real-ja-holdout',
      label: 'Real servers — Japanese, held out',
      tools: real.tools,
      queries: groups.holdoutJa,
      request: whole,
    },
    {
      id: 'real-en-holdout2',
      label: 'Real servers — English, held out (2nd)',
      tools: real.tools,
      queries: groups.holdout2En,
      request: whole,
    },
    {
      id: 'real-ja-holdout2',
      label: 'Real servers — Japanese, held out (2nd)',
      tools: real.tools,
      queries: groups.holdout2Ja,
      request: whole,
    },
    {
      id: 'real-pairs',
      label: 'Real servers — two unrelated requests as `queries` (gold: union)',
      tools: real.tools,
      queries: pairQueries(groups.main),
      request: (query) => ({ queries: query.steps ?? [query.query] }),
    },
  ];
}

function measureQuality(provider: Bm25SearchProvider, sets: readonly EvalSet[]): QualityRow[] {
  log('quality…');
  return sets
    .filter((set) => set.queries.length > 0)
    .map((set) => {
      const { metrics, perQuery } = evaluate(provider, set);
      log(`  ${set.id}: recall@5 ${f3(metrics.recall5)}, hit@5 ${f3(metrics.hit5)}`);
      return { set, metrics, perQuery };
    });
}

/** The ja→en expansion on and off, on the Japanese queries (and on the English ones, where it must not hurt). */
function compareExpansion(provider: Bm25SearchProvider, sets: readonly EvalSet[]): ExpansionRow[] {
  const noExpansion = new Bm25SearchProvider({ queryExpansion: false });
  return ['real-ja', 'real-ja-holdout', 'real-ja-holdout2', 'real-en', 'real-en-holdout', 'real-en-holdout2'].flatMap(
    (id) => {
      const set = sets.find((candidate) => candidate.id === id && candidate.queries.length > 0);
      if (set === undefined) return [];
      return [{ label: set.label, on: evaluate(provider, set).metrics, off: evaluate(noExpansion, set).metrics }];
    },
  );
}

/** The sets the calibration runs on: single-need ones chose the default threshold, the others check it. */
function calibrationSets({ live, toollens, seal, real }: LoadedSets): CalibrationSet[] {
  const groups = realServerGroups(real);
  const everyNth = (queries: readonly DatasetQuery[], n: number, offset: number) =>
    queries.filter((_, index) => index % n === offset);
  return [
    {
      id: 'real-en',
      label: 'Real servers — English',
      tools: real.tools,
      queries: groups.en,
      request: whole,
      singleNeed: true,
    },
    {
      id: 'real-ja',
      label: 'Real servers — Japanese',
      tools: real.tools,
      queries: groups.ja,
      request: whole,
      singleNeed: true,
    },
    {
      id: 'real-en-holdout',
      label: 'Real servers — English, held out (both groups)',
      tools: real.tools,
      queries: [...groups.holdoutEn, ...groups.holdout2En],
      request: whole,
      singleNeed: false,
    },
    {
      id: 'real-ja-holdout',
      label: 'Real servers — Japanese, held out (both groups)',
      tools: real.tools,
      queries: [...groups.holdoutJa, ...groups.holdout2Ja],
      request: whole,
      singleNeed: false,
    },
    ...(live
      ? ([
          {
            id: 'livemcpbench-steps',
            label: 'LiveMCPBench — steps as `queries`',
            tools: live.tools,
            queries: live.queries,
            request: stepsRequest,
            singleNeed: true,
          },
          {
            id: 'livemcpbench-task',
            label: 'LiveMCPBench — task as one query',
            tools: live.tools,
            queries: live.queries,
            request: whole,
            singleNeed: false,
          },
        ] satisfies CalibrationSet[])
      : []),
    ...(toollens
      ? ([
          {
            id: 'toollens',
            label: 'ToolLens (every 4th query)',
            tools: toollens.tools,
            queries: everyNth(toollens.queries, 4, 2),
            request: whole,
            singleNeed: false,
          },
        ] satisfies CalibrationSet[])
      : []),
    ...(seal
      ? ([
          {
            id: 'seal-tools',
            label: 'Seal-Tools (every 10th query)',
            tools: seal.tools,
            queries: everyNth(seal.queries, 10, 5),
            request: whole,
            singleNeed: true,
          },
        ] satisfies CalibrationSet[])
      : []),
  ];
}

/** Match calibration: the same queries with and without their gold tools in the catalog. */
function calibrate(sets: readonly CalibrationSet[]): { calibration: CalibrationRow[]; meanSweep: number[] } {
  log('match calibration…');
  const calibration = sets
    .filter((set) => set.queries.length > 0)
    .map((set) => {
      const row = calibrationRow(set, calibrationPairs(set));
      log(`  ${set.id}: AUC ${f3(row.auc)}, not good P ${f3(row.notGood.precision)} R ${f3(row.notGood.recall)}`);
      return row;
    });
  const tuningRows = calibration.filter((row) => row.singleNeed);
  const meanSweep = sweepThresholds.map(
    (_, index) => tuningRows.reduce((sum, row) => sum + (row.sweep[index] ?? 0), 0) / Math.max(1, tuningRows.length),
  );
  return { calibration, meanSweep };
}

type Variant = { name: string; options: Bm25SearchProviderOptions };

/** `$SEARCH_BENCH_VARIANTS` (JSON) when set, else each idea switched off (or on) alone against the defaults. */
function ablationVariants(): Variant[] {
  const customVariants = process.env['SEARCH_BENCH_VARIANTS'];
  if (customVariants) return JSON.parse(customVariants) as Variant[];
  if (!ablation) return [];
  return [
    { name: '**defaults**', options: {} },
    {
      name: 'plain BM25F: no expansion, translation, coverage, name boost, clauses, argument handling; equal field weights',
      options: {
        queryExpansion: false,
        documentTranslation: false,
        coverageExponent: 0,
        nameMatchBoost: 0,
        clauseWeight: 0,
        argumentWeight: 1,
        fieldWeights: { name: 1, title: 1, description: 1, parameters: 1, server: 1, translated: 1 },
      },
    },
    { name: 'no query expansion (ja→en vocabulary and synonyms)', options: { queryExpansion: false } },
    { name: 'no English synonyms', options: { synonymWeight: 0 } },
    { name: 'synonym weight 0.5 (default 0.3)', options: { synonymWeight: 0.5 } },
    { name: 'no tool-text translation (CJK descriptions)', options: { documentTranslation: false } },
    { name: 'no coverage factor', options: { coverageExponent: 0 } },
    { name: 'coverage exponent 1 (default 0.5)', options: { coverageExponent: 1 } },
    { name: 'no name-match boost', options: { nameMatchBoost: 0 } },
    { name: 'name-match boost 1 (default 0.5)', options: { nameMatchBoost: 1 } },
    { name: 'parameters field off', options: { fieldWeights: { parameters: 0 } } },
    { name: 'server field off', options: { fieldWeights: { server: 0 } } },
    { name: 'name weight 1 (default 3)', options: { fieldWeights: { name: 1 } } },
    { name: 'name weight 5', options: { fieldWeights: { name: 5 } } },
    { name: 'no clause splitting of long queries', options: { clauseWeight: 0 } },
    { name: 'clause weight 1 (default 0.7)', options: { clauseWeight: 1 } },
    { name: 'no argument handling (URLs, paths, file names)', options: { argumentWeight: 1 } },
    { name: 'context ignored', options: { contextWeight: 0 } },
    { name: 'no demotion of deprecated tools', options: { deprecatedFactor: 1 } },
    { name: 'RRF fusion, k = 20', options: { fusion: 'rrf', rrfK: 20 } },
    { name: 'RRF fusion, k = 60', options: { fusion: 'rrf', rrfK: 60 } },
    { name: 'score fusion (sum of normalized scores)', options: { fusion: 'score' } },
    { name: 'k1 0.9 (default 1.2)', options: { k1: 0.9 } },
    { name: 'k1 2', options: { k1: 2 } },
    { name: 'description b 0.5 (default 0.75)', options: { fieldB: { description: 0.5 } } },
  ];
}

/** Ablation: each variant on every set except the held-out ones (reported only: no variant is judged on them). */
function runAblation(sets: readonly EvalSet[]): { ablationSets: EvalSet[]; ablationRows: AblationRow[] } {
  const ablationSets = sets.filter((set) => !set.id.includes('holdout') && set.queries.length > 0);
  const ablationRows = ablationVariants().map(({ name, options }) => {
    const variantProvider = new Bm25SearchProvider(options);
    const row = Object.fromEntries(ablationSets.map((set) => [set.id, evaluate(variantProvider, set).metrics]));
    log(`  ablation: ${name}`);
    return { name, options, metrics: row };
  });
  return { ablationSets, ablationRows };
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const runStarted = performance.now();
  setupGc();
  const loadAverageStart = os.loadavg();
  const loaded = loadSets();
  // Speed first, on a fresh process: the first search at 50,000 tools is a cold start (JIT, tokenizer caches).
  const source = speedSource(loaded);
  const speed = measureSpeedRows(source);
  const sets = qualitySets(loaded);
  const provider = new Bm25SearchProvider();
  const quality = measureQuality(provider, sets);
  const expansionRows = compareExpansion(provider, sets);
  const { calibration, meanSweep } = calibrate(calibrationSets(loaded));
  const { ablationSets, ablationRows } = runAblation(sets);
  const runSeconds = (performance.now() - runStarted) / 1000;

  const markdown = searchMarkdown({
    loadAverageStart,
    runSeconds,
    quality,
    expansionRows,
    ablationSets,
    ablationRows,
    calibration,
    meanSweep,
    speedSetName: source.name,
    speed,
    gcSource,
    speedWarmup,
    speedQueries,
    speedMaxResults,
  });
  await writeResults(
    'search',
    {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()}/${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadAverage: { start: loadAverageStart, end: os.loadavg() },
      gc: gcSource,
      runSeconds,
      rankingDepth,
      quality: quality.map(({ set, metrics, perQuery }) => ({
        id: set.id,
        label: set.label,
        tools: set.tools.length,
        baseline: set.baseline ?? null,
        metrics,
        // Top 5 per query for the small sets (to read failures); ToolLens and Seal-Tools would be megabytes.
        perQuery: perQuery.length <= 300 ? perQuery : undefined,
      })),
      expansion: expansionRows,
      calibration: { goodMatch: defaultGoodMatch, thresholds: sweepThresholds, rows: calibration, meanSweep },
      ablation: ablationRows,
      speed,
    },
    markdown,
    1,
  );
  process.stdout.write(markdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
