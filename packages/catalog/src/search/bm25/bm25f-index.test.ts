import { describe, expect, it } from 'vitest';
import { Bm25fIndexBuilder } from './bm25f-index.js';

function build(docs: string[][][], weights = [2, 1]) {
  const builder = new Bm25fIndexBuilder(2);
  for (const doc of docs) builder.addDocument(doc);
  return builder.build({ k1: 1.2, weights, b: [0.75, 0.75] });
}

function scores(index: ReturnType<typeof build>, terms: string[]): Map<number, number> {
  const query = terms.flatMap((term) => {
    const termId = index.termId(term);
    return termId === undefined ? [] : [{ termId, weight: 1, coverageWeight: 1 }];
  });
  const matched = index.accumulate(query);
  return new Map(Array.from(matched, (doc) => [doc, index.scores[doc] as number]));
}

describe('Bm25fIndex', () => {
  const index = build([
    [
      ['read', 'file'],
      ['read', 'content', 'file'],
    ],
    [
      ['write', 'file'],
      ['write', 'content'],
    ],
    [['list'], ['list', 'directori', 'file', 'file', 'file']],
  ]);

  it('scores only documents with a query term, with BM25 idf (rarer terms count more)', () => {
    const result = scores(index, ['read']);
    expect([...result.keys()]).toEqual([0]);
    expect(index.idf(index.termId('read') as number)).toBeGreaterThan(index.idf(index.termId('file') as number));
  });

  it('weighs fields (a name match beats a body match)', () => {
    const weighted = build(
      [
        [['alpha'], []],
        [[], ['alpha']],
      ],
      [3, 1],
    );
    const s = scores(weighted, ['alpha']);
    expect(s.get(0) as number).toBeGreaterThan(s.get(1) as number);
  });

  it('saturates term frequency', () => {
    const tf = build([
      [[], ['x']],
      [[], ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x']],
      [[], ['y']],
    ]);
    const s = scores(tf, ['x']);
    expect((s.get(1) as number) / (s.get(0) as number)).toBeLessThan(2.2);
  });

  it('reports the fields a term matched in a document and counts name hits', () => {
    expect(index.fieldMask(index.termId('file') as number, 0)).toBe(0b11);
    expect(index.fieldMask(index.termId('file') as number, 2)).toBe(0b10);
    expect(index.fieldMask(index.termId('read') as number, 2)).toBe(0);
    index.accumulate([
      { termId: index.termId('read') as number, weight: 1, coverageWeight: 1 },
      { termId: index.termId('file') as number, weight: 1, coverageWeight: 1 },
    ]);
    expect(index.nameHits[0]).toBe(2);
    expect(index.nameHits[2]).toBe(0);
    expect(index.nameTermCounts[0]).toBe(2);
  });

  it('resets accumulators between searches', () => {
    const first = scores(index, ['file']);
    scores(index, ['list']);
    expect(scores(index, ['file'])).toEqual(first);
  });

  it('handles an empty index and empty documents', () => {
    const empty = build([]);
    expect(empty.docCount).toBe(0);
    expect(empty.accumulate([]).length).toBe(0);
    const blank = build([
      [[], []],
      [['a'], []],
    ]);
    expect([...scores(blank, ['a']).keys()]).toEqual([1]);
  });
});
