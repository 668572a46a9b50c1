import { randomUUID } from 'node:crypto';
import type { ClusterMessageListener, ClusterStore, CounterValue, RecordWriteOptions } from './cluster-store.js';

export interface MemoryClusterStoreSettings {
  /** The clock (ms), for tests. */
  now?: () => number;
  /**
   * Another replica's view of that store's state (tests standing for several replicas in one process): the same
   * records, counters, sets and channels, but a `replicaId` of its own, `shared: true`, and its own `close()`.
   */
  sameStateAs?: ClusterStore;
  /** Says `shared: true` (a test's first replica; a `sameStateAs` view always does). */
  shared?: boolean;
}

interface MemoryState {
  entries: Map<string, Entry>;
  listeners: Map<string, Set<ClusterMessageListener>>;
}

/** The state behind each memory store, for `sameStateAs`. */
const states = new WeakMap<ClusterStore, MemoryState>();

/** How many new keys between two sweeps of expired ones. */
const sweepEvery = 1000;

interface Entry {
  /** The JSON text of a record, the count of a counter, or the members of a set. */
  value: string | number | Set<string>;
  /** Epoch ms, or Infinity. */
  expiresAt: number;
}

/**
 * The store of one process, used when the config has no `cluster` section: what `search-mcp-http` kept in memory
 * before replicas existed, behind the same contract as Redis. Values are copied through JSON, as Redis would, so a
 * caller never shares an object with the store.
 */
export function createMemoryClusterStore(settings: MemoryClusterStoreSettings = {}): ClusterStore {
  const now = settings.now ?? Date.now;
  const origin = settings.sameStateAs ? states.get(settings.sameStateAs) : undefined;
  if (settings.sameStateAs && !origin) throw new TypeError('sameStateAs must be a memory cluster store');
  const { entries, listeners } = origin ?? { entries: new Map<string, Entry>(), listeners: new Map() };
  /** This view's listeners: a view's close() removes only them. */
  const own = new Set<ClusterMessageListener>();
  const replicaId = randomUUID();
  let closed = false;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  // Expired keys that nobody reads again (the rate-limit window of a caller long gone) would stay forever: every
  // `sweepEvery` new keys, drop the expired ones, so the map holds about what is live (amortized O(1) a write).
  let newKeys = 0;
  const sweep = () => {
    newKeys += 1;
    if (newKeys < sweepEvery) return;
    newKeys = 0;
    const time = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
  };
  const expiry = (options?: RecordWriteOptions) =>
    options?.ttlMs !== undefined ? now() + Math.max(0, options.ttlMs) : Number.POSITIVE_INFINITY;
  const open = () => {
    if (closed) throw new Error('The cluster store is closed');
  };

  const store: ClusterStore = {
    description: 'in-process',
    shared: origin !== undefined || settings.shared === true,
    replicaId,

    async getRecord<Value>(key: string) {
      open();
      const entry = live(key);
      return typeof entry?.value === 'string' ? (JSON.parse(entry.value) as Value) : undefined;
    },
    async setRecord(key, value, options) {
      open();
      if (!entries.has(key)) sweep();
      entries.set(key, { value: JSON.stringify(value), expiresAt: expiry(options) });
    },
    async setRecordIfAbsent(key, value, options) {
      open();
      if (live(key)) return false;
      entries.set(key, { value: JSON.stringify(value), expiresAt: expiry(options) });
      return true;
    },
    async setRecordUnless(key, value, guard, options) {
      open();
      const entry = live(key);
      if (typeof entry?.value === 'string') {
        const current = JSON.parse(entry.value) as unknown;
        const field =
          current !== null && typeof current === 'object'
            ? (current as Record<string, unknown>)[guard.field]
            : undefined;
        if (guard.values.some((kept) => kept === field)) return false;
      }
      if (!entry) sweep();
      entries.set(key, { value: JSON.stringify(value), expiresAt: expiry(options) });
      return true;
    },
    async touchRecord(key, ttlMs) {
      open();
      const entry = live(key);
      if (!entry) return false;
      entry.expiresAt = now() + ttlMs;
      return true;
    },
    async deleteRecord(key) {
      open();
      entries.delete(key);
    },

    async increment(key, by, ttlMs): Promise<CounterValue> {
      open();
      const entry = live(key);
      if (entry && typeof entry.value === 'number') {
        entry.value += by;
        return { count: entry.value, ttlMs: entry.expiresAt - now() };
      }
      sweep();
      entries.set(key, { value: by, expiresAt: now() + ttlMs });
      return { count: by, ttlMs };
    },

    async addMember(key, member, options) {
      open();
      const entry = live(key);
      if (entry && entry.value instanceof Set) {
        entry.value.add(member);
        if (options?.ttlMs !== undefined) entry.expiresAt = Math.max(entry.expiresAt, expiry(options));
        return;
      }
      entries.set(key, { value: new Set([member]), expiresAt: expiry(options) });
    },
    async removeMember(key, member) {
      open();
      const entry = live(key);
      if (entry && entry.value instanceof Set) {
        entry.value.delete(member);
        if (entry.value.size === 0) entries.delete(key);
      }
    },
    async members(key) {
      open();
      const entry = live(key);
      return entry && entry.value instanceof Set ? [...entry.value] : [];
    },

    async publish(channel, message) {
      open();
      const body = JSON.parse(JSON.stringify(message ?? null)) as unknown;
      // Delivered after the caller's turn, as a network store would: a listener never runs inside publish().
      queueMicrotask(() => {
        for (const listener of listeners.get(channel) ?? []) listener({ from: replicaId, body });
      });
    },
    subscribe(channel, listener) {
      open();
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      own.add(listener);
      listeners.set(channel, set);
      return () => {
        own.delete(listener);
        set.delete(listener);
        if (set.size === 0) listeners.delete(channel);
      };
    },

    async ping() {
      return !closed;
    },
    async close() {
      closed = true;
      if (origin) {
        for (const set of listeners.values()) for (const listener of own) set.delete(listener);
        return;
      }
      entries.clear();
      listeners.clear();
    },
  };
  states.set(store, { entries, listeners });
  return store;
}
