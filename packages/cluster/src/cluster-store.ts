/**
 * What `search-mcp-http` replicas share (packages/cluster/README.md). Types only: the in-process store
 * (`createMemoryClusterStore`, the default without `cluster` in the config) and the Redis one
 * (`createRedisClusterStore`) both implement it, and a host may pass its own.
 *
 * Keys are plain strings under the store's own prefix (the Redis store adds `keyPrefix`); values are JSON. Every
 * operation is one round trip at most, so a request pays for each call it makes: callers keep them few and off the
 * hot path where they can (docs/scale-out.md, "What a request costs").
 */
export interface ClusterStore {
  /** Where the state is, in a few words for logs and `doctor`: `in-process`, `redis://host:6379/0` (no password). */
  readonly description: string;
  /** True when state outlives this process and is seen by other replicas (the Redis store). */
  readonly shared: boolean;
  /** This process's id among the replicas (random per start): the publisher of its own messages. */
  readonly replicaId: string;

  /** The JSON value under `key`, or undefined (never set, deleted or expired). */
  getRecord<Value>(key: string): Promise<Value | undefined>;
  /** Stores `value` (JSON) under `key`; with `ttlMs` it expires that long after this write. */
  setRecord(key: string, value: unknown, options?: RecordWriteOptions): Promise<void>;
  /** Stores `value` only when `key` holds nothing; true when it was stored. */
  setRecordIfAbsent(key: string, value: unknown, options?: RecordWriteOptions): Promise<boolean>;
  /**
   * Stores `value` unless the record under `key` has its top-level `guard.field` equal to one of `guard.values` (a
   * task that ended is never overwritten by a late status); true when it was stored. One atomic step (a Lua script on
   * Redis). Optional, so a host's own store stays valid: callers read then write without it.
   */
  setRecordUnless?(key: string, value: unknown, guard: RecordGuard, options?: RecordWriteOptions): Promise<boolean>;
  /** Moves `key`'s expiry to `ttlMs` from now; false when the key is gone. */
  touchRecord(key: string, ttlMs: number): Promise<boolean>;
  deleteRecord(key: string): Promise<void>;

  /**
   * Adds `by` to the counter under `key` and answers the new count and the counter's time left: a counter created by
   * this call expires `ttlMs` from now, a running one keeps its expiry (fixed windows for rate limits and statistics).
   */
  increment(key: string, by: number, ttlMs: number): Promise<CounterValue>;

  /**
   * Adds `member` to the set under `key`. With `ttlMs`, the set lives at least that long from now: a later expiry is
   * kept (a short-lived member never cuts a long-lived one's time short).
   */
  addMember(key: string, member: string, options?: RecordWriteOptions): Promise<void>;
  removeMember(key: string, member: string): Promise<void>;
  /** The set's members, in no particular order. */
  members(key: string): Promise<string[]>;

  /**
   * Sends `message` (JSON) to every replica's subscribers of `channel`, this one's included; each delivery carries the
   * publisher's `replicaId` so a replica can skip its own.
   */
  publish(channel: string, message: unknown): Promise<void>;
  /** Listens on `channel`; the function returned stops listening. */
  subscribe(channel: string, listener: ClusterMessageListener): () => void;

  /** Tells whether the store answers now (a replica's readiness probe). */
  ping(): Promise<boolean>;
  /** Closes connections; later calls fail. */
  close(): Promise<void>;
}

export interface RecordWriteOptions {
  /** Milliseconds until the key expires; without it the key stays until deleted. */
  ttlMs?: number;
}

/** What keeps a record from being overwritten (`setRecordUnless`). */
export interface RecordGuard {
  /** A top-level field of the stored JSON object. */
  field: string;
  /** The values of that field that keep the record as it is. */
  values: readonly (string | number | boolean)[];
}

export interface CounterValue {
  count: number;
  /** Milliseconds until the counter expires. */
  ttlMs: number;
}

export interface ClusterMessage {
  /** The `replicaId` of the replica that published it. */
  from: string;
  body: unknown;
}

export type ClusterMessageListener = (message: ClusterMessage) => void;
