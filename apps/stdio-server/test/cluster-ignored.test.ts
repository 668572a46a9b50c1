/**
 * `cluster` is for `search-mcp-http` replicas (docs/scale-out.md): the built `search-mcp` started by a real MCP client
 * with a config that has it serves as usual and says once, on stderr, that it ignores it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-cluster-ignored-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

it('serves with cluster in the config and warns that the stdio server ignores it', async () => {
  const configFile = join(directory, 'config.json');
  await writeFile(configFile, JSON.stringify({ mcpServers: {}, cluster: { redis: { url: 'redis://127.0.0.1:1/0' } } }));
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--config', configFile],
    cwd: directory,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'cluster-ignored-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    // Nothing connects to that Redis: the tools are listed as from any config.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tool_discovery');
    // Written at start, on another pipe than the answers: awaited, not assumed.
    await vi.waitFor(() => expect(stderr).toContain('config: cluster is ignored by the stdio server'));
    expect(stderr.match(/cluster is ignored/g)).toHaveLength(1);
  } finally {
    await client.close();
  }
});
