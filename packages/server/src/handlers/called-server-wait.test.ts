import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, type ServerState, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// The first call of a session meets servers still starting (README, "The first call of a session"): it waits for
// its server within that server's call timeout, longer than the old 5 s grace, telling a client that gave a progress
// token; a server that fails to start answers with its own error, never "try again shortly".

let manager: McpClientManager;
let client: Client;
let starts: Promise<unknown>;

// Slower than the 5 s the start-up wait used to allow.
const lateStartMs = 5500;
const failsAfterMs = 1500;

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      late: {
        command: process.execPath,
        args: [fixtureServerPath('stdio-fixture-server.mjs'), '--startup-delay-ms', String(lateStartMs)],
      },
      broken: {
        command: process.execPath,
        args: [
          '-e',
          `setTimeout(() => { process.stderr.write('fatal: FIXTURE_API_KEY is not set\\n'); process.exit(3); }, ${failsAfterMs})`,
        ],
      },
    },
  });
  manager = new McpClientManager(config, { logger: silentLogger });
  const catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
  const server = createSearchMcpServer({ catalog, manager, mode: 'meta' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'first-session', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const bothStarting = stateReached(['starting', 'starting']);
  starts = manager.startAll();
  await bothStarting;
});

afterAll(async () => {
  await client.close();
  await starts;
  await manager.close();
});

/** Resolves once the servers' states are `states`, in config order. */
function stateReached(states: ServerState[]): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (manager.status().some((status, index) => status.state !== states[index])) return;
      manager.off('status-change', check);
      resolve();
    };
    manager.on('status-change', check);
    check();
  });
}

const text = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>)[0]?.text;

describe('a call to a server still starting', () => {
  it('waits for it past the old 5 s, with progress notifications, and runs', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'late:echo', arguments: { message: 'first' } } },
      { timeout: 60_000, onprogress: (notification) => progress.push(notification) },
    );
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('Echo: first');
    // One at once, then about one a second while the server starts.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]?.message).toBe("waiting for server 'late' to start (0 s)");
    expect(progress.map((entry) => entry.progress)).toEqual(progress.map((_, index) => index + 1));
    expect(progress.at(-1)?.message).toMatch(/^waiting for server 'late' to start \(\d+ s\)$/);
  }, 60_000);

  it('fails with the real reason of a server that failed to start', async () => {
    // Its first start (with `late`'s) failed already: start it again, and call while it starts.
    await stateReached(['running', 'failed']);
    const starting = stateReached(['running', 'starting']);
    const restart = manager.start('broken').catch(() => undefined);
    await starting;
    const result = await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'broken:anything', arguments: {} } },
      { timeout: 60_000 },
    );
    await restart;
    expect(result.isError).toBe(true);
    const message = text(result) ?? '';
    expect(message).toMatch(/^MCP server 'broken' failed to start: /);
    expect(message).toContain('FIXTURE_API_KEY is not set');
    expect(message).not.toContain('try again shortly');
  }, 60_000);
});
