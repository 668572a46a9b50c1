import {
  AuthenticationError,
  AuthorizationError,
  ServerNotRunningError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
  type ServerState,
  type ToolCallResult,
  type ToolInfo,
  type ToolSource,
} from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { KeywordOverlapProvider } from '../test/keyword-overlap-provider.js';
import type { SearchProvider } from './search-provider.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRegistry } from './tool-registry.js';

/** A backend server that is configured but not connected: lists nothing, refuses calls. */
class DisconnectedSource implements ToolSource {
  readonly toolsRevision = 0;
  calls = 0;
  constructor(readonly serverIds: readonly string[]) {}
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    this.calls += 1;
    throw new ServerNotRunningError({ serverId });
  }
}

/** A backend server in a given state that lists no tool the caller may see (all blocked, or all malformed). */
class NoVisibleToolsSource implements ToolSource {
  readonly toolsRevision = 0;
  calls = 0;
  constructor(
    readonly serverIds: readonly string[],
    private readonly state: ServerState,
  ) {}
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  serverState(serverId: string): ServerState | undefined {
    return this.serverIds.includes(serverId) ? this.state : undefined;
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    this.calls += 1;
    throw new ServerNotRunningError({ serverId });
  }
}

/** A ranker that returns every tool it is given, and remembers the arrays it was given. */
class RecordingProvider implements SearchProvider {
  readonly id = 'recording';
  readonly received: Array<readonly ToolInfo[]> = [];
  async search({ tools, maxResults }: { tools: readonly ToolInfo[]; maxResults: number }) {
    this.received.push(tools);
    return tools
      .slice(0, maxResults)
      .map((tool) => ({ toolKey: tool.toolKey, toolName: tool.toolName, serverName: tool.serverName, relevance: 1 }));
  }
}

function setUp(
  overrides: {
    searchProvider?: SearchProvider;
    cloudProvider?: SearchProvider;
    strategy?: 'bm25' | 'cloud' | 'off';
  } = {},
) {
  const local = new ToolRegistry({ description: 'Tools of the host' });
  local.register(
    {
      name: 'echo',
      description: 'Echo a message back',
      parameters: [{ name: 'message', type: 'string', description: 'text', required: true }],
    },
    ({ message }) => `echo: ${String(message)}`,
    { category: 'text', tags: ['demo'] },
  );
  local.register(
    {
      name: 'add',
      description: 'Add two numbers',
      parameters: [
        { name: 'a', type: 'number', description: 'first', required: true },
        { name: 'b', type: 'number', description: 'second', required: true },
      ],
    },
    ({ a, b }) => Number(a) + Number(b),
    { category: 'math' },
  );
  local.register({ name: 'secret', description: 'Switched off by the host' }, () => 'no', { disabled: true });
  const web = new ToolRegistry({ serverId: 'webtools', projects: ['web'] });
  web.register({ name: 'deploy', description: 'Deploy the web site' }, () => 'deployed');
  web.register({ name: 'rollback', description: 'Undo the last deploy' }, () => 'rolled back', { disabled: true });
  const down = new DisconnectedSource(['fs', 'off']);
  const catalog = new ToolCatalog({
    sources: [local, web, down],
    config: {
      mcpServers: {
        fs: { command: 'fs-server', toolPermissions: { delete_file: false } },
        off: { command: 'off-server', enabled: false },
        team: { command: 'team-server', projects: ['web'] },
      },
      search: {
        strategy: overrides.strategy ?? 'bm25',
        maxResults: 3,
        ...(overrides.strategy === 'cloud' ? { cloud: { url: 'http://127.0.0.1:9' } } : {}),
      },
      projects: { web: { optimization: 'bm25' }, quiet: { optimization: null } },
      auth: {
        tokens: [
          { id: 'ci', token: 'ci-secret', projects: ['web'] },
          { id: 'admin', token: 'admin-secret' },
        ],
      },
    },
    searchProvider: overrides.searchProvider ?? new KeywordOverlapProvider(),
    ...(overrides.cloudProvider ? { cloudProvider: overrides.cloudProvider } : {}),
    executor: { retries: 2, retryDelayMs: 5 },
  });
  return { catalog, local, web, down };
}

