import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';

// The wait for a server still starting and the call share the server's own call timeout (docs/first-session.md,
// "The first call of a session"): the call gets what the wait left, not a whole `timeoutMs` of its own.

const timeoutMs = 10_000;
// The part of the timeout spent waiting for the start; the rest leaves the fixture ample time to start on a busy machine.
const heldMs = 3000;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a call that waited for its server', () => {
  it('gets what the wait left of the timeout', async () => {
    const release = join(mkdtempSync(join(tmpdir(), 'called-server-timeout-')), 'start');
    const config = parseConfig({
      mcpServers: {
        slow: {
          command: process.execPath,
          args: [fixtureServerPath('stdio-fixture-server.mjs'), '--wait-for-file', release],
          timeoutMs,
        },
      },
    });
    const manager = new McpClientManager(config, { logger: silentLogger });
    cleanups.push(() => manager.close());
    const catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
    const server = createSearchMcpServer({ catalog, manager, mode: 'meta' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'timeout', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    cleanups.push(() => client.close());
    const starts = manager.startAll();
    cleanups.push(() => starts);
    cleanups.push(async () => writeFileSync(release, ''));
    // heldMs of the timeout pass in the wait: the time spent waiting is what this test is about.
    setTimeout(() => writeFileSync(release, ''), heldMs);
    // No progress token: nothing restarts the call's timeout, and the tool sleeps far past it.
    const result = await client.callTool(
      { name: 'tool_execute', arguments: { toolKey: 'slow:sleep', arguments: { ms: 30_000 } } },
      { timeout: 60_000 },
    );
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    // The timeout the call was given: what was left after the wait (about heldMs, less the time the call took to
    // arrive), so well below a whole timeoutMs.
    const given = Number(/^MCP server 'slow' did not answer .* within (\d+) ms/.exec(text)?.[1]);
    expect(given).toBeGreaterThan(0);
    expect(given).toBeLessThan(timeoutMs - heldMs / 2);
  }, 60_000);
});
