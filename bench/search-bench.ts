/**
 * Search benchmark: quality and speed of the local BM25 ranker (`Bm25SearchProvider`, packages/catalog).
 *
 *   npx -y pnpm@10.34.9 bench:search          (`-- --no-ablation` skips the what-helped table, ~1 min)
 *
 * Quality, on public tool-retrieval sets normalized in ../shared/bench (see each SOURCE.md) and on our own
 * hand-written queries over 22 real MCP servers (bench/queries/real-servers.json, English and Japanese):
 * hit@1, hit@5, recall@1/5/10, NDCG@5, MRR, next to the plain-BM25 baselines of SOURCE.md.
 * Speed: index build (first search) and per-search p50/p99 at 500, 5,000 and 50,000 tools, and heap growth.
 *
 * Writes bench/results/search.json (everything) and bench/results/search.md (tables), prints the markdown.
 * Progress goes to stderr. The provider is imported from source (tsx), so no build is needed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { SearchResult, ToolInfo } from '@search-mcp/shared';
import type { Bm25SearchProviderOptions } from '../packages/catalog/src/providers/bm25-search-options.js';
import { Bm25SearchProvider } from '../packages/catalog/src/providers/bm25-search-provider.js';
import type { Bm25IndexStats } from '../packages/catalog/src/search/bm25/tool-index.js';
import { findGarbageCollector, percentile, progressLog, writeResults } from './bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const sharedDirectory = process.env['SEARCH_BENCH_DATA'] ?? fileURLToPath(new URL('../../shared', import.meta.url));
const benchDirectory = dirname(fileURLToPath(import.meta.url));
const ablation = !process.argv.includes('--no-ablation');
/** Depth of each ranking (the contract's maximum `maxResults`); MRR counts ranks up to here. */
const rankingDepth = 50;
const speedSizes = [50_000, 5_000, 500];
const speedQueries = 400;
const speedWarmup = 50;
const speedMaxResults = 20;

const log = progressLog('search-bench');

// ---------------------------------------------------------------------------------------------------------------
// Datasets → ToolInfo

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
  /** real-servers: `holdout` for the queries written after tuning (see bench/queries/README.md). */
  set?: string;
}

interface Catalog {
  tools: ToolInfo[];
  /** Dataset id (`server.name`) → toolKey. */
  keyOf: Map<string, string>;
}

/** A server id as CONTRACT §2 wants it: `^[a-z0-9][a-z0-9-]{0,31}$`. */
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

/** Maps dataset tools to ToolInfo; distinct dataset servers that normalize to the same id get `-2`, `-3`, … */
function toCatalog(tools: readonly DatasetTool[], serverSuffix = ''): Catalog {
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

function loadDataset(name: string): { catalog: Catalog; queries: DatasetQuery[] } {
  const tools = readJson<DatasetTool[]>(join(sharedDirectory, 'bench', name, 'tools.json'));
  const queries = readJson<DatasetQuery[]>(join(sharedDirectory, 'bench', name, 'queries.json'));
  const catalog = toCatalog(tools);
  for (const query of queries) {
    query.gold = query.gold.map((id) => {
      const key = catalog.keyOf.get(id);
      if (key === undefined) throw new Error(`${name}: gold ${id} of ${query.id} is not a tool`);
      return key;
    });
  }
  return { catalog, queries };
}

function loadRealServers(): { catalog: Catalog; queries: DatasetQuery[] } {
  const directory = join(sharedDirectory, 'fixtures', 'real-servers');
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
  const keys = new Set(tools.map((tool) => tool.toolKey));
  const { queries } = readJson<{ queries: DatasetQuery[] }>(join(benchDirectory, 'queries', 'real-servers.json'));
  for (const query of queries) {
    for (const key of query.gold) if (!keys.has(key)) throw new Error(`real-servers: unknown gold ${key}`);
  }
  return { catalog: { tools, keyOf: new Map() }, queries };
}

/**
 * Multi-query requests with a known answer: query i and query i + n/2 of the same language as one request's
 * `queries`, gold = both golds. Checks that fusion keeps the tools of every query near the top.
 */
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
  recall1: number;
  recall5: number;
  recall10: number;
  ndcg5: number;
  mrr: number;
}

