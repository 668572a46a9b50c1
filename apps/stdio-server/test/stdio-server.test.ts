import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { descendantsOf, fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runInspector } from './support/inspector-cli.js';
import { writeLocalExampleConfig } from './support/local-example-config.js';
import { stillAlive, waitUntil } from './support/process-tree.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const cli = resolve(here, '../dist/cli.js');
const exampleConfig = join(repoRoot, 'examples/mcp-servers.json');
const slowFixture = fixtureServerPath('stdio-fixture-server.mjs');
const Loose = z.looseObject({});

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: string[];
  transportErrors: Error[];
}

const sessions: Session[] = [];

/** The example servers run with node rather than npx (`writeLocalExampleConfig`), for every test but the first block's. */
let directory: string;
let localExampleConfig: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-e2e-'));
  localExampleConfig = await writeLocalExampleConfig(directory);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A real MCP client that starts the built binary over stdio, as an AI client does. */
async function startSession(args: string[], closeAfterEach = true): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, ...args],
    cwd: repoRoot,
    // The whole environment (the SDK passes only a few variables by default): SEARCH_MCP_PINNING=off of the test
    // config keeps the child away from the pins of whoever runs the tests.
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'e2e-test', version: '1' });
  const session: Session = { client, transport, stderr, transportErrors: [] };
  // Any non-protocol line on stdout surfaces here.
  client.onerror = (error) => session.transportErrors.push(error);
  await client.connect(transport);
  if (closeAfterEach) sessions.push(session);
  return session;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: Parameters<Client['request']>[2] = {},
) {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, Loose, options)) as {
    content?: Array<{ type: string; text?: string }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.client.close().catch(() => {})));
});

