/**
 * The markdown report of search-bench.ts (bench/results/search.md): quality per set next to the SOURCE.md
 * baselines, ja→en expansion on and off, the ablation, the match calibration and the speed rows.
 */
import os from 'node:os';
import { defaultGoodMatch } from '@search-mcp/catalog';
import { type CalibrationRow, sweepThresholds } from './match-calibration.js';
import type { MetricName, Metrics } from './retrieval-metrics.js';

export const f3 = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : '—');
export const f1 = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '—');

/** Plain-BM25 baselines from a set's SOURCE.md. */
export type Baseline = Partial<Record<MetricName, number>>;

export interface QualityRow {
  set: { id: string; label: string; tools: readonly unknown[]; baseline?: Baseline };
  metrics: Metrics;
  perQuery: Array<{ id: string; top: string[] }>;
}

export interface ExpansionRow {
  label: string;
  on: Metrics;
  off: Metrics;
}

export interface AblationRow {
  name: string;
  options: object;
  metrics: Record<string, Metrics>;
}

export interface SpeedRow {
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

/** What one run measured, and how (the settings the text names). */
export interface SearchRun {
  loadAverageStart: number[];
  runSeconds: number;
  quality: QualityRow[];
  expansionRows: ExpansionRow[];
  ablationSets: Array<{ id: string }>;
  ablationRows: AblationRow[];
  calibration: CalibrationRow[];
  meanSweep: number[];
  speedSetName: string;
  speed: SpeedRow[];
  gcSource: string;
  speedWarmup: number;
  speedQueries: number;
  speedMaxResults: number;
}

function cell(metrics: Metrics, name: MetricName, baseline?: Baseline): string {
  const base = baseline?.[name];
  return base === undefined ? f3(metrics[name]) : `${f3(metrics[name])} (${f3(base)})`;
}

export function searchMarkdown(run: SearchRun): string {
  const {
    loadAverageStart,
    runSeconds,
    quality,
    expansionRows,
    ablationSets,
    ablationRows,
    calibration,
    meanSweep,
    speedSetName,
    speed,
    gcSource,
    speedWarmup,
    speedQueries,
    speedMaxResults,
  } = run;
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
  lines.push('### Match calibration: when does the catalog say "no good match"?');
  lines.push('');
  lines.push(
    'Each query runs twice: against the whole catalog and against the catalog without its gold tools (LiveMCPBench: ' +
      "also without their equivalents on other servers). *Quality* is the best hit's match quality (the idf-weighted " +
      "share of the query's words the hit contains, weighted by how strongly; `goodMatch: 1` shows it as relevance). " +
      `The catalog says \`match: good\` when quality ≥ \`goodMatch\` (default ${defaultGoodMatch}), \`none\` below half ` +
      'of it, `weak` between. Positives are the runs without gold: **precision** = share of "not good" calls that were ' +
      'runs without gold, **recall** = share of runs without gold called "not good", **false alarms** = share of runs ' +
      'with gold called "not good". **AUC**: chance that a run with gold scores above a run without. Near-duplicates ' +
      'stay in the catalog (the real servers have several file readers), so a run without gold often still has a fair ' +
      'match: this is a hard test, and lexical matching cannot pass it fully.',
  );
  lines.push('');
  lines.push(
    '| Set | Queries | quality with gold | without | AUC | not good: precision | recall | false alarms | none: precision | recall | false alarms |',
  );
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of calibration) {
    lines.push(
      `| ${row.label}${row.singleNeed ? ' †' : ''} | ${row.queries} | ${f3(row.meanWithGold)} | ${f3(row.meanWithoutGold)} | ${f3(row.auc)} | ${f3(row.notGood.precision)} | ${f3(row.notGood.recall)} | ${f3(row.notGood.falseAlarms)} | ${f3(row.none.precision)} | ${f3(row.none.recall)} | ${f3(row.none.falseAlarms)} |`,
    );
  }
  lines.push('');
  lines.push(
    '† the sets the default threshold was chosen on (the best mean Youden J below, on a plateau). The real-server ' +
      'held-out rows and the ToolLens and Seal-Tools samples (other queries than those looked at while designing the ' +
      'signal) were not used to choose; the real-server main queries were.',
  );
  lines.push('');
  lines.push(`| Set | ${sweepThresholds.map((threshold) => `J @ ${threshold.toFixed(2)}`).join(' | ')} |`);
  lines.push(`| --- | ${sweepThresholds.map(() => '---:').join(' | ')} |`);
  for (const row of calibration) {
    lines.push(`| ${row.label}${row.singleNeed ? ' †' : ''} | ${row.sweep.map((j) => f3(j)).join(' | ')} |`);
  }
  lines.push(`| **mean of †** | ${meanSweep.map((j) => f3(j)).join(' | ')} |`);
  lines.push('');
  lines.push('## Speed');
  lines.push('');
  lines.push(
    `${speedSetName} replicated under distinct server ids up to the size. One fresh provider per size, largest first, ` +
      `so the 50,000 row is a cold start. *first search* = the first \`search\` including the index build; then ${speedWarmup} warm-up and ` +
      `${speedQueries} measured searches (its queries, \`maxResults\` ${speedMaxResults}). Goals at 50,000: p50 ≤ 15 ms, p99 ≤ 40 ms, first search ≤ 1.5 s. ` +
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
  return `${lines.join('\n')}\n`;
}
