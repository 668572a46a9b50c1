import { randomUUID } from 'node:crypto';
import type { RequestId } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import type { ClusterStore } from '@search-mcp/cluster';
import { errorMessage, isRecord, type Logger } from '@search-mcp/shared';
import type { EndpointSession } from './endpoint-session.js';
import { stateChangesIn } from './session-state-changes.js';
import {
  isMintedSessionId,
  isSharedSessionRecord,
  type SharedSessionRecord,
  SharedSessionRecords,
} from './shared-session-record.js';

export interface SharedSessionsOptions {
  store: ClusterStore;
  /** The session idle timeout: a record unused this long expires. */
  ttlMs: number;
  /** A record's expiry is moved at most this often per session (a request does not pay a store write each time). */
  refreshEveryMs: number;
  logger: Logger;
  /** Another replica ended this session (its client's DELETE): close this replica's copy, if it holds one. */
  onEndedElsewhere(id: string): void;
  /**
   * The client changed the session's log level or subscriptions through another replica: bring this replica's copy,
   * if it holds one, to `record` (with a balancer that is not sticky, several replicas serve one session).
   */
  onChangedElsewhere(id: string, record: SharedSessionRecord): void;
  /** The clock (ms), for tests. */
  now?: () => number;
}

/** How a session ended here, which decides what becomes of its record. */
export type SessionEnd =
  /** The client ended it (DELETE) or its transport closed: gone everywhere. */
  | 'closed'
  /** Idle or evicted here: the record goes only if this replica still serves it (it may have moved on). */
  | 'idle'
  /** Shut down, or ended by another replica: the record stays for the others. */
  | 'kept';

export type Resumption = { resumed: true; session: EndpointSession } | { resumed: false; refusal?: string };

/** Builds the session of a record on this replica under its id, or says why not. */
export type SessionRebuilder = (id: string, record: SharedSessionRecord, caller: Caller) => Promise<Resumption>;

/** A session's state-changing requests waiting for their answer: at most this many (more are not recorded). */
const maxPendingChanges = 100;

/** Where replicas tell each other of a session ended (`DELETE`) or changed (log level, subscriptions). */
const sessionsChannel = 'mcp-sessions';

/**
 * The 2025 sessions' records in the cluster store (apps/http-server/README.md, "Replicas"): written when a session
 * opens, their expiry moved as it is used, updated when its log level or subscriptions change, deleted when it ends,
 * and read by a replica that gets a request for a session it does not hold, to rebuild it.
 */
export class SharedSessions {
  private readonly records: SharedSessionRecords;
  private readonly rebuilding = new Map<string, Promise<Resumption>>();
  private readonly stopListening: () => void;
  /**
   * This endpoint among the replicas. Its own, not the store's `replicaId`: apps in one process may share one store
   * client (as the tests' two replicas do), and each must still tell its sessions from the others'.
   */
  readonly replicaId = randomUUID();

  constructor(private readonly options: SharedSessionsOptions) {
    this.records = new SharedSessionRecords(options.store, options.ttlMs);
    this.stopListening = options.store.subscribe(sessionsChannel, ({ body }) => {
      if (!isRecord(body) || typeof body.sessionId !== 'string' || body.replica === this.replicaId) return;
      if (body.event === 'ended') options.onEndedElsewhere(body.sessionId);
      else if (body.event === 'changed' && isSharedSessionRecord(body.record)) {
        options.onChangedElsewhere(body.sessionId, body.record);
      }
    });
  }

  /** A session opened here: its record is written before the client learns its id. */
  async opened(id: string, session: EndpointSession, record: SharedSessionRecord): Promise<void> {
    await this.save(id, session, record);
  }

  /**
   * A request of the session arrived: the record's expiry moves, at most once per `refreshEveryMs`, and the requests
   * that change the session's state wait for their answer (`answered`).
   */
  used(id: string, session: EndpointSession, body: unknown): void {
    if (!session.record) return;
    for (const change of body === undefined ? [] : stateChangesIn(body)) {
      session.stateChanges ??= new Map();
      if (session.stateChanges.size < maxPendingChanges) session.stateChanges.set(change.requestId, change);
    }
    const now = this.now();
    if (now - session.sharedAt < this.options.refreshEveryMs) return;
    session.sharedAt = now;
    void this.refresh(id, session).catch((error) => this.warn('could not refresh an MCP session record', id, error));
  }

  /**
   * The server answered a request of the session. A log level or subscription it accepted is written to the record
   * (and told to the other replicas) before the client sees the answer, so its next request finds it on any replica;
   * one it refused is never recorded.
   */
  async answered(id: string, session: EndpointSession, requestId: RequestId, succeeded: boolean): Promise<void> {
    const change = session.stateChanges?.get(requestId);
    if (!change) return;
    session.stateChanges?.delete(requestId);
    const changed = succeeded && session.record ? change.apply(session.record) : undefined;
    if (!changed) return;
    const record = { ...changed, replica: this.replicaId };
    session.record = record;
    session.sharedAt = this.now();
    try {
      if (!(await this.records.writeUnlessEnded(id, record))) return;
    } catch (error) {
      // The session works on this replica; another one would rebuild it without this change.
      this.warn('could not store an MCP session record', id, error);
      return;
    }
    await this.publish(id, 'changed', { record });
  }

