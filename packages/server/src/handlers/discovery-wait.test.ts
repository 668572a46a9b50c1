import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// The very first session has no kept tool lists (README, "Discovery before the servers are up"): the first
// discovery waits, within `discoveryWaitMs`, for the servers still starting, telling a client that gave a progress
// token; past the bound it answers with what is there and says which servers are still connecting.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function firstSession(discoveryWaitMs?: number) {
  const config = parseConfig({
    mcpServers: {
      slow: {
        command: process.execPath,
        args: [fixtureServerPath('stdio-fixture-server.mjs'), '--startup-delay-ms', '2500'],
      },
    },
  });
  const manager = new McpClientManager(config, { logger: silentLogger });
  cleanups.push(() => manager.close());
  const catalog = new ToolCatalog({ sources: [manager], config });
  const server = createSearchMcpServer({
    catalog,
    manager,
    mode: 'meta',
    ...(discoveryWaitMs !== undefined ? { discoveryWaitMs } : {}),
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'first-session', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(() => client.close());
  const started = manager.startAll();
  cleanups.push(() => started);
  return { client, manager };
}

type Discovery = { results: Array<{ toolKey: string }>; notice?: string };

describe('the first discovery of the very first session', () => {
  it('waits for the servers still starting, with progress, and finds their tools', async () => {
    const { client, manager } = await firstSession();
    expect(manager.status()[0]?.state).toBe('starting');
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'tool_discovery', arguments: { query: 'echo a message back' } },
      { timeout: 60_000, onprogress: (notification) => progress.push(notification) },
    );
    const answer = result.structuredContent as Discovery;
    expect(answer.results[0]?.toolKey).toBe('slow:echo');
    expect(answer.notice ?? '').not.toContain('Still connecting');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]?.message).toMatch(/^waiting for server 'slow' to start \(\d+ s\)$/);
  }, 60_000);

  it('answers with what is there once the bound is over, naming the servers still connecting', async () => {
    const { client, manager } = await firstSession(200);
    const result = await client.callTool({ name: 'tool_discovery', arguments: { query: 'echo a message back' } });
    expect(manager.status()[0]?.state).toBe('starting');
    const answer = result.structuredContent as Discovery;
    expect(answer.results).toEqual([]);
    expect(answer.notice).toContain('Still connecting: slow.');
  }, 60_000);
});
