import { describe, expect, it } from 'vitest';
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
});
