import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager, type ToolListCache } from '@search-mcp/client-manager';
import { parseConfig, type ToolDefinition } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// With `exposure.names: "original"` a listed name carries no server id: a call of a tool listed from its server's
// kept list (README, "Discovery before the servers are up") must still wait for that server to start.

/** The list a server's last run kept: its tools before it is up. */
class KeptLists implements ToolListCache {
  constructor(private readonly lists: Record<string, ToolDefinition[]>) {}
  read(serverId: string): readonly ToolDefinition[] | undefined {
    return this.lists[serverId];
  }
  write(): void {}
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a call by a tool’s own name, listed from a kept list while its server starts', () => {
  it('waits for the server, then runs', async () => {
    const config = parseConfig({
      mcpServers: {
        slow: {
          command: process.execPath,
          args: [fixtureServerPath('stdio-fixture-server.mjs'), '--startup-delay-ms', '1500'],
        },
      },
      exposure: { mode: 'proxy', names: 'original' },
    });
    const toolListCache = new KeptLists({
      slow: [{ name: 'echo', description: 'Echoes the message back', inputSchema: { type: 'object' } }],
    });
    const manager = new McpClientManager(config, { toolListCache });
    cleanups.push(() => manager.close());
    const catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
    const server = createSearchMcpServer({ catalog, manager, mode: 'proxy' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'kept-list-call', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    cleanups.push(() => client.close());
    const started = manager.startAll();
    cleanups.push(() => started);
    expect(manager.status()[0]?.state).toBe('starting');
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } }, { timeout: 60_000 });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('hi');
  });
});
