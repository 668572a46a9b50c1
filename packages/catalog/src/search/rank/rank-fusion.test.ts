import { describe, expect, it } from 'vitest';
import { fuseRankings } from './rank-fusion.js';

const list = (keys: string[], weight = 1, scores?: number[]) => ({
  items: keys.map((key, i) => ({ key, score: scores?.[i] ?? keys.length - i })),
  weight,
});

function order(fused: Map<string, number>): string[] {
  return [...fused].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}

describe('fuseRankings', () => {
  it('rrf: sums w / (k + rank)', () => {
    const fused = fuseRankings([list(['a', 'b']), list(['b', 'c'])], 'rrf', 10);
    expect(fused.get('a')).toBeCloseTo(1 / 11);
    expect(fused.get('b')).toBeCloseTo(1 / 12 + 1 / 11);
    expect(order(fused)[0]).toBe('b');
  });

  it('max: the top of every list reaches the top, whatever the score scales', () => {
    const fused = fuseRankings(
      [list(['a', 'x', 'y', 'z'], 1, [100, 90, 80, 70]), list(['b', 'x', 'y', 'z'], 1, [2, 1, 0.9, 0.8])],
      'max',
    );
    expect(order(fused).slice(0, 2).sort()).toEqual(['a', 'b']);
  });

  it('max: an item only in the second list still ranks', () => {
    const fused = fuseRankings([list(['a', 'b', 'c']), list(['d'])], 'max');
    expect(order(fused).indexOf('d')).toBeLessThan(2);
  });

  it('weights lists (a weak list cannot beat a strong one)', () => {
    const fused = fuseRankings([list(['a']), list(['b'], 0.3)], 'max');
    expect(order(fused)).toEqual(['a', 'b']);
    expect(fused.get('b')).toBeCloseTo(0.3 * 1.1);
  });

  it('score: sums max-normalized scores', () => {
    const fused = fuseRankings([list(['a', 'b'], 1, [4, 2]), list(['b'], 1, [1])], 'score');
    expect(fused.get('a')).toBeCloseTo(1);
    expect(fused.get('b')).toBeCloseTo(1.5);
  });

  it('skips empty lists, zero weights and all-zero scores', () => {
    expect(fuseRankings([list([]), list(['a'], 0), list(['b'], 1, [0])], 'max').size).toBe(0);
  });
});
