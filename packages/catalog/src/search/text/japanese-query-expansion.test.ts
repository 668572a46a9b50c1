import { describe, expect, it } from 'vitest';
import { JA_EN_TOOL_VOCABULARY } from './ja-en-tool-vocabulary.js';
import { compileVocabulary, findVocabularyMatches } from './japanese-query-expansion.js';

const forms = (text: string) => findVocabularyMatches(text).map((match) => match.form);
const english = (text: string) => findVocabularyMatches(text).map((match) => match.english);

describe('findVocabularyMatches', () => {
  it('translates the tool words of a Japanese request', () => {
    expect(english('ファイルを読む')).toEqual(['file', 'read']);
    expect(english('k8sのポッドのログ')).toEqual(['pod pods', 'logs']);
    expect(english('プルリクを作って')).toEqual(['pull request', 'create']);
    expect(english('スラックにメッセージを送る')).toEqual(['slack', 'message', 'send']);
    expect(english('ブラウザでスクリーンショットを撮る')).toEqual(['browser', 'screenshot', 'take capture']);
  });

  it('tolerates verb inflections (okurigana)', () => {
    for (const text of ['読む', '読み', '読んで', '読めば', '読みたい']) expect(english(text)).toEqual(['read']);
    for (const text of ['書き込む', '書き込んで', '書き込み']) expect(english(text)).toEqual(['write']);
  });

  it('prefers the longest form', () => {
    expect(forms('プルリクエストを確認')).toEqual(['プルリクエスト', '確認']);
    expect(english('プルリクエスト')).toEqual(['pull request']);
    expect(english('書類を送る')).toEqual(['document', 'send']);
  });

  it('ignores the prolonged sound mark ー', () => {
    expect(english('ブラウザー')).toEqual(english('ブラウザ'));
    expect(english('サーバー')).toEqual(['server']);
  });

  it('segments katakana compounds, but does not find short words inside unknown loanwords', () => {
    expect(english('ブラウザタブ')).toEqual(['browser', 'tab']);
    expect(english('ブログ')).toEqual([]); // not ログ
    expect(english('レポート')).toEqual([]); // not レポ (repository)
  });

  it('matches forms that mix katakana with kanji or hiragana', () => {
    expect(english('ファイル名を変更')).toEqual(['rename move']);
    expect(english('ファイル名を教えて')).toEqual(['file name', 'get']);
    expect(english('口コミを見たい')).toEqual(['place details', 'show']);
  });

  it('reports each concept once', () => {
    expect(english('ファイルとファイル')).toEqual(['file']);
  });

  it('finds nothing in text without CJK, and never throws', () => {
    expect(findVocabularyMatches('read a file')).toEqual([]);
    for (const text of ['', '\ud800', '😀', 'ー', 'ーーー', 'を'.repeat(10_000), 'ファイル'.repeat(3_000)]) {
      expect(() => findVocabularyMatches(text)).not.toThrow();
    }
  });

  it('knows the Simplified Chinese tool words', () => {
    expect(english('获取天气预报')).toEqual(['get', 'weather']);
    expect(english('搜索文件')).toEqual(['search', 'file']);
  });
});

describe('ja-en tool vocabulary', () => {
  it('is a compact data table with forms and English for every entry', () => {
    expect(JA_EN_TOOL_VOCABULARY.length).toBeGreaterThan(200);
    expect(JA_EN_TOOL_VOCABULARY.length).toBeLessThan(800);
    for (const [entryForms, entryEnglish] of JA_EN_TOOL_VOCABULARY) {
      expect(entryForms.split('|').every((form) => form.trim().length > 0)).toBe(true);
      expect(entryEnglish.split(';')[0]?.trim().length).toBeGreaterThan(0);
    }
  });

  it('compiles every CJK form, and ignores forms with Latin letters or digits', () => {
    const compiled = compileVocabulary(JA_EN_TOOL_VOCABULARY);
    expect(compiled.katakana.size + compiled.other.size + compiled.mixed.size).toBeGreaterThan(600);
    const latin = compileVocabulary([['IPアドレス', 'ip address']]);
    expect(latin.katakana.size + latin.other.size + latin.mixed.size).toBe(0);
  });
});
