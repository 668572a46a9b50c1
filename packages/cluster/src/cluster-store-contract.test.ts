import { randomUUID } from 'node:crypto';
import { createJsonLineLogger } from '@search-mcp/shared';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClusterMessage, ClusterStore } from './cluster-store.js';
import { ClusterStoreError } from './cluster-store-error.js';
import { createMemoryClusterStore } from './memory-cluster-store.js';
import { createRedisClusterStore } from './redis-cluster-store.js';

/**
 * The same cases for both stores (packages/cluster/README.md): what the in-process store does, Redis does too. Each
 * case gets two "replicas": two Redis stores on one real `redis-server`, or two views of one memory store.
 */
let redis: RedisServer;
const opened: ClusterStore[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ appendOnly: true });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await redis?.stop();
});

const kinds = [
  {
    kind: 'memory',
    replicas: async (): Promise<[ClusterStore, ClusterStore]> => {
      const first = createMemoryClusterStore({ shared: true });
      return [first, createMemoryClusterStore({ sameStateAs: first })];
    },
  },
  {
    kind: 'redis',
    replicas: async (): Promise<[ClusterStore, ClusterStore]> => {
      // A prefix per case: cases share one Redis and must not see each other's keys.
      const keyPrefix = `test-${randomUUID()}:`;
      return [
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
      ];
    },
  },
];

async function replicas(make: () => Promise<[ClusterStore, ClusterStore]>) {
  const pair = await make();
  opened.push(...pair);
  return pair;
}

/**
 * Subscribes and resolves once the subscription is live: it publishes a probe until one comes back. Probes are kept
 * out of `heard` (a late one may still arrive).
 */
async function listen(store: ClusterStore, channel: string) {
  const heard: ClusterMessage[] = [];
  let probed = false;
  const stop = store.subscribe(channel, (message) => {
    if ((message.body as { probe?: boolean } | null)?.probe === true) probed = true;
    else heard.push(message);
  });
  await vi.waitFor(
    async () => {
      if (!probed) await store.publish(channel, { probe: true });
      expect(probed).toBe(true);
    },
    { timeout: 10_000, interval: 50 },
  );
  return { heard, stop };
}