  async ended(id: string, session: EndpointSession, how: SessionEnd): Promise<void> {
    if (!session.record || how === 'kept') return;
    try {
      if (how === 'closed') {
        // Once: a DELETE ends the record before its answer, then the transport's close ends the session here.
        session.record = undefined;
        await this.records.end(id);
        await this.publish(id, 'ended');
        return;
      }
      const record = await this.records.read(id);
      if (record?.replica === this.replicaId) await this.records.delete(id);
    } catch (error) {
      this.warn('could not remove an MCP session record', id, error);
    }
  }

  /**
   * A request named a session this replica does not hold: rebuilt from its record when there is one and it is the
   * caller's (never revealing another's), once however many requests ask for it at the same time.
   */
  async resume(id: string, caller: Caller, principal: string, rebuild: SessionRebuilder): Promise<Resumption> {
    if (!isMintedSessionId(id)) return { resumed: false };
    let running = this.rebuilding.get(id);
    if (!running) {
      running = this.rebuildFromRecord(id, caller, principal, rebuild).finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, running);
    }
    return running;
  }

  /**
   * A client's `DELETE` for a session this replica does not hold: its record is ended (and the replica holding it
   * hears) without rebuilding the session here just to end it. False when there is no such session of `principal`.
   */
  async endNotHeld(id: string, principal: string): Promise<boolean> {
    if (!isMintedSessionId(id)) return false;
    try {
      const record = await this.records.read(id);
      if (!record || record.principal !== principal) return false;
      await this.records.end(id);
    } catch (error) {
      this.warn('could not remove an MCP session record', id, error);
      return false;
    }
    await this.publish(id, 'ended');
    return true;
  }

  close(): void {
    this.stopListening();
  }

  /**
   * Moves the record's expiry, and makes this replica the one that served the session last (only that one ends it
   * for being idle): rewritten when another replica served it since, or when it is gone (expired, or ended as idle by
   * a replica that served it before). Never when its client ended it: this replica's copy is closed then (the word
   * from the replica that took the `DELETE` did not reach this one).
   */
  private async refresh(id: string, session: EndpointSession): Promise<void> {
    const stored = await this.records.read(id);
    if (stored?.replica === this.replicaId) {
      await this.records.touch(id);
      return;
    }
    const current = stored ?? session.record;
    if (!current) return;
    // The stored fields are the newest: the other replica may have changed the level or subscriptions since.
    const record = { ...current, replica: this.replicaId };
    if (await this.records.writeUnlessEnded(id, record)) {
      if (session.record) session.record = { ...session.record, replica: this.replicaId };
    } else {
      this.options.onEndedElsewhere(id);
    }
  }

  private async rebuildFromRecord(
    id: string,
    caller: Caller,
    principal: string,
    rebuild: SessionRebuilder,
  ): Promise<Resumption> {
    let record: SharedSessionRecord | undefined;
    try {
      record = await this.records.read(id);
    } catch (error) {
      this.warn('could not read an MCP session record', id, error);
      return { resumed: false };
    }
    if (!record || record.principal !== principal) return { resumed: false };
    const resumption = await rebuild(id, record, caller);
    if (!resumption.resumed) return resumption;
    const served = { ...record, replica: this.replicaId };
    resumption.session.record = served;
    resumption.session.sharedAt = this.now();
    let kept = true;
    try {
      kept = await this.records.writeUnlessEnded(id, served);
    } catch (error) {
      // The session works on this replica; the record still names the replica that served it before.
      this.warn('could not store an MCP session record', id, error);
    }
    if (!kept) {
      // Its client ended it while it was being rebuilt (a DELETE through another replica): not brought back.
      this.options.onEndedElsewhere(id);
      return { resumed: false };
    }
    this.options.logger.info('resumed an MCP session another replica opened', { session: id });
    return resumption;
  }

  private async publish(id: string, event: 'ended' | 'changed', fields: Record<string, unknown> = {}) {
    try {
      await this.options.store.publish(sessionsChannel, { sessionId: id, replica: this.replicaId, event, ...fields });
    } catch (error) {
      this.warn('could not tell the other replicas of an MCP session', id, error);
    }
  }

  private async save(id: string, session: EndpointSession, record: SharedSessionRecord): Promise<void> {
    session.record = record;
    session.sharedAt = this.now();
    try {
      await this.records.write(id, record);
    } catch (error) {
      // The session works on this replica; another one could not resume it until the next write succeeds.
      this.warn('could not store an MCP session record', id, error);
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private warn(message: string, id: string, error: unknown): void {
    this.options.logger.warn(message, { session: id, error: errorMessage(error) });
  }
}
