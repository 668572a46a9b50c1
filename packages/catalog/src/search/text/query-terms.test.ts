import { describe, expect, it } from 'vitest';
import { queryTerms } from './query-terms.js';

const settings = { queryExpansion: true, synonymWeight: 0.3, alternativeWeight: 0.5, argumentWeight: 0.3 };

describe('queryTerms', () => {
  it('finds the capitalized words the regular expression \\p{L}*\\p{Lu}[\\p{L}\\p{N}]* finds, in linear time', () => {
    const samples = [
      'add a comment to a Notion page',
      "open GitHub's issues in k8sNotion and iPhone 12Pro",
      'ab1Cd2EF gh, ÉCOLE café Ünïcode ΑΒΓ δ',
      'lower case only 42',
      'ファイル'.repeat(50),
      'aaaa1A bbbb22 CCCC',
    ];
    for (const text of samples) {
      const expected = new Set((text.match(/\p{L}*\p{Lu}[\p{L}\p{N}]*/gu) ?? []).map((word) => word.toLowerCase()));
      expect(queryTerms(text, settings).capitalized).toEqual(expected);
    }
  });

  it('lists what the query asks for: its words with their synonyms, and the concepts of Japanese text', () => {
    const english = queryTerms('remove the user', settings).informative;
    expect(english.map((unit) => unit.label)).toEqual(['remove', 'user']);
    expect(english[0]?.partial.map((entry) => entry.term)).toContain('delet');
    expect(english.every((unit) => unit.domain)).toBe(true);
    const japanese = queryTerms('メールを送る', settings).informative;
    expect(japanese.filter((unit) => !unit.cjk).map((unit) => [unit.label, unit.terms])).toEqual([
      ['メール', ['email', 'mail']],
      ['送る', ['send']],
    ]);
  });

  it('tells tool-domain words from names, and leaves URLs and paths out', () => {
    const units = queryTerms('email the Zorblax report to https://example.com/x', settings).informative;
    expect(units.map((unit) => [unit.label, unit.domain])).toEqual([
      ['email', true],
      ['zorblax', false],
      ['report', true],
    ]);
  });
});