describe('visibility', () => {
  it('shows a caller without a project only servers without projects, and a project only its servers', async () => {
    const { catalog } = setUp();
    expect((await catalog.visibleTools()).map((tool) => tool.toolKey)).toEqual(['local:echo', 'local:add']);
    expect((await catalog.visibleTools({ projectId: 'web' })).map((tool) => tool.toolKey)).toEqual(['webtools:deploy']);
    expect(await catalog.visibleTools({ projectId: 'unknown' })).toEqual([]);
    await expect(catalog.get('webtools:deploy')).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('local:echo', { message: 'x' }, { projectId: 'web' })).rejects.toThrow(
      ToolNotFoundError,
    );
  });

  it('checks the token: unknown is 401, a project it may not use is 403', async () => {
    const { catalog } = setUp();
    await expect(catalog.visibleTools({ tokenId: 'nobody' })).rejects.toThrow(AuthenticationError);
    await expect(catalog.search({ query: 'deploy' }, { tokenId: 'ci' })).rejects.toThrow(AuthorizationError);
    await expect(catalog.search({ query: 'deploy' }, { tokenId: 'ci', projectId: 'other' })).rejects.toThrow(
      "Token 'ci' may not be used for project 'other'; it is limited to: web",
    );
    expect(
      (await catalog.search({ query: 'deploy' }, { tokenId: 'ci', projectId: 'web' })).results.map(
        (hit) => hit.toolKey,
      ),
    ).toEqual(['webtools:deploy']);
    expect((await catalog.visibleTools({ tokenId: 'admin' })).length).toBe(2);
  });

  it('says why a tool is blocked when executing: disabled server, toolPermissions, disabled registry tool', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('off:anything', {})).rejects.toThrow(
      "Tool is disabled: off:anything (MCP server 'off' is disabled in the config)",
    );
    await expect(catalog.execute('fs:delete_file', {})).rejects.toThrow(
      'Tool is disabled: fs:delete_file (toolPermissions)',
    );
    await expect(catalog.execute('local:secret', {})).rejects.toThrow(
      'Tool is disabled: local:secret (disabled in the registry)',
    );
    expect((await catalog.search({ query: 'switched off host' })).results.map((hit) => hit.toolKey)).not.toContain(
      'local:secret',
    );
  });

  it('answers get() for a blocked tool with not found, since it is not visible (404, not 403)', async () => {
    const { catalog } = setUp();
    for (const key of ['off:anything', 'fs:delete_file', 'local:secret']) {
      const failure = await catalog.get(key).catch((error: unknown) => error);
      expect(ToolNotFoundError.isInstance(failure), key).toBe(true);
      expect(ToolDisabledError.isInstance(failure), key).toBe(false);
    }
  });

  it('says a registry tool is disabled only to callers whose project sees that registry', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('webtools:rollback', {})).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('webtools:rollback', {}, { projectId: 'other' })).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('webtools:rollback', {}, { projectId: 'web' })).rejects.toThrow(ToolDisabledError);
  });

  it('does not take inherited object members for config entries (constructor, toString)', async () => {
    const { catalog } = setUp();
    // Before: Object.prototype.constructor passed for a disabled server called 'constructor'.
    await expect(catalog.execute('constructor:foo', {})).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('hasownproperty:foo', {})).rejects.toThrow(ToolNotFoundError);
    // Before: Object.prototype.toString passed for a configured project whose optimization is off.
    expect(catalog.strategyFor({ projectId: 'toString' })).toBe('bm25');
    expect((await catalog.search({ query: 'deploy' }, { projectId: 'constructor' })).strategy).toBe('bm25');
  });

  it('refuses project ids longer than 256 characters', async () => {
    const { catalog } = setUp();
    const failure = await catalog.visibleTools({ projectId: 'p'.repeat(257) }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues).toEqual([
      { path: 'projectId', message: 'must be at most 256 characters' },
    ]);
    await expect(catalog.search({ query: 'deploy' }, { projectId: 'p'.repeat(10_000) })).rejects.toThrow(
      ValidationError,
    );
    await expect(catalog.get('local:echo', { projectId: 'p'.repeat(257) })).rejects.toThrow(ValidationError);
    expect(await catalog.visibleTools({ projectId: 'p'.repeat(256) })).toEqual([]);
  });

  it('keeps the tool arrays of at most 64 projects', async () => {
    const { catalog } = setUp();
    for (let index = 0; index < 500; index += 1) await catalog.visibleTools({ projectId: `project-${index}` });
    const cache = (catalog as unknown as { cache?: { byProject: { size: number } } }).cache;
    expect(cache?.byProject.size).toBeLessThanOrEqual(64);
    // A project used often stays cached: the same array comes back.
    const web = await catalog.visibleTools({ projectId: 'web' });
    for (let index = 0; index < 500; index += 1) {
      await catalog.visibleTools({ projectId: `other-${index}` });
      if (index % 10 === 0) expect(await catalog.visibleTools({ projectId: 'web' })).toBe(web);
    }
  });

  it('reuses the same tool array until a source changes', async () => {
    const { catalog, local } = setUp();
    const first = await catalog.visibleTools();
    expect(await catalog.visibleTools()).toBe(first);
    local.register({ name: 'new-tool', description: 'Fresh' }, () => 1);
    const second = await catalog.visibleTools();
    expect(second).not.toBe(first);
    expect(second.map((tool) => tool.toolKey)).toContain('local:new-tool');
  });
});

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
    expect((await catalog.search({ query: 'a', maxResults: 1 })).results.length).toBeLessThanOrEqual(1);
  });

  it('returns nothing for empty queries and for a project whose optimization is null', async () => {
    const { catalog } = setUp();
    expect((await catalog.search({ query: ['', '   '] })).results).toEqual([]);
    expect(await catalog.search({ query: 'deploy' }, { projectId: 'quiet' })).toEqual({
      results: [],
      strategy: 'off',
      toolCount: 0,
    });
    const off = setUp({ strategy: 'off' }).catalog;
    expect((await off.search({ query: 'echo' })).results).toEqual([]);
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

  it('refuses a filter of the wrong shape', async () => {
    const catalog = bulkCatalog();
    const failure = await catalog
      .search({ query: 'deploy', filter: { server: 7, tags: 'prod' } as never })
      .catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues.map((issue) => issue.path)).toEqual(['filter.server', 'filter.tags']);
  });
});

