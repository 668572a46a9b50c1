import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import type { ApiError } from './api-error.js';

/** A tiny real HTTP server answering like search-mcp-http's REST API does (apps/http-server/README.md). */
let server: Server;
let baseUrl: string;
const seen: Array<{ method?: string; url?: string; authorization?: string; body: string }> = [];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body });
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    switch (request.url) {
      case '/v1/servers':
        return json(200, { servers: [{ id: 'a', state: 'running' }] });
      case '/v1/servers/a/restart':
        return json(403, { success: false, error: 'This action needs an admin token', code: 'FORBIDDEN' });
      case '/v1/expired':
        return json(401, { success: false, error: 'The token has expired', code: 'AUTHENTICATION_ERROR' });
      case '/v1/nested':
        return json(400, { error: { message: 'Nested message', code: 'NESTED' } });
      case '/v1/proxy':
        response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
        return response.end('<html><body>upstream down</body></html>');
      case '/v1/not-json':
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('hello');
      default:
        return json(404, {
          success: false,
          error: `Route ${request.method}:${request.url} not found`,
          code: 'NOT_FOUND',
        });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('ApiClient', () => {
  it('sends the bearer token and JSON, and reads JSON', async () => {
    const client = new ApiClient({ baseUrl, token: () => 'secret-token' });
    expect(await client.get('/v1/servers')).toEqual({ servers: [{ id: 'a', state: 'running' }] });
    await failure(client.post('/v1/tools/search', { query: 'echo' }));
    expect(seen.slice(-2)).toEqual([
      { method: 'GET', url: '/v1/servers', authorization: 'Bearer secret-token', body: '' },
      { method: 'POST', url: '/v1/tools/search', authorization: 'Bearer secret-token', body: '{"query":"echo"}' },
    ]);
  });

  it("carries the server's message and code, and marks 403 as needing an admin", async () => {
    const client = new ApiClient({ baseUrl, token: () => 'project-token' });
    const error = await failure(client.post('/v1/servers/a/restart'));
    expect([error.status, error.message, error.code, error.isForbidden]).toEqual([
      403,
      'This action needs an admin token',
      'FORBIDDEN',
      true,
    ]);
    const nested = await failure(client.get('/v1/nested'));
    expect([nested.status, nested.message, nested.code]).toEqual([400, 'Nested message', 'NESTED']);
  });

  it('tells the app about a 401 so it can return to sign-in with the message', async () => {
    const heard: string[] = [];
    const client = new ApiClient({ baseUrl, token: () => 'old', onUnauthorized: (error) => heard.push(error.message) });
    const error = await failure(client.get('/v1/expired'));
    expect([error.isUnauthorized, heard]).toEqual([true, ['The token has expired']]);
  });

  it('turns an HTML error page, a body that is not JSON and an unreachable server into readable errors', async () => {
    const client = new ApiClient({ baseUrl, token: () => undefined });
    expect((await failure(client.get('/v1/proxy'))).message).toBe('HTTP 502 Bad Gateway');
    expect((await failure(client.get('/v1/not-json'))).message).toContain('not JSON');
    expect(seen.at(-1)?.authorization).toBeUndefined();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await failure(
      new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: () => 'x' }).get('/'),
    );
    expect([unreachable.status, unreachable.message]).toEqual([0, expect.stringContaining('could not be reached')]);
  });
});
