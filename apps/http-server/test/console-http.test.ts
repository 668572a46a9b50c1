/**
 * The web console's server side over one real app (server-everything and the fixture server behind it): `/ui` and its
 * files (a small fixture build of the console), sign-in codes, the admin actions, events, activity (and its live
 * stream) and the masked config (docs/console.md).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alphaToken,
  everythingEntry,
  fixtureServer,
  mainToken,
  request,
  type Running,
  startApp,
  temporaryDirectory,
} from './http-test-support.js';

const envSecret = 'env-secret-value-0123456789-xyz';
const headerSecret = 'header-secret-value-0123456789-xyz';

let server: Running;
let directory: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  directory = await temporaryDirectory();
  await mkdir(join(directory.path, 'assets'));
  await writeFile(join(directory.path, 'index.html'), '<!doctype html><title>Search MCP</title>');
  await writeFile(join(directory.path, 'assets', 'app-1a2b3c.js'), 'console.log("console");');
  // The build's precompressed copy (scripts/copy-console.mjs).
  await writeFile(join(directory.path, 'assets', 'app-1a2b3c.js.gz'), gzipSync('console.log("console");'));
  server = await startApp({
    app: { consoleDirectory: directory.path, configPath: '/etc/search-mcp/config.json' },
    config: {
      mcpServers: {
        everything: { command: process.execPath, args: [everythingEntry] },
        fixture: {
          command: process.execPath,
          args: [fixtureServer],
          env: { FIXTURE_API_KEY: envSecret },
        },
        remote: {
          url: 'http://127.0.0.1:9/mcp',
          headers: { Authorization: `Bearer ${headerSecret}` },
          enabled: false,
        },
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  await directory?.remove();
});

describe('/ui: the console files', () => {
  it('redirects /ui to /ui/ and serves index.html there without a token, with the strict headers', async () => {
    const bare = await fetch(`${server.url}/ui`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/ui/']);
    // The path decides, not the URL with its query string.
    const withQuery = await fetch(`${server.url}/ui?from=cli`, { redirect: 'manual' });
    expect(withQuery.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const index = await fetch(`${server.url}/ui/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Search MCP</title>');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for long, falls back to index.html for pages, and 404s a missing file', async () => {
    const asset = await fetch(`${server.url}/ui/assets/app-1a2b3c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // fetch decodes what it was sent: the header says the precompressed copy went out.
    const compressed = await fetch(`${server.url}/ui/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(await compressed.text()).toBe('console.log("console");');
    const page = await fetch(`${server.url}/ui/servers/everything`);
    expect([page.status, await page.text()]).toEqual([200, '<!doctype html><title>Search MCP</title>']);
    const missing = await fetch(`${server.url}/ui/assets/gone-123.js`);
    expect(missing.status).toBe(404);
    const outside = await fetch(`${server.url}/ui/..%2f..%2fpackage.json`);
    expect(outside.status).toBe(404);
  });

  it('answers the sign-in settings without a token', async () => {
    const settings = await request(server.url, '/ui/settings.json', { token: null });
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({ version: 'test', auth: {} });
  });
});

describe('POST /ui/session: one-time sign-in codes', () => {
  it('trades a code once for its token; the second use, and an unknown code, get 401', async () => {
    const code = server.http.console.createSignInCode(mainToken);
    // As the console's page sends it: a POST from its own origin passes the Host/Origin check.
    const first = await request(server.url, '/ui/session', {
      token: null,
      body: { code },
      headers: { origin: server.url },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ token: mainToken });
    expect(first.headers.get('cache-control')).toBe('no-store');
    const again = await request(server.url, '/ui/session', { token: null, body: { code } });
    expect(again.status).toBe(401);
    expect(again.body?.error).toMatch(/unknown, used already or expired/);
    const unknown = await request(server.url, '/ui/session', { token: null, body: { code: 'not-a-code' } });
    expect(unknown.status).toBe(401);
  });
});

describe('server actions', () => {
  const pidOf = (id: string) => server.runtime.manager.status().find((status) => status.id === id)?.pid;

  it('restarts a server: a new process, running again', async () => {
    const before = pidOf('fixture');
    expect(before).toBeDefined();
    const restarted = await request(server.url, '/v1/servers/fixture/restart', { method: 'POST' });
    expect(restarted.status).toBe(200);
    expect(restarted.body).toMatchObject({ id: 'fixture', state: 'running' });
    expect(restarted.body).not.toHaveProperty('pid');
    expect(pidOf('fixture')).not.toBe(before);
  });

  it('disables a server (its tools leave /v1/tools) and enables it again (they come back)', async () => {
    const toolsOf = async () =>
      ((await request(server.url, '/v1/tools?server=everything&limit=100')).body?.tools ?? []) as unknown[];
    expect((await toolsOf()).length).toBeGreaterThan(0);
    const disabled = await request(server.url, '/v1/servers/everything/disable', { method: 'POST' });
    expect([disabled.status, disabled.body?.state]).toEqual([200, 'stopped']);
    expect(await toolsOf()).toEqual([]);
    const enabled = await request(server.url, '/v1/servers/everything/enable', { method: 'POST' });
    expect([enabled.status, enabled.body?.state]).toEqual([200, 'running']);
    expect((await toolsOf()).length).toBeGreaterThan(0);
  });

  it('answers 404 for a server not in the config and 409 for one disabled there', async () => {
    const unknown = await request(server.url, '/v1/servers/nowhere/restart', { method: 'POST' });
    expect([unknown.status, unknown.body?.code]).toEqual([404, 'NOT_FOUND']);
    const conflict = await request(server.url, '/v1/servers/remote/disable', { method: 'POST' });
    expect([conflict.status, conflict.body?.code]).toEqual([409, 'CONFLICT']);
    expect(conflict.body?.error).toMatch(/disabled in the config/);
  });

  it('records the state changes as events, newest last', async () => {
    const events = await request(server.url, '/v1/events');
    expect(events.status).toBe(200);
    const changes = (events.body?.events ?? []) as Array<Record<string, unknown>>;
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'server-state', serverId: 'everything', to: 'stopped' }),
        expect.objectContaining({ kind: 'server-state', serverId: 'fixture', to: 'running' }),
      ]),
    );
    const limited = await request(server.url, '/v1/events?limit=1');
    expect(limited.body?.events).toEqual([changes.at(-1)]);
  });
});

describe('admin only', () => {
  const adminRoutes: Array<[string, string]> = [
    ['POST', '/v1/servers/fixture/restart'],
    ['POST', '/v1/servers/fixture/enable'],
    ['POST', '/v1/servers/fixture/disable'],
    ['GET', '/v1/events'],
    ['GET', '/v1/activity'],
    ['GET', '/v1/activity/stream'],
    ['GET', '/v1/config'],
  ];

  it.each(adminRoutes)('%s %s: 403 for a token limited to projects, 401 without a token', async (method, path) => {
    const limited = await request(server.url, path, {
      method,
      token: alphaToken,
      headers: { 'x-project-id': 'alpha' },
    });
    expect([limited.status, limited.body?.code]).toEqual([403, 'AUTHORIZATION_ERROR']);
    const anonymous = await request(server.url, path, { method, token: null });
    expect(anonymous.status).toBe(401);
  });
});

describe('activity', () => {
  it('streams a call as it happens, and keeps it in GET /v1/activity', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/v1/activity/stream`, {
      headers: { authorization: `Bearer ${mainToken}` },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (stream.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    const nextEvent = async (name: string): Promise<Record<string, unknown>> => {
      for (;;) {
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop() ?? '';
        for (const block of blocks) {
          const lines = block.split('\n');
          const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
          const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
          if (event === name && data !== undefined) return JSON.parse(data) as Record<string, unknown>;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    };
    // The stream is open (its first comment arrived) before the call is made.
    const first = await reader.read();
    buffered += first.value ?? '';
    const called = await request(server.url, '/v1/tools/call', {
      body: { name: 'everything:echo', parameters: { message: 'hello' } },
    });
    expect(called.status).toBe(200);
    const call = await nextEvent('call');
    expect(call).toMatchObject({ event: 'rest', toolKey: 'everything:echo', caller: 'main', outcome: 'ok' });
    expect(call).not.toHaveProperty('tokenId');
    controller.abort();

    const activity = await request(server.url, '/v1/activity');
    const records = (activity.body?.records ?? []) as Array<Record<string, unknown>>;
    expect(records.at(-1)).toMatchObject({ toolKey: 'everything:echo', caller: 'main' });
  });
});

describe('GET /v1/config', () => {
  it('shows the config with no secret in it: tokens, env values and headers masked', async () => {
    const response = await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${mainToken}` } });
    const text = await response.text();
    expect(response.status).toBe(200);
    for (const secret of [mainToken, alphaToken, envSecret, headerSecret]) expect(text).not.toContain(secret);
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever config the server sent
    const body = JSON.parse(text) as { path: string; config: Record<string, any>; warnings: string[] };
    expect(body.path).toBe('/etc/search-mcp/config.json');
    expect(body.config.mcpServers.fixture.env.FIXTURE_API_KEY).toBe('••••');
    expect(body.config.mcpServers.remote.headers.Authorization).toBe('••••');
    expect(body.config.auth.tokens[0]).toMatchObject({ id: 'main', token: '••••' });
    expect(Array.isArray(body.warnings)).toBe(true);
  });
});

describe('POST /v1/tools/search', () => {
  it('says which ranker produced the order', async () => {
    const response = await request(server.url, '/v1/tools/search', { body: { query: 'echo' } });
    expect(response.body?.strategy).toBe('bm25');
  });
});

describe('a second app, of its own', () => {
  it('counts wrong sign-in codes as failed authentications (429 past the limit) and ends open streams on close', async () => {
    const other = await startApp({
      backends: 'none',
      app: { failedAuthenticationLimitPerMinute: 2, consoleDirectory: null },
    });
    let closed = false;
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const wrong = await request(other.url, '/ui/session', { token: null, body: { code: `guess-${attempt}` } });
        expect(wrong.status).toBe(401);
      }
      const limited = await request(other.url, '/ui/session', { token: null, body: { code: 'guess-3' } });
      expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, expect.stringMatching(/^\d+$/)]);
      // A limiter of the sign-in's own: the API still answers a wrong token 401 (not 429), and wrong API tokens past
      // the API's limit leave the sign-in alone.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect((await request(other.url, '/v1/tools', { token: `wrong-${attempt}` })).status).toBe(401);
      }
      expect((await request(other.url, '/v1/tools', { token: 'wrong-3' })).status).toBe(429);
      expect((await request(other.url, '/v1/tools')).status).toBe(200);
      // Without console files, /ui says so.
      expect((await request(other.url, '/ui/', { token: null })).status).toBe(404);

      const stream = await fetch(`${other.url}/v1/activity/stream`, {
        headers: { authorization: `Bearer ${mainToken}` },
      });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      const ended = (async () => {
        while (!(await reader.read()).done) {}
      })();
      await other.close();
      closed = true;
      await ended;
    } finally {
      if (!closed) await other.close();
    }
  });
});
