/**
 * `search-mcp-http --no-watch` through the built app: two apps on one config file in proxy mode, one watching it
 * (the default) and one started with `--no-watch`. An edit adds a server: the watching app applies it (the marker
 * that the edit has been seen and could have been applied) and the other still lists the tools it started with,
 * having said at start that hot reload is off.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { descendantsOf } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { fixtureServer, mcpClient, temporaryDirectory } from './http-test-support.js';

/** Generous: the suite runs on 2 busy cores in CI. */
const deadlineMs = 30_000;
const stepTimeoutMs = 90_000;

let directory: { path: string; remove: () => Promise<void> };
let configFile: string;
const apps: CliProcess[] = [];
const clients: Client[] = [];

function configText(servers: string[]): string {
  // `--label` means nothing to the fixture: it lets a test tell the servers' processes apart.
  const entry = (name: string) => [name, { command: process.execPath, args: [fixtureServer, '--label', name] }];
  return JSON.stringify({ mcpServers: Object.fromEntries(servers.map(entry)), auth: { allowAnonymous: true } });
}

function withDeadline<T>(promise: Promise<T>, what: string, app: CliProcess): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} not seen within ${deadlineMs} ms:\n${app.stderr()}`)),
      deadlineMs,
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** The tool names of the fixture server mounted as `id`, in proxy mode. */
async function toolsOf(client: Client, id: string): Promise<string[]> {
  return (await toolNames(client)).filter((name) => name.startsWith(`${id}__`));
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(configFile, configText(['kept']));
  // SEARCH_MCP_WATCH is set for both, so only the flag can turn the second one's watching off.
  const environment = { ...process.env, SEARCH_MCP_WATCH: '1' };
  const common = ['--config', configFile, '--port', '0', '--mode', 'proxy'];
  apps.push(...(await Promise.all([startCli(common, environment), startCli([...common, '--no-watch'], environment)])));
  const [watching, notWatching] = apps as [CliProcess, CliProcess];
  await withDeadline(watching.waitForStderr('watching the config file'), 'the watch starting', watching);
  await withDeadline(notWatching.waitForStderr('hot reload is off'), 'the hot reload off line', notWatching);
  for (const app of apps) clients.push((await mcpClient(app.url, {})).client);
  // Proxy mode answers tools/list once `kept` is connected.
  for (const client of clients) expect(await toolsOf(client, 'kept')).not.toEqual([]);
}, stepTimeoutMs);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  for (const app of apps) {
    if (app.child.exitCode !== null) continue;
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await directory?.remove();
});

describe('search-mcp-http --no-watch', () => {
  it('says at start that hot reload is off and why', () => {
    const notWatching = apps[1] as CliProcess;
    const line = notWatching
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('hot reload is off'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 'info', file: configFile, because: '--no-watch' });
    expect(notWatching.stderr()).not.toContain('watching the config file');
  });

  it(
    'does not apply an edit that the watching app applies',
    async () => {
      const [watching, notWatching] = apps as [CliProcess, CliProcess];
      const [watchingClient, notWatchingClient] = clients as [Client, Client];
      const before = await toolNames(notWatchingClient);
      await writeFile(configFile, configText(['kept', 'added']));
      await withDeadline(watching.waitForStderr('config reloaded: added added;'), 'the reload line', watching);
      expect(await toolsOf(watchingClient, 'added')).toEqual(
        (await toolsOf(watchingClient, 'kept')).map((name) => name.replace(/^kept__/, 'added__')),
      );

      expect(await toolNames(notWatchingClient)).toEqual(before);
      expect(notWatching.stderr()).not.toContain('config reloaded');
      const commands = descendantsOf(notWatching.child.pid ?? -1).map((row) => row.args);
      expect(commands.some((command) => command.includes('--label kept'))).toBe(true);
      expect(commands.some((command) => command.includes('--label added'))).toBe(false);
    },
    stepTimeoutMs,
  );
});
