/**
 * Hot reload through the built `search-mcp` with a real MCP client connected over stdio while the config file
 * changes under it: real backends (server-memory, server-filesystem, server-everything) start, stop and restart,
 * the client is told when its tool list changes, and a broken edit changes nothing. One server process for the
 * whole file; the steps run in order, each starting from the config the step before left.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { descendantsOf, isProcessRunning } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './support/process-tree.js';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const require = createRequire(import.meta.url);
const entryOf = (name: string) => join(dirname(require.resolve(`${name}/package.json`)), 'dist/index.js');
const memoryEntry = entryOf('@modelcontextprotocol/server-memory');
const filesystemEntry = entryOf('@modelcontextprotocol/server-filesystem');
const everythingEntry = entryOf('@modelcontextprotocol/server-everything');
/** Generous: the suite runs on 2 busy cores in CI. */
const deadlineMs = 30_000;
const stepTimeoutMs = 90_000;

interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let directory: string;
let configFile: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const stderrListeners = new Set<() => void>();
const listChangedListeners = new Set<() => void>();

/** Resolves when stderr, from now on, holds `text`; rejects after the deadline with what stderr said. */
function logAfterNow(text: string): Promise<string> {
  const start = stderr.length;
  return new Promise((resolve, reject) => {
    const check = () => {
      const lines = stderr.slice(start).split('\n');
      const line = lines.find((entry) => entry.includes(text));
      if (line === undefined) return;
      cleanup();
      resolve(line);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no "${text}" on stderr within ${deadlineMs} ms; stderr since:\n${stderr.slice(start)}`));
    }, deadlineMs);
    const cleanup = () => {
      clearTimeout(timer);
      stderrListeners.delete(check);
    };
    stderrListeners.add(check);
    check();
  });
}

/** Resolves on the next `notifications/tools/list_changed`; rejects after the deadline. */
function nextListChanged(): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      listChangedListeners.delete(done);
      resolve();
    };
    const timer = setTimeout(() => {
      listChangedListeners.delete(done);
      reject(new Error(`no tools/list_changed within ${deadlineMs} ms; stderr:\n${stderr}`));
    }, deadlineMs);
    listChangedListeners.add(done);
  });
}

function serverEntries(notes: boolean, filesDirectory: string) {
  return {
    memory: {
      command: process.execPath,
      args: [memoryEntry],
      env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
    },
    files: { command: process.execPath, args: [filesystemEntry, filesDirectory] },
    ...(notes ? { notes: { command: process.execPath, args: [everythingEntry] } } : {}),
  };
}

/** The config as a user writes it: `notes:echo` is pinned before `notes` exists. */
function configText(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers, exposure: { pinned: ['notes:echo'] } }, null, 2);
}

/** The pid of the backend whose command line holds every one of `parts` (exactly one must). */
function backendPid(...parts: string[]): number | undefined {
  const found = descendantsOf(transport.pid ?? -1).filter((entry) => parts.every((part) => entry.args.includes(part)));
  if (found.length > 1) throw new Error(`several processes match ${parts.join(' ')}: ${JSON.stringify(found)}`);
  return found[0]?.pid;
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

const textOf = (result: ToolResult) => (result.content ?? []).map((part) => part.text ?? '').join('\n');

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-hot-reload-'));
  for (const name of ['a', 'b']) await mkdir(join(directory, name));
  configFile = join(directory, 'mcp-servers.json');
  await writeFile(configFile, configText(serverEntries(false, join(directory, 'a'))));

  transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--config', configFile],
    cwd: directory,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), SEARCH_MCP_WATCH: '1' },
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of [...stderrListeners]) listener();
  });
  client = new Client({ name: 'hot-reload-test', version: '1' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    for (const listener of [...listChangedListeners]) listener();
  });
  const watching = logAfterNow('watching the config file');
  const settled = logAfterNow('backends settled');
  await client.connect(transport);
  await Promise.all([watching, settled]);
  // The server tells a client of changes to a list it has seen: list once, as clients do.
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
}, stepTimeoutMs);

afterAll(async () => {
  await client?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('search-mcp serve: hot reload while a client is connected', () => {
  it(
    'starts an added server: the client gets list_changed (its pinned tool appears) and finds its tools',
    async () => {
      const changed = nextListChanged();
      const reloaded = logAfterNow('config reloaded:');
      await writeFile(configFile, configText(serverEntries(true, join(directory, 'a'))));
      expect(await reloaded).toContain('config reloaded: added notes; removed none; changed none (2 unchanged)');
      await changed;

      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'tool_discovery',
        'tool_execute',
        'notes__echo',
      ]);
      const discovery = await call('tool_discovery', { query: ['echo a message back'] });
      const results = (discovery.structuredContent?.results ?? []) as Array<{ toolKey: string }>;
      const keys = results.map((hit) => hit.toolKey);
      expect(keys).toContain('notes:echo');
      expect(textOf(await call('tool_execute', { toolKey: 'notes:echo', arguments: { message: 'hot' } }))).toContain(
        'hot',
      );
      expect(backendPid(everythingEntry)).toBeDefined();
    },
    stepTimeoutMs,
  );

  it(
    'restarts a server whose args changed and leaves the untouched one running (same pid)',
    async () => {
      const memoryPid = backendPid(memoryEntry);
      const oldFilesPid = backendPid(filesystemEntry, join(directory, 'a'));
      expect(memoryPid).toBeDefined();
      expect(oldFilesPid).toBeDefined();

      const reloaded = logAfterNow('config reloaded:');
      await writeFile(configFile, configText(serverEntries(true, join(directory, 'b'))));
      expect(await reloaded).toContain('config reloaded: added none; removed none; changed files (2 unchanged)');

      await waitUntil(() => !isProcessRunning(oldFilesPid ?? -1), 'the old files server to end', deadlineMs);
      expect(backendPid(filesystemEntry, join(directory, 'b'))).toBeDefined();
      expect(backendPid(memoryEntry)).toBe(memoryPid);
      const allowed = await call('tool_execute', { toolKey: 'files:list_allowed_directories' });
      expect(textOf(allowed)).toContain(join(directory, 'b'));
      expect(textOf(allowed)).not.toContain(join(directory, 'a'));
    },
    stepTimeoutMs,
  );

  it(
    'stops a removed server: its process ends, the client gets list_changed and its tools are gone',
    async () => {
      const notesPid = backendPid(everythingEntry);
      expect(notesPid).toBeDefined();
      const changed = nextListChanged();
      const reloaded = logAfterNow('config reloaded:');
      await writeFile(configFile, configText(serverEntries(false, join(directory, 'b'))));
      expect(await reloaded).toContain('config reloaded: added none; removed notes; changed none (2 unchanged)');
      await changed;

      await waitUntil(() => !isProcessRunning(notesPid ?? -1), 'the removed server to end', deadlineMs);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
      const gone = await call('tool_execute', { toolKey: 'notes:echo', arguments: { message: 'hot' } });
      expect(gone.isError).toBe(true);
      expect(textOf(gone)).toMatch(/not found/i);
    },
    stepTimeoutMs,
  );

  it(
    'keeps serving the last good config after a broken edit, and says why and where',
    async () => {
      const memoryPid = backendPid(memoryEntry);
      const rejected = logAfterNow('config file change rejected');
      await writeFile(configFile, '{ "mcpServers": { "memory": {\n');
      const line = JSON.parse(await rejected) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 'error', file: configFile });
      expect(line.problems).toEqual([expect.stringMatching(/^invalid JSON at line 2, column 1: /)]);

      const graph = await call('tool_execute', { toolKey: 'memory:read_graph' });
      expect(graph.isError).toBeFalsy();
      expect(backendPid(memoryEntry)).toBe(memoryPid);
    },
    stepTimeoutMs,
  );

  it(
    'applies an editor-style save (a temporary file renamed over the config) and names a server that fails to start',
    async () => {
      const reloaded = logAfterNow('config reloaded:');
      const failed = logAfterNow('server started by the reload failed');
      const temporary = join(directory, '.mcp-servers.json.swp');
      const ghost = { command: join(directory, 'no-such-server') };
      await writeFile(temporary, configText({ ...serverEntries(true, join(directory, 'b')), ghost }));
      await rename(temporary, configFile);
      expect(await reloaded).toContain('config reloaded: added notes, ghost; removed none; changed none (2 unchanged)');
      expect(JSON.parse(await failed)).toMatchObject({ level: 'warn', server: 'ghost', reason: expect.any(String) });
      const result = await call('tool_execute', { toolKey: 'notes:echo', arguments: { message: 'renamed' } });
      expect(textOf(result)).toContain('renamed');
    },
    stepTimeoutMs,
  );
});