describe.each(kinds)('the $kind cluster store', ({ replicas: make }) => {
  it('stores JSON records that every replica reads, and writes one only when absent', async () => {
    const [one, two] = await replicas(make);
    expect(await one.getRecord('session:a')).toBeUndefined();
    await one.setRecord('session:a', { principal: 'alice', capabilities: { roots: {} } });
    expect(await two.getRecord('session:a')).toEqual({ principal: 'alice', capabilities: { roots: {} } });
    expect(await two.setRecordIfAbsent('session:a', { principal: 'bob' })).toBe(false);
    expect(await two.setRecordIfAbsent('session:b', 'second')).toBe(true);
    expect(await one.getRecord('session:b')).toBe('second');
    await two.deleteRecord('session:a');
    expect(await one.getRecord('session:a')).toBeUndefined();
  });

  it('expires a record after its time, and touching moves the expiry', async () => {
    const [one, two] = await replicas(make);
    await one.setRecord('short', 1, { ttlMs: 150 });
    await one.setRecord('kept', 2, { ttlMs: 150 });
    expect(await two.getRecord('short')).toBe(1);
    expect(await two.touchRecord('kept', 60_000)).toBe(true);
    await vi.waitFor(async () => expect(await two.getRecord('short')).toBeUndefined(), { timeout: 5000, interval: 25 });
    expect(await two.getRecord('kept')).toBe(2);
    expect(await two.touchRecord('short', 1000)).toBe(false);
  });

  it('counts across replicas in fixed windows: a running counter keeps its expiry', async () => {
    const [one, two] = await replicas(make);
    const first = await one.increment('requests', 1, 60_000);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(59_000);
    expect(first.ttlMs).toBeLessThanOrEqual(60_000);
    const second = await two.increment('requests', 2, 5000);
    expect(second.count).toBe(3);
    expect(second.ttlMs).toBeGreaterThan(5000);
    await one.increment('window', 1, 150);
    expect((await two.increment('window', 1, 150)).count).toBe(2);
    // Adding 0 reads the window: 0 once it has expired (and a new one began).
    await vi.waitFor(async () => expect((await one.increment('window', 0, 60_000)).count).toBe(0), {
      timeout: 5000,
      interval: 25,
    });
    expect(await two.increment('window', 1, 150)).toMatchObject({ count: 1 });
  });

  it('keeps sets of members that every replica sees', async () => {
    const [one, two] = await replicas(make);
    await one.addMember('sessions:alice', 's1');
    await two.addMember('sessions:alice', 's2');
    await two.addMember('sessions:alice', 's2');
    expect((await one.members('sessions:alice')).sort()).toEqual(['s1', 's2']);
    await one.removeMember('sessions:alice', 's1');
    expect(await two.members('sessions:alice')).toEqual(['s2']);
    await two.removeMember('sessions:alice', 's2');
    expect(await one.members('sessions:alice')).toEqual([]);
    await one.addMember('short-set', 'x', { ttlMs: 150 });
    expect(await two.members('short-set')).toEqual(['x']);
    await vi.waitFor(async () => expect(await two.members('short-set')).toEqual([]), { timeout: 5000, interval: 25 });
  });

  it("never shortens a set's time when a member is added with a shorter one; a longer one extends it", async () => {
    const [one, two] = await replicas(make);
    await one.addMember('long-set', 'a', { ttlMs: 60_000 });
    await two.addMember('long-set', 'b', { ttlMs: 100 });
    await one.addMember('growing-set', 'a', { ttlMs: 100 });
    await two.addMember('growing-set', 'b', { ttlMs: 60_000 });
    await one.addMember('short-set', 'a', { ttlMs: 100 });
    // Nothing to await but expiry itself: the short set going is the sign that 100 ms passed for the others too.
    await vi.waitFor(async () => expect(await two.members('short-set')).toEqual([]), { timeout: 5000, interval: 25 });
    expect((await two.members('long-set')).sort()).toEqual(['a', 'b']);
    expect((await one.members('growing-set')).sort()).toEqual(['a', 'b']);
  });

  it('writes a record unless its guarded field says it must stay (one atomic step)', async () => {
    const [one, two] = await replicas(make);
    const guard = { field: 'status', values: ['completed', 'failed'] };
    expect(one.setRecordUnless).toBeDefined();
    expect(await one.setRecordUnless?.('task', { status: 'working' }, guard, { ttlMs: 60_000 })).toBe(true);
    expect(await two.setRecordUnless?.('task', { status: 'completed', result: 1 }, guard)).toBe(true);
    expect(await one.setRecordUnless?.('task', { status: 'working' }, guard, { ttlMs: 60_000 })).toBe(false);
    expect(await two.setRecordUnless?.('task', { status: 'failed' }, guard)).toBe(false);
    expect(await one.getRecord('task')).toEqual({ status: 'completed', result: 1 });
    await one.setRecord('plain', 7);
    expect(await two.setRecordUnless?.('plain', { status: 'working' }, guard, { ttlMs: 150 })).toBe(true);
    expect(await one.getRecord('plain')).toEqual({ status: 'working' });
    await vi.waitFor(async () => expect(await one.getRecord('plain')).toBeUndefined(), { timeout: 5000, interval: 25 });
  });

  it("delivers a replica's messages to every replica's listeners, with the publisher's id", async () => {
    const [one, two] = await replicas(make);
    const { heard, stop } = await listen(two, 'tools-changed');
    await one.publish('tools-changed', { server: 'everything' });
    await vi.waitFor(() => expect(heard).toEqual([{ from: one.replicaId, body: { server: 'everything' } }]));
    expect(one.replicaId).not.toBe(two.replicaId);

    stop();
    const { heard: other } = await listen(two, 'other');
    await one.publish('tools-changed', { server: 'ignored' });
    await one.publish('other', 'last');
    // Messages on one connection arrive in order: once `last` is in, the unheard one would have been too.
    await vi.waitFor(() => expect(other.map((message) => message.body)).toEqual(['last']));
    expect(heard).toHaveLength(1);
  });

  it('answers ping while it is open, and refuses calls after close', async () => {
    const [one] = await replicas(make);
    expect(await one.ping()).toBe(true);
    await one.close();
    expect(await one.ping()).toBe(false);
    await expect(one.getRecord('anything')).rejects.toThrow(/closed/);
  });
});

