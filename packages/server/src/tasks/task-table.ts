import { randomUUID } from 'node:crypto';

/** A backend task as a client of ours knows it: under an id of ours, owned by the session or token that made it. */
export interface ExposedTask {
  readonly exposedId: string;
  readonly serverId: string;
  readonly backendTaskId: string;
  /** The token id of the caller that created it, else the key of its session. */
  readonly owner: string;
  /** The session that created it: where its related requests and status notifications go. */
  readonly sessionKey: string;
  expiresAt: number;
  readonly createdAt: number;
}

/** Kept this long when the backend names no `ttl` (and at most this long past one it names). */
const defaultTtlMs = 60 * 60 * 1000;

/**
 * The tasks clients created through us. Ids are ours (random), so two backends' task ids never collide and a client
 * cannot guess another's; a task is only found by its owner, and "not found" is all anyone else hears.
 */
export class TaskTable {
  private readonly byExposed = new Map<string, ExposedTask>();
  private readonly byBackend = new Map<string, ExposedTask>();

  constructor(private readonly now: () => number = Date.now) {}

  add(
    serverId: string,
    backendTaskId: string,
    owner: { owner: string; sessionKey: string },
    ttlMs: number | null | undefined,
  ): ExposedTask {
    this.sweep();
    const createdAt = this.now();
    const lifetime =
      typeof ttlMs === 'number' && ttlMs > 0 ? Math.min(ttlMs + 60_000, 24 * defaultTtlMs) : defaultTtlMs;
    const task: ExposedTask = {
      exposedId: randomUUID(),
      serverId,
      backendTaskId,
      owner: owner.owner,
      sessionKey: owner.sessionKey,
      createdAt,
      expiresAt: createdAt + lifetime,
    };
    this.byExposed.set(task.exposedId, task);
    this.byBackend.set(backendKey(serverId, backendTaskId), task);
    return task;
  }

  /** The task, if `owner` owns it and it has not expired. */
  get(exposedId: string, owner: string): ExposedTask | undefined {
    const task = this.byExposed.get(exposedId);
    if (!task || task.owner !== owner) return undefined;
    if (task.expiresAt <= this.now()) {
      this.delete(task);
      return undefined;
    }
    return task;
  }

  /** The task of ours for a backend's task id (its related-task `_meta`, its status notifications). */
  byBackendId(serverId: string, backendTaskId: string): ExposedTask | undefined {
    return this.byBackend.get(backendKey(serverId, backendTaskId));
  }

  /** The owner's tasks, oldest first. */
  list(owner: string): ExposedTask[] {
    this.sweep();
    return [...this.byExposed.values()].filter((task) => task.owner === owner);
  }

  /** Forgets every task of a server (it restarted: its task ids mean nothing now). */
  dropServer(serverId: string): void {
    for (const task of [...this.byExposed.values()]) if (task.serverId === serverId) this.delete(task);
  }

  get size(): number {
    return this.byExposed.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const task of [...this.byExposed.values()]) if (task.expiresAt <= now) this.delete(task);
  }

  private delete(task: ExposedTask): void {
    this.byExposed.delete(task.exposedId);
    this.byBackend.delete(backendKey(task.serverId, task.backendTaskId));
  }
}

function backendKey(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}
