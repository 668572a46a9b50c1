/**
 * `callWebSearchTool`: what an MCP client gets back (through the fake server and the real SDK), and which
 * arguments are invalid params rather than tool errors.
 */
import { ValidationError } from '@search-mcp/shared';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callWebSearchTool,
  createWebSearchService,
  parseWebSearchArguments,
  webSearchErrorResult,
  webSearchTool,
} from '../src/index.js';

const apiKey = 'sk-proj-tool-call-test-key-0123456789';
let fake: FakeOpenAiServer;

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
});
afterAll(() => fake.close());

describe('callWebSearchTool', () => {
  it('returns the results as structured content and as compact text', async () => {
    const service = createWebSearchService({ openai: { apiKey, baseUrl: fake.baseUrl }, pollIntervalMs: 5 });
    const result = await callWebSearchTool(service, { query: 'node lts', limit: 2 });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      query: 'node lts',
      results: [{ url: 'https://nodejs.org/en/blog/release/v22.12.0' }, { url: 'https://github.com/nodejs/release' }],
      model: 'o3-2025-04-16',
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          '2 web results for "node lts":',
          '',
          '1. Node.js 22.12.0 (LTS)',
          '   https://nodejs.org/en/blog/release/v22.12.0',
          '   Node.js 22.12.0 is the current LTS release and enables require(esm) by default. (published 2024-12-03)',
          '',
          '2. nodejs/release: Node.js release schedule',
          '   https://github.com/nodejs/release',
          '   The release schedule lists the LTS and maintenance dates of every Node.js line.',
        ].join('\n'),
      },
    ]);
  });

  it('turns a failed search into an isError result with its JSON-RPC code in structuredContent', async () => {
    const result = await callWebSearchTool(createWebSearchService({}), { query: 'x' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      results: [],
      error: { code: -32001, kind: 'missing-api-key', message: expect.stringContaining('OPENAI_API_KEY') },
    });
    expect(result.content[0]?.text).toMatch(/^Web search failed \(missing-api-key, code -32001\): OPENAI_API_KEY/);
  });

  it('an unexpected throw is an internal error (-32603), redacted', () => {
    const result = webSearchErrorResult(new Error('boom with sk-proj-ABCDEFGHIJKLMNOP inside'));
    expect(result.structuredContent).toMatchObject({ error: { code: -32603, kind: 'internal' } });
    expect(result.content[0]?.text).not.toContain('ABCDEFGHIJKLMNOP');
  });

  it.each([
    [{}, 'arguments.query: is required'],
    [{ query: 42 }, 'arguments.query: expected a string'],
    [{ query: 'x', limit: 0 }, 'arguments.limit: expected 1 to 50'],
    [{ query: 'x', limit: 51 }, 'arguments.limit: expected 1 to 50'],
    [{ query: 'x', limit: 2.5 }, 'arguments.limit: expected a whole number'],
    [
      { query: 'x', timeframe: 'yesterday' },
      'arguments.timeframe: expected one of recent, past_week, past_month, past_year',
    ],
    [{ query: 'x'.repeat(2001) }, 'arguments.query: expected at most 2000 characters'],
    [{ query: 'x', language: 'l'.repeat(65) }, 'arguments.language: expected at most 64 characters'],
  ])('rejects %j as invalid params: %s', async (args, message) => {
    const service = createWebSearchService({});
    const error = await callWebSearchTool(service, args).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).message).toContain(message);
  });

  it('accepts the documented arguments and keeps unknown ones out', () => {
    expect(
      parseWebSearchArguments({ query: 'q', limit: 50, language: 'ja', timeframe: 'past_year', extra: true }),
    ).toEqual({ query: 'q', limit: 50, language: 'ja', timeframe: 'past_year' });
  });
});

describe('webSearchTool', () => {
  it('has the documented input schema and an output schema', () => {
    expect(webSearchTool.name).toBe('chatgpt_o3_search');
    expect(webSearchTool.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string' },
        limit: { default: 10, minimum: 1, maximum: 50 },
        language: { type: 'string', default: 'auto' },
        timeframe: { enum: ['recent', 'past_week', 'past_month', 'past_year'] },
      },
    });
    expect(webSearchTool.outputSchema).toMatchObject({ type: 'object', required: ['results'] });
  });
});
