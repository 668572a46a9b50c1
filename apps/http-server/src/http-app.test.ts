import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolCatalog, ToolRegistry } from '@search-mcp/catalog';
import { createSearchMcpRuntime, type SearchMcpRuntime } from '@search-mcp/meta-tools';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHttpApp, type HttpApp, type HttpAppOptions } from './http-app.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const require = createRequire(import.meta.url);
const everythingEntry = (() => {
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return join(
    dirname(manifestPath),
    Object.values((require(manifestPath) as { bin: Record<string, string> }).bin)[0] as string,
  );
})();
const fixtureServer = join(repoRoot, 'packages/client-manager/test/fixtures/stdio-fixture-server.mjs');
const Loose = z.looseObject({});
const mainToken = 'main-token-0123456789-abcdefghijklmnop';
const alphaToken = 'alpha-token-0123456789-abcdefghijklmnop';

interface Running {
  http: HttpApp;
  url: string;
  runtime: SearchMcpRuntime;
  close: () => Promise<void>;
}

let directory: string;

function projectRegistry(name: string): ToolRegistry {
  const registry = new ToolRegistry({ serverId: name, projects: [name], description: `Tools of project ${name}` });
  registry.register({ name: `${name}-report`, description: `Write the ${name} status report` }, () => `${name} report`);
  return registry;
}

async function start(overrides: Partial<HttpAppOptions> = {}, withBackends = true): Promise<Running> {
  const config = parseConfig({
    mcpServers: withBackends
      ? {
          everything: { command: process.execPath, args: [everythingEntry], toolPermissions: { 'get-env': false } },
          fixture: { command: process.execPath, args: [fixtureServer], timeoutMs: 300 },
        }
      : {},
    auth: {
      tokens: [
        { id: 'main', token: mainToken },
        { id: 'alpha-only', token: alphaToken, projects: ['alpha'] },
      ],
    },
    audit: { file: join(directory, 'audit.jsonl') },
  });
  const runtime = createSearchMcpRuntime({
    config,
    logger: silentLogger,
    registries: [projectRegistry('alpha'), projectRegistry('beta')],
  });
  await runtime.manager.startAll();
  const http = await buildHttpApp({
    runtime,
    logger: silentLogger,
    tokens: config.auth.tokens,
    allowAnonymous: false,
    version: 'test',
    ...overrides,
  });
  await http.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = http.app.server.address() as AddressInfo;
  return {
    http,
    runtime,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await http.app.close();
      await runtime.close();
    },
  };
}

async function request(
  base: string,
  path: string,
  init: { method?: string; token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? mainToken}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    redirect: 'manual',
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, any>) : undefined,
  };
}

