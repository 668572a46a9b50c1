import { describe, expect, it } from 'vitest';
import { topK, topKByScore } from './top-k.js';

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
