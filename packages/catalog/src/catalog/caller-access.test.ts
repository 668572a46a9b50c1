import { AuthorizationError, ToolNotFoundError, type ToolCallOptions, type ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import type { CatalogToolSource } from './catalog-tool-source.js';
import { ToolCatalog } from './tool-catalog.js';

/** An OAuth caller's roles narrow everything it reaches (docs/oauth-in-front.md, "Roles"). */
const tool = (serverName: string, toolName: string): ToolInfo => ({
  toolKey: `${serverName}:${toolName}`,
  serverName,
  toolName,
  description: `${toolName} of ${serverName}`,
  inputSchema: { type: 'object' },
});

function setUp() {
  const calls: Array<{ serverId: string; toolName: string; options: ToolCallOptions | undefined }> = [];
  const source: CatalogToolSource = {
    serverIds: ['github', 'linear'],
    toolsRevision: 0,
    listAllTools: async () => [
      tool('github', 'search_code'),
      tool('github', 'create_issue'),
      tool('linear', 'list_issues'),
    ],
    serverState: () => 'running',
    callTool: async (serverId, toolName, _args, options) => {
      calls.push({ serverId, toolName, options });
      return { content: [{ type: 'text', text: `${serverId}:${toolName}` }] };
    },
  };
  const catalog = new ToolCatalog({
    sources: [source],
    config: {
      mcpServers: { github: { url: 'https://github.example/mcp' }, linear: { url: 'https://linear.example/mcp' } },
      projects: { web: {} },
    },
  });
  return { catalog, calls };
}

describe('caller access (OAuth roles)', () => {
  const reader = {
    tokenId: 'oauth:alice',
    subject: 'alice',
    access: { grants: [{ tools: ['github:search_code', 'linear:*'] }] },
  };

  it('lists, searches and looks up only the tools the roles allow; the rest does not exist for the caller', async () => {
    const { catalog } = setUp();
    const keys = (tools: readonly ToolInfo[]) => tools.map((entry) => entry.toolKey);
    expect(keys(await catalog.visibleTools(reader))).toEqual(['github:search_code', 'linear:list_issues']);
    expect(keys(await catalog.visibleTools({}))).toHaveLength(3);
    expect(keys(await catalog.list({}, reader))).toEqual(['github:search_code', 'linear:list_issues']);
    const found = await catalog.search({ query: 'create issue' }, reader);
    expect(found.results.map((hit) => hit.toolKey)).not.toContain('github:create_issue');
    expect(found.toolCount).toBe(2);
    await expect(catalog.get('github:create_issue', reader)).rejects.toThrow(ToolNotFoundError);
    await expect(catalog.execute('github:create_issue', {}, reader)).rejects.toThrow(ToolNotFoundError);
    expect((await catalog.get('github:search_code', reader)).toolKey).toBe('github:search_code');
  });

  it('keeps each access limit apart: another caller with other roles sees its own tools', async () => {
    const { catalog } = setUp();
    const writer = { tokenId: 'oauth:bob', subject: 'bob', access: { grants: [{ tools: ['github:*'] }] } };
    const readerTools = await catalog.visibleTools(reader);
    const writerTools = await catalog.visibleTools(writer);
    expect(writerTools.map((entry) => entry.toolKey)).toEqual(['github:search_code', 'github:create_issue']);
    // Cached per limit, however its patterns are ordered.
    expect(
      await catalog.visibleTools({ ...reader, access: { grants: [{ tools: ['linear:*', 'github:search_code'] }] } }),
    ).toBe(readerTools);
    // Resources and prompts reach past the tools: only a whole server (`server:*`) opens them.
    expect(catalog.visibleServerIds(writer)).toEqual(['github']);
    expect(catalog.visibleServerIds(reader)).toEqual(['linear']);
  });

  it('names the token to the source with each call (a per-user server runs it on that token’s connection)', async () => {
    const { catalog, calls } = setUp();
    await catalog.execute('github:search_code', {}, reader);
    await catalog.execute('linear:list_issues', {}, { projectId: undefined });
    expect(calls.map((call) => [call.toolName, call.options?.subject])).toEqual([
      ['search_code', 'oauth:alice'],
      ['list_issues', undefined],
    ]);
  });

  it('checks the projects of the access instead of a configured token: the OAuth token id is not looked up', async () => {
    const { catalog } = setUp();
    const webOnly = { tokenId: 'oauth:carol', access: { grants: [{ projects: ['web'] }] } };
    await expect(catalog.visibleTools(webOnly)).rejects.toThrow(AuthorizationError);
    expect(await catalog.visibleTools({ ...webOnly, projectId: 'web' })).toEqual([]);
    expect(await catalog.visibleTools({ tokenId: 'oauth:dave', access: { grants: [{}] } })).toHaveLength(3);
    // No role matched: no grant, nothing at all.
    await expect(catalog.visibleTools({ tokenId: 'oauth:erin', access: { grants: [] } })).rejects.toThrow(
      AuthorizationError,
    );
  });

  it('never adds two roles up: a tool is usable where ONE grant allows both its project and the tool', async () => {
    const { catalog } = setUp();
    // support: two tools in any project; web-team: any tool, only in project web.
    const both = {
      tokenId: 'oauth:frank',
      access: { grants: [{ tools: ['linear:*', 'github:search_code'] }, { projects: ['web'] }] },
    };
    const keys = async (caller: typeof both & { projectId?: string }) =>
      (await catalog.visibleTools(caller)).map((tool) => tool.toolKey);
    expect(await keys(both)).toEqual(['github:search_code', 'linear:list_issues']);
    await expect(catalog.execute('github:create_issue', {}, both)).rejects.toThrow(ToolNotFoundError);
    // In project web the second grant applies (the config's servers belong to no project, so web sees none of them).
    expect(await keys({ ...both, projectId: 'web' })).toEqual([]);
  });
});
