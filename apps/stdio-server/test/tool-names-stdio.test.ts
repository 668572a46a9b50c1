/**
 * Tool names through the built `search-mcp` over stdio in proxy mode, `exposure.names: "original"` and per-tool
 * overrides, to a 2025 client and a 2026-07-28 client: real backends (server-everything and the fixture server, which
 * share the tool name `echo`), a renamed tool called by its new name, a hidden one refused.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectProtocolEraClient, fixtureServerPath, type ProtocolEraClientKind } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, deadlineMs, everythingEntry } from './forwarding-support.js';

const fixtureServer = fixtureServerPath('stdio-fixture-server.mjs');

let directory: string;
let configPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-tool-names-'));
  configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        kept: {
          command: process.execPath,
          args: [fixtureServer],
          tools: {
            pid: { name: 'process_id', description: 'The process id of the fixture server' },
            crash: { enabled: false },
          },
        },
        everything: { command: process.execPath, args: [everythingEntry] },
      },
      exposure: { mode: 'proxy', names: 'original' },
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe.each<ProtocolEraClientKind>(['sdk1', 'sdk2-2026'])('search-mcp over stdio, original names (%s)', (kind) => {
  it('lists own names and server__name for the shared one, and calls the renamed tool by its new name', async () => {
    const session = await connectProtocolEraClient(
      kind,
      {
        transport: 'stdio',
        command: process.execPath,
        args: [cli, '--config', configPath],
        env: { HOME: directory, SEARCH_MCP_WATCH: '0' },
      },
      { connectTimeoutMs: deadlineMs },
    );
    try {
      // The first listing waits for starting servers only `startupWaitMs`, which a busy machine can outlast; a call by
      // key waits for its server to start (README, "The first call of a session"): both servers are up after these.
      await session.callTool('kept:process_id', {});
      await session.callTool('everything:get-sum', { a: 1, b: 2 });
      const { tools } = await session.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['process_id', 'sleep', 'kept__echo', 'everything__echo']));
      expect(names).not.toContain('echo');
      expect(names).not.toContain('pid');
      expect(names).not.toContain('crash');
      expect(names.filter((name) => name.includes('__')).sort()).toEqual(['everything__echo', 'kept__echo']);
      expect(tools.find((tool) => tool.name === 'process_id')?.description).toBe(
        'The process id of the fixture server',
      );
      expect((await session.callTool('process_id', {})).content[0]?.text).toMatch(/^\d+$/);
      expect((await session.callTool('everything__echo', { message: 'hi' })).content[0]?.text).toContain('hi');
      await expect(session.callTool('kept:crash', {})).rejects.toThrow('Tool is disabled: kept:crash');
    } finally {
      await session.close();
    }
  }, 90_000);
});
