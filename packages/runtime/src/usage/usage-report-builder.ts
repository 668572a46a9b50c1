import { DurationHistogram } from './duration-histogram.js';
import type { CallBucket, SearchSeries, TimeBuckets, ToolSeries } from './usage-buckets.js';
import { type UsageFigures, type UsageReport, type UsageReportQuery, usageWindows } from './usage-report-types.js';

/** Calls, errors and durations being added up. */
class FiguresSum {
  calls = 0;
  errors = 0;
  readonly durations = new DurationHistogram();

  add(bucket: CallBucket): void {
    this.calls += bucket.calls;
    this.errors += bucket.errors;
    this.durations.merge(bucket.durations);
  }

  addSum(other: FiguresSum): void {
    this.calls += other.calls;
    this.errors += other.errors;
    this.durations.merge(other.durations);
  }

  figures(): UsageFigures {
    const p50Ms = this.calls > 0 ? this.durations.quantile(0.5) : undefined;
    const p95Ms = this.calls > 0 ? this.durations.quantile(0.95) : undefined;
    return {
      calls: this.calls,
      errors: this.errors,
      ...(p50Ms !== undefined ? { p50Ms } : {}),
      ...(p95Ms !== undefined ? { p95Ms } : {}),
    };
  }
}

/**
 * The report of one window at `now`: its buckets end with the current one (partly elapsed), so `to` is the end of
 * the current minute or hour. Tools without calls in the window are left out; `series` has every bucket.
 */
export function buildUsageReport(
  tools: Iterable<ToolSeries>,
  searches: SearchSeries,
  query: UsageReportQuery,
  now: number,
  persisted: boolean,
): UsageReport {
  const { bucketMs, buckets } = usageWindows[query.window];
  const to = now - (now % bucketMs) + bucketMs;
  const from = to - buckets * bucketMs;
  const pick = <Bucket>(series: { minutes: TimeBuckets<Bucket>; hours: TimeBuckets<Bucket> }) =>
    bucketMs === 60_000 ? series.minutes : series.hours;

  const totals = new FiguresSum();
  const perBucket = Array.from({ length: buckets }, () => new FiguresSum());
  const servers = new Map<string, FiguresSum>();
  const toolRows: UsageReport['tools'] = [];
  for (const series of tools) {
    if (query.serverId !== undefined && series.serverId !== query.serverId) continue;
    if (query.toolKey !== undefined && series.toolKey !== query.toolKey) continue;
    if (query.visible && !query.visible(series.toolKey, series.serverId)) continue;
    const tool = new FiguresSum();
    for (const [start, bucket] of pick(series).buckets) {
      if (start < from || start >= to) continue;
      tool.add(bucket);
      perBucket[(start - from) / bucketMs]?.add(bucket);
    }
    if (tool.calls === 0) continue;
    totals.addSum(tool);
    let server = servers.get(series.serverId);
    if (!server) {
      server = new FiguresSum();
      servers.set(series.serverId, server);
    }
    server.addSum(tool);
    toolRows.push({
      toolKey: series.toolKey,
      serverId: series.serverId,
      ...tool.figures(),
      ...(series.lastCallAt > 0 ? { lastCallAt: new Date(series.lastCallAt).toISOString() } : {}),
    });
  }

  const searchSum = { count: 0, noMatch: 0, durations: new DurationHistogram() };
  for (const [start, bucket] of pick(searches).buckets) {
    if (start < from || start >= to) continue;
    searchSum.count += bucket.count;
    searchSum.noMatch += bucket.noMatch;
    searchSum.durations.merge(bucket.durations);
  }
  const searchP50 = searchSum.durations.quantile(0.5);
  const searchP95 = searchSum.durations.quantile(0.95);

  const byCalls = (a: { calls: number }, b: { calls: number }) => b.calls - a.calls;
  return {
    window: query.window,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    bucketMs,
    persisted,
    totals: totals.figures(),
    servers: [...servers].map(([serverId, sum]) => ({ serverId, ...sum.figures() })).sort(byCalls),
    tools: toolRows.sort(byCalls),
    series: perBucket.map((sum, index) => ({ at: new Date(from + index * bucketMs).toISOString(), ...sum.figures() })),
    searches: {
      count: searchSum.count,
      noMatch: searchSum.noMatch,
      ...(searchP50 !== undefined ? { p50Ms: searchP50 } : {}),
      ...(searchP95 !== undefined ? { p95Ms: searchP95 } : {}),
    },
  };
}
