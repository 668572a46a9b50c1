import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  mainToken,
  mcpClient,
  readJsonLines,
  request,
  type Running,
  slowServer,
  type StartOptions,
  startApp,
  temporaryDirectory,
} from '../../test/http-test-support.js';

let directory: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  directory = await temporaryDirectory();
});

afterAll(async () => {
  await directory.remove();
});

/** The app over the slow fixture, whose backend log says when a call started and when it was cancelled. */
async function startWithEventLog(name: string, app: StartOptions['app'] = {}) {
  const events = join(directory.path, `${name}.events`);
  const auditFile = join(directory.path, `${name}.audit.jsonl`);
  const server = await startApp({
    auditFile,
    config: {
      mcpServers: { slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_EVENTS: events } } },
    },
    app,
  });
  const backendSaw = (line: string) =>
    eventually(async () => ((await readFile(events, 'utf8').catch(() => '')).includes(line) ? true : undefined));
  return { server, backendSaw, auditFile };
}

describe('a REST client that disconnects mid-call', () => {
  let running: Running;
  let backendSaw: (line: string) => Promise<true>;
  let auditFile: string;

  beforeAll(async () => {
    ({ server: running, backendSaw, auditFile } = await startWithEventLog('disconnect'));
  });

  afterAll(async () => {
    await running.close();
  });

  it('cancels the backend call, as /mcp does', async () => {
    const controller = new AbortController();
    const call = request(running.url, '/v1/tools/call', {
      body: { name: 'slow:wait', parameters: { ms: 8000 } },
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await backendSaw('started 8000');
    controller.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    // The backend hears `notifications/cancelled` and stops long before its 8 s are over.
    await backendSaw('cancelled 8000');
    const lines = await eventually(async () => {
      const read = await readJsonLines(auditFile);
      return read.some((line) => line.outcome === 'cancelled') ? read : undefined;
    });
    expect(lines.find((line) => line.outcome === 'cancelled')).toMatchObject({
      event: 'rest',
      toolKey: 'slow:wait',
      errorCode: 'CANCELLED',
    });
  });

  it('still answers the calls of clients that stay', async () => {
    const response = await request(running.url, '/v1/tools/call', {
      body: { name: 'slow:wait', parameters: { ms: 10 } },
    });
    expect(response.body).toMatchObject({ success: true, result: { content: [{ text: 'waited 10' }] } });
  });
});

describe('closing the app with calls in flight', () => {
  it('answers a REST call 503 and an MCP call with a JSON-RPC error instead of dropping them', async () => {
    const { server, backendSaw } = await startWithEventLog('close', { shutdownGraceMs: 200 });
    const { client } = await mcpClient(server.url);
    const rest = request(server.url, '/v1/tools/call', { body: { name: 'slow:wait', parameters: { ms: 9000 } } });
    const mcp = client
      .callTool({ name: 'tool_execute', arguments: { toolKey: 'slow:wait', arguments: { ms: 9001 } } })
      .catch((error: unknown) => error);
    await backendSaw('started 9000');
    await backendSaw('started 9001');
    const closed = server.close();
    const answer = await rest;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ success: false, code: 'SHUTTING_DOWN' });
    expect(answer.body?.error).toMatch(/shutting down/);
    expect(typeof answer.body?.executionTime).toBe('number');
    expect(await mcp).toMatchObject({ code: -32000, message: expect.stringMatching(/shutting down/) });
    await closed;
    await backendSaw('cancelled 9000');
  });

  it('lets calls that finish within the grace period finish normally', async () => {
    const { server, backendSaw } = await startWithEventLog('grace', { shutdownGraceMs: 5000 });
    const rest = request(server.url, '/v1/tools/call', { body: { name: 'slow:wait', parameters: { ms: 600 } } });
    await backendSaw('started 600');
    const closed = server.close();
    // New requests are turned away while the call in flight finishes.
    const late = await request(server.url, '/v1/tools');
    expect([late.status, late.body?.code]).toEqual([503, 'SHUTTING_DOWN']);
    expect((await rest).body).toMatchObject({ success: true, result: { content: [{ text: 'waited 600' }] } });
    await closed;
  });

  it('does not wait for the keep-alive of a connection whose request ends after the close began', async () => {
    // Node closes idle connections once, as the server starts closing; this request is still arriving then, and its
    // keep-alive connection (Fastify's timeout: 72 s) would hold the close long past the test's time limit.
    const server = await startApp({ backends: 'none' });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ query: 'report' });
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = once(socket, 'close');
    const arrived = once(server.http.app.server, 'request');
    socket.write(
      `POST /v1/tools/search HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${mainToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await arrived;
    // The request's head is in; its body follows once the server has stopped listening.
    const closed = server.close();
    await eventually(async () => (server.http.app.server.listening ? undefined : true));
    socket.write(body);
    await closed;
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('"query":"report"');
  });

  it('does not wait for a client stalled in the middle of a request once every request is answered', async () => {
    // Node's server.close() waits for a connection whose request head is still arriving (its header timeout: 60 s).
    const server = await startApp({ backends: 'none' });
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const ended = once(socket, 'close');
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    // A whole request on another connection, sent after those bytes: once it is answered, the server has read them.
    expect((await request(server.url, '/', { method: 'GET' })).status).toBe(200);
    await server.close();
    await ended;
  });
});