describe('get and list', () => {
  it('accepts the three key forms and suggests the closest keys for a miss', async () => {
    const { catalog } = setUp();
    for (const key of ['local:echo', 'local.echo', 'local__echo'])
      expect((await catalog.get(key)).toolKey).toBe('local:echo');
    const miss = await catalog.get('local:ecko').catch((error: unknown) => error);
    expect(ToolNotFoundError.isInstance(miss)).toBe(true);
    expect((miss as ToolNotFoundError).suggestions[0]).toBe('local:echo');
    expect((miss as ToolNotFoundError).message).toBe('Tool not found: local:ecko. Did you mean: local:echo?');
    await expect(catalog.get('no separator')).rejects.toThrow(ToolNotFoundError);
  });

  it('filters by server, category and tag', async () => {
    const { catalog } = setUp();
    expect((await catalog.list({ category: 'math' })).map((tool) => tool.toolKey)).toEqual(['local:add']);
    expect((await catalog.list({ tag: 'demo' })).map((tool) => tool.toolKey)).toEqual(['local:echo']);
    expect((await catalog.list({ server: 'local' })).map((tool) => tool.toolKey)).toEqual(['local:add', 'local:echo']);
  });
});

describe('execute', () => {
  it('runs a tool and returns its result', async () => {
    const { catalog } = setUp();
    expect(await catalog.execute('local__add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
  });

  it('validates arguments against the inputSchema and reports every problem', async () => {
    const { catalog } = setUp();
    const failure = await catalog.execute('local:add', { a: 'two' }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues).toEqual([
      { path: 'arguments.b', message: 'is required' },
      { path: 'arguments.a', message: 'must be number' },
    ]);
  });

  it('retries a server that is not running, then reports it', async () => {
    const { catalog, down } = setUp();
    await expect(catalog.execute('fs:read_file', { path: '/x' })).rejects.toThrow("MCP server 'fs' is not running");
    expect(down.calls).toBe(3);
    await expect(catalog.get('fs:read_file')).rejects.toThrow(
      "Tool not found: fs:read_file (MCP server 'fs' is not connected)",
    );
  });

  it('does not forward an unlisted key to a running server that lists no visible tool', async () => {
    const quiet = new NoVisibleToolsSource(['quiet'], 'running');
    const crashed = new NoVisibleToolsSource(['down'], 'crashed');
    const local = new ToolRegistry();
    local.register({ name: 'echo', description: 'Echo a message back' }, () => 'echo');
    const catalog = new ToolCatalog({
      sources: [local, quiet, crashed],
      config: { mcpServers: { quiet: { command: 'quiet-server' }, down: { command: 'down-server' } } },
      executor: { retries: 0 },
    });
    const failure = await catalog.execute('quiet:echo', {}).catch((error: unknown) => error);
    expect(ToolNotFoundError.isInstance(failure)).toBe(true);
    expect((failure as ToolNotFoundError).suggestions).toEqual(['local:echo']);
    expect(quiet.calls).toBe(0);
    await expect(catalog.get('quiet:echo')).rejects.toThrow('Tool not found: quiet:echo. Did you mean: local:echo?');
    // A server that is down is still told about the call (and reconnects); get says it is not connected.
    await expect(catalog.execute('down:anything', {})).rejects.toThrow(ServerNotRunningError);
    expect(crashed.calls).toBe(1);
    await expect(catalog.get('down:anything')).rejects.toThrow(
      "Tool not found: down:anything (MCP server 'down' is not connected)",
    );
  });

  it('says a server the config does not know is not found', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('nowhere:tool', {})).rejects.toThrow(ToolNotFoundError);
  });
});
