import { describe, expect, it } from 'vitest';
import { glossWith, semanticTrust, vocabularyTranslator } from './english-gloss.js';

describe('vocabularyTranslator (the default: the catalog vocabulary)', () => {
  it('glosses Japanese with the words understood and whether the action was', () => {
    expect(glossWith(vocabularyTranslator, 'スラックにメッセージを送る')).toEqual({
      text: 'slack message send',
      coverage: 1,
      actionCovered: true,
    });
    expect(glossWith(vocabularyTranslator, 'featureブランチを切って')).toMatchObject({
      text: 'feature branch',
      actionCovered: false,
    });
  });
});

describe('glossWith', () => {
  it('takes a plain string as a full translation', () => {
    expect(glossWith(() => 'read a file', 'ファイルを読む')).toEqual({
      text: 'read a file',
      coverage: 1,
      actionCovered: true,
    });
  });

  it('translates nothing when the translator throws or answers nonsense, and clamps the coverage', () => {
    const nothing = { text: '', coverage: 0, actionCovered: false };
    expect(
      glossWith(() => {
        throw new Error('boom');
      }, 'x'),
    ).toEqual(nothing);
    expect(glossWith(() => null as unknown as string, 'x')).toEqual(nothing);
    expect(glossWith(() => ({ text: 3 }) as unknown as string, 'x')).toEqual(nothing);
    expect(glossWith(() => ({ text: 'a', coverage: 7, actionCovered: true }), 'x').coverage).toBe(1);
    expect(glossWith(() => ({ text: 'a', coverage: Number.NaN, actionCovered: true }), 'x').coverage).toBe(1);
  });
});

describe('semanticTrust', () => {
  it('trusts a gloss that kept the action whole, and one that lost it as far as its words go', () => {
    expect(semanticTrust({ text: 'elevation look up', coverage: 0.5, actionCovered: true })).toBe(1);
    expect(semanticTrust({ text: 'feature branch', coverage: 0.5, actionCovered: false })).toBe(0.5);
    expect(semanticTrust({ text: '', coverage: 0, actionCovered: false })).toBe(0);
  });
});
