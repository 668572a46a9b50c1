import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alphaToken, mainToken, request, type Running, startApp } from '../../test/http-test-support.js';

describe('tokens, projects, origins', () => {
  let server: Running;

  beforeAll(async () => {
    server = await startApp({ backends: 'none' });
  });

  afterAll(async () => {
    await server.close();
  });

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

  it('checks the token before the body: an invalid body without a token is 401, not 400', async () => {
    const response = await request(server.url, '/v1/tools/search', { token: null, body: { query: 42 } });
    expect([response.status, response.body?.code]).toEqual([401, 'AUTHENTICATION_ERROR']);
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
    expect(((allowed.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey)).toEqual([
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
            incoming.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
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

describe('limits', () => {
  it('rate-limits per token with 429 and Retry-After', async () => {
    const server = await startApp({ backends: 'none', app: { rateLimitPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof request>> | undefined;
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
    const server = await startApp({ backends: 'none', app: { failedAuthenticationLimitPerMinute: 3 } });
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

  it('limits the failures, not the address: after 31 wrong tokens from loopback a valid token still gets in', async () => {
    // The default limit (30 a minute): on loopback one address is every local client.
    const server = await startApp({ backends: 'none' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 31; attempt += 1)
        statuses.push((await request(server.url, '/v1/tools', { token: `wrong-token-${attempt}` })).status);
      expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
      expect(statuses[30]).toBe(429);
      expect((await request(server.url, '/v1/tools', { token: 'wrong-token-again' })).status).toBe(429);
      const valid = await request(server.url, '/v1/tools');
      expect(valid.status).toBe(200);
      expect(Array.isArray(valid.body?.tools)).toBe(true);
      const mcp = await request(server.url, '/mcp', {
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
      }).catch((error: unknown) => error);
      // The initialize answer is an event stream (not JSON): the request helper cannot parse it, the server took it.
      expect(mcp).toBeInstanceOf(SyntaxError);
    } finally {
      await server.close();
    }
  });
});
