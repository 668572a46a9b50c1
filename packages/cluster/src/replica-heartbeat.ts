import { settleWithin } from '@search-mcp/shared';
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
  /** The clock (ms), for tests. Default `Date.now`. */
  now?: () => number;
  /** The longest `stop` waits for the store (a refresh under way, the "stopped" write). Default 1,000 ms. */
  stopWaitMs?: number;
}

export interface ReplicaHeartbeat {
  readonly replicaId: string;
  /**
   * Whether the replica of `replicaId` still runs: false once it stopped cleanly, or once its key has been missing
   * while this replica's own refreshes went through for a whole `ttlMs` (so a store outage, which expires every key,
   * never makes live replicas look gone).
   */
  isAlive(replicaId: string): Promise<boolean>;
  /** Stops refreshing and marks the key stopped, so other replicas see this one gone at once. */
  stop(): Promise<void>;
}

interface HeartbeatValue {
  at: number;
  /** Written by `stop()`: the replica is gone, whatever the reader's own view of the store. */
  stopped?: boolean;
}

const keyOf = (replicaId: string) => `replica/${replicaId}/alive`;

/**
 * A replica's "I am running" key with a short expiry, refreshed in the background: what other replicas read to tell a
 * replica that stopped (killed, crashed, drained) from one still at work on something it holds, such as a task
 * (docs/scale-out.md). One write per `intervalMs`, never on a request's path.
 *
 * A key missing is read as "gone" only when this replica trusts its own view: from its start, and after a failed
 * refresh (the store was away, so every key may have expired) once a refresh went through again and a whole `ttlMs`
 * passed since, in which every live replica refreshed its key.
 */
export function startReplicaHeartbeat(store: ClusterStore, settings: ReplicaHeartbeatSettings): ReplicaHeartbeat {
  const ttlMs = settings.ttlMs ?? 10_000;
  const intervalMs = settings.intervalMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const now = settings.now ?? Date.now;
  const stopWaitMs = settings.stopWaitMs ?? 1000;
  const key = keyOf(settings.replicaId);
  let stopped = false;
  /** Since when a missing key means a gone replica: 0 from the start, undefined while the store fails. */
  let trustedFrom: number | undefined = 0;
  const distrust = () => {
    trustedFrom = undefined;
  };
  const beat = () =>
    store.setRecord(key, { at: now() } satisfies HeartbeatValue, { ttlMs }).then(
      () => {
        trustedFrom ??= now() + ttlMs;
      },
      (error: unknown) => {
        distrust();
        settings.onError?.(error);
      },
    );
  let last = beat();
  const timer = setInterval(() => {
    last = beat();
  }, intervalMs);
  timer.unref();
  return {
    replicaId: settings.replicaId,
    async isAlive(replicaId) {
      if (replicaId === settings.replicaId) return !stopped;
      let value: HeartbeatValue | undefined;
      try {
        value = await store.getRecord<HeartbeatValue>(keyOf(replicaId));
      } catch (error) {
        distrust();
        throw error;
      }
      if (value) return value.stopped !== true;
      return trustedFrom === undefined || now() < trustedFrom;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // Bounded: with the store away, a shutdown must not wait for it (the key then expires on its own).
      const marked = (async () => {
        await last;
        await store.setRecord(key, { at: now(), stopped: true } satisfies HeartbeatValue, { ttlMs });
      })();
      await settleWithin(marked, stopWaitMs)
        .then((settled) => {
          if (!settled) throw new Error(`the cluster store did not answer within ${stopWaitMs} ms`);
        })
        .catch((error: unknown) => settings.onError?.(error));
    },
  };
}
