import { describe, expect, it } from 'vitest';
import { topK, topKByScore, topKIndices } from './top-k.js';

describe('topK', () => {
  it('returns the k best, best first, stable on ties', () => {
    const items = [3, 9, 1, 9, 5, 7, 2, 8, 6, 4].map((score, id) => ({ id, score }));
    expect(topK(items, 3, (item) => item.score).map((item) => item.id)).toEqual([1, 3, 7]);
    expect(topK(items, 0, (item) => item.score)).toEqual([]);
    expect(topK(items, 50, (item) => item.score)).toHaveLength(10);
  });

  it('topKByScore agrees with a full sort', () => {
    const score = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 100);
    const candidates = Int32Array.from({ length: 1000 }, (_, i) => 999 - i);
    const expected = [...candidates].sort((a, b) => (score[b] as number) - (score[a] as number) || a - b).slice(0, 25);
    expect(Array.from(topKByScore(candidates, score, 25))).toEqual(expected);
    expect(topKByScore(new Int32Array(0), score, 5)).toHaveLength(0);
  });
});

describe('topKIndices', () => {
  it('returns the positions of the k largest values, largest first', () => {
    expect(topKIndices([0.1, 0.9, 0.5, 0.7, 0.2], 3)).toEqual([1, 3, 2]);
  });

  it('keeps the earlier position first on ties and skips non-finite values', () => {
    expect(topKIndices([0.5, Number.NaN, 0.5, Number.POSITIVE_INFINITY, 0.4], 3)).toEqual([0, 2, 4]);
  });

  it('agrees with a full sort on random data', () => {
    const values = Float32Array.from(
      { length: 5_000 },
      (_, i) => Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453),
    );
    const sorted = Array.from(values.keys()).sort((a, b) => (values[b] as number) - (values[a] as number) || a - b);
    expect(topKIndices(values, 50)).toEqual(sorted.slice(0, 50));
  });

  it('handles k of 0, negative, fractional or larger than the input', () => {
    expect(topKIndices([1, 2], 0)).toEqual([]);
    expect(topKIndices([1, 2], -3)).toEqual([]);
    expect(topKIndices([1, 2, 3], 2.7)).toEqual([2, 1]);
    expect(topKIndices([1, 2], 10)).toEqual([1, 0]);
  });
});
