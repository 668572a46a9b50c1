import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { Bm25SearchProvider } from './bm25-search-provider.js';

describe('Bm25SearchProvider: real servers (237 tools)', () => {
  const tools = loadRealServerTools();
  const provider = new Bm25SearchProvider();

  it.each([
    ['read a file from disk', ['filesystem:read_text_file', 'filesystem:read_file']],
    ['open a pull request on GitHub', ['github:create_pull_request']],
    ['post a message to a slack channel', ['slack:slack_post_message']],
    ['get the logs of a kubernetes pod', ['kubernetes:kubectl_logs']],
    ['take a screenshot of the page', ['playwright:browser_take_screenshot', 'puppeteer:puppeteer_screenshot']],
    ['ファイルを読む', ['filesystem:read_text_file', 'filesystem:read_file']],
    ['k8sのポッドのログ', ['kubernetes:kubectl_logs']],
    ['プルリクを作って', ['github:create_pull_request']],
    ['スラックにメッセージを送る', ['slack:slack_post_message']],
    ['ブラウザでスクリーンショットを撮る', ['playwright:browser_take_screenshot', 'puppeteer:puppeteer_screenshot']],
  ])('%s → top 3 has one of %j', async (query, expected) => {
    expect(tools.length).toBe(237);
    const keys = (await provider.search({ queries: [query], tools, maxResults: 3 })).map((result) => result.toolKey);
    expect(keys.some((key) => expected.includes(key))).toBe(true);
  });
});
