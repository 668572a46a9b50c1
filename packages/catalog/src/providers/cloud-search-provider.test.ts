import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SearchProviderError, type ToolInfo } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudSearchRequestSchema } from './cloud-search-contract.js';
import { CloudSearchProvider } from './cloud-search-provider.js';
import { FallbackSearchProvider } from './fallback-search-provider.js';
import type { SearchProvider } from '../search-provider.js';

const tools: ToolInfo[] = ['read_file', 'write_file', 'list_directory'].map((name) => ({
  toolKey: `fs:${name}`,
  toolName: name,
  serverName: 'fs',
  description: `${name.replace('_', ' ')} on disk`,
  inputSchema: { type: 'object' },
}));

type Behaviour = 'good' | 'slow' | 'error' | 'unauthorized' | 'garbage' | 'wrong-shape';

/** A search service on 127.0.0.1 whose behaviour is chosen by the path prefix. */
let server: Server;
let base: string;
const received: Array<{ path: string; authorization?: string; body: unknown }> = [];
/** Emits each request's behaviour once its body has arrived. */
const arrivals = new EventEmitter();

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const behaviour = (request.url ?? '').split('/')[1] as Behaviour;
      received.push({
        path: request.url ?? '',
        body: body ? JSON.parse(body) : undefined,
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      });
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      switch (behaviour) {
        case 'good':
          json(200, {
            results: [
              {
                toolKey: 'fs:write_file',
                toolName: 'write_file',
                serverName: 'fs',
                relevance: 1.7,
                explanation: 'writes',
              },
              { toolKey: 'evil:rm_rf', toolName: 'rm_rf', serverName: 'evil', relevance: 0.9 },
              { toolKey: 'fs:read_file', toolName: 'read_file', serverName: 'fs', relevance: 0.4 },
              { toolKey: 'fs:write_file', toolName: 'write_file', serverName: 'fs', relevance: 0.3 },
            ],
          });
          return;
        case 'slow':
          setTimeout(() => json(200, { results: [] }), 2000);
          arrivals.emit('slow');
          return;
        case 'error':
          json(500, { error: 'boom' });
          return;
        case 'unauthorized':
          json(401, { error: 'no' });
          return;
        case 'garbage':
          response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
          return;
        case 'wrong-shape':
          json(200, { results: [{ toolKey: 'fs:read_file', relevance: 'high' }] });
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = { queries: ['save a file', 'write to disk'], context: 'editing notes', tools, maxResults: 5 };

async function failureOf(provider: CloudSearchProvider): Promise<SearchProviderError> {
  const error = await provider.search(request).catch((caught: unknown) => caught);
  expect(SearchProviderError.isInstance(error)).toBe(true);
  return error as SearchProviderError;
}

describe('CloudSearchProvider', () => {
  it('posts the documented request with the bearer token and validates the answer', async () => {
    const provider = new CloudSearchProvider({ url: `${base}/good/`, apiKey: 'secret-key' });
    const results = await provider.search(request);
    expect(results).toEqual([
      {
        toolKey: 'fs:write_file',
        toolName: 'write_file',
        serverName: 'fs',
        description: 'write file on disk',
        relevance: 1,
        explanation: 'writes',
      },
      {
        toolKey: 'fs:read_file',
        toolName: 'read_file',
        serverName: 'fs',
        description: 'read file on disk',
        relevance: 0.4,
      },
    ]);
    const last = received.at(-1);
    expect(last?.path).toBe('/good/catalog/search');
    // What the provider sends is what the shared wire contract accepts.
    expect(cloudSearchRequestSchema.safeParse(last?.body).success).toBe(true);
    expect(last?.authorization).toBe('Bearer secret-key');
    expect(last?.body).toEqual({
      query: ['save a file', 'write to disk'],
      context: 'editing notes',
      tools: tools.map(({ toolKey, toolName, serverName, description }) => ({
        toolKey,
        toolName,
        serverName,
        description,
      })),
      maxResults: 5,
    });
  });

  it('times out a slow service', async () => {
    const error = await failureOf(new CloudSearchProvider({ url: `${base}/slow`, timeoutMs: 200 }));
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe('cloud search did not answer within 200 ms');
  });

  it('reports 500 and 401 with the status', async () => {
    const serverError = await failureOf(new CloudSearchProvider({ url: `${base}/error` }));
    expect([serverError.failure, serverError.status, serverError.isRetryable]).toEqual(['http', 500, true]);
    const unauthorized = await failureOf(
      new CloudSearchProvider({ url: `${base}/unauthorized`, apiKey: 'wrong-key-value' }),
    );
    expect(unauthorized.message).toBe('cloud search answered HTTP 401 (check search.cloud.apiKey)');
    expect(unauthorized.message).not.toContain('wrong-key-value');
  });

  it('rejects garbage and answers of the wrong shape', async () => {
    expect((await failureOf(new CloudSearchProvider({ url: `${base}/garbage` }))).failure).toBe('invalid-response');
    expect((await failureOf(new CloudSearchProvider({ url: `${base}/wrong-shape` }))).failure).toBe('invalid-response');
  });

  it('reports a service that is not there', async () => {
    const error = await failureOf(new CloudSearchProvider({ url: 'http://127.0.0.1:9' }));
    expect(error.failure).toBe('network');
    expect(error.message).toMatch(/cloud search unreachable/);
  });

  it('sends nothing for an empty query', async () => {
    const before = received.length;
    expect(await new CloudSearchProvider({ url: `${base}/good` }).search({ ...request, queries: ['  '] })).toEqual([]);
    expect(received.length).toBe(before);
  });
});

describe('FallbackSearchProvider', () => {
  const local: SearchProvider = {
    id: 'local',
    search: async ({ tools: candidates }) => [
      { toolKey: candidates[0]?.toolKey ?? '', toolName: 'read_file', serverName: 'fs', relevance: 1 },
    ],
  };

  it.each(['slow', 'error', 'unauthorized', 'garbage', 'wrong-shape'] as const)(
    'falls back when the service is %s',
    async (behaviour) => {
      const records: Array<{ message: string; fields?: Record<string, unknown> }> = [];
      const logger = {
        debug: () => {},
        info: () => {},
        error: () => {},
        warn: (message: string, fields?: Record<string, unknown>) =>
          records.push({ message, ...(fields ? { fields } : {}) }),
        child: () => logger,
      };
      const answers: unknown[] = [];
      const provider = new FallbackSearchProvider(
        new CloudSearchProvider({ url: `${base}/${behaviour}`, timeoutMs: 200 }),
        local,
        {
          logger,
          onAnswer: (answer) => answers.push(answer),
        },
      );
      const results = await provider.search(request);
      expect(results.map((result) => result.toolKey)).toEqual(['fs:read_file']);
      expect(answers).toEqual([{ providerId: 'local', fallbackReason: expect.stringMatching(/cloud search/) }]);
      expect(records[0]).toMatchObject({
        message: 'search fell back',
        fields: { primary: 'cloud', fallback: 'local' },
      });
    },
  );

  it('falls back when the service is not there at all', async () => {
    const provider = new FallbackSearchProvider(new CloudSearchProvider({ url: 'http://127.0.0.1:9' }), local);
    expect((await provider.search(request)).map((result) => result.toolKey)).toEqual(['fs:read_file']);
  });

  it('uses the primary when it answers', async () => {
    const answers: unknown[] = [];
    const provider = new FallbackSearchProvider(new CloudSearchProvider({ url: `${base}/good` }), local, {
      onAnswer: (answer) => answers.push(answer),
    });
    expect((await provider.search(request))[0]?.toolKey).toBe('fs:write_file');
    expect(answers).toEqual([{ providerId: 'cloud' }]);
  });

  it('stops a primary that hangs after primaryTimeoutMs', async () => {
    const hanging: SearchProvider = { id: 'hanging', search: () => new Promise(() => {}) };
    const provider = new FallbackSearchProvider(hanging, local, { primaryTimeoutMs: 100 });
    expect((await provider.search(request)).map((result) => result.toolKey)).toEqual(['fs:read_file']);
  });

  it("passes the caller's cancellation on instead of falling back", async () => {
    const controller = new AbortController();
    const provider = new FallbackSearchProvider(new CloudSearchProvider({ url: `${base}/slow` }), local);
    const arrived = once(arrivals, 'slow');
    const search = provider.search({ ...request, signal: controller.signal });
    await arrived;
    controller.abort(new Error('user gave up'));
    await expect(search).rejects.toThrow('user gave up');
  });
});
