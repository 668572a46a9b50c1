import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTable } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, realServerEntry, waitFor } from '../test/test-support.js';
import { McpClientManager } from './index.js';

// Integration with the real npm servers (devDependencies), run with node directly so no network is needed.
describe('real MCP servers', () => {
  let directory: string;
  let manager: McpClientManager;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-real-'));
    await writeFile(join(directory, 'hello.txt'), 'hello from the test\n');
    manager = new McpClientManager(
      {
        mcpServers: {
          everything: { command: process.execPath, args: [realServerEntry('@modelcontextprotocol/server-everything')] },
          filesystem: {
            command: process.execPath,
            args: [realServerEntry('@modelcontextprotocol/server-filesystem'), directory],
          },
          memory: {
            command: process.execPath,
            args: [realServerEntry('@modelcontextprotocol/server-memory')],
            env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
          },
        },
      },
      { shutdownGraceMs: 500 },
    );
    const statuses = await manager.startAll();
    expect(statuses.map((status) => [status.id, status.state])).toEqual([
      ['everything', 'running'],
      ['filesystem', 'running'],
      ['memory', 'running'],
    ]);
  });

  afterAll(async () => {
    await manager?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('lists the tools of all three', async () => {
    const keys = (await manager.listAllTools()).map((tool) => tool.toolKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        'everything:echo',
        'everything:get-sum',
        'filesystem:read_text_file',
        'filesystem:write_file',
        'memory:create_entities',
        'memory:read_graph',
      ]),
    );
    const echo = (await manager.listTools('everything')).find((tool) => tool.toolName === 'echo');
    expect(echo).toMatchObject({
      serverName: 'everything',
      title: 'Echo Tool',
      description: 'Echoes back the input string',
    });
    expect(echo?.inputSchema.required).toEqual(['message']);
  });

  it('calls echo and get-sum', async () => {
    expect((await manager.callTool('everything', 'echo', { message: 'hi' })).content).toEqual([
      { type: 'text', text: 'Echo: hi' },
    ]);
    const sum = await manager.callTool('everything', 'get-sum', { a: 2, b: 40 });
    expect(JSON.stringify(sum.content)).toContain('42');
  });

  it('writes and reads a file through the filesystem server', async () => {
    const path = join(directory, 'written.txt');
    const written = await manager.callTool('filesystem', 'write_file', { path, content: 'written through search-mcp' });
    expect(written.isError).not.toBe(true);
    expect(await readFile(path, 'utf8')).toBe('written through search-mcp');
    const read = await manager.callTool('filesystem', 'read_text_file', { path: join(directory, 'hello.txt') });
    expect(JSON.stringify(read.content)).toContain('hello from the test');
    const outside = await manager.callTool('filesystem', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });

  it('keeps a knowledge graph in the memory server', async () => {
    await manager.callTool('memory', 'create_entities', {
      entities: [{ name: 'Search MCP', entityType: 'project', observations: ['aggregates MCP servers'] }],
    });
    const graph = await manager.callTool('memory', 'read_graph', {});
    expect(JSON.stringify(graph)).toContain('aggregates MCP servers');
  });

  it('receives progress from trigger-long-running-operation', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await manager.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 1, steps: 4 },
      {
        onProgress: (update) =>
          progress.push({ progress: update.progress, ...(update.total !== undefined ? { total: update.total } : {}) }),
      },
    );
    expect(progress).toEqual([1, 2, 3, 4].map((step) => ({ progress: step, total: 4 })));
    expect(JSON.stringify(result.content)).toContain('Long running operation completed');
  });

  it('cancels trigger-long-running-operation', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const call = manager.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 20, steps: 40 },
      {
        signal: controller.signal,
        onProgress: (update) => progress.push(update.progress),
      },
    );
    await waitFor(() => progress.length >= 1, 'the first progress notification');
    controller.abort(new Error('cancelled by the test'));
    await expect(call).rejects.toThrow('cancelled by the test');
    expect((await manager.callTool('everything', 'echo', { message: 'still fine' })).content).toEqual([
      { type: 'text', text: 'Echo: still fine' },
    ]);
  });

  it('speaks 2025-11-25 with each (all three are 2025-era servers)', () => {
    expect(manager.status().map((status) => [status.id, status.protocolVersion, status.protocolEra])).toEqual([
      ['everything', '2025-11-25', 'legacy'],
      ['filesystem', '2025-11-25', 'legacy'],
      ['memory', '2025-11-25', 'legacy'],
    ]);
  });

  it('health-checks all three', async () => {
    const health = await manager.healthCheck();
    expect(health.map((entry) => [entry.id, entry.ok])).toEqual([
      ['everything', true],
      ['filesystem', true],
      ['memory', true],
    ]);
  });
});

describe('an npx-wrapped real server', () => {
  it('leaves no process of its group behind after close', async () => {
    // npx resolves the package from this workspace's node_modules; --offline keeps it from asking the registry.
    const manager = new McpClientManager(
      {
        mcpServers: {
          memory: {
            command: 'npx',
            args: ['--offline', '-y', '@modelcontextprotocol/server-memory'],
            env: { MEMORY_FILE_PATH: join(tmpdir(), `search-mcp-npx-${process.pid}.jsonl`) },
          },
        },
      },
      { shutdownGraceMs: 500 },
    );
    try {
      await manager.startAll();
      const status = manager.status()[0];
      expect(status?.state).toBe('running');
      const groupPids = processGroupMembers(status?.pid ?? -1);
      // npx itself plus the node process running the server (npx may add a shell in between).
      expect(groupPids.length).toBeGreaterThanOrEqual(2);
      await manager.close();
      await waitFor(() => groupPids.every((pid) => !isProcessAlive(pid)), 'every process of the group to end');
    } finally {
      await manager.close();
    }
  });
});

function processGroupMembers(groupId: number): number[] {
  return processTable()
    .filter((row) => row.pgid === groupId)
    .map((row) => row.pid);
}
