/**
 * `/mcp` for both protocol eras: the 2025 sessionful leg (unchanged) and the 2026-07-28 leg (`createMcpHandler`, one
 * instance per request, no session, `Mcp-Method`/`Mcp-Name` checked), over a real socket, with real clients of both
 * SDKs. The endpoint is registered on a bare Fastify app over a real runtime; a hook stands in for the app's auth hook
 * and names the caller's project from `X-Project-Id`, so project scoping is checked on both legs.
 */
import type { AddressInfo } from 'node:net';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolRegistry } from '@search-mcp/catalog';
import { createSearchMcpRuntime, type SearchMcpRuntime } from '@search-mcp/runtime';
import { createSecretRedactor, parseConfig, silentLogger } from '@search-mcp/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerMcpEndpoint } from '../src/mcp/mcp-endpoint.js';
import '../src/request-context.js';

const Loose = z.looseObject({});
const secret = 'sk-secret-0123456789abcdef';

function projectRegistry(name: string): ToolRegistry {
  const registry = new ToolRegistry({ serverId: name, projects: [name], description: `Tools of project ${name}` });
  registry.register({ name: `${name}-report`, description: `Write the ${name} status report` }, () => `${name} report`);
  registry.register({ name: `${name}-leak`, description: 'Echoes a configured secret' }, () => `key ${secret}`);
  registry.register(
    { name: `${name}-wait`, description: 'Waits until cancelled, after one progress step' },
    (_args, context) => {
      context.reportProgress({ progress: 1, total: 2, message: 'started' });
      return new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          cancelled.resolve();
          resolve('cancelled');
        });
      });
    },
  );
  return registry;
}

/** Resolves when a `*-wait` call sees its signal aborted. */
let noteCancelled: () => void = () => {};
const cancelled = {
  promise: new Promise<void>((resolve) => (noteCancelled = resolve)),
  resolve: () => noteCancelled(),
};
let runtime: SearchMcpRuntime;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  runtime = createSearchMcpRuntime({
    config: parseConfig({ mcpServers: {}, projects: { alpha: {}, beta: {} } }),
    logger: silentLogger,
    registries: [projectRegistry('alpha'), projectRegistry('beta')],
  });
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    const project = request.headers['x-project-id'];
    if (typeof project === 'string') request.requestedProject = project;
  });
  registerMcpEndpoint(app, {
    createServer: runtime.createServer,
    serverFactory: runtime.serverFactory,
    logger: silentLogger,
    redactor: createSecretRedactor([secret]),
    activity: { requestStarted: () => {}, requestEnded: () => {} },
    stateless: false,
    sessionIdleTimeoutMs: 60_000,
    maxSessions: 10,
    maxSessionsPerToken: 10,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await app?.close();
  await runtime?.close();
});

async function reportsSeenBy(request: (params: Record<string, unknown>) => Promise<Record<string, unknown>>) {
  const found = await request({ name: 'tool_discovery', arguments: { query: 'status report', detail: 'minimal' } });
  return (found.structuredContent as { results: Array<{ toolKey: string }> }).results.map((hit) => hit.toolKey);
}

describe('a 2026-07-28 client over Streamable HTTP', () => {
  it('is served without a session, with its project, cache hints and masked secrets', async () => {
    const client = new Sdk2Client(
      { name: 'era-http-2026', version: '2' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new Sdk2HttpTransport(new URL(url), { requestInit: { headers: { 'x-project-id': 'alpha' } } });
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(transport.sessionId).toBeUndefined();
      const listed = (await client.request({ method: 'tools/list', params: {} }, Loose)) as Record<string, unknown>;
      // Meta mode's two tools are the same for everyone; with projects, nothing else may be shared.
      expect(listed).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      const call = (params: Record<string, unknown>) =>
        client.request({ method: 'tools/call', params }, Loose) as Promise<Record<string, unknown>>;
      expect(await reportsSeenBy(call)).toEqual(['alpha:alpha-report']);
      const leaked = await call({ name: 'alpha__alpha-leak', arguments: {} });
      expect(JSON.stringify(leaked)).not.toContain(secret);
      expect(JSON.stringify(leaked)).toContain('key ***');
      const other = await call({ name: 'beta__beta-report', arguments: {} }).catch((error: unknown) => error);
      expect(other).toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('gets progress, and closing the response stream cancels the call (the 2026 HTTP cancellation)', async () => {
    const client = new Sdk2Client(
      { name: 'era-http-cancel', version: '2' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new Sdk2HttpTransport(new URL(url), { requestInit: { headers: { 'x-project-id': 'alpha' } } }),
    );
    try {
      const controller = new AbortController();
      const progress: string[] = [];
      const running = client.request(
        { method: 'tools/call', params: { name: 'alpha__alpha-wait', arguments: {} } },
        Loose,
        {
          signal: controller.signal,
          onprogress: (update) => {
            progress.push(update.message ?? '');
            controller.abort(new Error('cancelled by the test'));
          },
        },
      );
      await expect(running).rejects.toThrow('cancelled by the test');
      await cancelled.promise;
      expect(progress).toEqual(['started']);
    } finally {
      await client.close();
    }
  });

  it('is refused 400 -32020 without Mcp-Method or with an Mcp-Name that does not match the body', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'tool_discovery', arguments: { query: 'report' }, _meta: meta },
        }),
      });
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: -32020 } });
    const wrong = await post({ 'mcp-method': 'tools/call', 'mcp-name': 'tool_execute' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: -32020 } });
    const right = await post({ 'mcp-method': 'tools/call', 'mcp-name': 'tool_discovery' });
    expect(right.status).toBe(200);
    expect(right.headers.get('mcp-session-id')).toBeNull();
    expect(await right.text()).toContain('resultType');
  });
});

describe('2025-era clients next to it', () => {
  it('keep their sessions (1.x client and 2.x legacy), scoped to the project they opened with', async () => {
    const sdk1 = new Sdk1Client({ name: 'era-http-sdk1', version: '1' });
    const sdk1Transport = new Sdk1HttpTransport(new URL(url), { requestInit: { headers: { 'x-project-id': 'beta' } } });
    await sdk1.connect(sdk1Transport);
    const sdk2 = new Sdk2Client({ name: 'era-http-legacy', version: '2' }, { versionNegotiation: { mode: 'legacy' } });
    const sdk2Transport = new Sdk2HttpTransport(new URL(url), {
      requestInit: { headers: { 'x-project-id': 'alpha' } },
    });
    await sdk2.connect(sdk2Transport);
    try {
      expect(sdk1Transport.sessionId).toBeDefined();
      expect(sdk2Transport.sessionId).toBeDefined();
      expect(sdk2.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const beta = await reportsSeenBy(
        async (params) => (await sdk1.request({ method: 'tools/call', params }, Loose)) as Record<string, unknown>,
      );
      const alpha = await reportsSeenBy(
        async (params) => (await sdk2.request({ method: 'tools/call', params }, Loose)) as Record<string, unknown>,
      );
      expect(beta).toEqual(['beta:beta-report']);
      expect(alpha).toEqual(['alpha:alpha-report']);
      const listed = (await sdk2.request({ method: 'tools/list', params: {} }, Loose)) as Record<string, unknown>;
      expect(listed.cacheScope).toBeUndefined();
    } finally {
      await sdk1.close();
      await sdk2.close();
    }
  });
});
