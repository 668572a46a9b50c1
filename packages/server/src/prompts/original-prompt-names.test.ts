import { Client } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, type SearchMcpConfigInput, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';

// Prompts under `exposure.names: "original"`, through real backends: two fixture servers that share the prompt `greet`
// (listed prefixed for both) while `summarize` is a's alone (listed as it is); a reload back to `prefixed` tells the
// client its prompt list changed.
const feature = (name: string, prompts: string[]) => ({
  command: process.execPath,
  args: [fixtureServerPath('feature-server.mjs'), '--name', name, ...prompts.flatMap((prompt) => ['--prompt', prompt])],
});
const configOf = (names: 'prefixed' | 'original'): SearchMcpConfigInput => ({
  mcpServers: { a: feature('a', ['greet', 'summarize']), b: feature('b', ['greet']) },
  exposure: { mode: 'proxy', names },
});

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  const config = parseConfig(configOf('original'));
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger, listChangedDebounceMs: 10 });
  expect((await manager.startAll()).map((status) => status.state)).toEqual(['running', 'running']);
  client = new Client({ name: 'prompt-names', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  close = await connectThroughEntry(client, (context) =>
    createSearchMcpServer({ catalog, manager, hub, era: context.era, mode: 'proxy' }),
  );
}, 60_000);

afterAll(async () => {
  await close?.();
  hub?.close();
  await manager?.close();
});

const promptNames = async () => (await client.listPrompts()).prompts.map((prompt) => prompt.name);

describe('prompts with exposure.names "original"', () => {
  it('lists own names, server__name for a name two servers share, and gets a prompt by either', async () => {
    expect(await promptNames()).toEqual(['a__greet', 'summarize', 'b__greet']);
    const summary = await client.getPrompt({ name: 'summarize', arguments: { topic: 'names' } });
    expect(summary.messages[0]?.content).toEqual({ type: 'text', text: 'summarize about names' });
    expect((await client.getPrompt({ name: 'b__greet' })).description).toBe('greet from b');
  });

  it('sends prompts/list_changed when a reload changes the naming style', async () => {
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/prompts/list_changed', () => resolve()),
    );
    catalog.reconfigure(configOf('prefixed'));
    await changed;
    expect(await promptNames()).toEqual(['a__greet', 'a__summarize', 'b__greet']);
  });
});
