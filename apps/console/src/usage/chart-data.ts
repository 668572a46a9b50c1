import type { UsageReport } from '../api/api-types.js';

/** uPlot's aligned columns: x in seconds since the epoch, then one column a line (null where there is no value). */
export type ChartColumns = [number[], ...Array<Array<number | null>>];

/** The calls and errors of each bucket (every bucket is present, zeros included: docs/console.md, `UsageReport`). */
export function callColumns(report: UsageReport): ChartColumns {
  return [
    report.series.map((bucket) => Date.parse(bucket.at) / 1000),
    report.series.map((bucket) => bucket.calls),
    report.series.map((bucket) => bucket.errors),
  ];
}

/** p50 and p95 of each bucket; a bucket without calls has none, so the line breaks there rather than dropping to 0. */
export function durationColumns(report: UsageReport): ChartColumns {
  return [
    report.series.map((bucket) => Date.parse(bucket.at) / 1000),
    report.series.map((bucket) => bucket.p50Ms ?? null),
    report.series.map((bucket) => bucket.p95Ms ?? null),
  ];
}

/**
 * The indices of values with no value on either side. A line through gaps draws nothing for such a value (one minute
 * with calls in "Last hour"), so the chart marks these with a dot.
 */
export function isolatedPoints(values: ArrayLike<number | null | undefined>): number[] {
  const isolated: number[] = [];
  for (let index = 0; index < values.length; index += 1) {
    if (values[index] == null) continue;
    if (values[index - 1] == null && values[index + 1] == null) isolated.push(index);
  }
  return isolated;
}

/** Errors per call, 0 without calls. */
export function errorRate(figures: { calls: number; errors: number }): number {
  return figures.calls === 0 ? 0 : figures.errors / figures.calls;
}
