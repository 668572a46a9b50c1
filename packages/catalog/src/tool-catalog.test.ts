import {
  AuthenticationError,
  AuthorizationError,
  ServerNotRunningError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
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

function setUp(overrides: { searchProvider?: SearchProvider; cloudProvider?: SearchProvider; strategy?: 'bm25' | 'cloud' | 'off' } = {}) {
  const local = new ToolRegistry({ description: 'Tools of the host' });
  local.register(
    { name: 'echo', description: 'Echo a message back', parameters: [{ name: 'message', type: 'string', description: 'text', required: true }] },
    ({ message }) => `echo: ${String(message)}`,
    { category: 'text', tags: ['demo'] },
  );
  local.register(
    { name: 'add', description: 'Add two numbers', parameters: [{ name: 'a', type: 'number', description: 'first', required: true }, { name: 'b', type: 'number', description: 'second', required: true }] },
    ({ a, b }) => Number(a) + Number(b),
    { category: 'math' },
  );
  local.register({ name: 'secret', description: 'Switched off by the host' }, () => 'no', { disabled: true });
  const web = new ToolRegistry({ serverId: 'webtools', projects: ['web'] });
  web.register({ name: 'deploy', description: 'Deploy the web site' }, () => 'deployed');
  const down = new DisconnectedSource(['fs', 'off']);
  const catalog = new ToolCatalog({
    sources: [local, web, down],
    config: {
      mcpServers: {
        fs: { command: 'fs-server', toolPermissions: { delete_file: false } },
        off: { command: 'off-server', enabled: false },
        team: { command: 'team-server', projects: ['web'] },
      },
      search: { strategy: overrides.strategy ?? 'bm25', maxResults: 3, ...(overrides.strategy === 'cloud' ? { cloud: { url: 'http://127.0.0.1:9' } } : {}) },
      projects: { web: { optimization: 'bm25' }, quiet: { optimization: null } },
      auth: { tokens: [{ id: 'ci', token: 'ci-secret', projects: ['web'] }, { id: 'admin', token: 'admin-secret' }] },
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
    await expect(catalog.execute('local:echo', { message: 'x' }, { projectId: 'web' })).rejects.toThrow(ToolNotFoundError);
  });

  it('checks the token: unknown is 401, a project it may not use is 403', async () => {
    const { catalog } = setUp();
    await expect(catalog.visibleTools({ tokenId: 'nobody' })).rejects.toThrow(AuthenticationError);
    await expect(catalog.search({ query: 'deploy' }, { tokenId: 'ci' })).rejects.toThrow(AuthorizationError);
    await expect(catalog.search({ query: 'deploy' }, { tokenId: 'ci', projectId: 'other' })).rejects.toThrow("Token 'ci' may not be used for project 'other'; it is limited to: web");
    expect((await catalog.search({ query: 'deploy' }, { tokenId: 'ci', projectId: 'web' })).results.map((hit) => hit.toolKey)).toEqual(['webtools:deploy']);
    expect((await catalog.visibleTools({ tokenId: 'admin' })).length).toBe(2);
  });

  it('says why a tool is blocked: disabled server, toolPermissions, disabled registry tool', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('off:anything', {})).rejects.toThrow("Tool is disabled: off:anything (MCP server 'off' is disabled in the config)");
    await expect(catalog.execute('fs:delete_file', {})).rejects.toThrow('Tool is disabled: fs:delete_file (toolPermissions)');
    await expect(catalog.get('local:secret')).rejects.toThrow(ToolDisabledError);
    expect((await catalog.search({ query: 'switched off host' })).results.map((hit) => hit.toolKey)).not.toContain('local:secret');
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
    expect(response.results[0]).toMatchObject({ toolKey: 'local:echo', toolName: 'echo', serverName: 'local', relevance: 1, explanation: expect.stringContaining('echo') });
    expect(response.results[0]?.tool.inputSchema.required).toEqual(['message']);
    expect((await catalog.search({ query: 'a', maxResults: 1 })).results.length).toBeLessThanOrEqual(1);
  });

  it('returns nothing for empty queries and for a project whose optimization is null', async () => {
    const { catalog } = setUp();
    expect((await catalog.search({ query: ['', '   '] })).results).toEqual([]);
    expect(await catalog.search({ query: 'deploy' }, { projectId: 'quiet' })).toEqual({ results: [], strategy: 'off', toolCount: 0 });
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
    expect(response).toMatchObject({ strategy: 'cloud', providerId: 'keyword-overlap', fallbackReason: 'cloud search answered HTTP 503' });
    expect(response.results[0]?.toolKey).toBe('local:add');
    const answering: SearchProvider = {
      id: 'cloud',
      search: async ({ tools }) => [{ toolKey: tools[0]?.toolKey ?? '', toolName: '', serverName: '', relevance: 0.9 }],
    };
    const cloud = setUp({ strategy: 'cloud', cloudProvider: answering }).catalog;
    expect(await cloud.search({ query: 'anything' })).toMatchObject({ providerId: 'cloud', results: [{ toolKey: 'local:echo', relevance: 0.9 }] });
  });
});

describe('get and list', () => {
  it('accepts the three key forms and suggests the closest keys for a miss', async () => {
    const { catalog } = setUp();
    for (const key of ['local:echo', 'local.echo', 'local__echo']) expect((await catalog.get(key)).toolKey).toBe('local:echo');
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
    await expect(catalog.get('fs:read_file')).rejects.toThrow("Tool not found: fs:read_file (MCP server 'fs' is not connected)");
  });

  it('says a server the config does not know is not found', async () => {
    const { catalog } = setUp();
    await expect(catalog.execute('nowhere:tool', {})).rejects.toThrow(ToolNotFoundError);
  });
});
