import { ToolCatalog, ToolRegistry } from '@search-mcp/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainToken, request, type Running, startApp } from '../../test/http-test-support.js';

const tools = [
  { toolKey: 'files:read-file', toolName: 'read-file', serverName: 'files', description: 'Read a file from disk' },
  { toolKey: 'chat:send-message', toolName: 'send-message', serverName: 'chat', description: 'Send a chat message' },
];

describe('POST /catalog/search', () => {
  let server: Running;

  beforeAll(async () => {
    server = await startApp({ backends: 'none', config: { projects: { quiet: { optimization: null } } } });
  });

  afterAll(async () => {
    await server.close();
  });

  it('ranks the tools it is sent, by the cloud search contract', async () => {
    const response = await request(server.url, '/catalog/search', {
      body: { query: ['send a chat message'], tools, maxResults: 1 },
    });
    expect(response.status).toBe(200);
    expect(response.body?.results).toHaveLength(1);
    expect(response.body?.results[0]).toMatchObject({ toolKey: 'chat:send-message', relevance: 1 });
  });

  it('answers nothing for a project whose search is off, as the catalog would', async () => {
    const response = await request(server.url, '/catalog/search', {
      headers: { 'x-project-id': 'quiet' },
      body: { query: ['send a chat message'], tools },
    });
    expect([response.status, response.body?.results]).toEqual([200, []]);
  });

  it('checks the request against the contract: query list, tool fields, maxResults bound', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['query as a string', { query: 'send', tools }, /body\.query/],
      ['empty query list', { query: [], tools }, /body\.query/],
      [
        'tool without a key',
        { query: ['send'], tools: [{ toolName: 'x', serverName: 'y' }] },
        /body\.tools\.0\.toolKey/,
      ],
      ['maxResults over the limit', { query: ['send'], tools, maxResults: 51 }, /body\.maxResults/],
    ];
    for (const [what, body, path] of cases) {
      const response = await request(server.url, '/catalog/search', { body });
      expect([what, response.status, response.body?.code]).toEqual([what, 400, 'VALIDATION_ERROR']);
      expect(response.body?.error).toMatch(path);
    }
  });

  it("serves as another instance's cloud search, with fallback when it stops", async () => {
    const remote = await startApp({ backends: 'none' });
    const registry = new ToolRegistry();
    registry.register({ name: 'read-file', description: 'Read a file from disk' }, () => 'x');
    registry.register({ name: 'send-message', description: 'Send a chat message' }, () => 'x');
    const catalog = new ToolCatalog({
      sources: [registry],
      config: {
        mcpServers: {},
        search: { strategy: 'cloud', cloud: { url: remote.url, apiKey: mainToken, timeoutMs: 2000 } },
      },
    });
    const viaCloud = await catalog.search({ query: 'send a chat message' });
    expect(viaCloud).toMatchObject({ providerId: 'cloud', results: [{ toolKey: 'local:send-message' }] });
    await remote.close();
    const fallback = await catalog.search({ query: 'send a chat message' });
    expect(fallback.providerId).toBe('bm25');
    expect(fallback.fallbackReason).toMatch(/cloud search/);
    expect(fallback.results[0]?.toolKey).toBe('local:send-message');
  });
});
