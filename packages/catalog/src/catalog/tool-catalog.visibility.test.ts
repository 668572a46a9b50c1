import {
  AuthenticationError,
  AuthorizationError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
} from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { NoVisibleToolsSource, setUp } from '../../test/catalog-test-setup.js';
import type { CatalogToolSource } from './catalog-tool-source.js';
import { ToolCatalog } from './tool-catalog.js';

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

  it('gives the visible tools at once (visibleToolsNow) only while no source changed since they were listed', async () => {
    let revision = 0;
    let listed = 0;
    const echo = {
      toolKey: 'vault:echo',
      serverName: 'vault',
      toolName: 'echo',
      description: 'Echo',
      inputSchema: { type: 'object' as const },
    };
    const source: CatalogToolSource = {
      serverIds: ['vault'],
      get toolsRevision() {
        return revision;
      },
      listAllTools: async () => {
        listed += 1;
        return [echo];
      },
      callTool: async () => ({ content: [] }),
    };
    const catalog = new ToolCatalog({ sources: [source] });
    // Nothing listed yet: undefined, and nothing is listed by asking.
    expect(catalog.visibleToolsNow()).toBeUndefined();
    expect(listed).toBe(0);
    const tools = await catalog.visibleTools();
    expect(catalog.visibleToolsNow()).toBe(tools);
    expect(listed).toBe(1);
    revision += 1;
    expect(catalog.visibleToolsNow()).toBeUndefined();
    const relisted = await catalog.visibleTools();
    expect(listed).toBe(2);
    expect(catalog.visibleToolsNow()).toBe(relisted);
    expect(() => catalog.visibleToolsNow({ tokenId: 'nobody' })).toThrow(AuthenticationError);
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

  it('asks any source, not only a ToolRegistry, why a tool it does not list is disabled', async () => {
    const source: CatalogToolSource = {
      serverIds: ['vault'],
      toolsRevision: 0,
      listAllTools: async () => [],
      callTool: async () => ({ content: [] }),
      disabledTool: (serverId, toolName) =>
        serverId === 'vault' && toolName === 'unseal'
          ? { reason: 'sealed by policy', serverProjects: ['ops'] }
          : undefined,
    };
    const catalog = new ToolCatalog({ sources: [source] });
    const failure = await catalog.execute('vault:unseal', {}, { projectId: 'ops' }).catch((error: unknown) => error);
    expect(ToolDisabledError.isInstance(failure) && failure.message).toBe(
      'Tool is disabled: vault:unseal (sealed by policy)',
    );
    // Another project does not see the server at all.
    await expect(catalog.execute('vault:unseal', {}, { projectId: 'web' })).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('vault:other', {}, { projectId: 'ops' })).rejects.toThrow(ToolNotFoundError);
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
    // Observed through array identity: a project still cached gets the same array back, an evicted one a new one.
    const first = await catalog.visibleTools({ projectId: 'project-0' });
    for (let index = 1; index < 64; index += 1) await catalog.visibleTools({ projectId: `project-${index}` });
    expect(await catalog.visibleTools({ projectId: 'project-0' })).toBe(first);
    for (let index = 64; index < 128; index += 1) await catalog.visibleTools({ projectId: `project-${index}` });
    expect(await catalog.visibleTools({ projectId: 'project-0' })).not.toBe(first);
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

  it('lists the configured servers a caller may use now: enabled, running, its project, token checked', () => {
    const running = new NoVisibleToolsSource(['fs', 'team'], 'running');
    const crashed = new NoVisibleToolsSource(['down'], 'crashed');
    const catalog = new ToolCatalog({
      sources: [running, crashed],
      config: {
        mcpServers: {
          fs: { command: 'fs-server' },
          team: { command: 'team-server', projects: ['web'] },
          down: { command: 'down-server' },
          off: { command: 'off-server', enabled: false },
        },
        auth: { tokens: [{ id: 'ci', token: 'ci-secret', projects: ['web'] }] },
      },
    });
    expect(catalog.visibleServerIds()).toEqual(['fs']);
    expect(catalog.visibleServerIds({ projectId: 'web' })).toEqual(['team']);
    expect(catalog.visibleServerIds({ tokenId: 'ci', projectId: 'web' })).toEqual(['team']);
    expect(() => catalog.visibleServerIds({ tokenId: 'nobody' })).toThrow(AuthenticationError);
    expect(() => catalog.visibleServerIds({ tokenId: 'ci' })).toThrow(AuthorizationError);
  });

  it('leaves in-process registries out of visibleServerIds (they offer tools only)', () => {
    const { catalog } = setUp();
    expect(catalog.visibleServerIds()).not.toContain('local');
  });

  it('takes a new config live: server entries, projects and tokens apply at once; the cloud ranker needs a restart', () => {
    const source = new NoVisibleToolsSource(['fs', 'team'], 'running');
    const catalog = new ToolCatalog({ sources: [source], config: { mcpServers: { fs: { command: 'fs-server' } } } });
    expect(catalog.visibleServerIds()).toEqual(['fs']);
    expect(catalog.strategyFor({ projectId: 'web' })).toBe('bm25');
    const notApplied = catalog.reconfigure({
      mcpServers: { fs: { command: 'fs-server', enabled: false }, team: { command: 'team-server' } },
      projects: { web: { optimization: null } },
      search: { maxResults: 3, cloud: { url: 'http://127.0.0.1:9' } },
      auth: { tokens: [{ id: 'ci', token: 'ci-secret' }] },
    });
    expect(notApplied).toEqual(['search.cloud']);
    expect(catalog.visibleServerIds({ tokenId: 'ci' })).toEqual(['team']);
    expect(() => catalog.visibleServerIds({ tokenId: 'nobody' })).toThrow(AuthenticationError);
    expect(catalog.strategyFor({ projectId: 'web' })).toBe('off');
    expect(catalog.config.search.maxResults).toBe(3);
  });

  it('keeps tokens the host handed in across a reload, and says auth was not applied', () => {
    const catalog = new ToolCatalog({ sources: [], tokens: [{ id: 'host' }] });
    expect(catalog.reconfigure({ mcpServers: {}, auth: { tokens: [{ id: 'ci', token: 'ci-secret' }] } })).toEqual([
      'auth',
    ]);
    expect(() => catalog.visibleServerIds({ tokenId: 'host' })).not.toThrow();
    expect(() => catalog.visibleServerIds({ tokenId: 'ci' })).toThrow(AuthenticationError);
  });
});
