/**
 * SEP-2243 through the built `search-mcp-http` (proxy mode, a 2026-07-28 backend over HTTP): a 2026-07-28 client's
 * `tools/call` of a listed tool with `x-mcp-header` arguments must carry `Mcp-Param-*` headers that agree with the
 * body. A call whose headers are missing, disagree, or carry broken Base64 is refused with HTTP 400 and `-32020`
 * naming the header, and never reaches the backend; agreeing calls run, and the backend gets the headers too.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { temporaryDirectory } from './http-test-support.js';

const rawServer = fixtureServerPath('raw-http-server.mjs');
const revision = '2026-07-28';
const stepTimeoutMs = 60_000;
let backend: ChildProcessWithoutNullStreams;
let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;

/** The raw fixture as a 2026-07-28 backend with its `x-mcp-header` tools; resolves with its URL once it listens. */
async function startBackend(): Promise<string> {
  backend = spawn(process.execPath, [rawServer, '--modern', '--header-tools'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  backend.stdout.setEncoding('utf8');
  for await (const chunk of backend.stdout) {
    out += chunk;
    const url = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
    if (url) return url;
  }
  throw new Error(`the backend exited before listening: ${out}`);
}

beforeAll(async () => {
  const url = await startBackend();
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: { raw: { type: 'http', url } },
      exposure: { mode: 'proxy', names: 'original' },
      auth: { allowAnonymous: true },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--no-watch']);
  await app.waitForStderr('"connected"');
}, stepTimeoutMs);

afterAll(async () => {
  app?.child.kill('SIGTERM');
  await app?.exited;
  if (backend && backend.exitCode === null) {
    const exited = once(backend, 'exit');
    backend.stdin.end();
    await exited;
  }
  await directory?.remove();
});

interface Answer {
  status: number;
  message: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

let nextId = 1;

/** One 2026-07-28 request as a client sends it (envelope and standard headers), plus `headers`. */
async function send(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': revision,
        'io.modelcontextprotocol/clientInfo': { name: 'param-headers-test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  // node:http, not fetch: fetch trims header values, and a client's surrounding whitespace must reach the server.
  const { status, text } = await post(`${app.url}/mcp`, JSON.stringify(body), {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': revision,
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    ...headers,
  });
  // A JSON answer, or an SSE stream whose last event is the answer.
  const last = text.trim().startsWith('{')
    ? text
    : (text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .at(-1)
        ?.slice('data:'.length) ?? 'null');
  return { status, message: JSON.parse(last) } as Answer;
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const request = httpRequest(url, {
    method: 'POST',
    headers: { ...headers, 'content-length': Buffer.byteLength(body) },
  });
  request.end(body);
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, text };
}

const call = (args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  send('tools/call', { name: 'mirrored', arguments: args }, headers);

/** The `Mcp-Param-*` headers the backend received with the call, as the `mirrored` tool reports them. */
function mirroredBy(answer: Answer): Record<string, string> {
  expect(answer.status).toBe(200);
  expect(answer.message.error).toBeUndefined();
  const content = answer.message.result?.content as Array<{ text: string }>;
  return JSON.parse(content[0]?.text ?? '{}') as Record<string, string>;
}

/** How many `tools/call` requests reached the backend (its `stats` tool counts itself too). */
async function backendCalls(): Promise<number> {
  const answer = await send('tools/call', { name: 'stats', arguments: {} });
  const content = answer.message.result?.content as Array<{ text: string }>;
  return (JSON.parse(content[0]?.text ?? '{}') as Record<string, number>)['tools/call'] ?? 0;
}

function expectRefused(answer: Answer, header: string, says: string): void {
  expect(answer.status).toBe(400);
  expect(answer.message.error?.code).toBe(-32020);
  expect(answer.message.error?.message).toContain(header);
  expect(answer.message.error?.message).toContain(says);
  expect(answer.message.error?.data).toEqual({ mismatch: { header, body: expect.stringContaining(header) } });
}

describe('Mcp-Param-* headers of a 2026-07-28 tools/call (SEP-2243)', () => {
  it('lists the tool with its x-mcp-header arguments', { timeout: stepTimeoutMs }, async () => {
    const listed = await send('tools/list', {});
    const tools = listed.message.result?.tools as Array<{ name: string; inputSchema: Record<string, unknown> }>;
    const mirrored = tools.find((tool) => tool.name === 'mirrored');
    expect(mirrored?.inputSchema.properties).toMatchObject({ region: { 'x-mcp-header': 'Region' } });
  });

  it('runs a call whose headers agree, plain or Base64, and the backend gets them too', async () => {
    const note = ' Grüße ';
    const answer = await call(
      { region: 'eu-west', priority: 3, note, query: 'not mirrored' },
      {
        'Mcp-Param-Region': 'eu-west',
        'Mcp-Param-Priority': '3.0',
        'Mcp-Param-Note': `=?base64?${Buffer.from(note).toString('base64')}?=`,
      },
    );
    expect(mirroredBy(answer)).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-priority': '3',
      'mcp-param-note': `=?base64?${Buffer.from(note).toString('base64')}?=`,
    });
  });

  it('refuses a call whose header is missing, and the backend never sees it', async () => {
    const before = await backendCalls();
    expectRefused(
      await call({ region: 'eu-west' }),
      'Mcp-Param-Region',
      'the body carries arguments.region="eu-west" but the Mcp-Param-Region header is absent',
    );
    // Only the next `stats` call arrived in between.
    expect(await backendCalls()).toBe(before + 1);
  });

  it('refuses a header that disagrees with the body', async () => {
    expectRefused(
      await call({ region: 'eu-west', priority: 3 }, { 'Mcp-Param-Region': 'eu-west', 'Mcp-Param-Priority': '4' }),
      'Mcp-Param-Priority',
      'says "4"',
    );
    expectRefused(await call({ region: 'eu-west' }, { 'mcp-param-region': 'us-east' }), 'Mcp-Param-Region', 'us-east');
  });

  it('refuses Base64 without its padding or with characters outside the alphabet', async () => {
    for (const value of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=']) {
      expectRefused(await call({ region: 'Hello' }, { 'Mcp-Param-Region': value }), 'Mcp-Param-Region', 'Base64');
    }
  });

  it('takes a value missing either Base64 marker literally', async () => {
    for (const value of ['SGVsbG8=', '=?base64?SGVsbG8=']) {
      expect(mirroredBy(await call({ region: value }, { 'Mcp-Param-Region': value }))).toMatchObject({
        'mcp-param-region': value,
      });
    }
  });

  it('expects no header for an absent or null argument', async () => {
    expect(mirroredBy(await call({ query: 'nothing mirrored' }))).toEqual({});
    // A null region is no header matter: the call goes on to the arguments check, which refuses null for a string.
    const nullRegion = await call({ region: null }, { 'Mcp-Param-Region': 'ignored' });
    expect(nullRegion.status).toBe(200);
    expect(nullRegion.message.error).toMatchObject({ code: -32602, message: expect.stringContaining('region') });
  });

  it('reads header values without their surrounding whitespace, Mcp-Name included', async () => {
    const answer = await send(
      'tools/call',
      { name: 'mirrored', arguments: { region: 'eu-west' } },
      { 'mcp-name': '  mirrored  ', 'Mcp-Param-Region': '  eu-west\t' },
    );
    expect(mirroredBy(answer)).toEqual({ 'mcp-param-region': 'eu-west' });
  });

  it('checks nothing for a tool without x-mcp-header arguments', async () => {
    const answer = await send('tools/call', { name: 'echo', arguments: { message: 'hi' } });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.message.result)).toContain('Echo: hi');
  });
});