async function mcpClient(base: string, headers: Record<string, string> = { authorization: `Bearer ${mainToken}` }) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-http-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('search-mcp-http', () => {
  let server: Running;

  beforeAll(async () => {
    server = await start({ bodyLimitBytes: 64 * 1024 });
  });

  afterAll(async () => {
    await server.close();
  });

  describe('health, docs, redirects', () => {
    it('answers GET / without a token and without server names', async () => {
      const response = await request(server.url, '/', { token: null });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'ok', version: 'test' });
      expect(Object.keys(response.body ?? {}).sort()).toEqual(['message', 'status', 'timestamp', 'uptime', 'version']);
      expect(JSON.stringify(response.body)).not.toMatch(/everything|fixture/);
    });

    it('publishes the OpenAPI document', async () => {
      const response = await request(server.url, '/v1/openapi.json', { token: null });
      expect(response.body?.openapi).toBe('3.1.0');
      expect(Object.keys(response.body?.paths ?? {})).toEqual(
        expect.arrayContaining([
          '/v1/tools',
          '/v1/tools/{toolKey}',
          '/v1/tools/call',
          '/v1/tools/search',
          '/catalog/search',
          '/mcp',
        ]),
      );
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
      const page = await request(server.url, '/v1/tools?server=everything&limit=5&page=2');
      expect(page.status).toBe(200);
      expect(page.body?.tools).toHaveLength(5);
      expect(page.body?.tools[0]).toMatchObject({ serverName: 'everything', enabled: true });
      expect(page.body?.pagination).toEqual({ page: 2, limit: 5, total: 12, totalPages: 3 });
      const all = await request(server.url, '/v1/tools?limit=100');
      const keys = (all.body?.tools as Array<{ toolKey: string }>).map((tool) => tool.toolKey);
      expect(keys).not.toContain('everything:get-env');
      expect(keys).not.toContain('alpha:alpha-report');
      expect((await request(server.url, '/v1/tools?limit=500')).status).toBe(400);
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
        expect([what, response.status, response.body?.success, response.body?.code]).toEqual([
          what,
          status,
          false,
          code,
        ]);
        expect(typeof response.body?.error).toBe('string');
        expect(typeof response.body?.executionTime).toBe('number');
        expect(Number.isNaN(Date.parse(response.body?.timestamp))).toBe(false);
      }
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
      expect(narrow.body?.results[0]?.toolKey).toBe('fixture:echo');
      const environment = await request(server.url, '/v1/tools/search', {
        body: { query: 'environment variables get env', limit: 50 },
      });
      expect((environment.body?.results as Array<{ toolKey: string }>).map((hit) => hit.toolKey)).not.toContain(
        'everything:get-env',
      );
    });
  });

  describe('tokens, projects, origins', () => {
    it('answers 401 to a missing or unknown token, on REST and MCP', async () => {
      const missing = await request(server.url, '/v1/tools', { token: null });
      expect([missing.status, missing.body?.code, missing.headers.get('www-authenticate')]).toEqual([
        401,
        'AUTHENTICATION_ERROR',
        'Bearer',
      ]);
      expect((await request(server.url, '/v1/tools', { token: 'wrong' })).status).toBe(401);
      const mcp = await request(server.url, '/mcp', {
        token: null,
        body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(mcp.status).toBe(401);
    });

    it('answers 403 to a project the token may not use, and to a foreign Origin', async () => {
      const forbidden = await request(server.url, '/v1/tools', {
        token: alphaToken,
        headers: { 'x-project-id': 'beta' },
      });
      expect([forbidden.status, forbidden.body?.code]).toEqual([403, 'AUTHORIZATION_ERROR']);
      const allowed = await request(server.url, '/v1/tools', {
        token: alphaToken,
        headers: { 'x-project-id': 'alpha' },
      });
      expect((allowed.body?.tools as Array<{ toolKey: string }>).map((tool) => tool.toolKey)).toEqual([
        'alpha:alpha-report',
      ]);
      const noProject = await request(server.url, '/v1/tools', { token: alphaToken });
      expect(noProject.status).toBe(403);
      const origin = await request(server.url, '/v1/tools', { headers: { origin: 'http://evil.example' } });
      expect([origin.status, origin.body?.code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    });

    it('refuses a Host that is not this machine, even when Origin matches it (DNS rebinding)', async () => {
      // fetch does not let a caller set Host; a browser after DNS rebinding does send it, so use node:http.
      const withHost = (host: string) =>
        new Promise<{ status: number; body: Record<string, unknown> }>((resolveResponse, reject) => {
          const target = new URL(`${server.url}/v1/tools`);
          const outgoing = httpRequest(
            {
              host: target.hostname,
              port: target.port,
              path: target.pathname,
              headers: { host, origin: `http://${host}`, authorization: `Bearer ${mainToken}` },
            },
            (incoming) => {
              let text = '';
              incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
              incoming.on('end', () =>
                resolveResponse({
                  status: incoming.statusCode ?? 0,
                  body: JSON.parse(text) as Record<string, unknown>,
                }),
              );
            },
          );
          outgoing.on('error', reject);
          outgoing.end();
        });
      const port = new URL(server.url).port;
      const rebound = await withHost(`evil.example:${port}`);
      expect([rebound.status, rebound.body.code]).toEqual([403, 'FORBIDDEN_HOST']);
      expect((await withHost(`localhost:${port}`)).status).toBe(200);
    });

    it('refuses a _meta.projectId the token may not use with 403', async () => {
      const response = await request(server.url, '/mcp', {
        token: alphaToken,
        headers: { 'x-project-id': 'alpha', accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { projectId: 'beta' } } },
      });
      expect([response.status, response.body?.code]).toEqual([403, 'AUTHORIZATION_ERROR']);
    });

    it('accepts the token in params._meta.token on /mcp', async () => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
            _meta: { token: mainToken },
          },
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      await response.body?.cancel();
    });
  });

  describe('MCP over Streamable HTTP', () => {
    it('serves the meta-tools end to end: list, discovery, execute with progress', async () => {
      const { client } = await mcpClient(server.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
      const discovery = await client.callTool({
        name: 'tool_discovery',
        arguments: { query: 'echo back the input string' },
      });
      expect((discovery.structuredContent as { results: Array<{ toolKey: string }> }).results[0]?.toolKey).toBe(
        'everything:echo',
      );
      const progress: number[] = [];
      const result = await client.request(
        {
          method: 'tools/call',
          params: {
            name: 'tool_execute',
            arguments: { toolKey: 'everything:trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
          },
        },
        Loose,
        { onprogress: (update) => progress.push(update.progress) },
      );
      // The SDK client may drop a final notification it reads together with the response (see the stdio e2e test).
      expect([
        [1, 2, 3],
        [1, 2],
      ]).toContainEqual(progress);
      expect(JSON.stringify(result)).toContain('Long running operation completed');
      await client.close();
    });

    it('keeps two sessions on different projects apart at the same time', async () => {
      const alpha = await mcpClient(server.url, { authorization: `Bearer ${mainToken}`, 'x-project-id': 'alpha' });
      const beta = await mcpClient(server.url, { authorization: `Bearer ${mainToken}`, 'x-project-id': 'beta' });
      const [alphaHits, betaHits] = await Promise.all(
        [alpha, beta].map(async ({ client }) => {
          const result = await client.callTool({
            name: 'tool_discovery',
            arguments: { query: 'status report', detail: 'minimal' },
          });
          return (result.structuredContent as { results: Array<{ toolKey: string }> }).results.map(
            (hit) => hit.toolKey,
          );
        }),
      );
      expect(alphaHits).toEqual(['alpha:alpha-report']);
      expect(betaHits).toEqual(['beta:beta-report']);
      await Promise.all([alpha.client.close(), beta.client.close()]);
    });

    it('binds a session to its token', async () => {
      const { client, transport } = await mcpClient(server.url);
      const hijack = await request(server.url, '/mcp', {
        token: alphaToken,
        headers: { 'mcp-session-id': transport.sessionId ?? '', accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} },
      });
      expect(hijack.status).toBe(404);
      await client.close();
    });

    it('ends a session on DELETE and shares one set of backends across sessions', async () => {
      const before = server.http.mcp.sessionCount;
      const clients = await Promise.all([1, 2, 3].map(() => mcpClient(server.url)));
      expect(server.http.mcp.sessionCount).toBe(before + 3);
      const pids = server.runtime.manager.status().map((status) => status.pid);
      for (const { transport } of clients) await transport.terminateSession();
      await Promise.all(clients.map(({ client }) => client.close()));
      expect(server.http.mcp.sessionCount).toBe(before);
      expect(server.runtime.manager.status().map((status) => status.pid)).toEqual(pids);
    });

    it('ends a session on a DELETE that says content-type JSON with an empty body', async () => {
      const { transport } = await mcpClient(server.url);
      const sessionId = transport.sessionId ?? '';
      const response = await fetch(`${server.url}/mcp`, {
        method: 'DELETE',
        headers: {
          authorization: `Bearer ${mainToken}`,
          'mcp-session-id': sessionId,
          'content-type': 'application/json',
        },
      });
      expect(response.status).toBe(200);
      const again = await request(server.url, '/mcp', {
        headers: { 'mcp-session-id': sessionId, accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      });
      expect(again.status).toBe(404);
    });

    it("releases each session's listener on the shared manager, also for an initialize that failed", async () => {
      const baseline = server.runtime.manager.listenerCount('tools-changed');
      const clients = await Promise.all(Array.from({ length: 12 }, () => mcpClient(server.url)));
      expect(server.runtime.manager.listenerCount('tools-changed')).toBe(baseline + 12);
      await Promise.all(clients.map(({ transport }) => transport.terminateSession()));
      await Promise.all(clients.map(({ client }) => client.close()));
      expect(server.runtime.manager.listenerCount('tools-changed')).toBe(baseline);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        // Without "text/event-stream" in Accept the transport refuses the initialize (406): no session is opened.
        const refused = await request(server.url, '/mcp', {
          headers: { accept: 'application/json' },
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          },
        });
        expect(refused.status).toBe(406);
      }
      expect(server.runtime.manager.listenerCount('tools-changed')).toBe(baseline);
    });

    it("lists the servers of the session's project in its instructions", async () => {
      const plain = await mcpClient(server.url);
      expect(plain.client.getInstructions()).toContain('- everything');
      const alpha = await mcpClient(server.url, { authorization: `Bearer ${mainToken}`, 'x-project-id': 'alpha' });
      expect(alpha.client.getInstructions()).not.toContain('- everything');
      await Promise.all([plain.client.close(), alpha.client.close()]);
    });

    it('writes audit lines without argument values or tokens', async () => {
      const { client } = await mcpClient(server.url);
      await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'everything:echo', arguments: { message: 'audit-secret-argument' } },
      });
      await request(server.url, '/v1/tools/call', {
        body: { name: 'everything:echo', parameters: { message: 'audit-secret-argument' } },
      });
      await client.close();
      await new Promise((done) => setTimeout(done, 100));
      const lines = (await readFile(join(directory, 'audit.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        lines.some(
          (line) =>
            line.event === 'tool_execute' &&
            line.toolKey === 'everything:echo' &&
            line.tokenId === 'main' &&
            line.outcome === 'ok',
        ),
      ).toBe(true);
      expect(
        lines.some(
          (line) =>
            line.event === 'rest' &&
            line.toolKey === 'everything:echo' &&
            line.tokenId === 'main' &&
            line.outcome === 'ok',
        ),
      ).toBe(true);
      await request(server.url, '/v1/tools?limit=1');
      await request(server.url, '/v1/tools/call', { body: { parameters: {} } });
      await new Promise((done) => setTimeout(done, 100));
      const later = (await readFile(join(directory, 'audit.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        later.some(
          (line) =>
            line.event === 'rest' && line.outcome === 'ok' && line.toolKey === undefined && line.queries === undefined,
        ),
      ).toBe(true);
      expect(
        later.some(
          (line) => line.event === 'rest' && line.outcome === 'error' && line.errorCode === 'VALIDATION_ERROR',
        ),
      ).toBe(true);
      const text = JSON.stringify(lines);
      expect(text).not.toContain('audit-secret-argument');
      expect(text).not.toContain(mainToken);
    });
  });
});