describe('the Redis cluster store', () => {
  it('refuses a URL that is not redis:// with a clear error, and an unreachable Redis fast', async () => {
    await expect(createRedisClusterStore({ url: 'http://127.0.0.1:6379' })).rejects.toThrow(
      /cluster\.redis\.url must be a redis:\/\/ or rediss:\/\/ URL, not http:/,
    );
    await expect(createRedisClusterStore({ url: 'not a url' })).rejects.toSatisfy(ClusterStoreError.isInstance);
    const stopped = await startRedisServer();
    const { url, port } = stopped;
    await stopped.stop();
    const started = performance.now();
    const failure = createRedisClusterStore({ url: url.replace('redis://', 'redis://:hunter2@') });
    await expect(failure).rejects.toThrow(`Cannot connect to the cluster store's Redis at redis://127.0.0.1:${port}/0`);
    await expect(failure).rejects.not.toThrow(/hunter2/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('describes itself without the password', async () => {
    const store = await createRedisClusterStore({ url: redis.url.replace('/0', '/3') });
    opened.push(store);
    expect(store.description).toBe(`redis://127.0.0.1:${redis.port}/3`);
    expect(store.shared).toBe(true);
  });

  it('survives a Redis restart: unready while down, ready after, data and subscriptions kept, one log line', async () => {
    const lines: string[] = [];
    const logger = createJsonLineLogger({ write: (line) => lines.push(line) });
    const keyPrefix = `restart-${randomUUID()}:`;
    const one = await createRedisClusterStore({ url: redis.url, keyPrefix, logger, connectTimeoutMs: 1500 });
    const two = await createRedisClusterStore({ url: redis.url, keyPrefix });
    opened.push(one, two);
    const { heard } = await listen(two, 'reload');
    await one.setRecord('task:1', { state: 'completed', result: 42 });
    await one.increment('stats:calls', 5, 3_600_000);

    await redis.stopProcess();
    await vi.waitFor(async () => expect(await one.ping()).toBe(false), { timeout: 5000, interval: 25 });
    // A command while Redis is away fails within the store's bound, naming the store: it never hangs.
    const started = performance.now();
    await expect(one.getRecord('task:1')).rejects.toThrow(`The cluster store (redis://127.0.0.1:${redis.port}/0)`);
    expect(performance.now() - started).toBeLessThan(3000);

    await redis.start();
    await vi.waitFor(async () => expect(await one.ping()).toBe(true), { timeout: 10_000, interval: 50 });
    expect(await two.getRecord('task:1')).toEqual({ state: 'completed', result: 42 });
    expect((await two.increment('stats:calls', 1, 1000)).count).toBe(6);
    await vi.waitFor(
      async () => {
        await one.publish('reload', { generation: 2 });
        expect(heard.map((message) => message.body)).toContainEqual({ generation: 2 });
      },
      { timeout: 10_000, interval: 100 },
    );
    const lost = lines.filter((line) => line.includes('lost its Redis connection'));
    expect(lost).toHaveLength(1);
    expect(lines.filter((line) => line.includes('reconnected to Redis'))).toHaveLength(1);
  });

  it('hears every channel subscribed while its message connection is being set up', async () => {
    const keyPrefix = `setup-${randomUUID()}:`;
    const one = await createRedisClusterStore({ url: redis.url, keyPrefix });
    const two = await createRedisClusterStore({ url: redis.url, keyPrefix });
    opened.push(one, two);
    // One new channel per turn of the event loop while the connection opens: some land between its TCP connect and
    // its ready check, where ioredis 5 answered the SUBSCRIBE, failed the check and reconnected without it.
    const channels = Array.from({ length: 50 }, (_, index) => `channel-${index}`);
    const heard = new Set<string>();
    for (const channel of channels) {
      two.subscribe(channel, () => heard.add(channel));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.waitFor(
      async () => {
        for (const channel of channels) if (!heard.has(channel)) await one.publish(channel, 'hello');
        expect(channels.filter((channel) => !heard.has(channel))).toEqual([]);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('tries a refused SUBSCRIBE again until Redis accepts it, and says so in the log', async () => {
    const user = `limited-${randomUUID()}`;
    const admin = new Redis(redis.url);
    try {
      // A user with every command but no channel (Redis 7 ACL): its SUBSCRIBE is refused (NOPERM) until granted.
      await admin.call('ACL', 'SETUSER', user, 'on', '>secret', '~*', '+@all', 'resetchannels');
      const lines: string[] = [];
      let refused: () => void = () => {};
      const refusal = new Promise<void>((resolve) => {
        refused = resolve;
      });
      const logger = createJsonLineLogger({
        write: (line) => {
          lines.push(line);
          if (line.includes('could not subscribe')) refused();
        },
      });
      const keyPrefix = `refused-${randomUUID()}:`;
      const one = await createRedisClusterStore({ url: redis.url, keyPrefix });
      const two = await createRedisClusterStore({
        url: redis.url.replace('redis://', `redis://${user}:secret@`),
        keyPrefix,
        logger,
      });
      opened.push(one, two);
      const heard: unknown[] = [];
      two.subscribe('news', (message) => heard.push(message.body));
      await refusal;
      expect(lines.join('\n')).toMatch(/NOPERM/);

      await admin.call('ACL', 'SETUSER', user, 'allchannels');
      await vi.waitFor(
        async () => {
          await one.publish('news', 'heard after all');
          expect(heard).toContain('heard after all');
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      // Closed before the user goes: Redis drops its connections, which would reconnect without it.
      await Promise.all(opened.splice(0).map((store) => store.close()));
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });

  it('counts only in whole numbers, with a clear error otherwise', async () => {
    const store = await createRedisClusterStore({ url: redis.url, keyPrefix: `float-${randomUUID()}:` });
    opened.push(store);
    await expect(store.increment('calls', 0.5, 1000)).rejects.toThrow(/whole numbers/);
  });
});
