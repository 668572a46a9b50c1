import { randomUUID } from 'node:crypto';
import { type ClusterStore, type ReplicaHeartbeat, startReplicaHeartbeat } from '@search-mcp/cluster';
import { errorMessage, isRecord, type Logger, settleWithin } from '@search-mcp/shared';
import type { BackendGateway } from '../forwarding/backend-gateway.js';
import {
  applyStatus,
  failRecord,
  isTerminal,
  newTaskRecord,
  recordError,
  settleRecord,
  type TaskRecord,
  terminalStatuses,
} from './task-record.js';
import type { ExposedTask, TaskTable } from './task-table.js';

export interface ClusterTaskRecordsSettings {
  /** This replica's heartbeat: how long it lives unrefreshed (default 10,000 ms) and how often it is refreshed. */
  heartbeat?: { ttlMs?: number; intervalMs?: number };
  /** The largest result (bytes of JSON) kept in a record; a larger one is kept as an error saying so. Default 1 MiB. */
  resultLimitBytes?: number;
}

export interface ClusterTaskRecordsOptions extends ClusterTaskRecordsSettings {
  store: ClusterStore;
  gateway: Pick<BackendGateway, 'getTask' | 'getTaskResult' | 'cancelTask'>;
  /** The tasks this replica holds: a task that left it (expired, its backend restarted) is no longer watched. */
  tasks: TaskTable;
  logger: Logger;
}

/** A task another replica created (or this one no longer holds), as the store has it. */
export interface ForeignTask {
  readonly record: TaskRecord;
  /** Still running on a live replica: its status is current, its result is not in yet. */
  readonly running: boolean;
}

interface Watched {
  readonly task: ExposedTask;
  record: TaskRecord;
  /** The writes of this task, in order: a late `working` never overwrites `completed`. */
  writes: Promise<void>;
  timer?: NodeJS.Timeout;
  settled: boolean;
  failures: number;
}

const cancelChannel = 'tasks/cancel';
/** A poll of the backend's task at most this often and at least this often, whatever its `pollInterval` says. */
const watchBoundsMs = { min: 500, max: 5000 };
const resultTimeoutMs = 30_000;
/**
 * The longest `close` waits for writes under way (a task's result being fetched): short, so a store or backend that
 * does not answer never holds up stopping the backends (the heartbeat's own stop waits at most 1 s more).
 */
const closeWaitMs = 1000;
/** Consecutive failed polls before the task is recorded as failed (one may be a passing timeout). */
const failedPollsToGiveUp = 3;

/** The replica running a task stopped: what every other replica answers for it from then on. */
export const replicaStoppedMessage =
  'The Search MCP replica running this task stopped; its backend task ended with it. Start the task again.';
const notHeldMessage = 'The Search MCP replica running this task no longer holds it (its backend server restarted)';

/**
 * Tasks written through to the cluster store, so they outlive the replica that runs them (packages/server/README.md,
 * "Tasks across replicas"): each task created through this replica is a record (`task-record.ts`) plus an entry in
 * its owner's set, kept current from the statuses this replica sees (polls, status notifications, and a watch of its
 * own that polls the backend at its `pollInterval`), and given the backend's result once the task ends. Any replica
 * answers a task it does not hold from its record; one whose replica stopped (its heartbeat key expired) is `failed`.
 *
 * Only task calls and task methods touch the store: a call that is not a task pays nothing.
 */
export class ClusterTaskRecords {
  /** This replica's id among those sharing the store (random per start; its heartbeat key says it runs). */
  readonly replicaId = randomUUID();
  private readonly store: ClusterStore;
  private readonly gateway: ClusterTaskRecordsOptions['gateway'];
  private readonly tasks: TaskTable;
  private readonly logger: Logger;
  private readonly heartbeat: ReplicaHeartbeat;
  private readonly resultLimitBytes: number;
  private readonly watched = new Map<string, Watched>();
  private readonly stopListening: () => void;
  private closed = false;

  constructor(options: ClusterTaskRecordsOptions) {
    this.store = options.store;
    this.gateway = options.gateway;
    this.tasks = options.tasks;
    this.logger = options.logger;
    this.resultLimitBytes = options.resultLimitBytes ?? 1024 * 1024;
    this.heartbeat = startReplicaHeartbeat(this.store, {
      replicaId: this.replicaId,
      ...options.heartbeat,
      onError: (error) => this.logger.debug('could not refresh the replica heartbeat', { error: errorMessage(error) }),
    });
    this.stopListening = this.store.subscribe(cancelChannel, ({ body }) => void this.cancelRequested(body));
  }

