/**
 * The same paths against the real OpenAI API. Runs only when OPENAI_API_KEY is set (it costs money: one o3 search
 * and one small ranking call); otherwise every test is skipped and the reason is printed. All OPENAI_* and
 * WEB_SEARCH_* variables apply (OPENAI_BASE_URL for another OpenAI-compatible endpoint). See README, "Live tests".
 *
 *   OPENAI_API_KEY=sk-… npx vitest run test/live-openai.test.ts
 */
import type { FallbackAnswer } from '@search-mcp/catalog';
import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import {
  createLlmSearchProvider,
  createOpenAiClient,
  createWebSearchService,
  WebSearchError,
  webSearchSettingsFromEnvironment,
} from '../src/index.js';

const apiKey = process.env['OPENAI_API_KEY'];
const skip = !apiKey;
if (skip) {
  console.warn(
    '[live-openai] skipped: OPENAI_API_KEY is not set. Set it to run these tests against the real OpenAI API ' +
      '(see packages/openai/README.md, "Live tests").',
  );
}
const settings = webSearchSettingsFromEnvironment(process.env);
const rankingModel = process.env['OPENAI_LIVE_RANKING_MODEL'] ?? 'gpt-4.1-mini';
const searchTimeout = 400_000;

describe('live OpenAI API', () => {
  it.skipIf(skip)(
    'a web search returns cited results, with progress',
    async () => {
      const service = createWebSearchService(settings);
      const progress: number[] = [];
      const outcome = await service.search(
        { query: 'Node.js release schedule: which version is the current LTS?', limit: 3 },
        { onProgress: (update) => progress.push(update.progress) },
      );
      expect(outcome.responseId).toMatch(/^resp_/);
      expect(outcome.results.length).toBeGreaterThan(0);
      expect(outcome.results.length).toBeLessThanOrEqual(3);
      for (const result of outcome.results) {
        expect(result.url).toMatch(/^https?:\/\//);
        expect(result.title).not.toBe('');
      }
      expect(progress.length).toBeGreaterThan(0);
      await service.close();
    },
    searchTimeout,
  );

  it.skipIf(skip)(
    'a cancelled search is cancelled at OpenAI',
    async () => {
      const service = createWebSearchService(settings);
      const controller = new AbortController();
      const error = await service
        .search(
          { query: 'history of the MCP protocol' },
          { signal: controller.signal, onProgress: () => controller.abort() },
        )
        .catch((caught: unknown) => caught);
      await service.close();
      expect(WebSearchError.isInstance(error) && error.kind).toBe('cancelled');
      const responseId = (error as WebSearchError).requestId as string;
      const client = createOpenAiClient({ ...settings.openai, apiKey: apiKey as string });
      const retrieved = await client.responses.retrieve(responseId);
      expect(['cancelled', 'completed', 'failed']).toContain(retrieved.status);
    },
    searchTimeout,
  );

  it.skipIf(skip)('a wrong key is a 401 authentication error that does not quote the key', async () => {
    const wrongKey = 'sk-proj-this-key-does-not-exist-0123456789';
    const service = createWebSearchService({ ...settings, openai: { ...settings.openai, apiKey: wrongKey } });
    const error = await service.search({ query: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'authentication', status: 401 });
    expect((error as Error).message).not.toContain(wrongKey);
  });

  it.skipIf(skip)(
    'the LLM ranker picks from the candidates it was given',
    async () => {
      const tools = loadRealServerTools();
      const answers: FallbackAnswer[] = [];
      const provider = createLlmSearchProvider(
        {
          model: rankingModel,
          apiKey: apiKey as string,
          ...(settings.openai?.baseUrl ? { baseUrl: settings.openai.baseUrl } : {}),
          timeoutMs: 30_000,
        },
        { onAnswer: (answer) => answers.push(answer) },
      );
      const results = await provider.search({ queries: ['read the contents of a text file'], tools, maxResults: 5 });
      expect(answers).toEqual([{ providerId: 'llm' }]);
      const keys = new Set(tools.map((tool) => tool.toolKey));
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((result) => keys.has(result.toolKey) && result.explanation)).toBe(true);
    },
    60_000,
  );
});
