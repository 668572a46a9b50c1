import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import type { ServerStatus, ToolCallResult, ToolInfo, ToolSource } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { connect, FakeManager, listenerAdded } from '../../test/search-mcp-test-server.js';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

/** Server `fs`, still starting, whose tools come from the list kept from its last run. */
class KeptListSource implements ToolSource {
  readonly toolsRevision = 0;
  readonly serverIds = ['fs'];
  async listAllTools(): Promise<ToolInfo[]> {
    return [
      {
        toolKey: 'fs:read',
        toolName: 'read',
        serverName: 'fs',
        description: 'Read a file',
        inputSchema: { type: 'object' },
        cached: true,
      },
    ];
  }
  async callTool(): Promise<ToolCallResult> {
    throw new Error('not started');
  }
}

describe('the first tools/list while servers are still connecting', () => {
  it('waits for them in proxy mode (bounded), and only the first listing waits', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    const { client } = await connect({ manager, mode: 'proxy', startupWaitMs: 60_000 });
    let answered = false;
    const waiting = listenerAdded(manager, 'status-change');
    const listing = client.listTools().then((result) => {
      answered = true;
      return result;
    });
    await waiting;
    expect(answered).toBe(false);
    manager.states = [{ id: 'fs', state: 'running' } as never];
    manager.emit('status-change');
    const { tools } = await listing;
    expect(tools.map((tool) => tool.name)).toContain('local__echo');
    // Later listings answer at once, even while a server is starting again (list_changed tells of changes).
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    await client.listTools();
    expect(manager.listenerCount('status-change')).toBe(0);
  });

  it('does not wait for a server whose tools come from its kept list', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting' } as ServerStatus];
    const config = { mcpServers: { fs: { command: 'fs-server' } } };
    const catalog = new ToolCatalog({ sources: [new KeptListSource()], config });
    const server = createSearchMcpServer({ catalog, manager, mode: 'proxy', startupWaitMs: 60_000 });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'kept-list', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    // Answers while fs is still starting: a wait would hold this for the whole minute.
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('fs__read');
    expect(manager.listenerCount('status-change')).toBe(0);
    await client.close();
  });

  it('gives up waiting after the start-up wait and lists what is connected', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting' } as never];
    const { client } = await connect({ manager, mode: 'proxy', startupWaitMs: 50 });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('local__echo');
  });

  it('refuses a cursor: the list is one page', async () => {
    const { client } = await connect({ mode: 'proxy' });
    await expect(client.listTools({ cursor: 'abc' })).rejects.toMatchObject({ code: -32602 });
  });
});
