import type { ClusterStore } from './cluster-store.js';

/**
 * Where backend OAuth credentials are kept when replicas share a store (docs/oauth.md, "Storage"). Structurally the
 * client manager's `OAuthStore` (`get`, `set`, `delete`, `description`), so this package needs no client-manager:
 * the runtime passes it as `oauth.store` when its cluster store is shared.
 */
export interface ClusterOAuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  readonly description: string;
}

const keyOf = (key: string) => `oauth/${key}`;

/**
 * Backend OAuth tokens and client registrations in the cluster store, one record per server, without expiry (a
 * refresh token outlives its access token; the client manager deletes what it logs out of). A login or a refresh on
 * one replica is what every other reads next: the client manager reads the store again before it refreshes or
 * authorizes, so a token another replica stored is used rather than written over.
 */
export function createClusterOAuthStore(store: ClusterStore): ClusterOAuthStore {
  return {
    description: `the cluster store (${store.description})`,
    async get(key) {
      const value = await store.getRecord<unknown>(keyOf(key));
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value) {
      await store.setRecord(keyOf(key), value);
    },
    async delete(key) {
      await store.deleteRecord(keyOf(key));
    },
  };
}
