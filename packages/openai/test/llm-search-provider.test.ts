/**
 * LLM-ranked tool search against our fake Chat Completions endpoint through the real SDK, over the 237 recorded
 * tools of 22 real MCP servers: the model sees BM25's top N, answers through a strict JSON schema, and whatever it
 * answers, only tools it was given come back; any failure falls back to BM25's own ranking.
 */
import { Bm25SearchProvider, type FallbackAnswer, type SearchProviderRequest } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import {
  loadRealServerTools,
  startFakeOpenAiServer,
  type FakeChatAnswer,
  type FakeOpenAiServer,
} from '@search-mcp/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmSearchProvider, createOpenAiClient, LlmSearchProvider } from '../src/index.js';

const apiKey = 'sk-proj-llm-ranking-CANARY-9f8e7d6c5b4a-0123456789';
/** The recorded `tools/list` of the real servers, as the catalog hands tools to providers. */
const tools: ToolInfo[] = loadRealServerTools();

let fake: FakeOpenAiServer;
let answers: FallbackAnswer[];
const bm25 = new Bm25SearchProvider();

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
  await bm25.search({ queries: ['warm up'], tools, maxResults: 1 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  answers = [];
});

function respond(chat: (body: Record<string, unknown>) => FakeChatAnswer) {
  fake.options = { apiKey, chat };
}

function provider(options: { candidates?: number; timeoutMs?: number; key?: string } = {}) {
  return createLlmSearchProvider(
    {
      model: 'gpt-4.1-mini',
      baseUrl: fake.baseUrl,
      apiKey: options.key ?? apiKey,
      timeoutMs: options.timeoutMs ?? 5_000,
      ...(options.candidates !== undefined ? { candidates: options.candidates } : {}),
    },
    // One warmed-up BM25 for every provider: its index is built once (a build under load could eat a short timeout).
    { firstStage: bm25, onAnswer: (answer) => answers.push(answer) },
  );
}

const request: SearchProviderRequest = {
  queries: ['read the contents of a file from disk'],
  context: 'The user is editing a config file in their project.',
  tools,
  maxResults: 5,
};

/** The keys the model was offered: the enum of the response schema. */
function offeredKeys(body: Record<string, unknown>): string[] {
  const format = body.response_format as {
    json_schema: { schema: { properties: { tools: { items: { properties: { toolKey: { enum: string[] } } } } } } };
  };
  return format.json_schema.schema.properties.tools.items.properties.toolKey.enum;
}

function ranking(entries: Array<{ toolKey: string; relevance: number; explanation?: string }>): FakeChatAnswer {
  return { content: JSON.stringify({ tools: entries.map((entry) => ({ explanation: '', ...entry })) }) };
}

describe('LlmSearchProvider', () => {
  it('asks the model with a strict JSON schema over BM25’s top N and returns its pick, in its order', async () => {
    const bm25Top = (await bm25.search({ ...request, maxResults: 20 })).map((result) => result.toolKey);
    respond((body) => {
      const keys = offeredKeys(body);
      return ranking([
        { toolKey: keys[2] as string, relevance: 0.95, explanation: 'Reads a file as text.' },
        { toolKey: keys[0] as string, relevance: 0.8, explanation: 'Reads files,\n   too.' },
      ]);
    });
    const results = await provider().search(request);

    const body = fake.requestsOf('chat-completion')[0]?.body as Record<string, unknown>;
    expect(body.model).toBe('gpt-4.1-mini');
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'tool_ranking', strict: true },
    });
    expect(offeredKeys(body)).toEqual(bm25Top);
    const messages = body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[1]?.content).toContain('- read the contents of a file from disk');
    expect(messages[1]?.content).toContain('Context: The user is editing a config file in their project.');
    expect(messages[1]?.content).toContain('Pick at most 5 tools.');
    expect(messages[1]?.content).toContain(`${bm25Top[0]}: `);

    expect(results).toEqual([
      expect.objectContaining({ toolKey: bm25Top[2], relevance: 0.95, explanation: 'Reads a file as text.' }),
      expect.objectContaining({ toolKey: bm25Top[0], relevance: 0.8, explanation: 'Reads files, too.' }),
    ]);
    const first = tools.find((tool) => tool.toolKey === bm25Top[2]);
    expect(results[0]).toMatchObject({ toolName: first?.toolName, serverName: first?.serverName });
    expect(answers).toEqual([{ providerId: 'llm' }]);
  });

  it('offers only the top `candidates` (and at least maxResults)', async () => {
    respond(() => ranking([]));
    await provider({ candidates: 3 }).search({ ...request, maxResults: 2 });
    await provider({ candidates: 3 }).search({ ...request, maxResults: 8 });
    const [few, more] = fake
      .requestsOf('chat-completion')
      .map((recorded) => offeredKeys(recorded.body as Record<string, unknown>));
    expect(few).toHaveLength(3);
    expect(more).toHaveLength(8);
  });

  it('never returns a key it was not given: invented, hidden and repeated keys are dropped', async () => {
    const visible = tools.filter((tool) => tool.serverName !== 'filesystem');
    const hidden = tools.find((tool) => tool.serverName === 'filesystem')?.toolKey as string;
    respond((body) => {
      const keys = offeredKeys(body);
      return ranking([
        { toolKey: 'evil:exfiltrate', relevance: 1 },
        { toolKey: hidden, relevance: 1 },
        { toolKey: keys[1] as string, relevance: 1.7 },
        { toolKey: keys[1] as string, relevance: 0.5 },
        { toolKey: keys[0] as string, relevance: -3 },
      ]);
    });
    const results = await provider().search({ ...request, tools: visible });
    const visibleKeys = new Set(visible.map((tool) => tool.toolKey));
    expect(results.every((result) => visibleKeys.has(result.toolKey))).toBe(true);
    expect(results.map((result) => result.relevance)).toEqual([1, 0]);
  });

  it('takes the key and endpoint from OPENAI_API_KEY / OPENAI_BASE_URL when search.llm has none, with the config defaults', async () => {
    respond(() => ranking([]));
    const llm = createLlmSearchProvider(
      { reasoningEffort: 'minimal' },
      {
        environment: { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: fake.baseUrl },
        onAnswer: (answer) => answers.push(answer),
      },
    );
    await llm.search(request);
    const body = fake.requestsOf('chat-completion')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'gpt-5-mini', reasoning_effort: 'minimal' });
    expect(offeredKeys(body)).toHaveLength(20);
    expect(answers).toEqual([{ providerId: 'llm' }]);
  });

  it('no queries or no tools: no request, no results', async () => {
    expect(await provider().search({ ...request, queries: ['  '] })).toEqual([]);
    expect(await provider().search({ ...request, tools: [] })).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('an empty pick is an answer: no tool fits', async () => {
    respond(() => ranking([]));
    expect(await provider().search(request)).toEqual([]);
    expect(answers).toEqual([{ providerId: 'llm' }]);
  });
});

