/**
 * Hot reload through the built `search-mcp-http` with two MCP sessions open while the config file changes: a server
 * added to the file starts and every session is told its tool list changed; removed, its process ends and every
 * session is told again; the untouched server keeps its process. One app process for the whole file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { descendantsOf } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { everythingEntry, fixtureServer, mcpClient, temporaryDirectory } from './http-test-support.js';

/** Generous: the suite runs on 2 busy cores in CI. */
const deadlineMs = 30_000;
const stepTimeoutMs = 90_000;

interface Session {
  client: Client;
  /** Resolves on this session's next `notifications/tools/list_changed`. */
  nextListChanged(): Promise<void>;
}

let directory: { path: string; remove: () => Promise<void> };
let configFile: string;
let app: CliProcess;
const sessions: Session[] = [];

function configText(withEverything: boolean): string {
  return JSON.stringify({
    mcpServers: {
      kept: { command: process.execPath, args: [fixtureServer] },
      ...(withEverything ? { everything: { command: process.execPath, args: [everythingEntry] } } : {}),
    },
    auth: { allowAnonymous: true },
  });
}

function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} not seen within ${deadlineMs} ms:\n${app.stderr()}`)),
      deadlineMs,
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

async function openSession(): Promise<Session> {
  const { client } = await mcpClient(app.url, {});
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    for (const waiter of waiters.splice(0)) waiter();
  });
  return {
    client,
    nextListChanged: () =>
      withDeadline(new Promise<void>((resolve) => waiters.push(resolve)), 'notifications/tools/list_changed'),
  };
}

/** The app's backend processes whose command line holds `part`. */
function backendPids(part: string): number[] {
  return descendantsOf(app.child.pid ?? -1)
    .filter((row) => row.args.includes(part))
    .map((row) => row.pid);
}

async function toolNames(session: Session): Promise<string[]> {
  return (await session.client.listTools()).tools.map((tool) => tool.name);
}

async function keptPid(session: Session): Promise<string> {
  const result = (await session.client.callTool({ name: 'kept__pid', arguments: {} })) as {
    content: Array<{ text?: string }>;
  };
  return result.content[0]?.text ?? '';
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(configFile, configText(false));
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'proxy'], {
    ...process.env,
    SEARCH_MCP_WATCH: '1',
  });
  await withDeadline(app.waitForStderr('watching the config file'), 'the watch starting');
  for (let index = 0; index < 2; index += 1) sessions.push(await openSession());
  // Each session lists once (a client is told of changes to a list it has seen); proxy mode waits for `kept`.
  for (const session of sessions) expect(await toolNames(session)).toContain('kept__pid');
}, stepTimeoutMs);

afterAll(async () => {
  for (const session of sessions) await session.client.close().catch(() => {});
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await directory?.remove();
});

describe('search-mcp-http: hot reload with sessions open', () => {
  it(
    'starts an added server and tells every session; the untouched server keeps its process',
    async () => {
      const pidBefore = await keptPid(sessions[0] as Session);
      const changed = sessions.map((session) => session.nextListChanged());
      await writeFile(configFile, configText(true));
      await withDeadline(app.waitForStderr('config reloaded: added everything;'), 'the reload line');
      await Promise.all(changed);

      for (const session of sessions) expect(await toolNames(session)).toContain('everything__echo');
      const echo = (await sessions[1]?.client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } })) as {
        content: Array<{ text?: string }>;
      };
      expect(echo.content[0]?.text).toContain('hi');
      expect(backendPids(everythingEntry)).toHaveLength(1);
      expect(await keptPid(sessions[1] as Session)).toBe(pidBefore);
    },
    stepTimeoutMs,
  );

  it(
    'stops a removed server (its process ends) and tells every session its tools are gone',
    async () => {
      const [everythingPid] = backendPids(everythingEntry);
      expect(everythingPid).toBeDefined();
      const changed = sessions.map((session) => session.nextListChanged());
      await writeFile(configFile, configText(false));
      await withDeadline(app.waitForStderr('removed everything;'), 'the reload line');
      await Promise.all(changed);

      for (const session of sessions) {
        const names = await toolNames(session);
        expect(names).toContain('kept__pid');
        expect(names.some((name) => name.startsWith('everything__'))).toBe(false);
      }
      expect(backendPids(everythingEntry)).toEqual([]);
    },
    stepTimeoutMs,
  );
});
