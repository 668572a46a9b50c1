import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import type { ToolCallResult, ToolInfo, ToolSource } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { call, FakeManager, textOf } from '../test/search-mcp-test-server.js';
import { createSearchMcpServer } from './create-search-mcp-server.js';
import type { SearchMcpServerOptions } from './search-mcp-server-options.js';

/** In-process servers whose tools answer with `server:name`: any name a backend may have, unlike a registry's. */
class NamedTools implements ToolSource {
  readonly toolsRevision = 0;
  constructor(private readonly tools: Record<string, string[]>) {}
  get serverIds(): string[] {
    return Object.keys(this.tools);
  }
  async listAllTools(): Promise<ToolInfo[]> {
    return Object.entries(this.tools).flatMap(([serverName, names]) =>
      names.map((toolName) => ({
        toolKey: `${serverName}:${toolName}`,
        toolName,
        serverName,
        description: `${toolName} of ${serverName}`,
        inputSchema: { type: 'object' as const },
      })),
    );
  }
  async callTool(serverId: string, toolName: string): Promise<ToolCallResult> {
    return { content: [{ type: 'text', text: `${serverId}:${toolName}` }] };
  }
}

/** Two servers that share the tool name `echo`; each has tools of its own, one named like a meta-tool. */
const source = () => new NamedTools({ local: ['echo', 'add', 'tool_execute'], other: ['echo', 'shout'] });

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(exposure: Record<string, unknown>, overrides: Partial<SearchMcpServerOptions> = {}) {
  const catalog = new ToolCatalog({ sources: [source()], config: { mcpServers: {}, exposure } });
  const server = createSearchMcpServer({ catalog, ...overrides });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return { client, catalog };
}

describe('exposure.names: "original"', () => {
  it('lists tools under their own names in proxy mode, and server__name for a name two servers share', async () => {
    const { client } = await connect({ mode: 'proxy', names: 'original' });
    const { tools } = await client.listTools();
    // In the servers' own order, as a client of each backend would see them.
    expect(tools.map((tool) => tool.name)).toEqual(['local__echo', 'add', 'tool_execute', 'other__echo', 'shout']);
    expect(textOf(await call(client, 'shout'))).toBe('other:shout');
    expect(textOf(await call(client, 'other__echo'))).toBe('other:echo');
    // Keys keep working whatever the listed names.
    expect(textOf(await call(client, 'local:echo'))).toBe('local:echo');
    expect(textOf(await call(client, 'tool_execute'))).toBe('local:tool_execute');
  });

  it('keeps the meta-tools’ names in meta mode: a pinned backend tool of that name is listed prefixed', async () => {
    const { client } = await connect({ names: 'original', pinned: ['local:tool_execute', 'other:shout'] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute', 'local__tool_execute', 'shout']);
    expect(textOf(await call(client, 'local__tool_execute'))).toBe('local:tool_execute');
    expect(textOf(await call(client, 'shout'))).toBe('other:shout');
  });

  it('applies a changed exposure.names from the next listing on (hot reload)', async () => {
    const { client, catalog } = await connect({ mode: 'proxy' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('other__shout');
    catalog.reconfigure({ mcpServers: {}, exposure: { mode: 'proxy', names: 'original' } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
    expect(textOf(await call(client, 'shout'))).toBe('other:shout');
  });

  it('tells a client its tool list changed when a reload changes only the names', async () => {
    const manager = new FakeManager();
    const { client, catalog } = await connect({ mode: 'proxy' }, { manager, listChangedDebounceMs: 10 });
    await client.listTools();
    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    catalog.reconfigure({ mcpServers: {}, exposure: { mode: 'proxy', names: 'original' } });
    await notified;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
  });
});

describe('listedTool (the definition a call is checked against before dispatch)', () => {
  it('finds a tool by the name it is listed under to that caller, and nothing by a key or an unlisted name', async () => {
    const catalog = new ToolCatalog({
      sources: [source()],
      config: { mcpServers: {}, exposure: { mode: 'proxy', names: 'original' } },
    });
    const server = createSearchMcpServer({ catalog });
    expect(await server.listedTool({}, 'shout')).toMatchObject({ name: 'shout', inputSchema: { type: 'object' } });
    expect(await server.listedTool({}, 'local__echo')).toMatchObject({ name: 'local__echo' });
    expect(await server.listedTool({}, 'other:shout')).toBeUndefined();
    expect(await server.listedTool({}, 'echo')).toBeUndefined();
  });

  it('in meta mode finds pinned tools only', async () => {
    const catalog = new ToolCatalog({
      sources: [source()],
      config: { mcpServers: {}, exposure: { mode: 'meta', names: 'original', pinned: ['other:shout'] } },
    });
    const server = createSearchMcpServer({ catalog });
    expect(await server.listedTool({}, 'shout')).toMatchObject({ name: 'shout' });
    expect(await server.listedTool({}, 'add')).toBeUndefined();
    expect(await server.listedTool({}, 'tool_discovery')).toBeUndefined();
  });
});
