import { describe, expect, it } from 'vitest';
import type { QueryTranslator } from './english-gloss.js';
import {
  MAX_EMBEDDED_TEXT_LENGTH,
  queryEmbedding,
  queryEmbeddingTexts,
  spellOutMentions,
} from './query-embedding-texts.js';

/** A tiny vocabulary: ファイル → file, 読む → read; it understands nothing else (切る, "cut", is unknown). */
const translate: QueryTranslator = (text) => {
  const words = [
    ['ファイル', 'file'],
    ['読', 'read'],
  ].filter(([form]) => text.includes(form as string));
  const latin = text.replace(/[\u3000-\u30ff\u4e00-\u9fff]+/g, ' ').trim();
  const unknownAction = text.includes('切');
  return {
    text: `${latin} ${words.map(([, english]) => english).join(' ')}`.trim(),
    coverage: words.length / (words.length + (unknownAction ? 1 : 0)),
    actionCovered: !unknownAction,
  };
};

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

  it('trusts a gloss that kept the action, and one that lost it only as far as its words go', () => {
    expect(queryEmbedding('config.yamlファイルを読む', { translate, maxClauses: 8 }).trust).toBe(1);
    expect(queryEmbedding('ファイルを切って', { translate, maxClauses: 8 })).toEqual({ texts: ['file'], trust: 0.5 });
    expect(queryEmbedding('read a file', { maxClauses: 8 }).trust).toBe(1);
    // A translator that answers a plain string is taken as a full translation.
    expect(queryEmbedding('ファイルを切って', { translate: () => 'cut a file', maxClauses: 8 }).trust).toBe(1);
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
