import type { Adapter, AdapterPayload } from 'oidc-provider';

interface StoredEntry {
  payload: AdapterPayload;
  /** `Date.now()` after which the entry is gone; `Infinity` when oidc-provider gave no lifetime. */
  expiresAt: number;
}

/** Everything one authorization server stores, by model name (`Client`, `Grant`, `RefreshToken`, …). */
export interface MemoryAdapterStore {
  /** What oidc-provider's `adapter` option takes: one adapter per model name. */
  adapterFor(modelName: string): Adapter;
  /** Drops every entry of these models (the "revoke everything" of the fixture). */
  clear(modelNames: readonly string[]): void;
  /** Changes a stored entry in place, at once (no await between oidc-provider's write and the change). */
  update(modelName: string, id: string, change: (payload: AdapterPayload) => void): void;
}

/**
 * oidc-provider's storage in memory, as its adapter interface describes it (upsert, find, findByUid,
 * findByUserCode, consume, destroy, revokeByGrantId). Ours rather than the library's built-in memory adapter so the
 * fixture can drop every grant and token at once, which a "revoked" test needs.
 */
export function createMemoryAdapterStore(): MemoryAdapterStore {
  const models = new Map<string, Map<string, StoredEntry>>();
  const entriesOf = (modelName: string) => {
    let entries = models.get(modelName);
    if (!entries) {
      entries = new Map();
      models.set(modelName, entries);
    }
    return entries;
  };

  const adapterFor = (modelName: string): Adapter => {
    const entries = entriesOf(modelName);
    const live = (id: string) => {
      const entry = entries.get(id);
      if (entry && entry.expiresAt <= Date.now()) {
        entries.delete(id);
        return undefined;
      }
      return entry;
    };
    const findWhere = (matches: (payload: AdapterPayload) => boolean) => {
      for (const id of entries.keys()) {
        const entry = live(id);
        if (entry && matches(entry.payload)) return entry.payload;
      }
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = expiresIn > 0 ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        entries.set(id, { payload: { ...payload }, expiresAt });
      },
      async find(id) {
        return live(id)?.payload;
      },
      async findByUid(uid) {
        return findWhere((payload) => payload.uid === uid);
      },
      async findByUserCode(userCode) {
        return findWhere((payload) => payload.userCode === userCode);
      },
      async consume(id) {
        const entry = live(id);
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        entries.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const [id, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(id);
      },
    };
  };

  return {
    adapterFor,
    clear(modelNames) {
      for (const name of modelNames) models.get(name)?.clear();
    },
    update(modelName, id, change) {
      const entry = models.get(modelName)?.get(id);
      if (entry) change(entry.payload);
    },
  };
}
