import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// A call to a backend still connecting (a slow-starting real server) waits for it, within its call timeout,
// instead of failing as "not running": what a one-shot client's first request meets. A stopped server still fails.

let manager: McpClientManager;
let client: Client;
let starts: Promise<unknown>[] = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      slow: {
        command: process.execPath,
        args: [fixtureServerPath('stdio-fixture-server.mjs'), '--startup-delay-ms', '1500'],
      },
    },
  });
  manager = new McpClientManager(config);
  const catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
  const server = createSearchMcpServer({ catalog, manager, mode: 'meta' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'one-shot', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client.close();
  await Promise.allSettled(starts);
  await manager.close();
});

/** Starts (or restarts) the server and resolves once the manager reports it `starting`. */
async function startSlowly(start: () => Promise<unknown>): Promise<void> {
  const starting = new Promise<void>((resolve) => {
    const check = () => {
      if (manager.status()[0]?.state !== 'starting') return;
      manager.off('status-change', check);
      resolve();
    };
    manager.on('status-change', check);
    check();
  });
  starts.push(start());
  await starting;
}

const text = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>)[0]?.text;

describe('a call to a server that is still starting', () => {
  it('a direct tools/call waits for it, then runs', async () => {
    await startSlowly(() => manager.startAll());
    expect(manager.status()[0]?.state).toBe('starting');
    const result = await client.callTool(
      { name: 'slow__echo', arguments: { message: 'first' } },
      {
        timeout: 60_000,
      },
    );
    expect(text(result)).toBe('Echo: first');
  }, 60_000);

  it('tool_execute waits for it too', async () => {
    await startSlowly(() => manager.restart('slow'));
    expect(manager.status()[0]?.state).toBe('starting');
    const result = await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'slow:echo', arguments: { message: 'again' } } },

      { timeout: 60_000 },
    );
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('Echo: again');
  }, 60_000);

  it('a stopped server still fails with "not running"', async () => {
    await Promise.allSettled(starts);
    starts = [];
    await manager.stop('slow');
    expect(manager.status()[0]?.state).toBe('stopped');
    const error = await client.callTool({ name: 'slow__echo', arguments: { message: 'no' } }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect([(error as ProtocolError).code, (error as ProtocolError).message]).toEqual([
      -32000,
      "MCP server 'slow' is not running",
    ]);
  }, 60_000);
});
