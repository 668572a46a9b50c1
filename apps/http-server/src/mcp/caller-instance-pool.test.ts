import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { CallerInstancePool, type CallerInstancePoolOptions } from './caller-instance-pool.js';

const revision = '2026-07-28';

/** A real SDK server answering `tools/list`, counted: how many were built and how many really ended. */
function serverKit() {
  const built: Server[] = [];
  let ended = 0;
  const build = () => {
    const server = new Server({ name: 'pool-test', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: [] }));
    server.onclose = () => {
      ended += 1;
    };
    built.push(server);
    return server;
  };
  return { built, build, ended: () => ended };
}

function listRequest(id: number) {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/list',
    params: {
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: revision,
        [CLIENT_INFO_META_KEY]: { name: 'pool-test-client', version: '1' },
        [CLIENT_CAPABILITIES_META_KEY]: {},
      },
    },
  };
  const request = new Request('http://pool.test/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify(body),
  });
  return { request, body };
}

/** The SDK's 2026-07-28 handler over the pool, as the modern leg wires it; the caller rides in `authInfo`. */
function handlerKit(options: CallerInstancePoolOptions = { idlePerCaller: 2 }) {
  const kit = serverKit();
  const pool = new CallerInstancePool<Server>(options);
  const handler = createMcpHandler(
    (context) => pool.acquire(String(context.authInfo?.clientId), context.requestInfo, kit.build),
    { legacy: 'reject' },
  );
  let nextId = 1;
  const ask = async (caller: string) => {
    const { request, body } = listRequest(nextId++);
    try {
      const response = await handler.fetch(request, {
        authInfo: { token: '', clientId: caller, scopes: [] },
        parsedBody: body,
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      return text;
    } finally {
      pool.release(request, 'answered');
    }
  };
  return { ...kit, pool, handler, ask };
}

describe('CallerInstancePool', () => {
  it("serves a caller's requests one after another on one instance, never ending it between them", async () => {
    const kit = handlerKit();
    for (let round = 0; round < 5; round += 1) expect(await kit.ask('alice')).toContain('"tools":[]');
    expect(kit.built).toHaveLength(1);
    expect(kit.ended()).toBe(0);
    kit.pool.close();
    expect(kit.ended()).toBe(1);
  });

  it('gives requests served at once instances of their own, and keeps no more ready than asked', async () => {
    const kit = handlerKit();
    await Promise.all(Array.from({ length: 4 }, () => kit.ask('alice')));
    expect(kit.built).toHaveLength(4);
    // Two kept ready (idlePerCaller), the others ended when their exchange did.
    expect(kit.ended()).toBe(2);
    await Promise.all(Array.from({ length: 2 }, () => kit.ask('alice')));
    expect(kit.built).toHaveLength(4);
    kit.pool.close();
    expect(kit.ended()).toBe(4);
  });

  it('keeps by default as many ready as the caller had served at once, within the total', async () => {
    // More at once than any fixed number the pool kept before (32): none is built and ended for a request.
    const busy = handlerKit({});
    await Promise.all(Array.from({ length: 40 }, () => busy.ask('alice')));
    expect(busy.built).toHaveLength(40);
    expect(busy.ended()).toBe(0);
    await Promise.all(Array.from({ length: 40 }, () => busy.ask('alice')));
    expect(busy.built).toHaveLength(40);
    expect(busy.ended()).toBe(0);
    busy.pool.close();
    expect(busy.ended()).toBe(40);
    // Past the total: bob's two are served, one of them kept (five ready in all), the other ended.
    const kit = handlerKit({ idleTotal: 5 });
    await Promise.all(Array.from({ length: 4 }, () => kit.ask('alice')));
    await Promise.all(Array.from({ length: 2 }, () => kit.ask('bob')));
    expect(kit.built).toHaveLength(6);
    expect(kit.ended()).toBe(1);
    kit.pool.close();
    expect(kit.ended()).toBe(6);
  });

  it("never lends one caller's instance to another", async () => {
    const kit = handlerKit();
    await kit.ask('alice');
    await kit.ask('bob');
    await kit.ask('alice');
    expect(kit.built).toHaveLength(2);
    kit.pool.close();
    expect(kit.ended()).toBe(2);
  });

  it('takes back an instance the handler made but never connected, and ends what comes back after close', async () => {
    const kit = serverKit();
    const pool = new CallerInstancePool<Server>();
    const { request } = listRequest(1);
    const first = pool.acquire('alice', request, kit.build);
    pool.release(request, 'answered');
    const again = listRequest(2).request;
    expect(pool.acquire('alice', again, kit.build)).toBe(first);
    pool.close();
    pool.release(again, 'answered');
    expect(kit.ended()).toBe(1);
  });

  it('ends the instance of a request whose client left mid-answer: its handler may still run, so it is never lent again', async () => {
    const kit = serverKit();
    let entered: () => void = () => {};
    const handlerEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let finish: () => void = () => {};
    const handlerMayFinish = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const build = () => {
      const server = kit.build();
      // A handler waiting on a backend (the client's leaving does not stop it from running to its end).
      server.setRequestHandler('tools/list', async () => {
        entered();
        await handlerMayFinish;
        return { tools: [] };
      });
      return server;
    };
    const pool = new CallerInstancePool<Server>();
    const handler = createMcpHandler(
      (context) => pool.acquire(String(context.authInfo?.clientId), context.requestInfo, build),
      { legacy: 'reject', responseMode: 'sse' },
    );
    const { request, body } = listRequest(1);
    const response = await handler.fetch(request, {
      authInfo: { token: '', clientId: 'alice', scopes: [] },
      parsedBody: body,
    });
    await handlerEntered;
    // The client leaves: its stream is cancelled before the answer, and the leg reports the exchange abandoned.
    await response.body?.cancel();
    pool.release(request, 'abandoned');
    expect(kit.ended()).toBe(1);
    const again = listRequest(2).request;
    expect(pool.acquire('alice', again, kit.build)).not.toBe(kit.built[0]);
    finish();
    pool.release(again, 'answered');
    pool.close();
  });
});
