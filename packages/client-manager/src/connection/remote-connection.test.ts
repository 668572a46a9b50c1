import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { BackendError, ServerNotRunningError } from '@search-mcp/shared';
import { createFixtureServer } from '@search-mcp/test-kit/fixture-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../test/test-support.js';
import { McpClientManager } from '../index.js';

const token = 'remote-secret-token';

/** A real MCP server on 127.0.0.1 speaking Streamable HTTP on /mcp and the old SSE transport on /sse + /messages. */
async function startRemoteServer(): Promise<{ url: string; close: () => Promise<void>; requests: string[] }> {
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const requests: string[] = [];
  const server: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      requests.push(`${request.method} ${path}`);
      if (request.headers.authorization !== `Bearer ${token}`) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      if (path === '/mcp') {
        const sessionId = request.headers['mcp-session-id'];
        let transport = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
        if (!transport) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void streamable.set(id, created),
          });
          transport = created;
          await createFixtureServer({ name: 'remote-streamable' }).connect(transport);
        }
        await transport.handleRequest(request, response);
      } else if (path === '/sse' && request.method === 'GET') {
        const transport = new SSEServerTransport('/messages', response);
        sse.set(transport.sessionId, transport);
        await createFixtureServer({ name: 'remote-sse' }).connect(transport);
      } else if (path === '/messages' && request.method === 'POST') {
        const sessionId = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('sessionId') ?? '';
        const transport = sse.get(sessionId);
        if (!transport) response.writeHead(404).end();
        else await transport.handlePostMessage(request, response);
      } else {
        // What an SSE-only server answers to a Streamable HTTP POST.
        response.writeHead(path === '/sse' ? 405 : 404).end();
      }
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('remote servers', () => {
  let remote: Awaited<ReturnType<typeof startRemoteServer>>;
  const managers: McpClientManager[] = [];

  beforeEach(async () => {
    remote = await startRemoteServer();
  });

  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
    await remote.close();
  });

  function connect(mcpServers: Record<string, unknown>) {
    const recording = createRecordingLogger();
    const manager = new McpClientManager({ mcpServers } as never, {
      logger: recording.logger,
      env: { REMOTE_TOKEN: token },
    });
    managers.push(manager);
    return { manager, records: recording.records };
  }

  const auth = { Authorization: 'Bearer ${REMOTE_TOKEN}' };

  it('connects over Streamable HTTP with expanded headers, calls tools and gets progress', async () => {
    const { manager } = connect({ remote: { type: 'http', url: `${remote.url}/mcp`, headers: auth } });
    await manager.startAll();
    expect(manager.status()[0]).toMatchObject({
      state: 'running',
      transport: 'http',
      serverInfo: { name: 'remote-streamable' },
    });
    expect((await manager.callTool('remote', 'echo', { message: 'over http' })).content).toEqual([
      { type: 'text', text: 'Echo: over http' },
    ]);
    const progress: number[] = [];
    await manager.callTool('remote', 'sleep', { ms: 350 }, { onProgress: (update) => progress.push(update.progress) });
    // One notification per 100 ms step; a busy machine stretches the steps, so only their order is certain.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
  });

  it('connects over SSE', async () => {
    const { manager } = connect({ legacy: { type: 'sse', url: `${remote.url}/sse`, headers: auth } });
    await manager.startAll();
    expect(manager.status()[0]).toMatchObject({
      state: 'running',
      transport: 'sse',
      serverInfo: { name: 'remote-sse' },
    });
    expect((await manager.callTool('legacy', 'echo', { message: 'over sse' })).content).toEqual([
      { type: 'text', text: 'Echo: over sse' },
    ]);
    expect(remote.requests).not.toContain('POST /sse');
  });

  it('falls back from Streamable HTTP to SSE when a url without type answers 405', async () => {
    const { manager, records } = connect({ guess: { url: `${remote.url}/sse`, headers: auth } });
    await manager.startAll();
    expect(manager.status()[0]).toMatchObject({ state: 'running', transport: 'sse' });
    expect(remote.requests.slice(0, 2)).toEqual(['POST /sse', 'GET /sse']);
    expect(
      records.some(
        (record) => record.message === 'Streamable HTTP refused, trying SSE' && record.fields.status === 405,
      ),
    ).toBe(true);
    expect((await manager.callTool('guess', 'echo', { message: 'guessed' })).content).toEqual([
      { type: 'text', text: 'Echo: guessed' },
    ]);
  });

  it('uses Streamable HTTP for a url without type when the server speaks it', async () => {
    const { manager } = connect({ guess: { url: `${remote.url}/mcp`, headers: auth } });
    await manager.startAll();
    expect(manager.status()[0]).toMatchObject({ state: 'running', transport: 'http' });
  });

  it('reports a rejected token without falling back and without leaking it', async () => {
    const { manager } = connect({
      locked: { url: `${remote.url}/mcp`, headers: { Authorization: 'Bearer wrong-token-value' } },
    });
    await manager.startAll();
    const status = manager.status()[0];
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toMatch(/401/);
    expect(status?.lastError).not.toContain('wrong-token-value');
    expect(remote.requests).not.toContain('GET /sse');
  });

  it('fails calls with an error instead of hanging when the remote server goes away', async () => {
    const { manager } = connect({ remote: { type: 'http', url: `${remote.url}/mcp`, headers: auth, timeoutMs: 5000 } });
    await manager.startAll();
    await remote.close();
    const failure = await manager.callTool('remote', 'echo', { message: 'anyone?' }).catch((error: unknown) => error);
    expect(BackendError.isInstance(failure) || ServerNotRunningError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/remote/);
    // The broken connection is noticed and a reconnect is scheduled, instead of reporting `running` forever.
    expect(['crashed', 'starting', 'failed']).toContain(manager.status()[0]?.state);
    expect(manager.status()[0]?.lastError).toMatch(/call failed/);
    remote = await startRemoteServer();
  });

  it('reports a url where nothing listens and keeps the other servers', async () => {
    const { manager } = connect({
      nowhere: { type: 'http', url: 'http://127.0.0.1:9/mcp', startupTimeoutMs: 3000 },
      remote: { type: 'http', url: `${remote.url}/mcp`, headers: auth },
    });
    await manager.startAll();
    expect(manager.status().map((status) => status.state)).toEqual(['failed', 'running']);
    expect(manager.status()[0]?.lastError).toMatch(/nowhere/);
  });
});
