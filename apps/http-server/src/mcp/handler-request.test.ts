/**
 * The guard on `toHandlerRequest` (web-request-bridge.ts): the 2026-07-28 leg hands the SDK's `createMcpHandler` a
 * request with only a method, a URL and headers, where its type says a web `Request`. Each request the leg serves
 * goes here through the real handler with every other field refused (a read throws), so an SDK that starts reading
 * one fails this test rather than a user's call.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import { noSecrets } from '@search-mcp/shared';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { sendWebResponse, toHandlerRequest } from './web-request-bridge.js';

const revision = '2026-07-28';
const envelope = {
  [PROTOCOL_VERSION_META_KEY]: revision,
  [CLIENT_INFO_META_KEY]: { name: 'handler-request-test', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

/** Fields of the request the handler read, other than the three it is given (`signal` is read and is absent). */
const otherReads = new Set<string>();
const given = new Set<PropertyKey>(['method', 'url', 'headers', 'signal']);

/** The request `toHandlerRequest` builds, any read of another field recorded and refused. */
function guarded(request: FastifyRequest): Request {
  return new Proxy(toHandlerRequest(request), {
    get(target, property, receiver) {
      if (!given.has(property) && typeof property === 'string') {
        otherReads.add(property);
        throw new Error(`the SDK read Request.${property}, which toHandlerRequest does not give it`);
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

const handler = createMcpHandler(
  () => {
    const server = new Server({ name: 'handler-request-test', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    }));
    server.setRequestHandler('tools/call', async (request) => ({
      content: [{ type: 'text', text: String(request.params.arguments?.text) }],
    }));
    return server;
  },
  { legacy: 'reject' },
);

const app = Fastify();
app.post('/mcp', async (request, reply) => {
  const response = await handler.fetch(guarded(request), { parsedBody: request.body });
  await sendWebResponse(reply, response, noSecrets);
});
afterAll(async () => {
  await app.close();
  await handler.close();
});

async function post(body: unknown, headers: Record<string, string>) {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.body ? (response.json() as Record<string, unknown>) : null };
}

const modernHeaders = (method: string, name?: string) => ({
  'mcp-protocol-version': revision,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

describe('toHandlerRequest', () => {
  it("serves a tools/call and a tools/list through the SDK's handler, which reads nothing else of the request", async () => {
    const call = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'guarded' }, _meta: envelope },
      },
      modernHeaders('tools/call', 'echo'),
    );
    expect(call).toMatchObject({ status: 200, body: { id: 1, result: { content: [{ text: 'guarded' }] } } });
    const list = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope } },
      modernHeaders('tools/list'),
    );
    expect(list).toMatchObject({ status: 200, body: { id: 2, result: { tools: [{ name: 'echo' }] } } });
    expect([...otherReads]).toEqual([]);
  });

  it("answers the handler's refusals (a header that disagrees with the body, an unknown method) the same way", async () => {
    const mismatch = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope } },
      modernHeaders('tools/call'),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ id: 3, error: { code: expect.any(Number) } });
    const unknown = await post(
      { jsonrpc: '2.0', id: 4, method: 'no/such-method', params: { _meta: envelope } },
      modernHeaders('no/such-method'),
    );
    expect(unknown.body).toMatchObject({ id: 4, error: { code: -32601 } });
    expect([...otherReads]).toEqual([]);
  });

  it('takes a notification (answered 202, nothing read but the three fields)', async () => {
    const notification = await post(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, _meta: envelope } },
      modernHeaders('notifications/cancelled'),
    );
    expect(notification.status).toBe(202);
    expect([...otherReads]).toEqual([]);
  });

  it('refuses, in this guard, a read of any other field (the guard itself can fail)', () => {
    const app = Fastify();
    let read: unknown;
    app.post('/probe', async (request) => {
      try {
        read = guarded(request).body;
      } catch (error) {
        read = error instanceof Error ? error.message : error;
      }
      return {};
    });
    return app
      .inject({ method: 'POST', url: '/probe', payload: {} })
      .then(() => {
        expect(read).toBe('the SDK read Request.body, which toHandlerRequest does not give it');
        otherReads.delete('body');
      })
      .finally(() => app.close());
  });
});
