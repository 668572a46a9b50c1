/**
 * The connections of `ConnectedModernCalls` over a real SDK server and Fastify: when they close (unused, past the
 * idle cap, their instance gone) and what a request in flight then gets. How answers look against the SDK's handler is
 * test/connected-modern-calls-http.test.ts.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import { connect } from 'node:net';
import { noSecrets } from '@search-mcp/shared';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectedModernCalls, type ConnectedModernCallsOptions } from './connected-modern-calls.js';

const revision = '2026-07-28';

/** Real SDK servers with an `echo` tool and a `close-me` tool (closes its own server, never answers), counted. */
function serverKit() {
  const built: Server[] = [];
  const closed: Server[] = [];
  const waiters: Array<() => void> = [];
  const build = () => {
    const server = new Server({ name: 'connected-test', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: [] }));
    server.setRequestHandler('tools/call', async (request, context) => {
      if (request.params.name === 'which-id')
        return { content: [{ type: 'text', text: JSON.stringify(context.mcpReq.id) }] };
      if (request.params.name === 'close-me') {
        void server.close();
        return new Promise<never>(() => {});
      }
      return { content: [{ type: 'text', text: String(request.params.arguments?.text) }] };
    });
    server.onclose = () => {
      closed.push(server);
      for (const wake of waiters.splice(0)) wake();
    };
    built.push(server);
    return server;
  };
  /** Resolves once `count` servers have closed. */
  const closedCount = async (count: number) => {
    while (closed.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { built, closed, build, closedCount };
}

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A Fastify app whose `/mcp/:caller` serves every request on the connection of `:caller`. */
function appKit(options: Partial<ConnectedModernCallsOptions> = {}) {
  const kit = serverKit();
  const calls = new ConnectedModernCalls({ redactor: noSecrets, ...options });
  const app = Fastify();
  app.post<{ Params: { caller: string } }>('/mcp/:caller', async (request, reply) => {
    const call = calls.takes(request);
    if (!call) return reply.code(418).send({ taken: false });
    await calls.serve(request.params.caller, kit.build, call, reply);
  });
  apps.push(app, { close: () => calls.close() });
  const ask = async (caller: string, name: string, text = 'hi', id: string | number = 1) => {
    const response = await app.inject({
      method: 'POST',
      url: `/mcp/${caller}`,
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': revision,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      payload: {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name,
          arguments: { text },
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: revision,
            [CLIENT_INFO_META_KEY]: { name: 'connected-test-client', version: '1' },
            [CLIENT_CAPABILITIES_META_KEY]: {},
          },
        },
      },
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  return { ...kit, calls, ask };
}

describe('ConnectedModernCalls', () => {
  it("serves one caller's requests on one connected instance, and other callers on their own", async () => {
    const kit = appKit();
    for (const text of ['one', 'two', 'three']) {
      expect(await kit.ask('alice', 'echo', text)).toMatchObject({
        status: 200,
        body: { id: 1, result: { content: [{ text }] } },
      });
    }
    await kit.ask('bob', 'echo');
    expect(kit.built).toHaveLength(2);
    expect(kit.closed).toHaveLength(0);
  });

  it('closes a connection nobody used for idleMs, and opens a new one for the next request', async () => {
    const kit = appKit({ idleMs: 50 });
    await kit.ask('alice', 'echo');
    await kit.closedCount(1);
    expect(kit.closed[0]).toBe(kit.built[0]);
    expect(await kit.ask('alice', 'echo', 'again')).toMatchObject({
      body: { result: { content: [{ text: 'again' }] } },
    });
    expect(kit.built).toHaveLength(2);
  });

  it('keeps at most idleTotal unused connections, closing the least recently used first', async () => {
    const kit = appKit({ idleTotal: 1 });
    await kit.ask('alice', 'echo');
    await kit.ask('bob', 'echo');
    await kit.closedCount(1);
    expect(kit.closed).toEqual([kit.built[0]]);
  });

  it('answers a request in flight with an internal error when its instance closes, and serves the next on a new one', async () => {
    const kit = appKit();
    expect(await kit.ask('alice', 'close-me')).toMatchObject({
      status: 200,
      body: { id: 1, error: { code: -32603, message: 'The server instance closed' } },
    });
    expect(await kit.ask('alice', 'echo', 'after')).toMatchObject({
      body: { result: { content: [{ text: 'after' }] } },
    });
    expect(kit.built).toHaveLength(2);
  });

  it("runs a request under its client's id, and under one of its own only when that id is in flight there", async () => {
    const kit = appKit();
    expect(await kit.ask('alice', 'which-id', 'x', 'client-7')).toMatchObject({
      body: { id: 'client-7', result: { content: [{ text: '"client-7"' }] } },
    });
    expect(await kit.ask('alice', 'which-id', 'x', 42)).toMatchObject({
      body: { id: 42, result: { content: [{ text: '42' }] } },
    });
    // The same id again once the first is answered: the client's own again.
    expect(await kit.ask('alice', 'which-id', 'x', 42)).toMatchObject({
      body: { result: { content: [{ text: '42' }] } },
    });
  });

  it('ends an instance that never served a request (its only call refused first) when its connection closes', async () => {
    const kit = serverKit();
    const calls = new ConnectedModernCalls({ redactor: noSecrets, idleMs: 50 });
    apps.push({ close: () => calls.close() });
    // What the leg does for a call whose Mcp-Param-* headers disagree: the instance is looked at, the call not sent.
    calls.serverFor('alice', kit.build);
    await kit.closedCount(1);
    expect(kit.closed).toEqual([kit.built[0]]);
  });

  it('leaves a request it does not take to its caller (a notification here)', async () => {
    const kit = appKit();
    const app = Fastify();
    apps.push(app);
    let taken: unknown = 'unset';
    app.post('/probe', async (request) => {
      taken = kit.calls.takes(request);
      return {};
    });
    await app.inject({
      method: 'POST',
      url: '/probe',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': revision,
        'mcp-method': 'notifications/cancelled',
      },
      payload: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    });
    expect(taken).toBeUndefined();
  });

  it('holds a flooding instance back while the client reads nothing, and lets it finish once the client reads', async () => {
    const total = 4000;
    const chunk = 'x'.repeat(4096);
    let sent = 0;
    /**
     * Resolves with how many went out when a notification is first still unsent a whole event-loop turn after it was
     * handed over (a write that goes through settles within the turn), or with `total` if that never happens.
     */
    let held: (sentBefore: number) => void = () => {};
    const firstHold = new Promise<number>((resolve) => {
      held = resolve;
    });
    const build = () => {
      const server = new Server({ name: 'flood-test', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', async (request, context) => {
        const progressToken = request.params._meta?.progressToken ?? 'flood';
        for (let index = 0; index < total; index += 1) {
          const sending = context.mcpReq
            .notify({ method: 'notifications/progress', params: { progressToken, progress: index, message: chunk } })
            .then(() => 'sent' as const);
          const turn = new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')));
          if ((await Promise.race([sending, turn])) === 'waiting') held(sent);
          await sending;
          sent += 1;
        }
        held(total);
        return { content: [{ type: 'text', text: 'flooded' }] };
      });
      return server;
    };
    const calls = new ConnectedModernCalls({ redactor: noSecrets });
    const app = Fastify();
    app.post('/mcp', async (request, reply) => {
      const call = calls.takes(request);
      if (!call) return reply.code(418).send();
      await calls.serve('flooder', build, call, reply);
    });
    apps.push(app, { close: () => calls.close() });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'flood',
        arguments: {},
        _meta: {
          progressToken: 'flood',
          [PROTOCOL_VERSION_META_KEY]: revision,
          [CLIENT_INFO_META_KEY]: { name: 'slow-reader', version: '1' },
          [CLIENT_CAPABILITIES_META_KEY]: {},
        },
      },
    });
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMcp-Protocol-Version: ${revision}\r\n` +
        `Mcp-Method: tools/call\r\nMcp-Name: flood\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const sentBeforeHold = await firstHold;
    expect(sentBeforeHold).toBeGreaterThan(0);
    expect(sentBeforeHold).toBeLessThan(total);
    expect(sent).toBe(sentBeforeHold);
    let received = '';
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (data: Buffer) => {
        received = (received + data.toString('utf8')).slice(-4096);
        if (received.includes('"text":"flooded"')) resolve();
      });
    });
    socket.resume();
    await answered;
    socket.destroy();
    expect(sent).toBe(total);
  });
});
