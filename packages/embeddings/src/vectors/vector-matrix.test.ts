import { describe, expect, it } from 'vitest';
import { createVectorMatrix } from './vector-matrix.js';

function fill(data: Float32Array): void {
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 1.7);
}

function naiveDot(data: Float32Array, query: Float32Array, rows: number, dimensions: number): number[] {
  return Array.from({ length: rows }, (_, row) => {
    let dot = 0;
    for (let i = 0; i < dimensions; i++) dot += (query[i] as number) * (data[row * dimensions + i] as number);
    return dot;
  });
}

describe('createVectorMatrix', () => {
  it('uses WebAssembly SIMD for dimensions that are a multiple of 8, and JavaScript otherwise or on request', () => {
    expect(createVectorMatrix(3, 384).simd).toBe(true);
    expect(createVectorMatrix(3, 12).simd).toBe(false);
    expect(createVectorMatrix(3, 384, { simd: false }).simd).toBe(false);
    expect(createVectorMatrix(0, 384).dot(new Float32Array(384))).toEqual(new Float32Array(0));
  });

  for (const [rows, dimensions, simd] of [
    [37, 384, true],
    [37, 384, false],
    [5, 12, false],
    [5, 7, false],
  ] as const) {
    it(`computes the dot product with every row (${rows} × ${dimensions}, ${simd ? 'SIMD' : 'JavaScript'})`, () => {
      const matrix = createVectorMatrix(rows, dimensions, { simd });
      fill(matrix.data);
      const query = Float32Array.from({ length: dimensions }, (_, i) => Math.cos(i));
      const expected = naiveDot(matrix.data, query, rows, dimensions);
      const first = matrix.dot(query);
      first.forEach((value, row) => {
        expect(value).toBeCloseTo(expected[row] as number, 3);
      });
      // Results are the caller's: the next query does not overwrite them.
      matrix.dot(new Float32Array(dimensions));
      expect(Array.from(first)).toEqual(Array.from(matrix.dot(query)));
    });
  }
});
