import { describe, expect, it } from 'vitest';
import type { ClusterMessage } from './cluster-store.js';
import { createMemoryClusterStore } from './memory-cluster-store.js';

describe('createMemoryClusterStore({ sameStateAs })', () => {
  it('stands for another replica: the same state, its own id on what it publishes, its own close', async () => {
    const replicaA = createMemoryClusterStore({ shared: true });
    const replicaB = createMemoryClusterStore({ sameStateAs: replicaA });
    expect(replicaA.shared && replicaB.shared).toBe(true);
    expect(replicaB.replicaId).not.toBe(replicaA.replicaId);

    await replicaA.setRecord('k', { v: 1 });
    expect(await replicaB.getRecord('k')).toEqual({ v: 1 });

    const heardByA = new Promise<ClusterMessage>((resolve) => replicaA.subscribe('c', resolve));
    await replicaB.publish('c', 'hello');
    expect(await heardByA).toEqual({ from: replicaB.replicaId, body: 'hello' });

    replicaB.subscribe('c', () => {});
    await replicaB.close();
    expect(await replicaA.getRecord('k')).toEqual({ v: 1 });
    await replicaA.close();
  });
});
