import { describe, expect, it } from 'vitest';
import { glossJapaneseQuery } from './japanese-query-gloss.js';

describe('glossJapaneseQuery', () => {
  it("keeps the Latin words and adds each vocabulary word's main English sense, in order", () => {
    expect(glossJapaneseQuery('mainブランチの最近のコミット履歴を見たい')).toEqual({
      text: 'main commits commit history branch recent show',
      coverage: 1,
      actionCovered: true,
    });
    expect(glossJapaneseQuery('config.yamlファイルを読む').text).toBe('config.yaml file read');
  });

  it('says how many content words it understood, and whether the last one (the action) was among them', () => {
    // 切る ("cut" a branch: create it) is not in the vocabulary: the gloss keeps the nouns and loses the action.
    expect(glossJapaneseQuery('featureブランチを切って')).toEqual({
      text: 'feature branch',
      coverage: 0.5,
      actionCovered: false,
    });
    // An unknown place name lowers the coverage but the action is there.
    const elevation = glossJapaneseQuery('富士山の標高を調べて');
    expect(elevation.actionCovered).toBe(true);
    expect(elevation.coverage).toBeGreaterThan(0);
    expect(elevation.coverage).toBeLessThan(1);
    // Particles and inflections are not content: they neither raise nor lower the coverage.
    expect(glossJapaneseQuery('ファイルを読んでください').coverage).toBe(1);
  });

  it('counts an unknown katakana loanword as one word, and never finds short words inside it', () => {
    expect(glossJapaneseQuery('ブログを読む')).toEqual({ text: 'read', coverage: 0.5, actionCovered: true });
  });

  it('returns text without CJK unchanged, fully covered', () => {
    expect(glossJapaneseQuery('post message slack channel')).toEqual({
      text: 'post message slack channel',
      coverage: 1,
      actionCovered: true,
    });
  });

  it('understands nothing of CJK text the vocabulary does not know, and of non-strings', () => {
    expect(glossJapaneseQuery('ありがとう')).toEqual({ text: '', coverage: 0, actionCovered: false });
    expect(glossJapaneseQuery(42 as unknown as string)).toEqual({ text: '', coverage: 0, actionCovered: false });
    for (const text of ['', '。', '\ud800ファイル', '🙂読む', 'ー'.repeat(10_000)]) {
      const gloss = glossJapaneseQuery(text);
      expect(gloss.coverage).toBeGreaterThanOrEqual(0);
      expect(gloss.coverage).toBeLessThanOrEqual(1);
    }
  });
});
