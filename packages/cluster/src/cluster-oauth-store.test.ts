import { describe, expect, it } from 'vitest';
import { createClusterOAuthStore } from './cluster-oauth-store.js';
import { createMemoryClusterStore } from './memory-cluster-store.js';

describe('createClusterOAuthStore', () => {
  it('lets a replica read the credentials another one stored, refreshed and deleted', async () => {
    const replicaA = createMemoryClusterStore({ shared: true });
    const replicaB = createMemoryClusterStore({ sameStateAs: replicaA });
    const credentialsA = createClusterOAuthStore(replicaA);
    const credentialsB = createClusterOAuthStore(replicaB);

    await credentialsA.set('docs@https://mcp.example.com/', '{"tokens":{"a":{"access_token":"first"}}}');
    expect(await credentialsB.get('docs@https://mcp.example.com/')).toBe('{"tokens":{"a":{"access_token":"first"}}}');

    await credentialsB.set('docs@https://mcp.example.com/', '{"tokens":{"a":{"access_token":"refreshed"}}}');
    expect(await credentialsA.get('docs@https://mcp.example.com/')).toContain('refreshed');

    await credentialsA.delete('docs@https://mcp.example.com/');
    expect(await credentialsB.get('docs@https://mcp.example.com/')).toBeUndefined();
    expect(credentialsB.description).toBe('the cluster store (in-process)');
    await replicaB.close();
    await replicaA.close();
  });

  it('keeps credentials apart from other records of the store', async () => {
    const store = createMemoryClusterStore();
    await store.setRecord('docs', 'not a credential');
    expect(await createClusterOAuthStore(store).get('docs')).toBeUndefined();
    await store.close();
  });
});
