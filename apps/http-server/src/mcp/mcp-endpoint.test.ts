import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alphaToken, mainToken, mcpClient, request, type Running, startApp } from '../../test/http-test-support.js';

const Loose = z.looseObject({});
const streamAccept = { accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP over Streamable HTTP', () => {
  let server: Running;

  beforeAll(async () => {
    server = await startApp();
  });

  afterAll(async () => {
    await server.close();
  });

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
    // The SDK client may drop a final notification it reads together with the response (typescript-sdk #2580).
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
        return (result.structuredContent as { results: Array<{ toolKey: string }> }).results.map((hit) => hit.toolKey);
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
      headers: { 'mcp-session-id': transport.sessionId ?? '', ...streamAccept },
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
      headers: { 'mcp-session-id': sessionId, ...streamAccept },
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
    const sessions = server.http.mcp.sessionCount;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      // Without "text/event-stream" in Accept the transport refuses the initialize (406): no session is opened.
      const refused = await request(server.url, '/mcp', { headers: { accept: 'application/json' }, body: initialize });
      expect(refused.status).toBe(406);
    }
    expect(server.runtime.manager.listenerCount('tools-changed')).toBe(baseline);
    expect(server.http.mcp.sessionCount).toBe(sessions);
  });

  it("lists the servers of the session's project in its instructions", async () => {
    const plain = await mcpClient(server.url);
    expect(plain.client.getInstructions()).toContain('- everything');
    const alpha = await mcpClient(server.url, { authorization: `Bearer ${mainToken}`, 'x-project-id': 'alpha' });
    expect(alpha.client.getInstructions()).not.toContain('- everything');
    await Promise.all([plain.client.close(), alpha.client.close()]);
  });

  it('answers a request without a session that is not an initialize with 400', async () => {
    const response = await request(server.url, '/mcp', {
      headers: streamAccept,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect([response.status, response.body?.error?.code]).toEqual([400, -32000]);
  });
});

describe('session slots shared between tokens', () => {
  it('replaces the oldest idle session of a token at its cap', async () => {
    const server = await startApp({ backends: 'none', app: { maxSessions: 10, maxSessionsPerToken: 2 } });
    try {
      const first = await mcpClient(server.url);
      const second = await mcpClient(server.url);
      await second.client.listTools();
      const third = await mcpClient(server.url);
      expect(server.http.mcp.sessionCount).toBe(2);
      // The first (least recently used) session was closed: its next request is refused as an unknown session.
      await expect(first.client.listTools()).rejects.toThrow(/404|Session not found/);
      expect((await second.client.listTools()).tools.length).toBe(2);
      expect((await third.client.listTools()).tools.length).toBe(2);
      await Promise.all([first, second, third].map(({ client }) => client.close()));
    } finally {
      await server.close();
    }
  });

  it('lets another token in when one token holds every slot', async () => {
    const server = await startApp({ backends: 'none', app: { maxSessions: 2, maxSessionsPerToken: 2 } });
    try {
      const main = [await mcpClient(server.url), await mcpClient(server.url)];
      const alpha = await mcpClient(server.url, { authorization: `Bearer ${alphaToken}`, 'x-project-id': 'alpha' });
      expect((await alpha.client.listTools()).tools.map((tool) => tool.name)).toContain('tool_discovery');
      expect(server.http.mcp.sessionCount).toBe(2);
      await Promise.all([...main, alpha].map(({ client }) => client.close()));
    } finally {
      await server.close();
    }
  });

  it('shares the slots equally between the tokens by default', async () => {
    // Two tokens, four slots: two each. The main token's third session replaces its oldest, alpha's stay.
    const server = await startApp({ backends: 'none', app: { maxSessions: 4 } });
    try {
      const alphaHeaders = { authorization: `Bearer ${alphaToken}`, 'x-project-id': 'alpha' };
      const alpha = [await mcpClient(server.url, alphaHeaders), await mcpClient(server.url, alphaHeaders)];
      const main = [await mcpClient(server.url), await mcpClient(server.url), await mcpClient(server.url)];
      expect(server.http.mcp.sessionCount).toBe(4);
      await expect(main[0]?.client.listTools()).rejects.toThrow(/404|Session not found/);
      for (const { client } of alpha) expect((await client.listTools()).tools.length).toBe(2);
      await Promise.all([...alpha, ...main].map(({ client }) => client.close()));
    } finally {
      await server.close();
    }
  });

  it('refuses a new session with 503 when every session of the token is busy', async () => {
    const server = await startApp({ backends: 'slow', app: { maxSessions: 4, maxSessionsPerToken: 1 } });
    try {
      const busy = await mcpClient(server.url);
      let started: () => void = () => {};
      const inFlight = new Promise<void>((resolve) => {
        started = resolve;
      });
      const call = busy.client.callTool(
        { name: 'tool_execute', arguments: { toolKey: 'slow:wait', arguments: { ms: 3000 } } },
        undefined,
        { onprogress: () => started() },
      );
      // The backend reports progress once it has the call: from then on the session is busy.
      await inFlight;
      const refused = await request(server.url, '/mcp', { headers: streamAccept, body: initialize });
      expect(refused.status).toBe(503);
      expect(refused.body?.error?.message).toMatch(/Too many open sessions for this token \(1\), none idle/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.stringify(await call)).toContain('waited 3000');
      await busy.client.close();
    } finally {
      await server.close();
    }
  });
});

describe('stateless mode', () => {
  it('serves requests without keeping sessions', async () => {
    const server = await startApp({ backends: 'none', app: { stateless: true } });
    try {
      const { client } = await mcpClient(server.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute']);
      const result = await client.callTool({ name: 'tool_discovery', arguments: { query: 'status report' } });
      expect(result.isError).not.toBe(true);
      expect(server.http.mcp.sessionCount).toBe(0);
      await client.close();
    } finally {
      await server.close();
    }
  });
});
