/**
 * Tool names through the built `search-mcp-http` in proxy mode with `exposure.names: "original"` and per-tool
 * overrides, against real servers (server-everything and the fixture server, which share the tool name `echo`):
 * lists, direct calls, REST, and a hot reload that renames a tool without restarting its server.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import {
  eventually,
  everythingEntry,
  fixtureServer,
  mcpClient,
  request,
  temporaryDirectory,
} from './http-test-support.js';

/** Generous: the suite runs on 2 busy cores in CI. */
const stepTimeoutMs = 90_000;

let directory: { path: string; remove: () => Promise<void> };
let configFile: string;
let app: CliProcess;
let client: Client;

function configText(pidName: string, names: 'prefixed' | 'original' = 'original'): string {
  return JSON.stringify({
    mcpServers: {
      kept: {
        command: process.execPath,
        args: [fixtureServer],
        tools: {
          pid: { name: pidName, description: 'The process id of the fixture server' },
          crash: { enabled: false },
        },
      },
      everything: { command: process.execPath, args: [everythingEntry] },
    },
    exposure: { mode: 'proxy', names },
    auth: { allowAnonymous: true },
  });
}

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

async function textOf(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text?: string }> };
  return result.content[0]?.text ?? '';
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(configFile, configText('process_id'));
  app = await startCli(['--config', configFile, '--port', '0'], { ...process.env, SEARCH_MCP_WATCH: '1' });
  await app.waitForStderr('watching the config file');
  // Both servers up before the first listing: it waits for them only `startupWaitMs`, which a busy machine outlasts.
  await eventually(async () => {
    const { body } = await request(app.url, '/v1/servers', { token: null });
    const servers = (body as { servers?: Array<{ state: string }> }).servers ?? [];
    return servers.length === 2 && servers.every((server) => server.state === 'running') ? true : undefined;
  }, stepTimeoutMs - 10_000);
  ({ client } = await mcpClient(app.url, {}));
}, stepTimeoutMs);

afterAll(async () => {
  await client?.close().catch(() => {});
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await directory?.remove();
});

describe('search-mcp-http: original names and overrides in proxy mode', () => {
  it(
    'lists own names, server__name for the shared one, the renamed tool by its new name, not the hidden one',
    async () => {
      const tools = (await client.listTools()).tools;
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('kept__echo');
      expect(names).toContain('everything__echo');
      expect(names).not.toContain('echo');
      expect(names).toContain('process_id');
      expect(names).toContain('sleep');
      expect(names).not.toContain('pid');
      expect(names).not.toContain('crash');
      expect(names).not.toContain('kept__crash');
      expect(tools.find((tool) => tool.name === 'process_id')?.description).toBe(
        'The process id of the fixture server',
      );
      // Only the shared name is prefixed.
      expect(names.filter((name) => name.includes('__')).sort()).toEqual(['everything__echo', 'kept__echo']);
    },
    stepTimeoutMs,
  );

  it(
    'calls by listed name and by key; the backend gets its own name',
    async () => {
      const pid = await textOf('process_id');
      expect(pid).toMatch(/^\d+$/);
      expect(await textOf('kept:process_id')).toBe(pid);
      expect(await textOf('everything__echo', { message: 'hi' })).toContain('hi');
      await expect(client.callTool({ name: 'kept:crash', arguments: {} })).rejects.toThrow(
        'Tool is disabled: kept:crash (tools.crash.enabled is false in the config)',
      );
    },
    stepTimeoutMs,
  );

  it(
    'shows the renamed tool in REST under its new key, with the backend name beside it',
    async () => {
      const detail = await request(app.url, '/v1/tools/kept:process_id', { token: null });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        toolKey: 'kept:process_id',
        name: 'process_id',
        originalName: 'pid',
        description: 'The process id of the fixture server',
      });
      const call = await request(app.url, '/v1/tools/call', { token: null, body: { name: 'kept:process_id' } });
      expect(call.status).toBe(200);
      expect(JSON.stringify(call.body)).toMatch(/\d+/);
      expect((await request(app.url, '/v1/tools/kept:pid', { token: null })).status).toBe(404);
    },
    stepTimeoutMs,
  );

  it(
    'takes a new name from a reload, tells the client, and keeps the server running',
    async () => {
      const pidBefore = await textOf('process_id');
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
      );
      await writeFile(configFile, configText('server_pid'));
      await changed;
      const names = await toolNames();
      expect(names).toContain('server_pid');
      expect(names).not.toContain('process_id');
      expect(await textOf('server_pid')).toBe(pidBefore);
    },
    stepTimeoutMs,
  );

  it(
    'takes exposure.names from a reload: back to server__name for every tool',
    async () => {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
      );
      await writeFile(configFile, configText('server_pid', 'prefixed'));
      await changed;
      const names = await toolNames();
      expect(names).toContain('kept__server_pid');
      expect(names).toContain('everything__echo');
      expect(names.every((name) => name.startsWith('kept__') || name.startsWith('everything__'))).toBe(true);
      expect(await textOf('kept__server_pid')).toMatch(/^\d+$/);
    },
    stepTimeoutMs,
  );
});