describe('limits and modes', () => {
  it('rate-limits per token with 429 and Retry-After', async () => {
    const server = await start({ rateLimitPerMinute: 3 }, false);
    try {
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await request(server.url, '/v1/tools');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.body).toMatchObject({
        success: false,
        code: 'RATE_LIMIT_EXCEEDED',
        error: expect.stringMatching(/^Rate limit of 3 requests per minute exceeded/),
      });
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(
        (await request(server.url, '/v1/tools', { token: alphaToken, headers: { 'x-project-id': 'alpha' } })).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('slows down token guessing: 429 after too many failed authentications from one address', async () => {
    const server = await start({ failedAuthenticationLimitPerMinute: 3 }, false);
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1)
        statuses.push((await request(server.url, '/v1/tools', { token: `guess-${attempt}` })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const blocked = await request(server.url, '/v1/tools', { token: 'guess-again' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('caps open sessions', async () => {
    const server = await start({ maxSessions: 2 }, false);
    try {
      const first = await mcpClient(server.url);
      const second = await mcpClient(server.url);
      await expect(mcpClient(server.url)).rejects.toThrow(/503|Too many open sessions/);
      await Promise.all([first.client.close(), second.client.close()]);
    } finally {
      await server.close();
    }
  });

  it('serves stateless requests without keeping sessions', async () => {
    const server = await start({ stateless: true }, false);
    try {
      const { client } = await mcpClient(server.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
      const result = await client.callTool(
        { name: 'tool_discovery', arguments: { query: 'status report' } },
        undefined,
        {},
      );
      expect(result.isError).not.toBe(true);
      expect(server.http.mcp.sessionCount).toBe(0);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it("serves as another instance's cloud search, with fallback when it stops", async () => {
    const remote = await start({}, false);
    const registry = new ToolRegistry();
    registry.register({ name: 'read-file', description: 'Read a file from disk' }, () => 'x');
    registry.register({ name: 'send-message', description: 'Send a chat message' }, () => 'x');
    const catalog = new ToolCatalog({
      sources: [registry],
      config: {
        mcpServers: {},
        search: { strategy: 'cloud', cloud: { url: remote.url, apiKey: mainToken, timeoutMs: 2000 } },
      },
    });
    const viaCloud = await catalog.search({ query: 'send a chat message' });
    expect(viaCloud).toMatchObject({ providerId: 'cloud', results: [{ toolKey: 'local:send-message' }] });
    await remote.close();
    const fallback = await catalog.search({ query: 'send a chat message' });
    expect(fallback.providerId).toBe('bm25');
    expect(fallback.fallbackReason).toMatch(/cloud search/);
    expect(fallback.results[0]?.toolKey).toBe('local:send-message');
  });
});

describe('first start without tokens', () => {
  it('generates a token, stores it for the user only, prints it once, and requires it', async () => {
    const cli = resolve(here, '../dist/cli.js');
    const config = join(directory, 'no-tokens.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const run = async () => {
      const child = spawn(process.execPath, [cli, '--config', config, '--port', '0', '--log-level', 'info'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const url = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no listening line: ${stderr}`)), 15_000);
        child.stderr.on('data', () => {
          const match = /"url":"(http:\/\/[^"]+)"/.exec(stderr);
          if (match?.[1]) {
            clearTimeout(timer);
            done(match[1]);
          }
        });
      });
      return { child, url, stderr: () => stderr };
    };
    const first = await run();
    const tokenFile = join(directory, '.search-mcp-http-token');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(first.stderr()).toContain(token);
    expect((await request(first.url, '/v1/tools', { token: null })).status).toBe(401);
    expect((await request(first.url, '/v1/tools', { token })).status).toBe(200);
    first.child.kill('SIGTERM');
    await new Promise((done) => first.child.on('exit', done));

    const second = await run();
    expect(second.stderr()).not.toContain(token);
    expect((await request(second.url, '/v1/tools', { token })).status).toBe(200);
    second.child.kill('SIGTERM');
    await new Promise((done) => second.child.on('exit', done));
  });
});
