/**
 * The built `search-mcp-web-search` binary, driven by a real MCP SDK client over stdio, searching through our
 * OpenAI-compatible fake server (`startFakeOpenAiServer` of @search-mcp/test-kit) with the real `openai` SDK inside.
 *
 * Starting the binary is most of what these tests cost (the SDK, `openai` and our packages load in every process), so
 * the tests that run with the default settings share one process, in order, as one MCP client keeps one server for
 * a session; the last of them closes its stdin. Only a setting that differs (no key, a rejected key, a timeout, a
 * wrong setting) starts a process of its own.
 */
import { realpathSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const run = promisify(execFile);
const apiKey = 'sk-proj-E2E-CANARY-7c3b9d1e5f-must-never-be-printed-42';

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: string[];
  transportErrors: Error[];
}

let fake: FakeOpenAiServer;
const sessions: Session[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.cancelledIds.length = 0;
  fake.createdIds.length = 0;
  fake.options = { apiKey };
});

/** A real MCP client that starts the built binary over stdio, as Claude Desktop does; closed after its describe. */
async function startSession(env: Record<string, string> = {}): Promise<Session> {
  const session = await launch(env);
  sessions.push(session);
  return session;
}

async function launch(env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli],
    env: {
      OPENAI_API_KEY: apiKey,
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MAX_RETRIES: '1',
      WEB_SEARCH_POLL_INTERVAL_MS: '10',
      ...env,
    },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'web-search-e2e', version: '1' });
  const session: Session = { client, transport, stderr, transportErrors: [] };
  // A line on stdout that is not protocol would surface here.
  client.onerror = (error) => session.transportErrors.push(error);
  await client.connect(transport);
  return session;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>> & {
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
};

/** `callTool` validates `structuredContent` against the tool's outputSchema (after `listTools`). */
async function search(
  session: Session,
  args: Record<string, unknown>,
  options: Parameters<Client['callTool']>[2] = {},
) {
  return (await session.client.callTool(
    { name: 'chatgpt_o3_search', arguments: args },
    undefined,
    options,
  )) as ToolResult;
}

