import type { ClusterStore } from './cluster-store.js';

export interface ReplicaHeartbeatSettings {
  /** This replica's id: what others look up with `isAlive`. */
  replicaId: string;
  /** How long the key lives without a refresh: a killed replica is seen as gone this long after. Default 10,000 ms. */
  ttlMs?: number;
  /** How often the key is refreshed. Default a third of `ttlMs`, so two missed refreshes still leave it alive. */
  intervalMs?: number;
  /** Told when a refresh fails (the store is down): the next one tries again. */
  onError?: (error: unknown) => void;
}

export interface ReplicaHeartbeat {
  readonly replicaId: string;
  /** Whether the replica of `replicaId` refreshed its key within its `ttlMs` (or closed it, if it stopped cleanly). */
  isAlive(replicaId: string): Promise<boolean>;
  /** Stops refreshing and deletes the key, so other replicas see this one gone at once. */
  stop(): Promise<void>;
}

const keyOf = (replicaId: string) => `replica/${replicaId}/alive`;

/**
 * A replica's "I am running" key with a short expiry, refreshed in the background: what other replicas read to tell a
 * replica that stopped (killed, crashed, drained) from one still at work on something it holds, such as a task
 * (docs/scale-out.md). One write per `intervalMs`, never on a request's path.
 */
export function startReplicaHeartbeat(store: ClusterStore, settings: ReplicaHeartbeatSettings): ReplicaHeartbeat {
  const ttlMs = settings.ttlMs ?? 10_000;
  const intervalMs = settings.intervalMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const key = keyOf(settings.replicaId);
  let stopped = false;
  const beat = () =>
    store.setRecord(key, { at: Date.now() }, { ttlMs }).catch((error: unknown) => settings.onError?.(error));
  let last = beat();
  const timer = setInterval(() => {
    last = beat();
  }, intervalMs);
  timer.unref();
  return {
    replicaId: settings.replicaId,
    async isAlive(replicaId) {
      if (replicaId === settings.replicaId) return !stopped;
      return (await store.getRecord(keyOf(replicaId))) !== undefined;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await last;
      await store.deleteRecord(key).catch((error: unknown) => settings.onError?.(error));
    },
  };
}
