import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolRegistry } from '@search-mcp/catalog';
import { parseConfig } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime } from './search-mcp-runtime.js';

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

async function connectClient(runtime: ReturnType<typeof createSearchMcpRuntime>, mode?: 'meta' | 'proxy') {
  const server = runtime.createServer(mode ? { mode } : {});
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'runtime-test', version: '1' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return client;
}

describe('createSearchMcpRuntime', () => {
  it('serves every session from one catalog and writes one audit log, closed once', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-runtime-'));
    directories.push(directory);
    const auditFile = join(directory, 'audit.jsonl');
    const config = parseConfig({ mcpServers: {}, audit: { file: auditFile } });
    const runtime = createSearchMcpRuntime({
      config,
      registries: [echoRegistry()],
      serverInfo: { name: 'search-mcp', version: '9.9.9' },
    });
    expect(runtime.mode).toBe('meta');
    const meta = await connectClient(runtime);
    const proxy = await connectClient(runtime, 'proxy');
    expect(meta.getServerVersion()).toEqual({ name: 'search-mcp', version: '9.9.9' });
    expect((await meta.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
    expect((await proxy.listTools()).tools.map((tool) => tool.name)).toEqual(['local__echo']);
    expect(await proxy.callTool({ name: 'local__echo', arguments: { message: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
    await meta.close();
    await proxy.close();
    const closing = runtime.close();
    expect(runtime.close()).toBe(closing);
    await closing;
    const records = (await readFile(auditFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; toolKey?: string; outcome: string });
    expect(records.map(({ event, toolKey, outcome }) => [event, toolKey, outcome])).toEqual([
      ['tools/call', 'local:echo', 'ok'],
    ]);
  });

  it('keeps usage statistics in audit.usageFile unless persistUsage is false (one-shot commands)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'runtime-usage-'));
    directories.push(directory);
    const config = parseConfig({ mcpServers: {}, audit: { file: join(directory, 'audit.jsonl') } });
    const oneShot = createSearchMcpRuntime({ config, registries: [echoRegistry()], persistUsage: false });
    const client = await connectClient(oneShot, 'proxy');
    await client.callTool({ name: 'local:echo', arguments: { message: 'hi' } });
    await oneShot.close();
    expect(oneShot.usage.persisted).toBe(false);
    await expect(readFile(join(directory, 'audit.jsonl.usage.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    // The next long-running start reads the one-shot command's audit line and keeps the figures.
    const serving = createSearchMcpRuntime({ config, registries: [echoRegistry()] });
    await serving.usage.ready;
    expect(serving.usage.persisted).toBe(true);
    expect(serving.usage.report({ window: '1h' }).totals.calls).toBe(1);
    await serving.close();
    await expect(readFile(join(directory, 'audit.jsonl.usage.json'), 'utf8')).resolves.toContain('local');
  });

  it('takes the mode from the options over the config', () => {
    const runtime = createSearchMcpRuntime({
      config: parseConfig({ mcpServers: {}, exposure: { mode: 'meta' } }),
      mode: 'proxy',
    });
    expect(runtime.mode).toBe('proxy');
    // No audit file: the feed still hears records (for the console and metrics), nothing is written. The runtime's
    // usage statistics listen from the start.
    expect(runtime.audit.listenerCount).toBe(1);
    expect(runtime.usage.persisted).toBe(false);
  });
});
