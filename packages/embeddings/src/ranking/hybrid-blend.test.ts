import { describe, expect, it } from 'vitest';
import { blendRanking, blendUnit, type HybridBlendOptions, matchQuality, type UnitEvidence } from './hybrid-blend.js';

const options: HybridBlendOptions = {
  bm25Weight: 0.6,
  semanticDepth: 2,
  sumWeight: 0.1,
  cosineFloor: 0.2,
  cosineCeiling: 0.5,
};

function unit(lexical: Array<[number, number]>, cosines?: number[], weight = 1, isQuery = true): UnitEvidence {
  return { weight, isQuery, lexical: new Map(lexical), ...(cosines ? { cosines: Float32Array.from(cosines) } : {}) };
}

describe('blendUnit', () => {
  it('is BM25 alone when the unit has no cosines', () => {
    expect(
      blendUnit(
        unit([
          [0, 1],
          [2, 0.4],
        ]),
        options,
      ),
    ).toEqual(
      new Map([
        [0, 1],
        [2, 0.4],
      ]),
    );
  });

  it('gives the cosine a smaller share when the embedded text stands for the unit only in part', () => {
    // Trust 0.5: the cosine's share is 0.4 × 0.5 = 0.2, BM25's 0.8.
    const partial: UnitEvidence = { ...unit([[0, 1]], [0.25, 0.1, 0.1, 0.55]), semanticTrust: 0.5 };
    const scores = blendUnit(partial, options);
    expect(scores.get(0)).toBeCloseTo(0.8, 6);
    expect(scores.get(3)).toBeCloseTo(0.2, 6);
    // Trust 0: BM25 alone decides the order (the similar tool only joins as a candidate with no score).
    const none = blendUnit({ ...partial, semanticTrust: 0 }, options);
    expect([...none.entries()]).toEqual([[0, 1]]);
  });

  it('adds the most similar tools to the candidates, with cosine normalized from the mean to the best', () => {
    // mean 0.25, best 0.55: tool 3 (no word matched) gets 0.4 × 1 = 0.4.
    const scores = blendUnit(unit([[0, 1]], [0.25, 0.1, 0.1, 0.55]), options);
    expect([...scores.keys()].sort()).toEqual([0, 3]);
    expect(scores.get(0)).toBeCloseTo(0.6 * 1 + 0.4 * 0, 6);
    expect(scores.get(3)).toBeCloseTo(0.4, 6);
  });

  it('gives no semantic credit below the mean and none at all when every cosine is equal', () => {
    expect(blendUnit(unit([[1, 0.5]], [0.9, 0.1, 0.9, 0.9]), options).get(1)).toBeCloseTo(0.3, 6);
    const flat = blendUnit(unit([[1, 1]], [0.3, 0.3, 0.3]), options);
    expect(flat.get(1)).toBeCloseTo(0.6, 6);
    expect(flat.size).toBe(1);
  });

  it('ignores lexical rows outside the tool set', () => {
    expect([
      ...blendUnit(
        unit(
          [
            [7, 1],
            [-1, 1],
          ],
          [0.5, 0.1],
        ),
        options,
      ).keys(),
    ]).toEqual([0]);
  });
});

describe('blendRanking', () => {
  it('lets a paraphrase no word matched outrank a weak word match', () => {
    // Tool 0 matched one word (BM25 best, little meaning); tool 1 means what was asked.
    const ranking = blendRanking([unit([[0, 1]], [0.2, 0.6, 0.1, 0.1])], { ...options, bm25Weight: 0.3 }, 5);
    expect(ranking.tools.map((tool) => tool.row)).toEqual([1, 0]);
    expect(ranking.tools[0]?.cosine).toBeCloseTo(0.6, 6);
  });

  it('fuses units: each over its best, the context weaker, a tool serving two units ahead', () => {
    const units = [
      unit([
        [0, 1],
        [2, 0.95],
      ]),
      unit([
        [1, 1],
        [2, 0.95],
      ]),
      unit([[3, 1]], undefined, 0.3, false),
    ];
    const rows = blendRanking(units, options, 10).tools.map((tool) => tool.row);
    expect(rows[0]).toBe(2);
    expect(rows.slice(1, 3).sort()).toEqual([0, 1]);
    expect(rows[3]).toBe(3);
  });

  it('returns at most limit tools, best first', () => {
    const ranking = blendRanking(
      [
        unit([
          [0, 0.2],
          [1, 1],
          [2, 0.5],
        ]),
      ],
      options,
      2,
    );
    expect(ranking.tools.map((tool) => tool.row)).toEqual([1, 2]);
    expect(blendRanking([unit([[0, 1]])], options, 0).tools).toEqual([]);
  });
});

describe('matchQuality', () => {
  it('is BM25s own signal when nothing was embedded', () => {
    expect(matchQuality([unit([[0, 0.7]])], options)).toBeCloseTo(0.7, 6);
    expect(matchQuality([unit([])], options)).toBe(0);
  });

  it('is the larger of BM25s signal and the best cosine mapped from floor..ceiling', () => {
    expect(matchQuality([unit([], [0.15, 0.1])], options)).toBe(0);
    expect(matchQuality([unit([], [0.35, 0.1])], options)).toBeCloseTo(0.5, 6);
    expect(matchQuality([unit([[0, 0.4]], [0.35, 0.1])], options)).toBeCloseTo(0.5, 6);
    expect(matchQuality([unit([[0, 0.8]], [0.35, 0.1])], options)).toBeCloseTo(0.8, 6);
    expect(matchQuality([unit([], [0.7, 0.1])], options)).toBe(1);
  });

  it('does not count the context', () => {
    const quality = matchQuality([unit([], [0.1]), unit([[0, 1]], [0.9], 0.3, false)], options);
    expect(quality).toBe(0);
  });
});
