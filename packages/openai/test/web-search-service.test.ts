/**
 * The web search service against our OpenAI-compatible fake, through the real `openai` SDK: background mode and
 * polling, progress, cancellation reaching the server, the overall time limit, and one clear error per failure.
 */
import { startFakeOpenAiServer, type FakeOpenAiServer, type WebSearchScenario } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOpenAiClient,
  createWebSearchService,
  WebSearchError,
  type WebSearchProgress,
  type WebSearchServiceSettings,
} from '../src/index.js';

const apiKey = 'sk-proj-CANARY-4f1c2e9a7b-do-not-leak-0123456789abcdef';
let fake: FakeOpenAiServer;
const services: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.cancelledIds.length = 0;
  fake.options = { apiKey };
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

function service(settings: Partial<WebSearchServiceSettings> = {}, clientKey = apiKey) {
  const created = createWebSearchService({
    openai: { apiKey: clientKey, baseUrl: fake.baseUrl, maxRetries: 1 },
    pollIntervalMs: 5,
    ...settings,
  });
  services.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<WebSearchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebSearchError.isInstance(error)) throw new Error(`expected a WebSearchError, got ${String(error)}`);
  // The key never appears in what a user or a log sees.
  expect(error.message).not.toContain(apiKey);
  expect(JSON.stringify(error)).not.toContain(apiKey);
  return error;
}

describe('web search: a search that succeeds', () => {
  it('runs in background mode with the hosted web_search tool and reads results from the citations', async () => {
    const outcome = await service().search({ query: '  latest Node.js LTS  ', limit: 5 });
    expect(outcome).toMatchObject({
      query: 'latest Node.js LTS',
      model: 'o3-2025-04-16',
      responseId: expect.stringMatching(/^resp_/),
    });
    expect(outcome.results).toEqual([
      {
        title: 'Node.js 22.12.0 (LTS)',
        url: 'https://nodejs.org/en/blog/release/v22.12.0',
        snippet: 'Node.js 22.12.0 is the current LTS release and enables require(esm) by default.',
        publishedDate: '2024-12-03',
        relevanceScore: 1,
      },
      {
        title: 'nodejs/release: Node.js release schedule',
        url: 'https://github.com/nodejs/release',
        snippet: 'The release schedule lists the LTS and maintenance dates of every Node.js line.',
        relevanceScore: 0.5,
      },
    ]);
    const [create] = fake.requestsOf('create-response');
    const body = create?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'o3', background: true, store: true, tools: [{ type: 'web_search' }] });
    // No forced function call and no invented output format: the model searches, we read its citations.
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('text');
    expect(String(body.input)).toContain('Search the web for: latest Node.js LTS');
    expect(String(body.input)).toContain('up to 5');
    expect(fake.requestsOf('retrieve-response').length).toBeGreaterThanOrEqual(2);
  });

  it('passes the model, reasoning effort, search context size, language and timeframe on', async () => {
    const search = service({
      model: 'o4-mini',
      reasoningEffort: 'low',
      searchContextSize: 'high',
      now: () => new Date('2025-06-01T12:00:00Z'),
    });
    await search.search({ query: '東京の天気', language: 'ja', timeframe: 'past_week' });
    const body = fake.requestsOf('create-response')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'o4-mini',
      reasoning: { effort: 'low' },
      tools: [{ type: 'web_search', search_context_size: 'high' }],
    });
    expect(body.input).toContain('東京の天気');
    expect(body.input).toContain('Today is 2025-06-01. Only use sources published in the past 7 days.');
    expect(body.input).toContain('language and prefer sources in it: ja');
  });

  it('reports progress while it polls, increasing every time', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'queued', 'in_progress', 'in_progress', 'completed'] } };
    const progress: WebSearchProgress[] = [];
    await service().search({ query: 'progress' }, { onProgress: (update) => progress.push(update) });
    // One after the creation and one after each poll that found it still running.
    expect(progress.map((update) => update.message.replace(/ \(\d+ s\)$/, ''))).toEqual([
      'OpenAI web search queued',
      'OpenAI web search queued',
      'OpenAI web search in progress',
      'OpenAI web search in progress',
    ]);
    for (let index = 1; index < progress.length; index += 1) {
      expect(progress[index]?.progress).toBeGreaterThan(progress[index - 1]?.progress ?? Number.POSITIVE_INFINITY);
    }
  });

  it('cuts to limit and says how many sources there were', async () => {
    fake.options = {
      apiKey,
      webSearch: {
        citations: Array.from({ length: 4 }, (_, index) => ({
          url: `https://example.com/${index}`,
          title: `Page ${index}`,
          text: `Source ${index}.`,
        })),
      },
    };
    const outcome = await service().search({ query: 'many', limit: 3 });
    expect(outcome.results).toHaveLength(3);
    expect(outcome.notice).toBe('4 sources were cited; the first 3 are shown.');
  });

  it('says so when the model cited nothing', async () => {
    fake.options = { apiKey, webSearch: { output: [{ text: 'Nothing relevant was found.', annotations: [] }] } };
    const outcome = await service().search({ query: 'zzqx' });
    expect(outcome.results).toEqual([]);
    expect(outcome.notice).toMatch(/cited no sources/);
  });

  it('keeps the sources of an answer cut short by max_output_tokens, with a notice', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'incomplete'], incompleteReason: 'max_output_tokens' } };
    const outcome = await service().search({ query: 'long' });
    expect(outcome.results).toHaveLength(2);
    expect(outcome.notice).toMatch(/cut short \(max_output_tokens\)/);
  });

  it('works without background mode for endpoints that lack it, still reporting progress', async () => {
    fake.options = { apiKey, latencyMs: 150 };
    const progress: WebSearchProgress[] = [];
    const outcome = await service({ background: false, pollIntervalMs: 20 }).search(
      { query: 'foreground' },
      { onProgress: (update) => progress.push(update) },
    );
    expect(outcome.results).toHaveLength(2);
    expect(fake.requestsOf('create-response')[0]?.body).not.toHaveProperty('background');
    expect(fake.requestsOf('retrieve-response')).toHaveLength(0);
    expect(progress.length).toBeGreaterThanOrEqual(1);
  });

  it('uses an injected client (one shared with the LLM ranker)', async () => {
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl });
    const search = createWebSearchService({ client, pollIntervalMs: 5 });
    services.push(search);
    await expect(search.search({ query: 'shared client' })).resolves.toMatchObject({ results: [{}, {}] });
  });
});