  /** Records a task just created through this replica (before the client hears of it) and starts watching it. */
  async created(task: ExposedTask, backendTask: Record<string, unknown>): Promise<void> {
    if (this.closed) return;
    const record = newTaskRecord(task, backendTask, this.replicaId);
    const entry: Watched = { task, record, writes: Promise.resolve(), settled: false, failures: 0 };
    this.watched.set(task.exposedId, entry);
    const ttlMs = Math.max(1, task.expiresAt - Date.now());
    entry.writes = Promise.all([
      this.store.setRecord(recordKey(task.exposedId), record, { ttlMs }),
      this.store.addMember(ownerKey(task.owner), task.exposedId, { ttlMs }),
    ]).then(
      () => undefined,
      (error: unknown) =>
        this.logger.warn('could not record a task in the cluster store', { error: errorMessage(error) }),
    );
    await entry.writes;
    if (isTerminal(record)) this.settle(entry);
    else this.schedule(entry);
  }

  /**
   * A status of a task this replica runs (a client's poll, the backend's status notification): written when what a
   * reader sees changed; an ended task gets its result fetched and kept. Returns at once (the write goes on behind).
   */
  noteStatus(task: ExposedTask, backendTask: Record<string, unknown>): void {
    const entry = this.watched.get(task.exposedId);
    if (!entry || entry.settled || !applyStatus(entry.record, backendTask)) return;
    if (isTerminal(entry.record)) this.settle(entry);
    else this.write(entry, entry.record);
  }

  /** The owner's task `exposedId` from the store; undefined for anyone else, or once it expired. */
  async read(exposedId: string, owner: string): Promise<ForeignTask | undefined> {
    const record = await this.store.getRecord<TaskRecord>(recordKey(exposedId));
    if (!record || record.owner !== owner) return undefined;
    if (isTerminal(record)) return { record, running: false };
    const stopped =
      record.replicaId === this.replicaId
        ? !this.watched.has(exposedId) && notHeldMessage
        : !(await this.heartbeat.isAlive(record.replicaId)) && replicaStoppedMessage;
    if (!stopped) return { record, running: true };
    const failed = failRecord(record, stopped);
    // Written once, so later readers need not look at the heartbeat; a failed write changes nothing they see. An end
    // recorded meanwhile (the task completed just now) stays, and is the answer.
    const stored = await this.writeUnlessEnded(failed).catch(() => true);
    if (stored) return { record: failed, running: false };
    const ended = await this.store.getRecord<TaskRecord>(recordKey(exposedId));
    return ended && ended.owner === owner ? { record: ended, running: !isTerminal(ended) } : undefined;
  }

  /** The owner's tasks in the store other than those of `held` (this replica's own, answered from the backend). */
  async list(owner: string, held: ReadonlySet<string>): Promise<ForeignTask[]> {
    const ids = (await this.store.members(ownerKey(owner))).filter((id) => !held.has(id));
    const found = await Promise.all(
      ids.map(async (id) => {
        const task = await this.read(id, owner);
        if (!task) await this.store.removeMember(ownerKey(owner), id).catch(() => undefined);
        return task;
      }),
    );
    return found
      .filter((task): task is ForeignTask => task !== undefined)
      .sort((a, b) => a.record.createdAt.localeCompare(b.record.createdAt));
  }

  /**
   * Asks the replica running a task to cancel it (publish/subscribe: only that replica's backend knows the task). The
   * record shows `cancelled` once it did; a replica that stopped cannot, and its task reads `failed` anyway.
   */
  async requestCancel(record: TaskRecord): Promise<void> {
    await this.store.publish(cancelChannel, {
      replicaId: record.replicaId,
      exposedId: record.exposedId,
      owner: record.owner,
    });
  }