type MetricName = Exclude<keyof Metrics, 'queries'>;

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
    recall1: hitsAt(1) / goldSet.size,
    recall5: hitsAt(5) / goldSet.size,
    recall10: hitsAt(10) / goldSet.size,
    ndcg5: idcg > 0 ? dcg / idcg : 0,
    mrr: firstHit >= 0 ? 1 / (firstHit + 1) : 0,
  };
}

const metricNames: MetricName[] = ['hit1', 'hit5', 'recall1', 'recall5', 'recall10', 'ndcg5', 'mrr'];

function average(rows: ReadonlyArray<Omit<Metrics, 'queries'>>): Metrics {
  const out: Metrics = {
    queries: rows.length,
    hit1: 0,
    hit5: 0,
    recall1: 0,
    recall5: 0,
    recall10: 0,
    ndcg5: 0,
    mrr: 0,
  };
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
  /** How a dataset query becomes a search request. */
  request: (query: DatasetQuery) => { queries: string[]; context?: string };
  /** Plain-BM25 baselines from SOURCE.md. */
  baseline?: Partial<Record<MetricName, number>>;
}

function evaluate(
  provider: Bm25SearchProvider,
  set: EvalSet,
): { metrics: Metrics; perQuery: Array<{ id: string; top: string[] }> } {
  const rows: Array<Omit<Metrics, 'queries'>> = [];
  const perQuery: Array<{ id: string; top: string[] }> = [];
  for (const query of set.queries) {
    const request = set.request(query);
    const results: SearchResult[] = provider.searchSync({ ...request, tools: set.tools, maxResults: rankingDepth });
    const ranking = results.map((result) => result.toolKey);
    rows.push(scoreRanking(ranking, query.gold));
    perQuery.push({ id: query.id, top: ranking.slice(0, 5) });
  }
  return { metrics: average(rows), perQuery };
}

// ---------------------------------------------------------------------------------------------------------------
// Speed

interface SpeedRow {
  tools: number;
  firstSearchMs: number;
  indexBuildMs: number;
  terms: number;
  postings: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  heapGrowthMb?: number;
}

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

/** Seal-Tools replicated under distinct server ids (`-r2`, `-r3`, …) up to `size` tools. */
function scaledCatalog(source: readonly DatasetTool[], size: number): ToolInfo[] {
  const tools: ToolInfo[] = [];
  for (let copy = 1; tools.length < size; copy++) {
    const slice = source.slice(0, Math.min(source.length, size - tools.length));
    tools.push(...toCatalog(slice, copy === 1 ? '' : `-r${copy}`).tools);
  }
  return tools;
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
// Formatting

const f3 = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : '—');
const f1 = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '—');

