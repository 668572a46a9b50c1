import { randomUUID } from 'node:crypto';
import { errorMessage, type Logger, silentLogger } from '@search-mcp/shared';
import type { Redis } from 'ioredis';
import type { ClusterMessage, ClusterMessageListener, ClusterStore, CounterValue } from './cluster-store.js';
import { ClusterStoreError } from './cluster-store-error.js';
import { watchRedisConnection } from './redis-connection-watch.js';
import { parseRedisUrl } from './redis-url.js';

export interface RedisClusterStoreSettings {
  /** `redis://[:password@]host[:port][/db]` or `rediss://…` (TLS): Redis 7 or Valkey. */
  url: string;
  /** Put before every key and channel, so several deployments can share one Redis. Default `search-mcp:`. */
  keyPrefix?: string;
  /** Where outages and reconnections are logged (one line each). Default: nowhere. */
  logger?: Logger;
  /**
   * How long the first connection may take, and how long a command waits for Redis while the connection is being
   * re-established before it fails with a `ClusterStoreError`. Default 5,000 ms.
   */
  connectTimeoutMs?: number;
}

const defaultKeyPrefix = 'search-mcp:';
const defaultConnectTimeoutMs = 5000;
/** The longest pause between two reconnect attempts: a restarted Redis is found within this. */
const maxReconnectDelayMs = 2000;
/** The first pause before a failed SUBSCRIBE is tried again, and the longest (the pause doubles in between). */
const resubscribeDelayMs = 500;
const maxResubscribeDelayMs = 30_000;

/**
 * Adds to a counter and answers `[count, ttlMs]` in one step: a counter this call creates expires `ttlMs` from now,
 * a running one keeps its expiry (the fixed windows of rate limits and statistics, packages/cluster/README.md).
 */
const incrementScript = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}
`;

/**
 * Writes `ARGV[1]` unless the JSON object under the key has its field `ARGV[2]` equal to one of the JSON values in
 * `ARGV[4]`; `ARGV[3]` is the expiry in ms, or 0 for none. Answers 1 when it wrote.
 */
const setUnlessScript = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, decoded = pcall(cjson.decode, current)
  if ok and type(decoded) == 'table' then
    local field = decoded[ARGV[2]]
    for _, kept in ipairs(cjson.decode(ARGV[4])) do
      if field == kept then return 0 end
    end
  end
end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return 1
`;

type ScriptedRedis = Redis & {
  clusterIncrement(key: string, by: number, ttlMs: number): Promise<[number, number]>;
  clusterSetUnless(key: string, text: string, field: string, ttlMs: number, values: string): Promise<number>;
};

/**
 * The store `search-mcp-http` replicas share, in Redis (`cluster: { redis: { url } }` in the config). Connects
 * before it answers, so a wrong URL or an unreachable Redis fails at start with a clear error. Afterwards it
 * reconnects forever; while Redis is away, commands wait at most `connectTimeoutMs` and then fail (never hang), and
 * `ping()` answers false at once. Messages travel on a second connection, whose subscriptions the store renews each
 * time it (re)connects, and tries again when one fails.
 */