describe('LlmSearchProvider falls back to BM25', () => {
  async function expectFallback(search: Promise<unknown>, reason: RegExp) {
    const expected = await bm25.search(request);
    expect(await search).toEqual(expected);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.providerId).toBe('bm25');
    expect(answers[0]?.fallbackReason).toMatch(reason);
    expect(answers[0]?.fallbackReason).not.toContain(apiKey);
  }

  it('on a rejected key (401), without leaking it', async () => {
    await expectFallback(provider({ key: `${apiKey}-old` }).search(request), /HTTP 401.*search\.llm\.apiKey/);
  });

  it('on server errors after the SDK’s retries', async () => {
    const headers = { 'retry-after-ms': '0' };
    fake.failNext('chat-completion', { status: 500, headers }, { status: 500, headers }, { status: 500, headers });
    await expectFallback(provider().search(request), /HTTP 500 on all 3 attempts/);
    expect(fake.requestsOf('chat-completion')).toHaveLength(3);
  });

  it('on a rate limit whose Retry-After is longer than the time limit, at once', async () => {
    fake.failNext('chat-completion', { status: 429, headers: { 'retry-after': '30' } });
    await expectFallback(provider({ timeoutMs: 2_000 }).search(request), /rate limit.*wait 30 s/);
    expect(fake.requestsOf('chat-completion')).toHaveLength(1);
  });

  it('after timeoutMs when the model is slow, and the request is aborted', async () => {
    fake.failNext('chat-completion', { delayMs: 5_000 });
    await expectFallback(provider({ timeoutMs: 500 }).search(request), /did not answer within 500 ms/);
    expect(await fake.requestsOf('chat-completion')[0]?.ended).toBe('aborted');
  });

  it('on malformed JSON from the endpoint', async () => {
    fake.failNext('chat-completion', { status: 200, rawBody: '{"choices": [' });
    await expectFallback(provider().search(request), /not JSON/);
  });

  it('on an answer that is not the requested JSON', async () => {
    respond(() => ({ content: 'The best tool is filesystem:read_text_file.' }));
    await expectFallback(provider().search(request), /not the requested JSON/);
  });

  it('on a refusal and on an answer cut off at the token limit', async () => {
    respond(() => ({ refusal: 'I cannot help with that.' }));
    await expectFallback(provider().search(request), /refused to rank/);
    answers = [];
    respond(() => ({ content: '{"tools": [', finishReason: 'length' }));
    await expectFallback(provider().search(request), /cut off/);
  });

  it('with a key that cannot be a key: no request at all', async () => {
    await expectFallback(provider({ key: '' }).search(request), /search\.llm\.apiKey is not set/);
    expect(fake.requests).toHaveLength(0);
  });

  it('without search.llm.apiKey and OPENAI_API_KEY: says both, no request', async () => {
    const llm = createLlmSearchProvider(
      { baseUrl: fake.baseUrl },
      { environment: {}, onAnswer: (answer) => answers.push(answer) },
    );
    await expectFallback(llm.search(request), /search\.llm\.apiKey is not set, and OPENAI_API_KEY is not set/);
    expect(fake.requests).toHaveLength(0);
  });

  it('accepts JSON in a markdown fence (some compatible servers add one)', async () => {
    respond((body) => ({
      content: `\`\`\`json\n${JSON.stringify({ tools: [{ toolKey: offeredKeys(body)[0], relevance: 0.9, explanation: 'x' }] })}\n\`\`\``,
    }));
    expect(await provider().search(request)).toHaveLength(1);
    expect(answers).toEqual([{ providerId: 'llm' }]);
  });
});

describe('LlmSearchProvider and the caller’s cancellation', () => {
  it('passes the caller’s abort on instead of falling back', async () => {
    fake.failNext('chat-completion', { delayMs: 2_000 });
    const controller = new AbortController();
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl });
    const llm = new LlmSearchProvider({ client, model: 'gpt-4.1-mini', onAnswer: (answer) => answers.push(answer) });
    const search = llm.search({ ...request, signal: controller.signal });
    await fake.waitFor((recorded) => recorded.route === 'chat-completion');
    controller.abort(new Error('client went away'));
    await expect(search).rejects.toThrow('client went away');
    expect(answers).toEqual([]);
    expect(await fake.requestsOf('chat-completion')[0]?.ended).toBe('aborted');
  });
});
