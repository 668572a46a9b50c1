import { describe, expect, it, vi } from 'vitest';
import type { ClusterStore } from './cluster-store.js';
import { createMemoryClusterStore } from './memory-cluster-store.js';
import { startReplicaHeartbeat } from './replica-heartbeat.js';

describe('startReplicaHeartbeat', () => {
  it('tells replicas sharing a store that each runs, and that one stopped as soon as it did', async () => {
    const store = createMemoryClusterStore();
    const one = startReplicaHeartbeat(store, { replicaId: 'one' });
    const two = startReplicaHeartbeat(store, { replicaId: 'two' });
    expect(await one.isAlive('two')).toBe(true);
    expect(await two.isAlive('one')).toBe(true);
    expect(await one.isAlive('three')).toBe(false);

    await two.stop();
    expect(await one.isAlive('two')).toBe(false);
    expect(await two.isAlive('two')).toBe(false);
    await one.stop();
    await store.close();
  });

  it('sees a replica that stopped refreshing (killed) as gone once its key expired', async () => {
    let now = 1_000_000;
    const store = createMemoryClusterStore({ now: () => now });
    // Refreshed rarely: the clock moves past the key's expiry before a refresh could run.
    const killed = startReplicaHeartbeat(store, { replicaId: 'killed', ttlMs: 5000, intervalMs: 60_000 });
    const watcher = startReplicaHeartbeat(store, { replicaId: 'watcher', ttlMs: 5000, intervalMs: 60_000 });
    expect(await watcher.isAlive('killed')).toBe(true);
    now += 4999;
    expect(await watcher.isAlive('killed')).toBe(true);
    now += 2;
    expect(await watcher.isAlive('killed')).toBe(false);
    await Promise.all([killed.stop(), watcher.stop()]);
    await store.close();
  });

  it('after its own store outage, reads a missing key as alive until its refreshes went through for a whole ttl', async () => {
    let now = 1_000_000;
    const shared = createMemoryClusterStore({ now: () => now });
    // The watcher's connection to the store: failing while `down`, as Redis commands do during an outage.
    let down = false;
    const failures: unknown[] = [];
    const writes: string[] = [];
    const connection: ClusterStore = {
      ...createMemoryClusterStore({ sameStateAs: shared }),
      getRecord: (key) => (down ? Promise.reject(new Error('store down')) : shared.getRecord(key)),
      setRecord: async (key, value, options) => {
        if (down) throw new Error('store down');
        await shared.setRecord(key, value, options);
        writes.push(key);
      },
    };
    const other = startReplicaHeartbeat(shared, { replicaId: 'other', ttlMs: 5000, intervalMs: 60_000 });
    const watcher = startReplicaHeartbeat(connection, {
      replicaId: 'watcher',
      ttlMs: 5000,
      intervalMs: 20,
      now: () => now,
      onError: (error) => failures.push(error),
    });
    expect(await watcher.isAlive('other')).toBe(true);

    // The outage outlasts every key's ttl: `other`'s key expires though it still runs.
    down = true;
    await vi.waitFor(() => expect(failures.length).toBeGreaterThan(0));
    now += 6000;
    down = false;
    writes.length = 0;
    await vi.waitFor(() => expect(writes).toContain('replica/watcher/alive'));
    expect(await shared.getRecord('replica/other/alive')).toBeUndefined();
    expect(await watcher.isAlive('other')).toBe(true);
    now += 4999;
    expect(await watcher.isAlive('other')).toBe(true);
    // A whole ttl with the store back, and still no refresh from `other`: it is gone.
    now += 2;
    expect(await watcher.isAlive('other')).toBe(false);
    await Promise.all([other.stop(), watcher.stop()]);
    await shared.close();
  });

  it('stops within its wait when the store does not answer', async () => {
    const shared = createMemoryClusterStore();
    let answer = true;
    const hanging: ClusterStore = {
      ...shared,
      setRecord: (key, value, options) => (answer ? shared.setRecord(key, value, options) : new Promise(() => {})),
    };
    const heartbeat = startReplicaHeartbeat(hanging, { replicaId: 'one', stopWaitMs: 100 });
    answer = false;
    const started = Date.now();
    await heartbeat.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    await shared.close();
  });
});
