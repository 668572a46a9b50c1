import { describe, expect, it } from 'vitest';
import { DurationHistogram, HISTOGRAM_RANGES, rangeOf, rangeUpperBound } from './duration-histogram.js';

describe('DurationHistogram', () => {
  it('puts a duration in the range whose bound is the first at or above it', () => {
    expect(rangeOf(0)).toBe(0);
    expect(rangeOf(0.5)).toBe(0);
    expect(rangeOf(0.6)).toBe(1);
    for (const ms of [1, 7, 42, 999, 12_345]) {
      const index = rangeOf(ms);
      expect(rangeUpperBound(index)).toBeGreaterThanOrEqual(ms);
      expect(rangeUpperBound(index - 1)).toBeLessThan(ms);
    }
    expect(rangeOf(1e12)).toBe(HISTOGRAM_RANGES - 1);
  });

  it('reads p50 and p95 within the precision of its ranges', () => {
    const histogram = new DurationHistogram();
    for (let ms = 1; ms <= 1000; ms += 1) histogram.add(ms);
    const p50 = histogram.quantile(0.5) ?? 0;
    const p95 = histogram.quantile(0.95) ?? 0;
    expect(Math.abs(p50 - 500) / 500).toBeLessThan(0.13);
    expect(Math.abs(p95 - 950) / 950).toBeLessThan(0.13);
    expect(new DurationHistogram().quantile(0.5)).toBeUndefined();
  });

  it('merges by adding, and survives its pairs', () => {
    const fast = new DurationHistogram();
    const slow = new DurationHistogram();
    for (let index = 0; index < 90; index += 1) fast.add(10);
    for (let index = 0; index < 10; index += 1) slow.add(2000);
    fast.merge(slow);
    expect(fast.count).toBe(100);
    expect(fast.quantile(0.5)).toBeLessThan(12);
    expect(fast.quantile(0.95)).toBeGreaterThan(1700);
    const copy = DurationHistogram.fromPairs(JSON.parse(JSON.stringify(fast.toPairs())));
    expect(copy.count).toBe(100);
    expect(copy.quantile(0.95)).toBe(fast.quantile(0.95));
    expect(() => DurationHistogram.fromPairs([[HISTOGRAM_RANGES, 1]])).toThrow(TypeError);
    expect(() => DurationHistogram.fromPairs('nope')).toThrow(TypeError);
  });
});