describe('search-mcp over stdio, meta mode, example config', () => {
  let session: Session;

  beforeAll(async () => {
    session = await startSession(['--config', exampleConfig], false);
  });

  afterAll(async () => {
    await session?.client.close();
  });

  it('answers initialize with instructions and lists only the meta-tools', async () => {
    expect(session.client.getServerVersion()?.name).toBe('search-mcp');
    expect(session.client.getInstructions()).toMatch(/- everything: The MCP reference server/);
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
  });

  it('finds and runs tools of every example server through discovery', async () => {
    type Hits = { results: Array<{ toolKey: string; inputSchema?: unknown }> };
    let results: Hits['results'] = [];
    // On a loaded machine `npx` may start `everything` after discovery's bounded start-up wait (the answer then says
    // "Still connecting"): search again, as the notice tells a model to, until it is in.
    await waitUntil(async () => {
      const discovery = await call(session.client, 'tool_discovery', { query: ['echo a message back'] });
      results = (discovery.structuredContent as Hits).results;
      return results.some((hit) => hit.toolKey.startsWith('everything:'));
    }, 'everything to be connected and searched');
    expect(results[0]?.toolKey).toBe('everything:echo');
    expect(results[0]?.inputSchema).toBeDefined();
    expect(
      await call(session.client, 'tool_execute', { toolKey: 'everything:echo', arguments: { message: 'e2e' } }),
    ).toEqual({
      content: [{ type: 'text', text: 'Echo: e2e' }],
    });
    const listing = await call(session.client, 'tool_execute', {
      toolKey: 'filesystem:list_directory',
      arguments: { path: join(repoRoot, 'examples/sample-files') },
    });
    expect(listing.content?.[0]?.text).toContain('welcome.md');
    const graph = await call(session.client, 'tool_execute', { toolKey: 'memory:read_graph' });
    expect(graph.isError).not.toBe(true);
  });

  it('accepts tool keys directly in tools/call and answers errors as the contract says', async () => {
    expect((await call(session.client, 'everything__get-sum', { a: 20, b: 22 })).content?.[0]?.text).toContain('42');
    const unknown = (await call(session.client, 'nowhere:tool').catch((error: unknown) => error)) as McpError;
    expect([unknown.code, unknown.message]).toEqual([-32602, 'MCP error -32602: Tool not found: nowhere:tool']);
    const invalid = (await call(session.client, 'everything:get-sum', { a: 'x' }).catch(
      (error: unknown) => error,
    )) as McpError;
    expect(invalid.code).toBe(-32602);
    expect(invalid.message).toContain('arguments.b: is required');
    const blocked = await call(session.client, 'tool_execute', {
      toolKey: 'filesystem:move_file',
      arguments: { source: 'a', destination: 'b' },
    });
    expect(blocked).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Tool is disabled: filesystem:move_file (toolPermissions)' }],
    });
  });

  it('forwards progress from trigger-long-running-operation and cancels it', async () => {
    const progress: number[] = [];
    await call(
      session.client,
      'tool_execute',
      { toolKey: 'everything:trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      {
        onprogress: (update) => progress.push(update.progress),
      },
    );
    // The SDK client drops a last notification it reads in one chunk with the response; search-mcp spaces them out,
    // which a loaded machine can still undo, so the final step may be missing here (the backend hop is exact).
    expect([
      [1, 2, 3],
      [1, 2],
    ]).toContainEqual(progress);

    const controller = new AbortController();
    const seen: number[] = [];
    const running = call(
      session.client,
      'everything:trigger-long-running-operation',
      { duration: 30, steps: 60 },
      {
        signal: controller.signal,
        onprogress: (update) => {
          seen.push(update.progress);
          if (update.progress === 2) controller.abort(new Error('cancelled by the test'));
        },
      },
    );
    await expect(running).rejects.toThrow('cancelled by the test');
    expect((await call(session.client, 'everything:echo', { message: 'after cancel' })).content?.[0]?.text).toBe(
      'Echo: after cancel',
    );
  });

  it('writes nothing but protocol to stdout and logs JSON lines to stderr', () => {
    const progressRace = /^Received a progress notification for an unknown token/;
    expect(session.transportErrors.filter((error) => !progressRace.test(error.message))).toEqual([]);
    const lines = session.stderr
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe('search-mcp over stdio, other modes and settings', () => {
  it('proxy mode lists every tool as server__tool and tells the client when servers connect', async () => {
    const session = await startSession(['--config', localExampleConfig, '--mode', 'proxy']);
    let changed = 0;
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    // As a client does: list, and list again each time the server says the list changed.
    let tools = (await session.client.listTools()).tools;
    let seen = 0;
    while (tools.length < 35) {
      await waitUntil(() => changed > seen, 'notifications/tools/list_changed');
      seen = changed;
      tools = (await session.client.listTools()).tools;
    }
    const names = tools.map((tool) => tool.name);
    // Grouped by server in config order, each server's tools in its own order, not sorted by name: server-filesystem
    // lists its read tools first and write_file before create_directory.
    const configOrder = ['everything', 'filesystem', 'memory', 'web-search'];
    const serverIndexes = names.map((name) => configOrder.indexOf(name.slice(0, name.indexOf('__'))));
    expect(serverIndexes).toEqual([...serverIndexes].sort((a, b) => a - b));
    const filesystemNames = names.filter((name) => name.startsWith('filesystem__'));
    expect(filesystemNames.slice(0, 2)).toEqual(['filesystem__read_file', 'filesystem__read_text_file']);
    expect(filesystemNames.indexOf('filesystem__write_file')).toBeLessThan(
      filesystemNames.indexOf('filesystem__create_directory'),
    );
    expect(names).toEqual(
      expect.arrayContaining(['everything__echo', 'filesystem__read_text_file', 'memory__read_graph']),
    );
    expect(names).not.toContain('filesystem__move_file');
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect((await call(session.client, 'everything__echo', { message: 'proxied' })).content?.[0]?.text).toBe(
      'Echo: proxied',
    );
  });

  // One session for two cases of one config: the pinned tool of a server that connects, beside an entry that cannot
  // start (an unset variable); each search-mcp start costs seconds of CPU on a busy machine.
  it('lists pinned tools next to the meta-tools once their server is connected, serving them when another entry is broken, and says why that one failed', async () => {
    const config = join(directory, 'pinned-and-one-broken.json');
    const everything = JSON.parse(await readFile(localExampleConfig, 'utf8')).mcpServers.everything;
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { github: { command: 'npx', env: { TOKEN: '${SEARCH_MCP_TEST_UNSET_VARIABLE}' } }, everything },
        exposure: { pinned: ['everything:echo'] },
      }),
    );
    const session = await startSession(['--config', config]);
    let changed = 0;
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    if ((await session.client.listTools()).tools.length < 3)
      await waitUntil(() => changed > 0, 'notifications/tools/list_changed for the pinned tool');
    expect((await session.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'tool_discovery',
      'tool_execute',
      'everything__echo',
    ]);
    expect((await call(session.client, 'everything__echo', { message: 'pinned' })).content?.[0]?.text).toBe(
      'Echo: pinned',
    );
    const discovery = await call(session.client, 'tool_discovery', { query: 'echo a message' });
    expect(JSON.stringify(discovery.structuredContent)).toContain('everything:echo');
    const echo = await call(session.client, 'tool_execute', {
      toolKey: 'everything:echo',
      arguments: { message: 'x' },
    });
    expect(echo.content?.[0]?.text).toBe('Echo: x');
    const down = await call(session.client, 'tool_execute', { toolKey: 'github:anything', arguments: {} });
    expect(down.isError).toBe(true);
  });

  it('answers the handshake at once while a backend takes 4 s to start; the first discovery waits for it (docs/first-session.md)', async () => {
    const config = join(directory, 'slow.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { slow: { command: process.execPath, args: [slowFixture, '--startup-delay-ms', '4000'] } },
      }),
    );
    const session = await startSession(['--config', config]);
    // The handshake did not wait for the backend: its instructions name it as still starting (README, "The first
    // answer"), whatever the delay and however loaded the machine.
    expect(session.client.getInstructions()).toContain('Still starting (their own notes are not included): slow.');
    expect((await session.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'tool_discovery',
      'tool_execute',
    ]);
    // No kept list (the tests turn the cache off): the very first discovery waits, within discoveryWaitMs (30 s),
    // for the server still starting, and finds its tools.
    const discovery = await call(session.client, 'tool_discovery', { query: 'echo' });
    const structured = discovery.structuredContent as { results: Array<{ toolKey: string }>; notice?: string };
    expect(structured.results.map((hit) => hit.toolKey)).toContain('slow:echo');
    expect(structured.notice ?? '').not.toContain('Still connecting');
  });

  /**
   * Three fixture backends started with node: what the process checks below need is a tree of backends, not npx (three
   * npx starts took most of 30 s on a busy 2-core machine). An npx-wrapped backend's whole group is checked by the
   * client manager's tests (packages/client-manager, "an npx-wrapped real server").
   */
  async function threeBackends(): Promise<string> {
    const config = join(directory, 'three-backends.json');
    const backend = { command: process.execPath, args: [slowFixture] };
    await writeFile(config, JSON.stringify({ mcpServers: { first: backend, second: backend, third: backend } }));
    return config;
  }

  it('leaves no child process behind when the client hangs up', async () => {
    const session = await startSession(['--config', await threeBackends()]);
    await call(session.client, 'tool_discovery', { query: 'echo' });
    const pid = session.transport.pid ?? -1;
    const children = descendantsOf(pid).map((row) => row.pid);
    expect(children.length).toBeGreaterThanOrEqual(3);
    await session.client.close();
    await waitUntil(() => stillAlive([pid, ...children]).length === 0, 'search-mcp and every backend to exit');
  });

  it('exits cleanly on SIGTERM, taking every backend with it', async () => {
    const child = spawn(process.execPath, [cli, '--config', await threeBackends()], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    await waitUntil(() => descendantsOf(child.pid ?? -1).length >= 3, 'the backends to start');
    const children = descendantsOf(child.pid ?? -1).map((row) => row.pid);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitUntil(() => stillAlive(children).length === 0, 'every backend to exit');
  });

  it('answers malformed JSON-RPC on stdin with errors and keeps serving', async () => {
    const config = join(directory, 'empty.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const child = spawn(process.execPath, [cli, '--config', config], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers: Array<Record<string, unknown>> = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) answers.push(JSON.parse(line) as Record<string, unknown>);
    });
    child.stdin.write('not json at all\n');
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":7}\n');
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    child.stdin.write('{"jsonrpc":"2.0","id":5,"method":"no/such/method"}\n');
    await waitUntil(() => answers.length >= 4, 'four answers');
    const byId = (id: unknown) => answers.find((answer) => answer.id === id);
    expect(byId(null)).toMatchObject({ error: { code: -32700 } });
    expect(byId(3)).toMatchObject({ error: { code: -32600 } });
    expect(byId(4)).toMatchObject({ result: { serverInfo: { name: 'search-mcp' } } });
    expect(byId(5)).toMatchObject({ error: { code: -32601 } });
    const exited = new Promise((done) => child.on('exit', done));
    child.stdin.end();
    await exited;
  });

  it('refuses a config file it cannot parse before starting anything, naming the path', async () => {
    const config = join(directory, 'unparsable.json');
    await writeFile(config, '{ "mcpServers": { oops');
    const result = await promisify(execFile)(process.execPath, [cli, '--config', config]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect((result as { stderr: string }).stderr).toContain(config);
    expect((result as { stderr: string }).stderr).toContain('invalid JSON at line 1');
  });
});