export async function createRedisClusterStore(settings: RedisClusterStoreSettings): Promise<ClusterStore> {
  const { url, description } = parseRedisUrl(settings.url);
  const prefix = settings.keyPrefix ?? defaultKeyPrefix;
  const timeoutMs = settings.connectTimeoutMs ?? defaultConnectTimeoutMs;
  const logger = (settings.logger ?? silentLogger).child({ component: 'cluster-store', store: description });
  const replicaId = randomUUID();

  const options = {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Commands wait in the offline queue across reconnects; `commandTimeout` bounds that wait.
    maxRetriesPerRequest: null,
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 10), maxReconnectDelayMs),
  };
  // Loaded only here: every Search MCP process imports this package, and only a replica with `cluster` talks to Redis
  // (ioredis costs a one-shot command ~0.1 s of start-up).
  const { Redis: RedisClient } = await import('ioredis');
  const client = new RedisClient(url, options) as ScriptedRedis;
  client.defineCommand('clusterIncrement', { numberOfKeys: 1, lua: incrementScript });
  client.defineCommand('clusterSetUnless', { numberOfKeys: 1, lua: setUnlessScript });
  watchRedisConnection(client, logger, 'commands');
  await connectFirst(client, description, timeoutMs);

  let subscriber: Redis | undefined;
  const listeners = new Map<string, Set<ClusterMessageListener>>();
  /**
   * Subscriptions not yet confirmed: a publish waits for them (each for at most `timeoutMs`), so this store's own
   * listeners hear it.
   */
  const pendingSubscriptions = new Set<Promise<unknown>>();
  /** What `subscribe` waits for while the message connection is not ready: the SUBSCRIBE sent once it is. */
  let renewal: { promise: Promise<unknown>; resolve: (subscribed: Promise<unknown>) => void } | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failedAttempts = 0;
  let closed = false;

  const key = (name: string) => `${prefix}${name}`;
  const run = async <Result>(operation: string, command: () => Promise<Result>): Promise<Result> => {
    if (closed) throw new ClusterStoreError({ message: `The cluster store (${description}) is closed` });
    try {
      return await command();
    } catch (error) {
      throw new ClusterStoreError({
        message: `The cluster store (${description}) could not ${operation}: ${errorMessage(error)}`,
        cause: error,
      });
    }
  };
  const positive = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));

  /**
   * Messages travel on a connection of their own, opened by the first `subscribe`. Its subscriptions are kept here,
   * not by ioredis (`autoResubscribe: false`): a SUBSCRIBE is sent only while the connection is ready, and each time it
   * becomes ready (the first time and after every reconnect) it subscribes to every channel that has listeners. A
   * SUBSCRIBE sent while ioredis 5 still sets the connection up answers before its ready check, whose INFO then fails
   * in subscriber mode; ioredis reconnects without the subscriptions it had confirmed (redis/ioredis#2037), and the
   * replica stayed deaf to its channels for good.
   */
  const subscriberConnection = (): Redis => {
    if (subscriber) return subscriber;
    const connection = client.duplicate({ lazyConnect: false, autoResubscribe: false });
    watchRedisConnection(connection, logger, 'messages');
    connection.on('message', (channel: string, text: string) => {
      const listening = listeners.get(channel.slice(prefix.length));
      if (!listening) return;
      let message: ClusterMessage;
      try {
        message = JSON.parse(text) as ClusterMessage;
      } catch {
        logger.warn('ignored a cluster message that is not JSON', { channel });
        return;
      }
      for (const listener of [...listening]) {
        try {
          listener({ from: message.from, body: message.body });
        } catch (error) {
          logger.warn('a cluster message listener failed', { channel, error: errorMessage(error) });
        }
      }
    });
    connection.on('ready', () => {
      // `ready` comes a tick after the status: the connection may be gone again, and then the next `ready` renews.
      if (closed || connection.status !== 'ready') return;
      const waiting = renewal;
      renewal = undefined;
      const subscribed = subscribeNow([...listeners.keys()]);
      waiting?.resolve(subscribed);
    });
    subscriber = connection;
    return connection;
  };
  /**
   * Sends one SUBSCRIBE for `channels` when the message connection is ready (else its next `ready` does). One that
   * fails on a ready connection (Redis too slow for `commandTimeout`, or refusing) is tried again, every channel with
   * listeners, after a pause that doubles up to `maxResubscribeDelayMs`: a replica never stays deaf.
   */
  const subscribeNow = (channels: readonly string[]): Promise<unknown> => {
    const connection = subscriber;
    if (closed || !connection || connection.status !== 'ready' || channels.length === 0) return Promise.resolve();
    return connection.subscribe(...channels.map(key)).then(
      () => {
        failedAttempts = 0;
      },
      (error: unknown) => {
        if (closed) return;
        const delayMs = Math.min(resubscribeDelayMs * 2 ** failedAttempts, maxResubscribeDelayMs);
        failedAttempts += 1;
        logger.warn('could not subscribe to cluster channels; trying again', {
          channels: channels.join(', '),
          error: errorMessage(error),
          retryInMs: delayMs,
        });
        if (retryTimer) return;
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          void subscribeNow([...listeners.keys()]);
        }, delayMs);
        retryTimer.unref();
      },
    );
  };
  /** Resolves once `channel` is subscribed: now when the message connection is ready, else when it next is. */
  const subscribed = (channel: string): Promise<unknown> => {
    const connection = subscriberConnection();
    if (connection.status === 'ready') return subscribeNow([channel]);
    if (!renewal) {
      let resolve: (subscribed: Promise<unknown>) => void = () => {};
      const promise = new Promise<unknown>((settle) => {
        resolve = settle;
      });
      renewal = { promise, resolve };
    }
    return renewal.promise;
  };
  /** Keeps `command` among the pending subscriptions until it settles, at most `timeoutMs`: a publish never hangs. */
  const track = (command: Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    const pending = Promise.race([
      command,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      }),
    ]).finally(() => {
      clearTimeout(timer);
      pendingSubscriptions.delete(pending);
    });
    pendingSubscriptions.add(pending);
  };

  return {
    description,
    shared: true,
    replicaId,

    getRecord<Value>(name: string) {
      return run(`read ${name}`, async () => {
        const text = await client.get(key(name));
        return text === null ? undefined : (JSON.parse(text) as Value);
      });
    },
    setRecord(name, value, writeOptions) {
      return run(`write ${name}`, async () => {
        const text = JSON.stringify(value ?? null);
        if (writeOptions?.ttlMs !== undefined) await client.set(key(name), text, 'PX', positive(writeOptions.ttlMs));
        else await client.set(key(name), text);
      });
    },
    setRecordIfAbsent(name, value, writeOptions) {
      return run(`write ${name}`, async () => {
        const text = JSON.stringify(value ?? null);
        const answer =
          writeOptions?.ttlMs !== undefined
            ? await client.set(key(name), text, 'PX', positive(writeOptions.ttlMs), 'NX')
            : await client.set(key(name), text, 'NX');
        return answer === 'OK';
      });
    },
    setRecordUnless(name, value, guard, writeOptions) {
      return run(`write ${name}`, async () => {
        const ttlMs = writeOptions?.ttlMs !== undefined ? positive(writeOptions.ttlMs) : 0;
        const text = JSON.stringify(value ?? null);
        return (await client.clusterSetUnless(key(name), text, guard.field, ttlMs, JSON.stringify(guard.values))) === 1;
      });
    },
    touchRecord(name, ttlMs) {
      return run(`touch ${name}`, async () => (await client.pexpire(key(name), positive(ttlMs))) === 1);
    },
    deleteRecord(name) {
      return run(`delete ${name}`, async () => {
        await client.del(key(name));
      });
    },

    increment(name, by, ttlMs): Promise<CounterValue> {
      if (!Number.isSafeInteger(by)) {
        return Promise.reject(
          new ClusterStoreError({ message: `The cluster store counts in whole numbers: cannot add ${by} to ${name}` }),
        );
      }
      return run(`count ${name}`, async () => {
        const [count, left] = await client.clusterIncrement(key(name), by, positive(ttlMs));
        return { count: Number(count), ttlMs: Number(left) };
      });
    },

    addMember(name, member, writeOptions) {
      return run(`add to ${name}`, async () => {
        if (writeOptions?.ttlMs === undefined) {
          await client.sadd(key(name), member);
          return;
        }
        // NX gives a new set its expiry, GT moves a running one's only later: never shortened (Redis 7).
        const ttlMs = positive(writeOptions.ttlMs);
        const results = await client
          .multi()
          .sadd(key(name), member)
          .pexpire(key(name), ttlMs, 'NX')
          .pexpire(key(name), ttlMs, 'GT')
          .exec();
        const failed = results?.find(([error]) => error);
        if (failed?.[0]) throw failed[0];
      });
    },
    removeMember(name, member) {
      return run(`remove from ${name}`, async () => {
        await client.srem(key(name), member);
      });
    },
    members(name) {
      return run(`list ${name}`, () => client.smembers(key(name)));
    },

    publish(channel, message) {
      return run(`publish on ${channel}`, async () => {
        await Promise.all(pendingSubscriptions);
        await client.publish(key(channel), JSON.stringify({ from: replicaId, body: message ?? null }));
      });
    },
    subscribe(channel, listener) {
      if (closed) throw new ClusterStoreError({ message: `The cluster store (${description}) is closed` });
      let listening = listeners.get(channel);
      if (!listening) {
        listening = new Set();
        listeners.set(channel, listening);
        track(subscribed(channel));
      }
      listening.add(listener);
      return () => {
        const current = listeners.get(channel);
        if (!current?.delete(listener) || current.size > 0) return;
        listeners.delete(channel);
        // While the connection is not ready it holds no subscription (ioredis renews none), and the next `ready`
        // subscribes only channels that have listeners.
        if (closed || subscriber?.status !== 'ready') return;
        track(
          subscriber.unsubscribe(key(channel)).catch((error: unknown) => {
            logger.warn('could not unsubscribe from a cluster channel', { channel, error: errorMessage(error) });
          }),
        );
      };
    },

    async ping() {
      // A probe must answer quickly: while the connection is down the answer is known without queueing a command.
      if (closed || client.status !== 'ready') return false;
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      clearTimeout(retryTimer);
      renewal?.resolve(Promise.resolve());
      renewal = undefined;
      await Promise.all([client, subscriber].map((connection) => connection && quit(connection)));
    },
  };
}

/** Resolves once the first connection is ready; fails fast on the first connection error or after `timeoutMs`. */
async function connectFirst(client: Redis, description: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onError: ((error: Error) => void) | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_resolve, reject) => {
        onError = (error) => reject(error);
        client.once('error', onError);
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    throw new ClusterStoreError({
      message: `Cannot connect to the cluster store's Redis at ${description}: ${errorMessage(error)}`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    if (onError) client.off('error', onError);
  }
}

/** Ends a connection politely when it is up (pending replies arrive first), at once when it is not. */
async function quit(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
