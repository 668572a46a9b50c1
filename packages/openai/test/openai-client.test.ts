/**
 * The retry policy of packages/openai/README.md ("The client"), held by the `openai` SDK's own options and checked
 * against our fake server through the real SDK: 429, 5xx, network errors and timeouts are retried with exponential
 * backoff, `Retry-After` is honoured, and the client gives up after `maxRetries` retries.
 */
import { ConfigError } from '@search-mcp/shared';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../src/index.js';

let fake: FakeOpenAiServer;
const apiKey = 'sk-proj-test-key-for-the-fake-server-0123456789';

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.options = { apiKey, chat: () => ({ content: '{"tools":[]}' }) };
});

function chat(client: ReturnType<typeof createOpenAiClient>) {
  return client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] });
}

describe('createOpenAiClient retries (the SDK’s own policy)', () => {
  it('retries 5xx with exponential backoff and gives up after maxRetries', async () => {
    fake.failNext('chat-completion', { status: 500 }, { status: 503 }, { status: 502 });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 2 });
    await expect(chat(client)).rejects.toBeInstanceOf(InternalServerError);
    const attempts = fake.requestsOf('chat-completion');
    expect(attempts.map((request) => request.retryCount)).toEqual([0, 1, 2]);
    const [first, second, third] = attempts.map((request) => request.at) as [number, number, number];
    // 0.5 s then 1 s, each with up to 25 % jitter taken off: the second pause is at least 0.75 s, twice the first's floor.
    expect(second - first).toBeGreaterThanOrEqual(375);
    expect(third - second).toBeGreaterThanOrEqual(750);
  });

  it('honours Retry-After on a 429 instead of its own backoff', async () => {
    fake.failNext('chat-completion', { status: 429, headers: { 'retry-after': '1' } });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 2 });
    await expect(chat(client)).resolves.toMatchObject({ object: 'chat.completion' });
    const [first, second] = fake.requestsOf('chat-completion').map((request) => request.at) as [number, number];
    expect(fake.requestsOf('chat-completion')).toHaveLength(2);
    expect(second - first).toBeGreaterThanOrEqual(990);
  });

  it('gives up on 429 after maxRetries retries and keeps the Retry-After on the error', async () => {
    const wait = { 'retry-after-ms': '0', 'retry-after': '0' };
    fake.failNext('chat-completion', { status: 429, headers: wait }, { status: 429, headers: wait });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 1 });
    const error = await chat(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(fake.requestsOf('chat-completion')).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: one attempt, at once', async () => {
    fake.failNext('chat-completion', { status: 429, headers: { 'retry-after': '120' } });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 2, maxRetryAfterMs: 5_000 });
    const error = await chat(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('120');
    expect(fake.requestsOf('chat-completion')).toHaveLength(1);
  });

  it('retries a dropped connection (network error)', async () => {
    fake.failNext('chat-completion', { hangUp: true });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 2 });
    await expect(chat(client)).resolves.toMatchObject({ object: 'chat.completion' });
    expect(fake.requestsOf('chat-completion').map((request) => request.retryCount)).toEqual([0, 1]);
  });

  it('retries a request that timed out, and reports a timeout when every attempt does', async () => {
    fake.failNext('chat-completion', { delayMs: 3_000 });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 1, requestTimeoutMs: 600 });
    await expect(chat(client)).resolves.toMatchObject({ object: 'chat.completion' });
    expect(fake.requestsOf('chat-completion')).toHaveLength(2);

    fake.requests.length = 0;
    fake.failNext('chat-completion', { delayMs: 3_000 }, { delayMs: 3_000 });
    await expect(chat(client)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(fake.requestsOf('chat-completion')).toHaveLength(2);
  });

  it('does not retry what a retry cannot fix (401, 404)', async () => {
    const wrongKey = createOpenAiClient({ apiKey: 'sk-wrong-key-0000000000', baseUrl: fake.baseUrl, maxRetries: 2 });
    await expect(chat(wrongKey)).rejects.toBeInstanceOf(AuthenticationError);
    fake.failNext('chat-completion', { status: 404 });
    const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 2 });
    await expect(chat(client)).rejects.toBeInstanceOf(NotFoundError);
    expect(fake.requestsOf('chat-completion')).toHaveLength(2);
  });

  it('reports an unreachable endpoint as a connection error after its retries', async () => {
    const closed = await startFakeOpenAiServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const client = createOpenAiClient({ apiKey, baseUrl, maxRetries: 1, requestTimeoutMs: 2_000 });
    await expect(chat(client)).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('createOpenAiClient settings', () => {
  it('sends the key as a bearer token to the configured endpoint, not to one from the environment', async () => {
    const saved = process.env['OPENAI_BASE_URL'];
    process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:9/v1';
    try {
      const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl });
      await chat(client);
    } finally {
      if (saved === undefined) delete process.env['OPENAI_BASE_URL'];
      else process.env['OPENAI_BASE_URL'] = saved;
    }
    expect(fake.requestsOf('chat-completion')[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  it.each([
    ['', 'is not set'],
    ['   ', 'is only whitespace'],
    ['sk-proj-abc def', 'contains whitespace'],
    ['"sk-proj-abcdef"', 'contains quotes'],
    ['sk-proj-äbc', 'cannot be sent in an HTTP header'],
  ])('rejects a key that cannot be a key (%j) without quoting it', (key, problem) => {
    const error = (() => {
      try {
        createOpenAiClient({ apiKey: key });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).message).toContain(problem);
    if (key.trim()) expect((error as ConfigError).message).not.toContain(key.trim());
  });

  it('accepts the key formats of today (sk-proj-…, sk-svcacct-…, other vendors’)', () => {
    for (const key of [
      `sk-proj-${'A1b2_C3d4-'.repeat(15)}`,
      `sk-svcacct-${'x'.repeat(120)}`,
      'gsk_0123456789abcdef',
      'ollama',
    ]) {
      expect(() => createOpenAiClient({ apiKey: key })).not.toThrow();
    }
  });

  it('rejects a base URL that is not http(s) and timeouts that are not whole numbers', () => {
    expect(() => createOpenAiClient({ apiKey, baseUrl: 'api.openai.com/v1' })).toThrow(/baseUrl: expected an http/);
    expect(() => createOpenAiClient({ apiKey, requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    expect(() => createOpenAiClient({ apiKey, maxRetries: -1 })).toThrow(/maxRetries/);
  });
});