  /** Stops watching, and the heartbeat (other replicas see this one's running tasks as stopped at once). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    for (const entry of this.watched.values()) clearTimeout(entry.timer);
    // Writes under way finish (a result being fetched is kept if it comes soon); a slow backend does not hold up a
    // shutdown: its task reads `failed` on the other replicas, as if this one had been killed.
    const writes = Promise.all([...this.watched.values()].map((entry) => entry.writes));
    await settleWithin(writes, closeWaitMs);
    this.watched.clear();
    await this.heartbeat.stop();
  }

  private write(entry: Watched, record: TaskRecord): void {
    entry.record = record;
    entry.writes = entry.writes
      .then(() => this.writeUnlessEnded(record))
      .then(() => undefined)
      .catch((error: unknown) =>
        this.logger.warn('could not update a task in the cluster store', { error: errorMessage(error) }),
      );
  }

  /**
   * Writes `record` unless the stored one already ended: an ended task's status never changes again (a `failed` read
   * by another replica is not turned back into `working` or `completed`, nor the reverse). True when written.
   */
  private async writeUnlessEnded(record: TaskRecord): Promise<boolean> {
    const key = recordKey(record.exposedId);
    const options = { ttlMs: Math.max(1, record.expiresAt - Date.now()) };
    if (this.store.setRecordUnless) return this.store.setRecordUnless(key, record, endedGuard, options);
    // A host's store without the atomic write: read, then write (a narrow race remains).
    const current = await this.store.getRecord<TaskRecord>(key);
    if (current && isTerminal(current)) return false;
    await this.store.setRecord(key, record, options);
    return true;
  }

  /** The task ended: its result (or error) is fetched from the backend, once, and kept in the record. */
  private settle(entry: Watched): void {
    entry.settled = true;
    clearTimeout(entry.timer);
    const { task } = entry;
    const fetched = this.gateway.getTaskResult
      ? this.gateway.getTaskResult(task.serverId, task.backendTaskId, { timeoutMs: resultTimeoutMs }).then(
          (result) => ({ result }),
          (error: unknown) => ({ error: recordError(error) }),
        )
      : Promise.resolve({ error: { code: -32601, message: 'Task results are not forwarded by this Search MCP' } });
    entry.writes = entry.writes.then(async () => {
      const record = settleRecord(entry.record, await fetched, this.resultLimitBytes);
      entry.record = record;
      await this.writeUnlessEnded(record).catch((error: unknown) =>
        this.logger.warn('could not keep a task result in the cluster store', { error: errorMessage(error) }),
      );
      this.watched.delete(task.exposedId);
    });
  }

  /** The watch: polls the backend's task at its `pollInterval` until it ends, so the record never goes stale. */
  private schedule(entry: Watched): void {
    if (this.closed || entry.settled) return;
    const interval = Math.min(
      watchBoundsMs.max,
      Math.max(watchBoundsMs.min, entry.record.pollInterval ?? watchBoundsMs.min * 2),
    );
    entry.timer = setTimeout(() => void this.poll(entry), interval);
    entry.timer.unref();
  }

  private async poll(entry: Watched): Promise<void> {
    const { task } = entry;
    if (this.closed || entry.settled) return;
    if (this.tasks.byBackendId(task.serverId, task.backendTaskId) !== task) {
      // Expired (its record expires with it), or its backend restarted and the task is gone.
      entry.settled = true;
      this.watched.delete(task.exposedId);
      if (task.expiresAt > Date.now()) this.write(entry, failRecord(entry.record, notHeldMessage));
      return;
    }
    try {
      const status = await this.gateway.getTask?.(task.serverId, task.backendTaskId, { timeoutMs: resultTimeoutMs });
      entry.failures = 0;
      if (isRecord(status)) this.noteStatus(task, status);
    } catch (error) {
      entry.failures += 1;
      if (entry.failures >= failedPollsToGiveUp && !entry.settled) {
        entry.settled = true;
        this.watched.delete(task.exposedId);
        this.write(
          entry,
          failRecord(entry.record, `The backend no longer answers for the task: ${errorMessage(error)}`),
        );
        return;
      }
    }
    this.schedule(entry);
  }

  private async cancelRequested(body: unknown): Promise<void> {
    if (!isRecord(body) || body.replicaId !== this.replicaId || typeof body.exposedId !== 'string') return;
    if (typeof body.owner !== 'string' || !this.gateway.cancelTask) return;
    const task = this.tasks.get(body.exposedId, body.owner);
    if (!task) return;
    try {
      const answer = await this.gateway.cancelTask(task.serverId, task.backendTaskId, { timeoutMs: resultTimeoutMs });
      this.noteStatus(task, isRecord(answer.task) ? answer.task : answer);
    } catch (error) {
      this.logger.debug('could not cancel a task another replica asked to', { error: errorMessage(error) });
    }
  }
}

const recordKey = (exposedId: string) => `task/${exposedId}`;
const endedGuard = { field: 'status', values: [...terminalStatuses] };
const ownerKey = (owner: string) => `task-owner/${owner}`;
