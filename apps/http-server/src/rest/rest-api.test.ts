import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  mcpClient,
  readJsonLines,
  request,
  type Running,
  startApp,
  temporaryDirectory,
  mainToken,
} from '../../test/http-test-support.js';

let server: Running;
let directory: { path: string; remove: () => Promise<void> };
let auditFile: string;

beforeAll(async () => {
  directory = await temporaryDirectory();
  auditFile = join(directory.path, 'audit.jsonl');
  server = await startApp({ auditFile, app: { bodyLimitBytes: 64 * 1024 } });
});

afterAll(async () => {
  await server.close();
  await directory.remove();
});

describe('health and redirects', () => {
  it('answers GET / without a token and without server names', async () => {
    const response = await request(server.url, '/', { token: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', version: 'test' });
    expect(Object.keys(response.body ?? {}).sort()).toEqual([
      'mcp',
      'message',
      'status',
      'timestamp',
      'uptime',
      'version',
    ]);
    // Counts per protocol era, nothing else: 2025 sessions, 2026 requests, listen streams, and the calls waiting for a
    // 2026 client's input (the runtime's pending-input registry).
    expect(response.body?.mcp).toEqual({ sessions: 0, modernRequests: 0, listenStreams: 0, parkedCalls: 0 });
    expect(JSON.stringify(response.body)).not.toMatch(/everything|fixture/);
  });

  it('redirects the unversioned paths with 308', async () => {
    const list = await request(server.url, '/tools?limit=2');
    expect([list.status, list.headers.get('location')]).toEqual([308, '/v1/tools?limit=2']);
    const call = await request(server.url, '/tools/call', { body: { name: 'everything:echo' } });
    expect([call.status, call.headers.get('location')]).toEqual([308, '/v1/tools/call']);
  });
});

describe('REST v1', () => {
  it('lists visible tools with filters and pagination', async () => {
    // How many tools server-everything offers depends on the client capabilities it is told (sampling, roots, …).
    const everything = await request(server.url, '/v1/tools?server=everything&limit=100');
    const everythingTools = (everything.body?.tools ?? []) as unknown[];
    const total = everythingTools.length;
    expect(total).toBeGreaterThan(10);
    const page = await request(server.url, '/v1/tools?server=everything&limit=5&page=2');
    expect(page.status).toBe(200);
    expect(page.body?.tools).toHaveLength(5);
    expect(page.body?.tools[0]).toMatchObject({ serverName: 'everything', enabled: true });
    expect(page.body?.tools[0]).toEqual(everythingTools[5]);
    expect(page.body?.pagination).toEqual({ page: 2, limit: 5, total, totalPages: Math.ceil(total / 5) });
    const all = await request(server.url, '/v1/tools?limit=100');
    const keys = ((all.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey);
    expect(keys).not.toContain('everything:get-env');
    expect(keys).not.toContain('alpha:alpha-report');
    const tooMany = await request(server.url, '/v1/tools?limit=500');
    expect([tooMany.status, tooMany.body?.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(tooMany.body?.error).toMatch(/query\.limit/);
    expect((await request(server.url, '/v1/tools?enabled=false')).body?.tools).toEqual([]);
  });

  it('shows one tool with its schema, 404 when it is not visible', async () => {
    const echo = await request(server.url, '/v1/tools/everything:echo');
    expect(echo.status).toBe(200);
    expect(echo.body).toMatchObject({
      toolKey: 'everything:echo',
      name: 'echo',
      inputSchema: { required: ['message'] },
    });
    const hidden = await request(server.url, '/v1/tools/alpha:alpha-report');
    expect([hidden.status, hidden.body?.code]).toEqual([404, 'TOOL_NOT_FOUND']);
    expect(
      (await request(server.url, '/v1/tools/alpha:alpha-report', { headers: { 'x-project-id': 'alpha' } })).status,
    ).toBe(200);
  });

  it('calls a tool: 200 with the result', async () => {
    const response = await request(server.url, '/v1/tools/call', {
      body: { name: 'everything:echo', parameters: { message: 'rest' } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      result: { content: [{ type: 'text', text: 'Echo: rest' }] },
    });
    expect(typeof response.body?.executionTime).toBe('number');
    expect(Number.isNaN(Date.parse(response.body?.timestamp))).toBe(false);
  });

  it('answers a tool that reported an error with 200, success false and its text', async () => {
    const response = await request(server.url, '/v1/tools/call', { body: { name: 'fixture:error-result' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, error: 'it went wrong', code: 'TOOL_ERROR' });
    expect(response.body?.result).toMatchObject({ isError: true, structuredContent: { reason: 'on purpose' } });
  });

  it('answers every failure with its status and { success: false, error, code }', async () => {
    const cases: Array<[string, number, string, Record<string, unknown>]> = [
      ['unknown tool', 404, 'TOOL_NOT_FOUND', { name: 'everything:ecko', parameters: {} }],
      ['invalid arguments', 400, 'VALIDATION_ERROR', { name: 'everything:get-sum', parameters: { a: 'x' } }],
      ['invalid body', 400, 'VALIDATION_ERROR', { parameters: {} }],
      ['disabled tool', 403, 'TOOL_DISABLED', { name: 'everything:get-env', parameters: {} }],
      ['timeout', 408, 'TIMEOUT', { name: 'fixture:sleep', parameters: { ms: 2000 } }],
      ['backend error', 502, 'BACKEND_ERROR', { name: 'fixture:fail', parameters: {} }],
    ];
    for (const [what, status, code, body] of cases) {
      const response = await request(server.url, '/v1/tools/call', { body });
      expect([what, response.status, response.body?.success, response.body?.code]).toEqual([what, status, false, code]);
      expect(typeof response.body?.error).toBe('string');
      expect(typeof response.body?.executionTime).toBe('number');
      expect(Number.isNaN(Date.parse(response.body?.timestamp))).toBe(false);
    }
    const invalid = await request(server.url, '/v1/tools/call', { body: { parameters: {} } });
    expect(invalid.body?.error).toMatch(/^Invalid arguments: body\.name: /);
    const unknown = await request(server.url, '/v1/tools/call', { body: { name: 'everything:ecko' } });
    expect(unknown.body?.error).toMatch(/^Tool not found: everything:ecko\. Did you mean: everything:echo/);
    const notJson = await request(server.url, '/v1/tools/call', { body: '{"name": ' });
    expect([notJson.status, notJson.body?.success]).toEqual([400, false]);
    const route = await request(server.url, '/v2/nothing');
    expect([route.status, route.body?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses a body over the limit with 413 JSON', async () => {
    const response = await request(server.url, '/v1/tools/call', {
      body: { name: 'everything:echo', parameters: { message: 'x'.repeat(100 * 1024) } },
    });
    expect([response.status, response.body?.success, response.body?.code]).toEqual([413, false, 'PAYLOAD_TOO_LARGE']);
  });

  it('searches with filters, and keeps disabled tools out of search', async () => {
    const response = await request(server.url, '/v1/tools/search', {
      body: { query: 'echo back the input string', limit: 3 },
    });
    expect(response.body?.results[0]).toMatchObject({ toolKey: 'everything:echo', relevance: 1 });
    expect(response.body?.total).toBe(response.body?.results.length);
    expect(response.body?.results.length).toBeLessThanOrEqual(3);
    const filtered = await request(server.url, '/v1/tools/search', {
      body: { query: 'echo', filters: { server: 'fixture' } },
    });
    const filteredHits = filtered.body?.results as Array<{ serverName: string; toolKey: string }>;
    expect(filteredHits.length).toBeGreaterThan(0);
    expect(filteredHits.every((hit) => hit.serverName === 'fixture')).toBe(true);
    // The filter narrows before ranking: a server whose tools rank below 50 others is still found.
    const narrow = await request(server.url, '/v1/tools/search', {
      body: { query: 'echo back the input string', filters: { server: 'fixture' }, limit: 1 },
    });
    expect(narrow.body?.results.map((hit: { toolKey: string }) => hit.toolKey)).toEqual(['fixture:echo']);
    const environment = await request(server.url, '/v1/tools/search', {
      body: { query: 'environment variables get env', limit: 50 },
    });
    expect(((environment.body?.results ?? []) as Array<{ toolKey: string }>).map((hit) => hit.toolKey)).not.toContain(
      'everything:get-env',
    );
  });

  it('refuses a search limit over the catalog maximum, and an empty query', async () => {
    const tooMany = await request(server.url, '/v1/tools/search', { body: { query: 'echo', limit: 51 } });
    expect([tooMany.status, tooMany.body?.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(tooMany.body?.error).toMatch(/body\.limit/);
    const empty = await request(server.url, '/v1/tools/search', { body: { query: '' } });
    expect([empty.status, empty.body?.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('audit', () => {
  it('writes one line per MCP and REST call, without argument values or tokens', async () => {
    const { client } = await mcpClient(server.url);
    await client.callTool({
      name: 'tool_execute',
      arguments: { toolKey: 'everything:echo', arguments: { message: 'audit-secret-argument' } },
    });
    await request(server.url, '/v1/tools/call', {
      body: { name: 'everything:echo', parameters: { message: 'audit-secret-argument' } },
    });
    await request(server.url, '/v1/tools?limit=1');
    await request(server.url, '/v1/tools/call', { body: { parameters: {} } });
    await client.close();
    const has = (lines: Array<Record<string, unknown>>, wanted: Record<string, unknown>) =>
      lines.some((line) => Object.entries(wanted).every(([key, value]) => line[key] === value));
    // The sink writes through a file stream: wait for the lines to reach the file.
    const lines = await eventually(async () => {
      const read = await readJsonLines(auditFile);
      return has(read, { event: 'rest', outcome: 'error', errorCode: 'VALIDATION_ERROR' }) ? read : undefined;
    });
    expect(has(lines, { event: 'tool_execute', toolKey: 'everything:echo', tokenId: 'main', outcome: 'ok' })).toBe(
      true,
    );
    expect(has(lines, { event: 'rest', toolKey: 'everything:echo', tokenId: 'main', outcome: 'ok' })).toBe(true);
    expect(has(lines, { event: 'rest', outcome: 'ok', toolKey: undefined, queries: undefined })).toBe(true);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('audit-secret-argument');
    expect(text).not.toContain(mainToken);
  });
});
