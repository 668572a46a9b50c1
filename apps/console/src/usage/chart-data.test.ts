import { describe, expect, it } from 'vitest';
import type { UsageReport } from '../api/api-types.js';
import { callColumns, durationColumns, errorRate, isolatedPoints } from './chart-data.js';

const report: UsageReport = {
  window: '1h',
  from: '2026-11-27T10:00:00.000Z',
  to: '2026-11-27T10:02:00.000Z',
  bucketMs: 60_000,
  persisted: false,
  totals: { calls: 3, errors: 1, p50Ms: 10, p95Ms: 30 },
  servers: [],
  tools: [],
  series: [
    { at: '2026-11-27T10:00:00.000Z', calls: 3, errors: 1, p50Ms: 10, p95Ms: 30 },
    { at: '2026-11-27T10:01:00.000Z', calls: 0, errors: 0 },
  ],
  searches: { count: 0, noMatch: 0 },
};

describe('chart data', () => {
  it('puts the buckets in seconds and keeps absent durations as gaps', () => {
    const start = Date.parse('2026-11-27T10:00:00.000Z') / 1000;
    expect(callColumns(report)).toEqual([
      [start, start + 60],
      [3, 0],
      [1, 0],
    ]);
    expect(durationColumns(report)).toEqual([
      [start, start + 60],
      [10, null],
      [30, null],
    ]);
  });

  it('finds the values with no neighbour, which a line alone would not draw', () => {
    expect(isolatedPoints([null, null, 12, null, null])).toEqual([2]);
    expect(isolatedPoints([5])).toEqual([0]);
    expect(isolatedPoints([5, null, 7, 8, null, 9])).toEqual([0, 5]);
    expect(isolatedPoints([1, 2, 3])).toEqual([]);
    expect(isolatedPoints(durationColumns(report)[1] ?? [])).toEqual([0]);
    expect(isolatedPoints(callColumns(report)[1] ?? [])).toEqual([]);
  });

  it('reads the error rate, 0 without calls', () => {
    expect(errorRate({ calls: 4, errors: 1 })).toBe(0.25);
    expect(errorRate({ calls: 0, errors: 0 })).toBe(0);
  });
});