/** stderr as JSON lines: every line must parse (logs only), and none may hold the key. */
function logLines(session: Session): Array<Record<string, unknown>> {
  const text = session.stderr.join('');
  expect(text).not.toContain(apiKey);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('search-mcp-web-search: the binary', () => {
  // A process per setting that differs, started together (each waits for nothing but its own start) and used by one
  // test each; none calls OpenAI before its test does.
  const wrongKey = `${apiKey}-REVOKED`;
  let withoutKey: Session;
  let withWrongKey: Session;
  let withShortTimeout: Session;
  let withWrongSetting: Session;
  beforeAll(async () => {
    [withoutKey, withWrongKey, withShortTimeout, withWrongSetting] = await Promise.all([
      startSession({ OPENAI_API_KEY: '' }),
      startSession({ OPENAI_API_KEY: wrongKey, LOG_LEVEL: 'debug' }),
      startSession({ WEB_SEARCH_TIMEOUT_MS: '300' }),
      startSession({ REASONING_EFFORT: 'extreme' }),
    ]);
  });
  afterAll(() => Promise.all(sessions.splice(0).map((session) => session.client.close())));

  it('prints its version and usage, and rejects unknown flags with exit code 2', async () => {
    // Three independent processes: started together, they load their modules side by side.
    const [versionRun, helpRun, failed] = await Promise.all([
      run(process.execPath, [cli, '--version']),
      run(process.execPath, [cli, '--help']),
      run(process.execPath, [cli, '--frobnicate']).catch((error: { code: number; stderr: string }) => error),
    ]);
    expect(versionRun.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(helpRun.stdout).toContain('OPENAI_API_KEY');
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--frobnicate'") });
  });

  it('without a key: starts, lists the tool, and a call returns the setup steps as a tool error', async () => {
    const session = withoutKey;
    const { tools } = await session.client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'chatgpt_o3_search',
      inputSchema: { required: ['query'], properties: { limit: { minimum: 1, maximum: 50, default: 10 } } },
      outputSchema: { required: ['results'] },
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
    const result = await search(session, { query: 'anything' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ results: [], error: { code: -32001, kind: 'missing-api-key' } });
    expect(result.content[0]?.text).toContain('OPENAI_API_KEY is not set');
    expect(result.content[0]?.text).toContain('claude_desktop_config.json');
    // A command that works today (the package is not on the registry yet): node and this very server's script.
    expect(result.content[0]?.text).toContain(`"command": "node", "args": [${JSON.stringify(realpathSync(cli))}]`);
    expect(result.content[0]?.text).not.toContain('npx');
    expect(fake.requests).toHaveLength(0);
    expect(
      logLines(session).some((line) => line.level === 'warn' && String(line.msg).includes('OPENAI_API_KEY is not set')),
    ).toBe(true);
  });

  it('a rejected key is -32001, and the key appears nowhere (result, stderr) even when the server quotes it', async () => {
    const session = withWrongKey;
    const result = await search(session, { query: 'x' });
    expect(result.structuredContent).toMatchObject({ error: { code: -32001, kind: 'authentication', status: 401 } });
    expect(JSON.stringify(result)).not.toContain('REVOKED');
    expect(session.stderr.join('')).not.toContain('REVOKED');
    logLines(session);
  });

  it('a search past WEB_SEARCH_TIMEOUT_MS is -32002 timeout, cancelled at OpenAI', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const session = withShortTimeout;
    const result = await search(session, { query: 'slow' });
    expect(result.structuredContent).toMatchObject({ error: { code: -32002, kind: 'timeout' } });
    await fake.waitFor((request) => request.route === 'cancel-response');
  });

  it('a wrong setting still starts, and every call names it (-32603)', async () => {
    const session = withWrongSetting;
    const result = await search(session, { query: 'x' });
    expect(result.structuredContent).toMatchObject({ error: { code: -32603, kind: 'invalid-setting' } });
    expect(result.content[0]?.text).toContain('REASONING_EFFORT must be one of');
    expect(logLines(session).some((line) => String(line.msg).includes('REASONING_EFFORT'))).toBe(true);
  });
});

describe('search-mcp-web-search: one process with the default settings, used in order', () => {
  let session: Session;
  beforeAll(async () => {
    session = await launch();
    // `callTool` checks structuredContent against the outputSchema that `listTools` gave it.
    await session.client.listTools();
  });
  afterAll(() => session.client.close());

  it('searches, sends progress while it polls, and returns results that match the output schema', async () => {
    fake.options = {
      apiKey,
      webSearch: { statuses: ['queued', 'in_progress', 'in_progress', 'in_progress', 'completed'] },
    };
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await search(
      session,
      { query: 'node lts', limit: 5 },
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      query: 'node lts',
      model: 'o3-2025-04-16',
      results: [
        {
          title: 'Node.js 22.12.0 (LTS)',
          url: 'https://nodejs.org/en/blog/release/v22.12.0',
          publishedDate: '2024-12-03',
        },
        { url: 'https://github.com/nodejs/release' },
      ],
    });
    expect(result.content[0]?.text).toMatch(/^2 web results for "node lts":\n\n1\. Node\.js 22\.12\.0 \(LTS\)/);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]?.message).toMatch(/^OpenAI web search queued/);
    expect(progress.map((update) => update.progress)).toEqual(
      [...progress.map((update) => update.progress)].sort((a, b) => a - b),
    );
    const lines = logLines(session);
    expect(lines.some((line) => line.msg === 'web search finished')).toBe(true);
    expect(session.transportErrors).toEqual([]);
  });

  it('cancels the OpenAI response when the MCP request is cancelled, and keeps serving', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const controller = new AbortController();
    const running = search(
      session,
      { query: 'never finishes' },
      { signal: controller.signal, onprogress: () => controller.abort(new Error('cancelled by the test')) },
    );
    await expect(running).rejects.toThrow('cancelled by the test');
    const cancel = await fake.waitFor((request) => request.route === 'cancel-response');
    expect(cancel.responseId).toBe(fake.createdIds.at(-1));

    fake.options = { apiKey };
    expect((await search(session, { query: 'after the cancel' })).isError).toBeFalsy();
  });

  it('answers invalid arguments with JSON-RPC -32602, and an empty query with a tool error', async () => {
    for (const args of [
      {},
      { query: 'x', limit: 0 },
      { query: 'x', limit: 51 },
      { query: 'x', timeframe: 'yesterday' },
    ]) {
      const error = await search(session, args).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
    }
    const unknown = await session.client
      .callTool({ name: 'other_tool', arguments: {} })
      .catch((caught: unknown) => caught);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('Tool not found: other_tool') });

    const empty = await search(session, { query: '  ' });
    expect(empty.structuredContent).toMatchObject({ error: { code: -32602, kind: 'empty-query' } });
    expect(fake.requests).toHaveLength(0);
  });

  it('a rate limit it gave up on is -32003 with the Retry-After', async () => {
    fake.failNext('create-response', { status: 429, headers: { 'retry-after': '90' } });
    const result = await search(session, { query: 'x' });
    expect(result.structuredContent).toMatchObject({
      error: { code: -32003, kind: 'rate-limit', retryAfterSeconds: 90, status: 429 },
    });
    expect(result.content[0]?.text).toContain('asked to wait 90 s');
  });

  it('cancels the searches in flight when the client goes away (stdin closes), then exits', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress'] } };
    const running = search(session, { query: 'left behind' }).catch((error: unknown) => error);
    await fake.waitFor((request) => request.route === 'retrieve-response');
    const pid = session.transport.pid as number;
    await session.transport.close();
    await fake.waitFor((request) => request.route === 'cancel-response');
    await running;
    expect(() => process.kill(pid, 0)).toThrow();
    // It left on its own, for the right reason (not by the SIGTERM the SDK sends after 2 s).
    expect(logLines(session)).toContainEqual(expect.objectContaining({ msg: 'shutting down', reason: 'stdin closed' }));
  });
});
