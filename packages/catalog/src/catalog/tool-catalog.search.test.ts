import { ValidationError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { KeywordOverlapProvider } from '../../test/keyword-overlap-provider.js';
import { setUp, RecordingProvider } from '../../test/catalog-test-setup.js';
import type { SearchProvider } from '../search-provider.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRegistry } from '../registry/tool-registry.js';

describe('search', () => {
  it('returns hits with the tool, relevance and explanation, best first, within maxResults', async () => {
    const { catalog } = setUp();
    const response = await catalog.search({ query: ['echo a message', 'say it back'] });
    expect(response.strategy).toBe('bm25');
    expect(response.providerId).toBe('keyword-overlap');
    expect(response.toolCount).toBe(2);
    expect(response.results[0]).toMatchObject({
      toolKey: 'local:echo',
      toolName: 'echo',
      serverName: 'local',
      relevance: 1,
      explanation: expect.stringContaining('echo'),
    });
    expect(response.results[0]?.tool.inputSchema.required).toEqual(['message']);
    // The custom ranker puts its best at 1: taken as a good match.
    expect(response.match).toBe('good');
    expect(response.notice).toBeUndefined();
    expect((await catalog.search({ query: 'a', maxResults: 1 })).results.length).toBeLessThanOrEqual(1);
  });

  it('returns nothing for empty queries and for a project whose optimization is null', async () => {
    const { catalog } = setUp();
    expect(await catalog.search({ query: ['', '   '] })).toMatchObject({
      results: [],
      match: 'none',
      notice: "the query is empty: say what the tool should do, e.g. 'read a file'",
    });
    expect(await catalog.search({ query: 'deploy' }, { projectId: 'quiet' })).toEqual({
      results: [],
      strategy: 'off',
      toolCount: 0,
      match: 'none',
      notice:
        'tool search is off here (search.strategy, or the optimization of your project, is off in the configuration)',
    });
    const off = setUp({ strategy: 'off' }).catalog;
    expect(await off.search({ query: 'echo' })).toMatchObject({ results: [], match: 'none' });
    expect(await catalog.search({ query: 'deploy' }, { projectId: 'unknown' })).toMatchObject({
      results: [],
      match: 'none',
      notice: 'no tools are available to you: no server is connected, or none is visible to your project',
    });
  });

  it('drops results a custom ranker invents or repeats, and clamps relevance', async () => {
    const rogue: SearchProvider = {
      id: 'rogue',
      search: async () => [
        { toolKey: 'webtools:deploy', toolName: 'deploy', serverName: 'webtools', relevance: 5 },
        { toolKey: 'local:add', toolName: 'add', serverName: 'local', relevance: 7 },
        { toolKey: 'local:add', toolName: 'add', serverName: 'local', relevance: 0.5 },
        { toolKey: 'made:up', toolName: 'up', serverName: 'made', relevance: 1 },
      ],
    };
    const { catalog } = setUp({ searchProvider: rogue });
    const response = await catalog.search({ query: 'anything' });
    expect(response.results.map((hit) => [hit.toolKey, hit.relevance])).toEqual([['local:add', 1]]);
  });

  it('answers hybrid and llm with their providers, else with the local ranker and why, per project too', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'add', description: 'Add two numbers' }, () => 0);
    registry.register({ name: 'echo', description: 'Echo a message back' }, () => '');
    const semantic: SearchProvider = {
      id: 'hybrid',
      search: async ({ tools }) => [{ toolKey: tools[1]?.toolKey ?? '', toolName: '', serverName: '', relevance: 0.7 }],
    };
    const config = {
      mcpServers: {},
      search: { strategy: 'hybrid' as const },
      projects: { research: { optimization: 'llm' as const } },
    };
    const without = new ToolCatalog({ sources: [registry], config, searchProvider: new KeywordOverlapProvider() });
    expect(await without.search({ query: 'add numbers' })).toMatchObject({
      strategy: 'hybrid',
      providerId: 'keyword-overlap',
      fallbackReason: 'no hybrid search provider is configured',
      results: [{ toolKey: 'local:add' }],
    });
    const research = new ToolRegistry({ serverId: 'lab', projects: ['research'] });
    research.register({ name: 'add', description: 'Add two numbers' }, () => 0);
    const perProject = new ToolCatalog({ sources: [registry, research], config });
    expect(await perProject.search({ query: 'add numbers' }, { projectId: 'research' })).toMatchObject({
      strategy: 'llm',
      providerId: 'bm25',
      fallbackReason: 'no llm search provider is configured',
      results: [{ toolKey: 'lab:add' }],
    });
    const withHybrid = new ToolCatalog({ sources: [registry], config, hybridProvider: semantic });
    const answered = await withHybrid.search({ query: 'add numbers' });
    expect(answered).toMatchObject({ strategy: 'hybrid', providerId: 'hybrid', results: [{ toolKey: 'local:echo' }] });
    expect(answered.fallbackReason).toBeUndefined();
    // Tools handed in (POST /catalog/search) are ranked with the same strategy and provider, not the catalog's own.
    const handed = [
      {
        toolKey: 'other:sum',
        toolName: 'sum',
        serverName: 'other',
        description: 'Sum numbers',
        inputSchema: { type: 'object' as const },
      },
      {
        toolKey: 'other:say',
        toolName: 'say',
        serverName: 'other',
        description: 'Say a message',
        inputSchema: { type: 'object' as const },
      },
    ];
    const ranked = await withHybrid.rank({ query: 'add numbers' }, handed);
    expect(ranked).toMatchObject({ strategy: 'hybrid', providerId: 'hybrid', toolCount: 2 });
    expect(ranked.results.map((hit) => hit.toolKey).every((key) => key.startsWith('other:'))).toBe(true);
    expect(await withHybrid.rank({ query: 'add numbers' }, handed, { projectId: 'research' })).toMatchObject({
      strategy: 'llm',
      fallbackReason: 'no llm search provider is configured',
    });
  });

  it('says when no tool fits well, with the BM25 ranker (match and notice)', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'post-message', description: 'Post a message to a chat channel' }, () => '');
    registry.register({ name: 'read-file', description: 'Read a file from disk' }, () => '');
    const catalog = new ToolCatalog({ sources: [registry] });
    const good = await catalog.search({ query: 'post a message to the channel' });
    expect(good).toMatchObject({ match: 'good', results: [{ toolKey: 'local:post-message', relevance: 1 }] });
    expect(good.notice).toBeUndefined();
    const weak = await catalog.search({ query: 'send an email message' });
    expect(weak.results[0]?.toolKey).toBe('local:post-message');
    expect(weak.results[0]?.relevance).toBeLessThan(1);
    expect(weak.match).not.toBe('good');
    expect(weak.notice).toMatch(/^no tool matches 'send an email message'.*local:post-message \(0\.\d\d\)/);
    expect(await catalog.search({ query: 'zzqx' })).toMatchObject({ results: [], match: 'none' });
  });

  it('falls back from cloud to the local ranker and says why', async () => {
    const failing: SearchProvider = {
      id: 'cloud',
      search: async () => {
        throw new Error('cloud search answered HTTP 503');
      },
    };
    const { catalog } = setUp({ strategy: 'cloud', cloudProvider: failing });
    const response = await catalog.search({ query: 'add numbers' });
    expect(response).toMatchObject({
      strategy: 'cloud',
      providerId: 'keyword-overlap',
      fallbackReason: 'cloud search answered HTTP 503',
    });
    expect(response.results[0]?.toolKey).toBe('local:add');
    const answering: SearchProvider = {
      id: 'cloud',
      search: async ({ tools }) => [{ toolKey: tools[0]?.toolKey ?? '', toolName: '', serverName: '', relevance: 0.9 }],
    };
    const cloud = setUp({ strategy: 'cloud', cloudProvider: answering }).catalog;
    expect(await cloud.search({ query: 'anything' })).toMatchObject({
      providerId: 'cloud',
      results: [{ toolKey: 'local:echo', relevance: 0.9 }],
    });
  });
});

