import type { ClusterStore } from '@search-mcp/cluster';
import { isRecord } from '@search-mcp/shared';

/**
 * What a replica needs to rebuild a 2025 session another replica opened (apps/http-server/README.md, "Replicas"):
 * who may use it, and what the client told the session. Kept in the cluster store under the session id, with the
 * session's idle expiry.
 */
export interface SharedSessionRecord {
  /** The token id that opened it, or the one key of anonymous callers: nobody else may resume it. */
  principal: string;
  /** The project named when it opened: the session's instructions and tools are that project's. */
  projectId?: string;
  /**
   * The `params` of the client's `initialize` (protocol version, capabilities, client info), replayed as sent: the
   * server negotiates the same version again.
   */
  initialize: Record<string, unknown>;
  /** The session's last `logging/setLevel` level, replayed when it is rebuilt. */
  logLevel?: string;
  /** The resource URIs the session subscribed to (`resources/subscribe`, less `unsubscribe`). */
  subscriptions?: string[];
  /** The replica that last served it (`SharedSessions.replicaId`): only that one ends it for being idle. */
  replica: string;
}

/** The session ids this app mints (`randomUUID`): anything else is answered 404 without asking the store. */
const sessionIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isMintedSessionId(id: string): boolean {
  return sessionIdPattern.test(id);
}

/** The session records in the cluster store: one key per session, its expiry moved as the session is used. */
export class SharedSessionRecords {
  constructor(
    private readonly store: ClusterStore,
    private readonly ttlMs: number,
  ) {}

  async read(id: string): Promise<SharedSessionRecord | undefined> {
    const record = await this.store.getRecord<unknown>(keyOf(id));
    return isSharedSessionRecord(record) ? record : undefined;
  }

  async write(id: string, record: SharedSessionRecord): Promise<void> {
    await this.store.setRecord(keyOf(id), record, { ttlMs: this.ttlMs });
  }

  /** Moves the expiry; false when the record is gone (expired, or ended by another replica's idle sweep). */
  async touch(id: string): Promise<boolean> {
    return this.store.touchRecord(keyOf(id), this.ttlMs);
  }

  async delete(id: string): Promise<void> {
    await this.store.deleteRecord(keyOf(id));
  }

  /**
   * The client ended the session (`DELETE`): a tombstone first, then the record goes. The tombstone lives as long as
   * the record could have, so no replica that still held a copy (or was rebuilding it) writes the record back.
   */
  async end(id: string): Promise<void> {
    await this.store.setRecord(endedKeyOf(id), true, { ttlMs: this.ttlMs });
    await this.store.deleteRecord(keyOf(id));
  }

  /** True when the client ended the session (its tombstone is there). */
  async ended(id: string): Promise<boolean> {
    return (await this.store.getRecord<unknown>(endedKeyOf(id))) !== undefined;
  }

  /**
   * Writes a record that may have vanished (expired, ended idle, or ended by its client): never once the client ended
   * it. Checked before the write, and again after it, undoing the write: a `DELETE` whose tombstone landed between the
   * check and the write is not undone (`end` writes the tombstone before it deletes). False when the session ended.
   */
  async writeUnlessEnded(id: string, record: SharedSessionRecord): Promise<boolean> {
    if (await this.ended(id)) return false;
    await this.write(id, record);
    if (!(await this.ended(id))) return true;
    await this.delete(id);
    return false;
  }
}

const keyOf = (id: string) => `mcp-session:${id}`;
const endedKeyOf = (id: string) => `mcp-session-ended:${id}`;

/** A record written by another version may lack what a rebuild needs: such a session is not resumed (404). */
export function isSharedSessionRecord(value: unknown): value is SharedSessionRecord {
  return (
    isRecord(value) &&
    typeof value.principal === 'string' &&
    typeof value.replica === 'string' &&
    isRecord(value.initialize)
  );
}