describe('a client no one here wrote: the MCP Inspector CLI', () => {
  // The example's `everything` alone (run with node): the Inspector's two calls need one backend to discover.
  let everythingOnly: string;
  beforeAll(async () => {
    everythingOnly = await writeLocalExampleConfig(directory, ['everything']);
  });
  const run = async (args: string[]) => ({ stdout: await runInspector(everythingOnly, args) });

  it('lists the meta-tools', async () => {
    const { stdout } = await run(['--method', 'tools/list']);
    expect((JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual([
      'tool_discovery',
      'tool_execute',
    ]);
  });

  it('calls tool_discovery', async () => {
    const { stdout } = await run([
      '--method',
      'tools/call',
      '--tool-name',
      'tool_discovery',
      '--tool-arg',
      'query=echo back a message',
    ]);
    const result = JSON.parse(stdout) as {
      structuredContent: { results: Array<{ toolKey: string }>; notice?: string };
    };
    // The Inspector calls once, right after spawning search-mcp. On a loaded machine `npx` may take longer than the
    // bounded start-up wait; then the answer must say so (and the model searches again), never be silently empty.
    const { results, notice } = result.structuredContent;
    if (results.some((hit) => hit.toolKey === 'everything:echo')) expect(results[0]?.toolKey).toBe('everything:echo');
    else expect(notice).toMatch(/^Still connecting: .*everything/);
  });
});