function cell(metrics: Metrics, name: MetricName, baseline?: Partial<Record<MetricName, number>>): string {
  const base = baseline?.[name];
  return base === undefined ? f3(metrics[name]) : `${f3(metrics[name])} (${f3(base)})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const runStarted = performance.now();
  setupGc();
  const loadAverageStart = os.loadavg();

  const live = loadDataset('livemcpbench');
  const toollens = loadDataset('toollens');
  const seal = loadDataset('seal-tools');
  const real = loadRealServers();
  const sealSource = readJson<DatasetTool[]>(join(sharedDirectory, 'bench', 'seal-tools', 'tools.json'));

  // Speed first, on a fresh process: the first search at 50,000 tools is a cold start (JIT, tokenizer caches).
  log('speed…');
  const speedQueryTexts = seal.queries.map((query) => query.query);
  const speed: SpeedRow[] = speedSizes.map((size) => {
    const row = measureSpeed(sealSource, speedQueryTexts, size, size === 50_000);
    log(`  ${size} tools: first search ${f1(row.firstSearchMs)} ms, p50 ${f3(row.p50)} ms, p99 ${f3(row.p99)} ms`);
    return row;
  });

  const realMain = real.queries.filter((query) => query.set === undefined);
  const realHoldout = real.queries.filter((query) => query.set === 'holdout');
  const realHoldout2 = real.queries.filter((query) => query.set === 'holdout2');
  const realEn = realMain.filter((query) => query.lang === 'en');
  const realJa = realMain.filter((query) => query.lang === 'ja');
  const holdoutEn = realHoldout.filter((query) => query.lang === 'en');
  const holdoutJa = realHoldout.filter((query) => query.lang === 'ja');
  const holdout2En = realHoldout2.filter((query) => query.lang === 'en');
  const holdout2Ja = realHoldout2.filter((query) => query.lang === 'ja');
  const whole = (query: DatasetQuery) => ({ queries: [query.query] });
  const sets: EvalSet[] = [
    {
      id: 'livemcpbench-task',
      label: 'LiveMCPBench — task as one query',
      tools: live.catalog.tools,
      queries: live.queries,
      request: whole,
      baseline: { recall1: 0.104, recall5: 0.288, ndcg5: 0.257, recall10: 0.347, mrr: 0.361 },
    },
    {
      id: 'livemcpbench-steps',
      label: 'LiveMCPBench — steps as `queries`',
      tools: live.catalog.tools,
      queries: live.queries,
      request: (query) => ({ queries: query.steps && query.steps.length > 0 ? query.steps : [query.query] }),
    },
    {
      id: 'livemcpbench-steps-context',
      label: 'LiveMCPBench — steps as `queries`, task as `context`',
      tools: live.catalog.tools,
      queries: live.queries,
      request: (query) => ({
        queries: query.steps && query.steps.length > 0 ? query.steps : [query.query],
        context: query.query,
      }),
    },
    {
      id: 'toollens',
      label: 'ToolLens',
      tools: toollens.catalog.tools,
      queries: toollens.queries,
      request: whole,
      baseline: { recall1: 0.085, recall5: 0.194, ndcg5: 0.185, recall10: 0.252, mrr: 0.317 },
    },
    {
      id: 'seal-tools',
      label: 'Seal-Tools',
      tools: seal.catalog.tools,
      queries: seal.queries,
      request: whole,
      baseline: { recall1: 0.394, recall5: 0.811, ndcg5: 0.805, recall10: 0.895, mrr: 0.922 },
    },
    {
      id: 'real-en',
      label: 'Real servers (237 tools) — English',
      tools: real.catalog.tools,
      queries: realEn,
      request: whole,
    },
    {
      id: 'real-ja',
      label: 'Real servers (237 tools) — Japanese',
      tools: real.catalog.tools,
      queries: realJa,
      request: whole,
    },
    {
      id: 'real-en-holdout',
      label: 'Real servers — English, held out',
      tools: real.catalog.tools,
      queries: holdoutEn,
      request: whole,
    },
    {
      id: 'real-ja-holdout',
      label: 'Real servers — Japanese, held out',
      tools: real.catalog.tools,
      queries: holdoutJa,
      request: whole,
    },
    {
      id: 'real-en-holdout2',
      label: 'Real servers — English, held out (2nd)',
      tools: real.catalog.tools,
      queries: holdout2En,
      request: whole,
    },
    {
      id: 'real-ja-holdout2',
      label: 'Real servers — Japanese, held out (2nd)',
      tools: real.catalog.tools,
      queries: holdout2Ja,
      request: whole,
    },
    {
      id: 'real-pairs',
      label: 'Real servers — two unrelated requests as `queries` (gold: union)',
      tools: real.catalog.tools,
      queries: pairQueries(realMain),
      request: (query) => ({ queries: query.steps ?? [query.query] }),
    },
  ];

  log('quality…');
  const provider = new Bm25SearchProvider();
  const quality = sets
    .filter((set) => set.queries.length > 0)
    .map((set) => {
      const { metrics, perQuery } = evaluate(provider, set);
      log(`  ${set.id}: recall@5 ${f3(metrics.recall5)}, hit@5 ${f3(metrics.hit5)}`);
      return { set, metrics, perQuery };
    });

  // The ja→en expansion on and off, on the Japanese queries (and on the English ones, where it must not hurt).
  const noExpansion = new Bm25SearchProvider({ queryExpansion: false });
  const expansionRows = [
    'real-ja',
    'real-ja-holdout',
    'real-ja-holdout2',
    'real-en',
    'real-en-holdout',
    'real-en-holdout2',
  ].flatMap((id) => {
    const set = sets.find((candidate) => candidate.id === id && candidate.queries.length > 0);
    if (set === undefined) return [];
    return [{ label: set.label, on: evaluate(provider, set).metrics, off: evaluate(noExpansion, set).metrics }];
  });

  // Ablation: each idea switched off (or on) alone, against the defaults, on every set.
  const customVariants = process.env['SEARCH_BENCH_VARIANTS'];
  const variants: Array<{ name: string; options: Bm25SearchProviderOptions }> = customVariants
    ? (JSON.parse(customVariants) as Array<{ name: string; options: Bm25SearchProviderOptions }>)
    : ablation
      ? [
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
          { name: 'RRF fusion, k = 20', options: { fusion: 'rrf', rrfK: 20 } },
          { name: 'RRF fusion, k = 60', options: { fusion: 'rrf', rrfK: 60 } },
          { name: 'score fusion (sum of normalized scores)', options: { fusion: 'score' } },
          { name: 'k1 0.9 (default 1.2)', options: { k1: 0.9 } },
          { name: 'k1 2', options: { k1: 2 } },
          { name: 'description b 0.5 (default 0.75)', options: { fieldB: { description: 0.5 } } },
        ]
      : [];
  // Held-out query sets are for reporting only: no variant is judged on them.
  const ablationSets = sets.filter((set) => !set.id.includes('holdout') && set.queries.length > 0);
  const ablationRows = variants.map(({ name, options }) => {
    const variantProvider = new Bm25SearchProvider(options);
    const row = Object.fromEntries(ablationSets.map((set) => [set.id, evaluate(variantProvider, set).metrics]));
    log(`  ablation: ${name}`);
    return { name, options, metrics: row as Record<string, Metrics> };
  });

  const runSeconds = (performance.now() - runStarted) / 1000;

  // ---- Markdown
  const lines: string[] = [];
  lines.push('# Search benchmark (BM25SearchProvider)');
  lines.push('');
  lines.push(
    `${new Date().toISOString()} · Node ${process.version} · ${os.platform()}/${os.arch()} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'} · load ${loadAverageStart.map((l) => l.toFixed(2)).join(' / ')} at start · run ${runSeconds.toFixed(0)} s`,
  );
  lines.push('');
  lines.push('## Quality');
  lines.push('');
  lines.push(
    'Each query gets the top 50 (`maxResults` 50). **hit@k**: share of queries with at least one gold tool in the top k. ' +
      '**R@k** (recall@k): gold tools in the top k / gold tools, averaged over queries. **NDCG@5**: binary-relevance DCG of ' +
      'the top 5 / the ideal DCG for min(5, #gold) gold tools. **MRR**: 1 / rank of the first gold tool (0 if not in the top 50). ' +
      'In parentheses: the plain BM25 baselines of the dataset SOURCE.md (k1 1.2, b 0.75, name + description, ' +
      'whole query; the LiveMCPBench one is strict scoring). Real-servers gold lists every acceptable tool, so hit@k is its main number.',
  );
  lines.push('');
  lines.push('| Set | Queries | hit@1 | hit@5 | R@1 | R@5 | R@10 | NDCG@5 | MRR |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { set, metrics } of quality) {
    lines.push(
      `| ${set.label} | ${metrics.queries} | ${f3(metrics.hit1)} | ${f3(metrics.hit5)} | ${cell(metrics, 'recall1', set.baseline)} | ${cell(metrics, 'recall5', set.baseline)} | ${cell(metrics, 'recall10', set.baseline)} | ${cell(metrics, 'ndcg5', set.baseline)} | ${cell(metrics, 'mrr', set.baseline)} |`,
    );
  }
  lines.push('');
  lines.push('Goals: LiveMCPBench (task) R@5 ≥ 0.40, ToolLens R@5 ≥ 0.28, Seal-Tools R@5 ≥ 0.80.');
  lines.push('');
  lines.push('### ja→en query expansion on / off (real servers)');
  lines.push('');
  lines.push('| Queries | expansion | hit@1 | hit@5 | R@5 | NDCG@5 | MRR |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of expansionRows) {
    for (const [label, m] of [
      ['on', row.on],
      ['off', row.off],
    ] as const) {
      lines.push(
        `| ${row.label} | ${label} | ${f3(m.hit1)} | ${f3(m.hit5)} | ${f3(m.recall5)} | ${f3(m.ndcg5)} | ${f3(m.mrr)} |`,
      );
    }
  }
  lines.push('');
  lines.push(
    '"off" turns off all query expansion (the ja→en vocabulary and the English synonyms); Japanese text then only matches through CJK bigrams.',
  );
  lines.push('');
  if (ablationRows.length > 0) {
    lines.push('### Ablation: each idea alone, against the defaults (R@5; real-en / real-ja: hit@5)');
    lines.push('');
    lines.push('Held-out query sets are not in this table: no design choice was made on them.');
    lines.push('');
    lines.push(`| Variant | ${ablationSets.map((set) => set.id).join(' | ')} |`);
    lines.push(`| --- | ${ablationSets.map(() => '---:').join(' | ')} |`);
    for (const row of ablationRows) {
      const cells = ablationSets.map((set) => {
        const m = row.metrics[set.id] as Metrics;
        return f3(set.id.startsWith('real-') && set.id !== 'real-pairs' ? m.hit5 : m.recall5);
      });
      lines.push(`| ${row.name} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  lines.push('## Speed');
  lines.push('');
  lines.push(
    `Seal-Tools tools (4,076) replicated under distinct server ids up to the size. One fresh provider per size, largest first, ` +
      `so the 50,000 row is a cold start. *first search* = the first \`search\` including the index build; then ${speedWarmup} warm-up and ` +
      `${speedQueries} measured searches (Seal-Tools queries, \`maxResults\` ${speedMaxResults}). Goals at 50,000: p50 ≤ 15 ms, p99 ≤ 40 ms, first search ≤ 1.5 s. ` +
      `Heap: heapUsed after GC (${gcSource}) before and after the first search, tool array already in memory.`,
  );
  lines.push('');
  lines.push(
    '| Tools | first search (ms) | index build (ms) | terms | postings | p50 (ms) | p90 (ms) | p99 (ms) | mean (ms) | heap growth (MB) |',
  );
  lines.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of [...speed].sort((a, b) => a.tools - b.tools)) {
    lines.push(
      `| ${row.tools.toLocaleString('en-US')} | ${f1(row.firstSearchMs)} | ${f1(row.indexBuildMs)} | ${row.terms.toLocaleString('en-US')} | ${row.postings.toLocaleString('en-US')} | ${f3(row.p50)} | ${f3(row.p90)} | ${f3(row.p99)} | ${f3(row.mean)} | ${row.heapGrowthMb === undefined ? '' : f1(row.heapGrowthMb)} |`,
    );
  }
  lines.push('');
  const markdown = `${lines.join('\n')}\n`;

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
