import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseConfig } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime, type SearchMcpRuntime } from './search-mcp-runtime.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const runtimes: SearchMcpRuntime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

function featureRuntime(backendClientCapabilities?: 'first-client') {
  const runtime = createSearchMcpRuntime({
    config: parseConfig({
      mcpServers: {
        a: { command: process.execPath, args: [featureServer, '--name', 'a', '--instructions', 'Notes of a.'] },
      },
      exposure: { mode: 'proxy' },
    }),
    ...(backendClientCapabilities ? { backendClientCapabilities } : {}),
  });
  runtimes.push(runtime);
  return runtime;
}

async function connect(runtime: SearchMcpRuntime, client: Client) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // Long enough for `a` to start on a loaded machine: the default (half a second) would leave it named as starting.
  await runtime.createServer({ instructionsWaitMs: 60_000 }).connect(serverTransport);
  await client.connect(clientTransport);
}

describe('the runtime wires forwarding', () => {
  it("'first-client': backends start when the client initializes and its sampling requests reach it", {
    timeout: 60_000,
  }, async () => {
    const runtime = featureRuntime('first-client');
    const started = runtime.startBackends({ waitForClientMs: 60_000 });
    expect(runtime.startBackends()).toBe(started);
    // Nothing starts before a client says what it can do.
    expect(runtime.manager.status().map((status) => status.state)).toEqual(['stopped']);
    const client = new Client({ name: 'sampler', version: '1' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: 'm',
      role: 'assistant',
      content: { type: 'text', text: 'from the runtime test' },
    }));
    await connect(runtime, client);
    expect((await started).map((status) => status.state)).toEqual(['running']);
    // `initialize` waited for the starting server, so its notes are in the instructions.
    expect(client.getInstructions()).toContain('- a: Notes of a.');
    const result = await client.callTool({ name: 'a__ask-sampling', arguments: { prompt: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'from the runtime test' }]);
    expect(runtime.hub.sessions.clientCapabilities('a')).toEqual({
      sampling: {},
    });
  });

  it('by default backends are told everything Search MCP forwards', () => {
    const runtime = featureRuntime();
    expect(runtime.hub.sessions.clientCapabilities('a')).toEqual({
      sampling: {},
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    });
  });
});
