import type { Server } from '@modelcontextprotocol/server';

export interface CallerInstancePoolOptions {
  /** Ready instances kept per caller (enough for its usual number of requests at once). */
  idlePerCaller?: number;
  /** Ready instances kept in all. */
  idleTotal?: number;
  /** How long an instance nobody asked for is kept before it is closed for good. */
  idleMs?: number;
}

interface Entry {
  readonly key: string;
  /** The instance's own `onclose` (it leaves the runtime's hub, stops hearing backend changes): its real end. */
  readonly teardown: (() => void) | undefined;
  /** Bumped at every lending, so a late `release` of an earlier request cannot hand back a later one's instance. */
  lease: number;
  busy: boolean;
  idleSince: number;
}

/**
 * Server instances for 2026-07-28 requests, kept ready per caller rather than built and torn down for each request
 * (that was most of the leg's extra CPU against a 2025 session: `pnpm bench:http`). An instance serves one
 * request at a time: the SDK's `createMcpHandler` refuses one still serving, and ends each exchange by closing the
 * instance's transport; that close hands it back here instead of ending it. Keyed by the caller (its token, project,
 * subject and access), never by anything of this process's: any replica still answers any request, and nothing a
 * request leaves on an instance is another caller's. An instance between requests has no transport, so the hub leaves
 * it out of its sessions (`ClientSessions.all`), as it did when the instance was gone.
 */
export class CallerInstancePool<S extends Server> {
  private readonly idlePerCaller: number;
  private readonly idleTotal: number;
  private readonly idleMs: number;
  private readonly entries = new WeakMap<S, Entry>();
  /** Per caller, the ready instances (the most recently used last: it is taken first). */
  private readonly idle = new Map<string, S[]>();
  private idleCount = 0;
  /** What each request was lent, for `release`. */
  private readonly lent = new Map<Request, Array<{ server: S; lease: number }>>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: CallerInstancePoolOptions = {}) {
    this.idlePerCaller = options.idlePerCaller ?? 32;
    this.idleTotal = options.idleTotal ?? 128;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** A ready instance of `key`'s, else a new one from `build`; lent to `request` until its exchange ends. */
  acquire(key: string, request: Request | undefined, build: () => S): S {
    const ready = this.idle.get(key);
    let server = ready?.pop();
    if (ready?.length === 0) this.idle.delete(key);
    let entry: Entry;
    if (server) {
      this.idleCount -= 1;
      entry = this.entries.get(server) as Entry;
    } else {
      server = build();
      entry = { key, teardown: server.onclose, lease: 0, busy: false, idleSince: 0 };
      this.entries.set(server, entry);
      const lentServer = server;
      server.onclose = () => this.handBack(lentServer, entry, entry.lease);
    }
    entry.busy = true;
    entry.lease += 1;
    if (request) {
      const list = this.lent.get(request) ?? [];
      list.push({ server, lease: entry.lease });
      this.lent.set(request, list);
    }
    return server;
  }

  /**
   * After the handler answered `request`. An instance it connected comes back when its exchange closes; one it never
   * connected (a `subscriptions/listen` the SDK's router served, a request refused before it ran) is closed by the SDK
   * with `close()`, which does nothing on an unconnected server: it comes back here.
   */
  release(request: Request): void {
    const list = this.lent.get(request);
    this.lent.delete(request);
    for (const { server, lease } of list ?? []) {
      const entry = this.entries.get(server);
      if (entry && server.transport === undefined) this.handBack(server, entry, lease);
    }
  }

  /** Ends every ready instance; those still serving end when their exchange does. */
  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const ready = [...this.idle.values()].flat();
    this.idle.clear();
    this.idleCount = 0;
    for (const server of ready) this.entries.get(server)?.teardown?.();
  }

  private handBack(server: S, entry: Entry, lease: number): void {
    if (!entry.busy || entry.lease !== lease) return;
    entry.busy = false;
    const ready = this.idle.get(entry.key) ?? [];
    if (this.closed || ready.length >= this.idlePerCaller || this.idleCount >= this.idleTotal) {
      entry.teardown?.();
      return;
    }
    entry.idleSince = Date.now();
    ready.push(server);
    this.idle.set(entry.key, ready);
    this.idleCount += 1;
    this.sweeper ??= setInterval(() => this.sweep(), this.idleMs).unref();
  }

  /** Ends the instances nobody asked for within `idleMs` (the oldest are first in each list). */
  private sweep(): void {
    const before = Date.now() - this.idleMs;
    for (const [key, ready] of this.idle) {
      while (ready.length > 0 && (this.entries.get(ready[0] as S)?.idleSince ?? 0) <= before) {
        const server = ready.shift() as S;
        this.idleCount -= 1;
        this.entries.get(server)?.teardown?.();
      }
      if (ready.length === 0) this.idle.delete(key);
    }
    if (this.idleCount === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
