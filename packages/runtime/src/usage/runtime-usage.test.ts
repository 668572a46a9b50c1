import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolRegistry } from '@search-mcp/catalog';
import { parseConfig } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime } from '../search-mcp-runtime.js';

const directories: string[] = [];

afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

function echoRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ description: 'Host tools' });
  registry.register(
    {
      name: 'echo',
      description: 'Echo a message back',
      parameters: [{ name: 'message', type: 'string', description: 'The text', required: true }],
    },
    ({ message }) => `Echo: ${String(message)}`,
  );
  return registry;
}

async function callEcho(runtime: ReturnType<typeof createSearchMcpRuntime>, times: number): Promise<void> {
  const server = runtime.createServer({ mode: 'proxy' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'usage-test', version: '1' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  for (let index = 0; index < times; index += 1) {
    await client.callTool({ name: 'local__echo', arguments: { message: String(index) } });
  }
  await client.close();
}

describe('runtime.usage', () => {
  it('counts the calls the runtime audits, and keeps them in audit.usageFile across a restart', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-runtime-usage-'));
    directories.push(directory);
    const config = parseConfig({ mcpServers: {}, audit: { file: join(directory, 'audit.jsonl') } });
    const first = createSearchMcpRuntime({ config, registries: [echoRegistry()] });
    expect(first.usage.persisted).toBe(true);
    await first.usage.ready;
    await callEcho(first, 3);
    expect(first.usage.report({ window: '1h' }).tools).toEqual([
      expect.objectContaining({ toolKey: 'local:echo', serverId: 'local', calls: 3, errors: 0 }),
    ]);
    await first.close();
    expect((await stat(config.audit?.usageFile ?? '')).isFile()).toBe(true);

    const second = createSearchMcpRuntime({ config, registries: [echoRegistry()] });
    await second.usage.ready;
    await callEcho(second, 1);
    expect(second.usage.report({ window: '24h' }).totals.calls).toBe(4);
    await second.close();
  });
});
