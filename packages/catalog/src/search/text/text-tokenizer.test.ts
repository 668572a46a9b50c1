import { describe, expect, it } from 'vitest';
import { cjkTerms, splitCjkRuns } from './cjk-segmenter.js';
import {
  analyzeText,
  isStopWord,
  normalizeText,
  splitCamelCase,
  splitIdentifier,
  stemWord,
  tokenize,
} from './text-tokenizer.js';

describe('splitIdentifier', () => {
  it.each([
    ['read_text_file', ['read', 'text', 'file']],
    ['getUserProfile', ['get', 'user', 'profile']],
    ['API-get-user', ['api', 'get', 'user']],
    ['kubectl.logs/tail', ['kubectl', 'logs', 'tail']],
    ['HTMLParser', ['html', 'parser']],
    ['listURLs', ['list', 'urls']],
    ['getV2Users', ['get', 'v2', 'users']],
    ['browser_take_screenshot', ['browser', 'take', 'screenshot']],
    ['sequentialthinking', ['sequentialthinking']],
  ])('%s → %j', (identifier, words) => {
    expect(splitIdentifier(identifier)).toEqual(words);
  });

  it('keeps all-lower and all-upper words with digits whole', () => {
    expect(splitCamelCase('k8s')).toEqual(['k8s']);
    expect(splitCamelCase('EC2')).toEqual(['ec2']);
    expect(splitCamelCase('base64')).toEqual(['base64']);
  });
});

describe('tokenize', () => {
  it('stems English words on both sides the same way', () => {
    expect(tokenize('Reading files and directories')).toEqual(['read', 'file', 'directori']);
    expect(tokenize('read a file in a directory')).toEqual(['read', 'file', 'directori']);
    expect(stemWord('running')).toBe('run');
  });

  it('splits tool names into words', () => {
    expect(tokenize('read_text_file')).toEqual(['read', 'text', 'file']);
    expect(tokenize('getUserProfile')).toEqual(['get', 'user', 'profil']);
  });

  it('drops stop words but keeps "get" and short technical words', () => {
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('get')).toBe(false);
    expect(tokenize('get the pr of the db')).toEqual(['get', 'pr', 'db']);
    expect(tokenize('ls rm id k8s')).toEqual(['ls', 'rm', 'id', 'k8s']);
  });

  it('drops single letters and bare numbers but keeps words with digits', () => {
    expect(tokenize('a b 400 2024 v1 ec2 3d')).toEqual(['v1', 'ec2', '3d']);
  });

  it('normalizes full-width and half-width forms (NFKC)', () => {
    expect(tokenize('ＲＥＡＤ　ＦＩＬＥ')).toEqual(['read', 'file']);
    expect(normalizeText('ｶﾀｶﾅ')).toBe('カタカナ');
  });

  it('treats query syntax characters as separators', () => {
    expect(tokenize('name:foo^2 bar~1 +baz -qux wild*')).toEqual(['name', 'foo', 'bar', 'baz', 'qux', 'wild']);
  });

  it('keeps words of other scripts whole and lower-cased', () => {
    expect(tokenize('Привет мир')).toEqual(['привет', 'мир']);
  });

  it('gives the surface word of each term', () => {
    expect(analyzeText('Directories')).toEqual([{ term: 'directori', surface: 'directories' }]);
  });

  it('never throws on hostile strings', () => {
    const hostile = [
      '',
      '   ',
      '\u0000\u0001\u001f\u007f',
      '\ud800 lone high \udc00 lone low',
      '😀🎉 emoji only',
      'x'.repeat(10_000),
      'a:b^c~d*e+f-g',
      '\u200b\u200d\ufeff',
      '(((((',
    ];
    for (const text of hostile) expect(() => tokenize(text)).not.toThrow();
    expect(tokenize('😀🎉')).toEqual([]);
    expect(tokenize('\ud800file\udc00')).toEqual(['file']);
  });
});

describe('CJK segmentation', () => {
  it('splits at script changes', () => {
    expect(splitCjkRuns('検索結果をリストで返す').map((run) => run.text)).toEqual([
      '検索結果',
      'を',
      'リスト',
      'で',
      '返',
      'す',
    ]);
  });

  it('indexes kanji and katakana runs as bigrams, drops hiragana, keeps a lone kanji', () => {
    expect(cjkTerms('ファイルを読む')).toEqual(['ファ', 'ァイ', 'イル', '読']);
    expect(cjkTerms('検索する')).toEqual(['検索']);
    expect(cjkTerms('搜索关键词')).toEqual(['搜索', '索关', '关键', '键词']);
  });

  it('separates CJK from Latin in mixed text', () => {
    expect(tokenize('k8sのポッドのログ')).toEqual(['k8s', 'ポッ', 'ッド', 'ログ']);
    expect(tokenize('Slackのチャンネル')).toEqual(['slack', 'チャ', 'ャン', 'ンネ', 'ネル']);
  });
});