describe('search filters', () => {
  function bulkCatalog(searchProvider: SearchProvider = new KeywordOverlapProvider()) {
    const bulk = new ToolRegistry({ serverId: 'bulk' });
    for (let index = 0; index < 60; index += 1) {
      bulk.register({ name: `deploy-${index}`, description: 'Deploy deploy the site to production' }, () => index, {
        category: 'web',
        tags: ['site', 'prod'],
      });
    }
    const ops = new ToolRegistry({ serverId: 'ops' });
    ops.register({ name: 'ship', description: 'Deploy a release' }, () => 'shipped', {
      category: 'release',
      tags: ['prod'],
    });
    ops.register({ name: 'status', description: 'Deploy status of the site' }, () => 'ok', {
      category: 'web',
      tags: ['site'],
    });
    return new ToolCatalog({
      sources: [bulk, ops],
      config: { mcpServers: {}, search: { maxResults: 5 } },
      searchProvider,
    });
  }

  it('narrows the tools before ranking, so a server crowded out by others is found', async () => {
    const catalog = bulkCatalog();
    const keys = (response: { results: Array<{ toolKey: string }> }) => response.results.map((hit) => hit.toolKey);
    expect(keys(await catalog.search({ query: 'deploy site production' }))).not.toContain('ops:ship');
    const byServer = await catalog.search({ query: 'deploy site production', filter: { server: 'ops' } });
    expect(keys(byServer)).toEqual(['ops:status', 'ops:ship']);
    expect(byServer.toolCount).toBe(2);
    expect(keys(await catalog.search({ query: 'deploy', filter: { category: 'release' } }))).toEqual(['ops:ship']);
    expect(keys(await catalog.search({ query: 'deploy', filter: { server: 'ops', tags: ['site'] } }))).toEqual([
      'ops:status',
    ]);
    expect(keys(await catalog.search({ query: 'deploy', filter: { tags: ['prod', 'site'], server: 'ops' } }))).toEqual(
      [],
    );
    expect((await catalog.search({ query: 'deploy', filter: { tags: ['site', 'prod'] } })).toolCount).toBe(60);
    expect((await catalog.search({ query: 'deploy', filter: { server: 'nowhere' } })).results).toEqual([]);
  });

  it('hands the ranker the same array for the same filter, however it is written', async () => {
    const recording = new RecordingProvider();
    const catalog = bulkCatalog(recording);
    await catalog.search({ query: 'deploy', filter: { tags: ['site', 'prod'], category: 'web' } });
    await catalog.search({ query: 'deploy', filter: { category: 'web', tags: ['prod', 'site'] } });
    await catalog.search({ query: 'deploy', filter: {} });
    await catalog.search({ query: 'deploy' });
    const [first, second, empty, none] = recording.received;
    expect(first).toHaveLength(60);
    expect(second).toBe(first);
    expect(empty).toBe(none);
    expect(none).toBe(await catalog.visibleTools());
  });

  it("asks the ranker for at most the contract's 50 results, and at least 1", async () => {
    const recording = new RecordingProvider();
    const asked: number[] = [];
    const catalog = bulkCatalog({
      id: 'limits',
      search: async (request) => {
        asked.push(request.maxResults);
        return recording.search(request);
      },
    });
    expect((await catalog.search({ query: 'deploy', maxResults: 500 })).results).toHaveLength(50);
    expect((await catalog.search({ query: 'deploy', maxResults: 0 })).results).toHaveLength(1);
    expect((await catalog.search({ query: 'deploy', maxResults: 7.9 })).results).toHaveLength(7);
    expect((await catalog.search({ query: 'deploy' })).results).toHaveLength(5);
    expect(asked).toEqual([50, 1, 7, 5]);
  });

  it('refuses a filter of the wrong shape', async () => {
    const catalog = bulkCatalog();
    const failure = await catalog
      .search({ query: 'deploy', filter: { server: 7, tags: 'prod' } as never })
      .catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues.map((issue) => issue.path)).toEqual(['filter.server', 'filter.tags']);
  });
});