describe('web search: cancellation and time limits', () => {
  it('cancels the OpenAI response when the caller aborts, and the fake server sees it', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const controller = new AbortController();
    const running = service().search(
      { query: 'never ends' },
      {
        signal: controller.signal,
        onProgress: (update) => update.message.includes('in progress') && controller.abort(),
      },
    );
    const error = await failure(running);
    expect(error.kind).toBe('cancelled');
    const cancel = await fake.waitFor((request) => request.route === 'cancel-response');
    expect(cancel.responseId).toBe(fake.createdIds.at(-1));
    expect(error.message).toContain(cancel.responseId);
  });

  it('cancels a response whose creation was still under way when the caller aborted', async () => {
    fake.options = { apiKey, latencyMs: 300, webSearch: { statuses: ['queued', 'in_progress'] } };
    const controller = new AbortController();
    const running = service().search({ query: 'slow start' }, { signal: controller.signal });
    await fake.waitFor((request) => request.route === 'create-response');
    controller.abort();
    expect((await failure(running)).message).toMatch(/cancelled before OpenAI started it/);
    const cancel = await fake.waitFor((request) => request.route === 'cancel-response');
    expect(cancel.responseId).toMatch(/^resp_/);
  });

  it('stops at the overall time limit, cancels the response and says what to do', async () => {
    // In progress from its creation on: the last status seen does not depend on a poll fitting in the limit. The
    // limit leaves the creation's round trip time on a loaded machine (300 ms did not: a CI run saw `starting`).
    fake.options = { apiKey, webSearch: { statuses: ['in_progress'] } };
    const error = await failure(service({ timeoutMs: 2000, pollIntervalMs: 20 }).search({ query: 'slow' }));
    expect(error.kind).toBe('timeout');
    expect(error.jsonRpcCode).toBe(-32002);
    expect(error.message).toMatch(/did not finish within 2000 ms \(last status: in progress\)/);
    expect(error.message).toContain('WEB_SEARCH_TIMEOUT_MS');
    await fake.waitFor((request) => request.route === 'cancel-response');
  });

  it('close() cancels the searches in flight and waits until the cancellations were sent', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const search = service();
    const running = search.search({ query: 'closing' });
    await fake.waitFor((request) => request.route === 'retrieve-response');
    await search.close();
    expect(fake.cancelledIds).toHaveLength(1);
    expect((await failure(running)).kind).toBe('cancelled');
  });
});

