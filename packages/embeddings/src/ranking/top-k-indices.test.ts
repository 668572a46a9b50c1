import { describe, expect, it } from 'vitest';
import { topKIndices } from './top-k-indices.js';

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
