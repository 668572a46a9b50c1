import type { EventEmitter } from 'node:events';
import { Client } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';

// The handshake's instructions while a server is still starting: `a` runs and has notes, `slow` needs a minute.

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      a: {
        command: process.execPath,
        args: [fixtureServerPath('feature-server.mjs'), '--name', 'a', '--instructions', 'Notes of a.'],
      },
      slow: {
        command: process.execPath,
        args: [fixtureServerPath('stdio-fixture-server.mjs'), '--startup-delay-ms', '60000'],
        startupTimeoutMs: 120_000,
      },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions, logger: silentLogger });
  catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  await manager.start('a');
  manager.start('slow').catch(() => {});
  expect(manager.serverState('slow')).toBe('starting');
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** `instructionsWaitMs`: the wait asked for, or `default` (none asked). */
async function connect(era: 'legacy' | 'modern', mode: 'meta' | 'proxy', instructionsWaitMs: number | 'default' = 50) {
  const client = new Client(
    { name: `handshake-${era}`, version: '1' },
    { capabilities: {}, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  closers.push(
    await connectThroughEntry(client, (context) =>
      // `slow` has never connected: an asked-for wait waits for it, but only this long.
      createSearchMcpServer({
        catalog,
        manager,
        hub,
        mode,
        era: context.era,
        ...(instructionsWaitMs === 'default' ? {} : { instructionsWaitMs }),
      }),
    ),
  );
  return client;
}

describe('the handshake with a server still starting', () => {
  it('2025 initialize, meta mode: the running servers’ notes, and the starting one named', async () => {
    const client = await connect('legacy', 'meta');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('call tool_discovery');
    expect(instructions).toContain('- a: Notes of a.');
    expect(instructions).toContain(
      'Still starting (their own notes are not included): slow. tool_discovery waits for servers still starting ' +
        'and searches their tools once they are connected.',
    );
    expect(manager.serverState('slow')).toBe('starting');
  });

  it('2026 server/discover, proxy mode: the same, and not to be reused while a server starts', async () => {
    const client = await connect('modern', 'proxy');
    expect(client.getProtocolEra()).toBe('modern');
    const discovered = client.getDiscoverResult();
    expect(discovered?.instructions).toContain('- a: Notes of a.');
    expect(discovered?.instructions).toContain(
      'Still starting (their own notes are not included): slow. Their tools are added to the tool list once they ' +
        'are connected.',
    );
    expect(discovered?.ttlMs).toBe(0);
  });

  it('by default answers at once for a server never connected (the first answer of a stdio spawn stays fast)', async () => {
    // A wait listens for the manager's status changes; the handshake is answered without one.
    const waits: string[] = [];
    const countWaits = (event: unknown) => {
      if (event === 'status-change') waits.push('status-change');
    };
    // `newListener` is EventEmitter's own event, outside the manager's typed ones.
    const emitter = manager as unknown as EventEmitter;
    emitter.on('newListener', countWaits);
    try {
      const asked = await connect('legacy', 'meta', 50);
      expect(asked.getInstructions()).toContain('Still starting (their own notes are not included): slow.');
      expect(waits).toHaveLength(1);
      waits.length = 0;
      const client = await connect('legacy', 'meta', 'default');
      expect(client.getInstructions()).toContain('- a: Notes of a.');
      expect(client.getInstructions()).toContain('Still starting (their own notes are not included): slow.');
      expect(waits).toEqual([]);
    } finally {
      emitter.off('newListener', countWaits);
    }
  });
});