describe('web search: errors a user can act on', () => {
  it('without a key: setup steps, no request', async () => {
    const error = await failure(createWebSearchService({}).search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'missing-api-key', jsonRpcCode: -32001 });
    expect(error.message).toContain('OPENAI_API_KEY is not set');
    expect(error.message).toContain('https://platform.openai.com/api-keys');
    expect(error.message).toContain('"env": { "OPENAI_API_KEY"');
    expect(fake.requests).toHaveLength(0);
  });

  it('with a key that cannot be one: says why without quoting it', async () => {
    const pasted = `"${apiKey}"`;
    const error = await failure(createWebSearchService({ openai: { apiKey: pasted } }).search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'invalid-api-key', jsonRpcCode: -32001 });
    expect(error.message).toContain('contains quotes');
  });

  it('with wrong settings: names each variable, and the key steps come first when the key is missing too', async () => {
    const error = await failure(
      createWebSearchService({ setupProblems: ['REASONING_EFFORT must be one of low, medium, high'] }).search({
        query: 'x',
      }),
    );
    expect(error.kind).toBe('missing-api-key');
    expect(error.message).toContain('Also fix: REASONING_EFFORT must be one of');
  });

  it('an empty query is its own error, before any request', async () => {
    const error = await failure(service().search({ query: '   ' }));
    expect(error).toMatchObject({ kind: 'empty-query', jsonRpcCode: -32602 });
    expect(fake.requests).toHaveLength(0);
  });

  it('401: the key was rejected (the server quoting the key does not leak it)', async () => {
    const error = await failure(service({}, `${apiKey}-revoked`).search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'authentication', jsonRpcCode: -32001, status: 401 });
    expect(error.message).toContain('Check OPENAI_API_KEY');
    expect(error.message).not.toContain('-revoked');
    expect(fake.requestsOf('create-response')).toHaveLength(1);
  });

  it('403: no access to the model, with what OpenAI said', async () => {
    fake.failNext('create-response', { status: 403 });
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'permission', jsonRpcCode: -32001, status: 403 });
    expect(error.message).toContain("Access to the model 'o3' was refused");
    expect(error.message).toContain('must be verified');
  });

  it('404: the model does not exist for this key', async () => {
    fake.failNext('create-response', { status: 404 });
    const error = await failure(service({ model: 'o9' }).search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'model-not-found', jsonRpcCode: -32001, status: 404 });
    expect(error.message).toContain("The model 'o9' was not found");
    expect(error.message).toContain('OPENAI_MODEL');
  });

  it('429: gives up after the retries and names the Retry-After it gave up on', async () => {
    const headers = { 'retry-after': '0', 'retry-after-ms': '0' };
    fake.failNext(
      'create-response',
      { status: 429, headers },
      { status: 429, headers: { 'retry-after': '7', 'retry-after-ms': '0' } },
    );
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'rate-limit', jsonRpcCode: -32003, status: 429 });
    expect(fake.requestsOf('create-response')).toHaveLength(2);
    expect(error.message).toContain('gave up after 2 attempts');
  });

  it('429 with a Retry-After beyond the limit: no retry, the wait is reported', async () => {
    fake.failNext('create-response', { status: 429, headers: { 'retry-after': '120' } });
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'rate-limit', retryAfterSeconds: 120 });
    expect(error.message).toContain('asked to wait 120 s');
    expect(fake.requestsOf('create-response')).toHaveLength(1);
  });

  it('429 insufficient_quota: the quota is used up', async () => {
    fake.failNext(
      'create-response',
      ...Array.from({ length: 2 }, () => ({
        status: 429,
        headers: { 'retry-after-ms': '0' },
        body: {
          error: {
            message: 'You exceeded your current quota, please check your plan and billing details.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        },
      })),
    );
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'quota', jsonRpcCode: -32003 });
    expect(error.message).toContain('billing');
  });

  it('400: OpenAI’s reason and which settings to check', async () => {
    fake.failNext('create-response', { status: 400 });
    const error = await failure(service({ reasoningEffort: 'high' }).search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'bad-request', jsonRpcCode: -32002 });
    expect(error.message).toContain("Unsupported parameter: 'reasoning.effort'");
    expect(error.message).toContain('REASONING_EFFORT');
  });

  it('5xx on every attempt: OpenAI’s side, try again', async () => {
    const headers = { 'retry-after-ms': '0' };
    fake.failNext('create-response', { status: 500, headers }, { status: 500, headers });
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'server', jsonRpcCode: -32002, status: 500 });
  });

  it('a failure while polling cancels the response', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const headers = { 'retry-after-ms': '0' };
    fake.failNext('retrieve-response', { status: 500, headers }, { status: 500, headers });
    expect((await failure(service().search({ query: 'x' }))).kind).toBe('server');
    await fake.waitFor((request) => request.route === 'cancel-response');
  });

  it('malformed JSON: an internal error naming the endpoint', async () => {
    fake.failNext('create-response', { status: 200, rawBody: '{"id": "resp_1", "status": ' });
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'invalid-response', jsonRpcCode: -32603 });
    expect(error.message).toContain('127.0.0.1');
  });

  it('an answer that is JSON but no response object', async () => {
    fake.failNext('create-response', { status: 200, body: { hello: 'world', output: [] } });
    const error = await failure(service().search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'invalid-response', jsonRpcCode: -32603 });
    expect(error.message).toContain('Responses API');
  });

  it('an unreachable endpoint: a connection error after the retries', async () => {
    const closed = await startFakeOpenAiServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const search = createWebSearchService({ openai: { apiKey, baseUrl, maxRetries: 0 } });
    const error = await failure(search.search({ query: 'x' }));
    expect(error).toMatchObject({ kind: 'connection', jsonRpcCode: -32002 });
    expect(error.message).toContain('ECONNREFUSED');
  });

  const endings: Array<[WebSearchScenario, string, RegExp]> = [
    [
      { statuses: ['queued', 'failed'], error: { code: 'server_error', message: 'The model failed.' } },
      'failed',
      /failed at OpenAI \(server_error: The model failed\.\)/,
    ],
    [
      { statuses: ['queued', 'failed'], error: { code: 'rate_limit_exceeded', message: 'Too many.' } },
      'rate-limit',
      /rate limit/,
    ],
    [{ statuses: ['queued', 'incomplete'], incompleteReason: 'content_filter' }, 'incomplete', /content filter/],
    [
      { statuses: ['queued', 'incomplete'], output: [{ text: '', annotations: [] }] },
      'incomplete',
      /before citing any source/,
    ],
    [{ statuses: ['queued', 'cancelled'] }, 'cancelled', /not by this call/],
    [{ refusal: "I'm sorry, but I can't help with that." }, 'refusal', /declined this search: I'm sorry/],
  ];
  it.each(endings)('a response that ends %o is a %s error', async (scenario, kind, message) => {
    fake.options = {
      apiKey,
      webSearch: { statuses: ['queued', 'completed'], ...scenario },
    };
    const error = await failure(service().search({ query: 'x' }));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.requestId).toMatch(/^resp_/);
    expect(fake.cancelledIds).toEqual([]);
  });
});
