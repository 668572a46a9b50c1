import { describe, expect, it } from 'vitest';
import { createVocabularyTranslator } from './english-gloss.js';
import { MAX_EMBEDDED_TEXT_LENGTH, queryEmbeddingTexts, spellOutMentions } from './query-embedding-texts.js';

const translate = createVocabularyTranslator((text) =>
  [
    { form: 'ファイル', english: 'file', alternatives: '' },
    { form: '読む', english: 'read', alternatives: 'view' },
  ].filter((match) => text.includes(match.form.slice(0, 1))),
);

describe('queryEmbeddingTexts', () => {
  it('embeds a short query as it is', () => {
    expect(queryEmbeddingTexts('list open pull requests', { maxClauses: 8 })).toEqual(['list open pull requests']);
  });

  it('adds each clause of a multi-step task after the whole text', () => {
    const texts = queryEmbeddingTexts('Get the weather in Paris. Then book a table. Finally email Bob.', {
      maxClauses: 8,
    });
    expect(texts[0]).toBe('Get the weather in Paris. Then book a table. Finally email Bob.');
    expect(texts.slice(1)).toEqual(['Get the weather in Paris', 'Then book a table', 'Finally email Bob']);
    expect(queryEmbeddingTexts('One. Two. Three. Four.', { maxClauses: 2 })).toHaveLength(3);
  });

  it('does not embed Japanese without a translator, and glosses it with one', () => {
    expect(queryEmbeddingTexts('ファイルを読む', { maxClauses: 8 })).toEqual([]);
    expect(queryEmbeddingTexts('config.yamlファイルを読む', { translate, maxClauses: 8 })).toEqual([
      'config.yaml file read',
    ]);
  });

  it('cuts a very long query to what the model reads', () => {
    const [whole] = queryEmbeddingTexts('word '.repeat(5_000), { maxClauses: 8 });
    expect(whole?.length).toBeLessThanOrEqual(MAX_EMBEDDED_TEXT_LENGTH);
  });

  it('is empty for blank text', () => {
    expect(queryEmbeddingTexts('   ', { maxClauses: 8 })).toEqual([]);
  });
});

describe('spellOutMentions', () => {
  it('names a #channel as a channel and leaves issue numbers alone', () => {
    expect(spellOutMentions('drop a note in #deploys')).toBe('drop a note in channel #deploys');
    expect(spellOutMentions('#general: standup moved')).toBe('channel #general: standup moved');
    expect(spellOutMentions('close issue #123')).toBe('close issue #123');
    expect(spellOutMentions('C# code')).toBe('C# code');
  });
});
