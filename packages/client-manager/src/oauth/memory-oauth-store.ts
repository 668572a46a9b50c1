import type { OAuthStore } from './oauth-store.js';

/**
 * An `OAuthStore` in memory: tokens live as long as the process (a host that must never write them anywhere, a
 * test, a one-shot run). Nothing is shared with another process or kept after exit.
 */
export function createMemoryOAuthStore(): OAuthStore {
  const values = new Map<string, string>();
  return {
    description: 'memory (this process only)',
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}
