import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRequestId } from './era-probe.js';
import { maxRefusalBytes, probeOverHttp } from './http-era-probe.js';

/**
 * The era probe over HTTP against a real server on 127.0.0.1 answering the way servers of each kind do: a 2026
 * server's discover result as JSON or as an SSE stream, a 2025 server's refusals (405, 400 with a JSON-RPC error, a
 * `-32601` result), silence, and nothing listening.
 */

const discover = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
  resultType: 'complete',
};

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const routes: Record<string, Handler> = {
  '/json': (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: probeRequestId, result: discover }));
  },
  '/sse': (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    // A notification first, then the answer split across writes; the stream stays open (the probe cancels it).
    response.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
    const answer = JSON.stringify({ jsonrpc: '2.0', id: probeRequestId, result: discover });
    response.write(`event: message\ndata: ${answer.slice(0, 20)}`);
    setTimeout(() => response.write(`${answer.slice(20)}\n\n`), 20);
  },
  '/only-2025': (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: probeRequestId, error: { code: -32601, message: 'nope' } }));
  },
  '/stateful-2025': (_request, _body, response) => {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Server not initialized' } }),
    );
  },
  '/refused-2026': (_request, _body, response) => refuseVersion(response, ['2026-07-28']),
  '/refused-other': (_request, _body, response) => refuseVersion(response, ['2099-01-01']),
  // A `-32022` refusal's start, then a message that never ends: no refusal, and no wait for its end.
  '/endless-400': (_request, _body, response) => {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.write(`{"jsonrpc":"2.0","id":${JSON.stringify(probeRequestId)},"error":{"code":-32022,"message":"`);
    response.write('x'.repeat(maxRefusalBytes + 1));
  },
  // A whole `-32022` refusal listing 2026-07-28, padded past the cap: not read, so not a refusal.
  '/padded-refusal': (_request, _body, response) => {
    response.writeHead(400, { 'content-type': 'application/json' });
    const data = { supported: ['2026-07-28'], padding: 'x'.repeat(maxRefusalBytes) };
    response.end(
      JSON.stringify({ jsonrpc: '2.0', id: probeRequestId, error: { code: -32022, message: 'Unsupported', data } }),
    );
  },
  '/sse-only': (_request, _body, response) => {
    response.writeHead(405).end();
  },
  '/silent': () => {
    // Never answers.
  },
};

/** A 400 with `-32022`, as a modern server refuses a request in a revision it does not take. */
function refuseVersion(response: ServerResponse, supported: string[]) {
  response.writeHead(400, { 'content-type': 'application/json' });
  const data = { supported, requested: '2026-07-28' };
  response.end(
    JSON.stringify({ jsonrpc: '2.0', id: probeRequestId, error: { code: -32022, message: 'Unsupported', data } }),
  );
}

let server: Server;
let origin: string;
const seen: Array<{ path: string; headers: IncomingMessage['headers']; body: unknown }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const path = request.url ?? '/';
      seen.push({ path, headers: request.headers, body: JSON.parse(body) });
      (routes[path] ?? ((_r, _b, reply: ServerResponse) => reply.writeHead(404).end()))(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const probe = (path: string, timeoutMs = 5000) =>
  probeOverHttp(new URL(`${origin}${path}`), {
    clientInfo: { name: 'probe-test', version: '1' },
    headers: { authorization: 'Bearer token' },
    timeoutMs,
  });

describe('probeOverHttp', () => {
  it('sends server/discover with the 2026-07-28 headers, envelope and the entry headers', async () => {
    await probe('/json');
    const request = seen.at(-1);
    expect(request?.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
      authorization: 'Bearer token',
      'content-type': 'application/json',
    });
    expect(request?.body).toEqual({
      jsonrpc: '2.0',
      id: probeRequestId,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'probe-test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
  });

  it('reads a 2026 server as modern, from JSON and from an SSE stream', async () => {
    expect(await probe('/json')).toEqual({ era: 'modern', discover });
    expect(await probe('/sse')).toEqual({ era: 'modern', discover });
  });

  it('reads a 400 -32022 refusal listing 2026-07-28 as modern (without a discover result)', async () => {
    expect(await probe('/refused-2026')).toEqual({ era: 'modern' });
    expect(await probe('/refused-other')).toEqual({ era: 'legacy', reason: 'answered', httpStatus: 400 });
  });

  it('reads no more than maxRefusalBytes of a 400 body: a longer one is no refusal, an endless one no wait', async () => {
    expect(await probe('/padded-refusal')).toEqual({ era: 'legacy', reason: 'answered', httpStatus: 400 });
    // The probe's wait (5 s) would read as `silent`: it is the cap that ends the read.
    expect(await probe('/endless-400')).toEqual({ era: 'legacy', reason: 'answered', httpStatus: 400 });
  });

  it('reads every refusal as legacy, with the status of an HTTP refusal', async () => {
    expect(await probe('/only-2025')).toEqual({ era: 'legacy', reason: 'answered' });
    expect(await probe('/stateful-2025')).toEqual({ era: 'legacy', reason: 'answered', httpStatus: 400 });
    expect(await probe('/sse-only')).toEqual({ era: 'legacy', reason: 'answered', httpStatus: 405 });
  });

  it('gives up on silence after its wait, and on a url where nothing listens', async () => {
    expect(await probe('/silent', 200)).toEqual({ era: 'legacy', reason: 'silent' });
    expect(
      await probeOverHttp(new URL('http://127.0.0.1:9/mcp'), {
        clientInfo: { name: 'probe-test', version: '1' },
        headers: {},
        timeoutMs: 5000,
      }),
    ).toEqual({ era: 'legacy', reason: 'unreachable' });
  });

  it('rejects with the reason of the connect deadline', async () => {
    const deadline = new AbortController();
    const probing = probeOverHttp(new URL(`${origin}/silent`), {
      clientInfo: { name: 'probe-test', version: '1' },
      headers: {},
      timeoutMs: 5000,
      signal: deadline.signal,
    });
    deadline.abort(new Error('start-up took too long'));
    await expect(probing).rejects.toThrow('start-up took too long');
  });
});
