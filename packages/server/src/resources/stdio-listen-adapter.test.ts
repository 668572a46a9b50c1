import { EventEmitter } from 'node:events';
import { InMemoryTransport, type JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { silentLogger } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { modernEnvelope } from '../../test/stdio-entry-link.js';
import { subscribeListenResources, unsubscribeListenResources } from './listen-resource-subscriptions.js';
import type { ListenSubscriptionsHub } from './listen-subscriptions-hub.js';
import { type StdioListenAdapterOptions, withListenSubscriptions } from './stdio-listen-adapter.js';

// The adapter between the wire and the SDK's stdio entry (`serveStdio`), with a real entry and a real 2.x `Server` as
// the pinned instance, a bare peer as the client, and a hub of our own whose subscribe a test may hold: the order of
// what the client sees is the point (acknowledgement first, updates after, nothing for an ended stream).
const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';

class FakeGateway extends EventEmitter {
  readonly calls: string[] = [];
  /** When set, subscribes wait for it. */
  hold: Promise<void> | undefined;
  serverCapabilities(serverId: string) {
    return serverId === 'subs' ? { resources: { subscribe: true } } : { resources: {} };
  }
  async subscribeResource(serverId: string, uri: string) {
    await this.hold;
    this.calls.push(`subscribe ${serverId} ${uri}`);
  }
  async unsubscribeResource(serverId: string, uri: string) {
    this.calls.push(`unsubscribe ${serverId} ${uri}`);
    this.emit('unsubscribed');
  }
}

function fakeHub(gateway: FakeGateway): StdioListenAdapterOptions['hub'] {
  // `subs` serves res://subs/*, `plain` (no subscriptions) serves res://plain/*.
  const base = {
    gateway,
    routes: { candidates: async (uri: string) => [uri.split('/')[2] ?? ''] },
    visibleServerIds: async () => ['subs', 'plain'],
  } as unknown as ListenSubscriptionsHub;
  return {
    gateway: base.gateway,
    subscribeListen: (caller, uris) => subscribeListenResources(base, caller, uris, silentLogger),
    unsubscribeListen: (subscribed) => unsubscribeListenResources(base, subscribed, silentLogger),
    canSee: () => true,
  };
}

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function connect(gateway: FakeGateway, overrides: Partial<StdioListenAdapterOptions> = {}) {
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const transport = withListenSubscriptions(serverSide, {
    hub: fakeHub(gateway),
    callerOf: () => ({}),
    logger: silentLogger,
    ...overrides,
  });
  const entry = serveStdio(
    () => new Server({ name: 'front', version: '1' }, { capabilities: { resources: { subscribe: true } } }),
    { transport },
  );
  const received: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  peer.onmessage = (message) => {
    received.push(message as Record<string, unknown>);
    for (const wake of waiters) wake();
  };
  await peer.start();
  closers.push(async () => {
    await peer.close();
    await entry.close();
  });
  const next = (matches: (message: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const look = () => {
        const found = received.find(matches);
        if (!found) return;
        waiters.delete(look);
        resolve(found);
      };
      waiters.add(look);
      look();
    });
  const send = (message: Record<string, unknown>) => peer.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return { received, next, send };
}

const envelope = modernEnvelope({});
const initialize2025 = (id: number) => ({
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
});
const listenTo = (id: number, uri: string) => ({
  id,
  method: 'subscriptions/listen',
  params: { notifications: { resourceSubscriptions: [uri] }, _meta: envelope },
});
const ackOf = (id: number) => (message: Record<string, unknown>) =>
  message.method === 'notifications/subscriptions/acknowledged' &&
  (message.params as { _meta?: Record<string, unknown> })._meta?.[subscriptionIdKey] === id;

/** Initializes in 2025 (`id`, then `id + 1` listens): the entry's 2025 instance refuses it, and nothing is subscribed. */
async function expectServedIn2025(link: Awaited<ReturnType<typeof connect>>, gateway: FakeGateway, id: number) {
  await link.send(initialize2025(id));
  expect((await link.next((message) => message.id === id)).result).toMatchObject({ protocolVersion: '2025-11-25' });
  await link.send({ method: 'notifications/initialized' });
  await link.send(listenTo(id + 1, 'res://subs/1'));
  expect((await link.next((message) => message.id === id + 1)).error).toBeDefined();
  expect(gateway.calls).toEqual([]);
}

describe('withListenSubscriptions (stdio subscriptions/listen of a 2026-07-28 client)', () => {
  it('acknowledges the uris it subscribed, relays their updates stamped, and unsubscribes on cancel', async () => {
    const gateway = new FakeGateway();
    const link = await connect(gateway);
    const uris = ['res://subs/1', 'res://plain/1'];
    await link.send({
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: uris }, _meta: envelope },
    });
    const ack = await link.next(ackOf(1));
    expect((ack.params as { notifications: unknown }).notifications).toEqual({
      resourceSubscriptions: ['res://subs/1'],
    });
    expect(gateway.calls).toEqual(['subscribe subs res://subs/1']);

    gateway.emit('resource-updated', 'plain', { uri: 'res://plain/1' });
    gateway.emit('resource-updated', 'subs', { uri: 'res://subs/1' });
    const update = await link.next((message) => message.method === 'notifications/resources/updated');
    expect(update.params).toEqual({ uri: 'res://subs/1', _meta: { [subscriptionIdKey]: 1 } });
    expect(link.received.filter((message) => message.method === 'notifications/resources/updated')).toHaveLength(1);

    await link.send({ method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(gateway.calls).toEqual(['subscribe subs res://subs/1', 'unsubscribe subs res://subs/1']);
    expect(gateway.listenerCount('resource-updated')).toBe(0);
  });

  it('never passes on a stream cancelled while its subscriptions were made, and ends them once made', async () => {
    const gateway = new FakeGateway();
    let release = () => {};
    gateway.hold = new Promise((resolve) => {
      release = resolve;
    });
    const link = await connect(gateway);
    const listen = { notifications: { resourceSubscriptions: ['res://subs/2'] }, _meta: envelope };
    await link.send({ id: 2, method: 'subscriptions/listen', params: listen });
    await link.send({ method: 'notifications/cancelled', params: { requestId: 2 } });
    const unsubscribed = new Promise((resolve) => gateway.once('unsubscribed', resolve));
    release();
    await unsubscribed;
    expect(gateway.calls).toEqual(['subscribe subs res://subs/2', 'unsubscribe subs res://subs/2']);
    // A later stream on the connection is served as usual; the cancelled one never reached the entry.
    gateway.hold = undefined;
    await link.send({ id: 3, method: 'subscriptions/listen', params: listen });
    await link.next(ackOf(3));
    expect(link.received.some(ackOf(2))).toBe(false);
  });

  it('acknowledges no resources when subscribing fails, and logs why at debug', async () => {
    const gateway = new FakeGateway();
    const logged: Array<[string, unknown]> = [];
    const hub = { ...fakeHub(gateway), subscribeListen: async () => Promise.reject(new Error('backend gone')) };
    const logger = { ...silentLogger, debug: (message: string, fields?: unknown) => logged.push([message, fields]) };
    const link = await connect(gateway, { hub, logger });
    await link.send({
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: ['res://subs/1'] }, _meta: envelope },
    });
    const ack = await link.next(ackOf(1));
    // The entry leaves an empty filter out of the acknowledgement.
    expect((ack.params as { notifications: unknown }).notifications).toEqual({});
    expect(logged).toEqual([['could not subscribe the resources of a listen stream', { error: 'backend gone' }]]);
  });

  it('leaves a 2025 connection alone', async () => {
    const gateway = new FakeGateway();
    const link = await connect(gateway);
    await expectServedIn2025(link, gateway, 1);
  });

  it('leaves alone a connection that fell back to 2025 initialize after an enveloped server/discover', async () => {
    const gateway = new FakeGateway();
    const link = await connect(gateway);
    await link.send({ id: 1, method: 'server/discover', params: { _meta: envelope } });
    await link.next((message) => message.id === 1);
    await expectServedIn2025(link, gateway, 2);
  });

  it('leaves alone a fallback initialize that follows a refused request naming a revision the entry does not serve', async () => {
    // The entry refuses such a request and stays in the probe, so the initialize still makes the connection 2025.
    const gateway = new FakeGateway();
    const link = await connect(gateway);
    await link.send({ id: 1, method: 'server/discover', params: { _meta: envelope } });
    await link.next((message) => message.id === 1);
    const unsupported = { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    await link.send({ id: 2, method: 'tools/list', params: { _meta: unsupported } });
    expect((await link.next((message) => message.id === 2)).error).toBeDefined();
    await expectServedIn2025(link, gateway, 3);
  });

  it('serves the streams of a connection that opened with server/discover and stayed 2026-07-28', async () => {
    const gateway = new FakeGateway();
    const link = await connect(gateway);
    await link.send({ id: 1, method: 'server/discover', params: { _meta: envelope } });
    await link.next((message) => message.id === 1);
    await link.send(listenTo(2, 'res://subs/1'));
    await link.next(ackOf(2));
    expect(gateway.calls).toEqual(['subscribe subs res://subs/1']);
  });
});
