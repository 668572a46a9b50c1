import { isRecord } from '@search-mcp/shared';
import type { ExposedTask } from './task-table.js';

/**
 * A task as the cluster store keeps it (packages/server/README.md, "Tasks across replicas"): what any replica needs
 * to answer `tasks/get`, `tasks/result` and `tasks/list` for it once the replica running it is not the one asked, or
 * is gone. Times are ISO strings as tasks carry them; `result` is the backend's answer (its own task id inside,
 * swapped on the way out).
 */
export interface TaskRecord {
  readonly exposedId: string;
  readonly owner: string;
  readonly serverId: string;
  readonly backendTaskId: string;
  /** The replica whose backend runs the task (`ClusterTaskRecords.replicaId`), whose heartbeat says it still does. */
  readonly replicaId: string;
  status: string;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  /** The backend's `ttl` (ms), or null. */
  readonly ttl: number | null;
  pollInterval?: number;
  /** Epoch ms the record (and our task) expires. */
  readonly expiresAt: number;
  /** The backend's `tasks/result` once the task ended. */
  result?: Record<string, unknown>;
  /** Why there is no `result` for an ended task: the backend's error, or a result over the store's size limit. */
  error?: { code: number; message: string; data?: unknown };
}

export const terminalStatuses: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export const isTerminal = (record: Pick<TaskRecord, 'status'>) => terminalStatuses.has(record.status);

/** The record of a task just created through this replica, from the backend's created task. */
export function newTaskRecord(task: ExposedTask, backendTask: Record<string, unknown>, replicaId: string): TaskRecord {
  const createdAt = typeof backendTask.createdAt === 'string' ? backendTask.createdAt : iso(task.createdAt);
  const record: TaskRecord = {
    exposedId: task.exposedId,
    owner: task.owner,
    serverId: task.serverId,
    backendTaskId: task.backendTaskId,
    replicaId,
    status: typeof backendTask.status === 'string' ? backendTask.status : 'working',
    createdAt,
    lastUpdatedAt: typeof backendTask.lastUpdatedAt === 'string' ? backendTask.lastUpdatedAt : createdAt,
    ttl: typeof backendTask.ttl === 'number' ? backendTask.ttl : null,
    expiresAt: task.expiresAt,
  };
  if (typeof backendTask.statusMessage === 'string') record.statusMessage = backendTask.statusMessage;
  if (typeof backendTask.pollInterval === 'number') record.pollInterval = backendTask.pollInterval;
  return record;
}

/**
 * Takes a backend task's status (a poll, a status notification) into the record; false when nothing a reader sees
 * changed (no write needed).
 */
export function applyStatus(record: TaskRecord, backendTask: Record<string, unknown>): boolean {
  const status = typeof backendTask.status === 'string' ? backendTask.status : record.status;
  const statusMessage = typeof backendTask.statusMessage === 'string' ? backendTask.statusMessage : undefined;
  if (status === record.status && statusMessage === record.statusMessage) return false;
  record.status = status;
  if (statusMessage === undefined) delete record.statusMessage;
  else record.statusMessage = statusMessage;
  record.lastUpdatedAt =
    typeof backendTask.lastUpdatedAt === 'string' ? backendTask.lastUpdatedAt : new Date().toISOString();
  if (typeof backendTask.pollInterval === 'number') record.pollInterval = backendTask.pollInterval;
  return true;
}

/** Marks the record failed with `message` (the replica or backend running it is gone). */
export function failRecord(record: TaskRecord, message: string): TaskRecord {
  return {
    ...record,
    status: 'failed',
    statusMessage: message,
    lastUpdatedAt: new Date().toISOString(),
    error: { code: -32603, message },
  };
}

/** The task in 2025's `Task` shape (`tasks/get`, `tasks/list`, `tasks/cancel`), under our id. */
export function taskOfRecord(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.exposedId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttl,
    ...(record.pollInterval !== undefined ? { pollInterval: record.pollInterval } : {}),
  };
}

/** The record as the task table's entry would be, for the shapes that take one (`withExposedIds`, `toModernTask`). */
export function exposedOfRecord(record: TaskRecord): ExposedTask {
  return {
    exposedId: record.exposedId,
    serverId: record.serverId,
    backendTaskId: record.backendTaskId,
    owner: record.owner,
    sessionKey: '',
    createdAt: Date.parse(record.createdAt),
    expiresAt: record.expiresAt,
  };
}

/**
 * Keeps an ended task's result in the record when its JSON fits `limitBytes`; a larger one is kept as an error saying
 * so (the store holds every replica's tasks: one huge result must not fill it).
 */
export function settleRecord(
  record: TaskRecord,
  outcome: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } },
  limitBytes: number,
): TaskRecord {
  if ('error' in outcome) return { ...record, error: outcome.error };
  const size = Buffer.byteLength(JSON.stringify(outcome.result));
  if (size <= limitBytes) return { ...record, result: outcome.result };
  const message = `The task's result (${size} bytes) is larger than the ${limitBytes} bytes the cluster store keeps for a task: only the replica that ran it can answer it, while it runs`;
  return { ...record, error: { code: -32603, message } };
}

/** A backend error as a record's `error`. */
export function recordError(error: unknown): { code: number; message: string; data?: unknown } {
  const code = isRecord(error) && typeof error.backendCode === 'number' ? error.backendCode : -32603;
  const message = error instanceof Error ? error.message : String(error);
  const data = isRecord(error) && error.data !== undefined ? error.data : undefined;
  return data === undefined ? { code, message } : { code, message, data };
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
