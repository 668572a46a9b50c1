import type { Server } from '@modelcontextprotocol/server';

export interface CallerInstancePoolOptions {
  /**
   * Ready instances kept per caller. By default as many as the caller had requests served at once since the last
   * sweep (within `idleTotal`): a caller with more requests at once than a fixed number kept would have instances
   * built and ended for its requests all the time, the cost the pool is there to spare (`pnpm bench:http`, 50
   * connections of one token).
   */
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
  /** Lent with no request to `release` it: its exchange's close is its end. */
  unreleased: boolean;
  idleSince: number;
}

/**
 * Server instances for 2026-07-28 requests, kept ready per caller rather than built and torn down for each request
 * (that was most of the leg's extra CPU against a 2025 session: `pnpm bench:http`). An instance serves one
 * request at a time: the SDK's `createMcpHandler` refuses one still serving, and ends each exchange by closing the
 * instance's transport; the instance comes back here when its request's answer is out (`release`), or is ended if
 * the exchange was cut short. Keyed by the caller (its token, project,
 * subject and access), never by anything of this process's: any replica still answers any request, and nothing a
 * request leaves on an instance is another caller's. An instance between requests has no transport, so the hub leaves
 * it out of its sessions (`ClientSessions.all`), as it did when the instance was gone.
 */
export class CallerInstancePool<S extends Server> {
  private readonly idlePerCaller: number | undefined;
  private readonly idleTotal: number;
  private readonly idleMs: number;
  private readonly entries = new WeakMap<S, Entry>();
  /** Per caller, the ready instances (the most recently used last: it is taken first). */
  private readonly idle = new Map<string, S[]>();
  private idleCount = 0;
  /** Per caller, its instances lent now, and the most lent at once since the last sweep. */
  private readonly lentCount = new Map<string, number>();
  private readonly lentPeak = new Map<string, number>();
  /** What each request was lent, for `release`. */
  private readonly lent = new Map<Request, Array<{ server: S; lease: number }>>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: CallerInstancePoolOptions = {}) {
    this.idlePerCaller = options.idlePerCaller;
    this.idleTotal = options.idleTotal ?? 128;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** A ready instance of `key`'s, else a new one from `build`; lent to `request` until `release`. */
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
      entry = { key, teardown: server.onclose, lease: 0, busy: false, unreleased: false, idleSince: 0 };
      this.entries.set(server, entry);
      // The SDK closes the instance's transport at the end of each exchange: that is not the instance's end. It comes
      // back at `release`, once its request's answer is out (the pool decides then whether it is kept or ended).
      const lentServer = server;
      server.onclose = () => {
        if (entry.busy && entry.unreleased) this.retire(lentServer, entry);
      };
    }
    entry.busy = true;
    const lentNow = (this.lentCount.get(key) ?? 0) + 1;
    this.lentCount.set(key, lentNow);
    if (lentNow > (this.lentPeak.get(key) ?? 0)) this.lentPeak.set(key, lentNow);
    entry.unreleased = request === undefined;
    entry.lease += 1;
    if (request) {
      const list = this.lent.get(request) ?? [];
      list.push({ server, lease: entry.lease });
      this.lent.set(request, list);
    }
    return server;
  }

  /**
   * After `request`'s exchange ended. Only an exchange that `answered` (its whole answer went out, so its handler
   * returned) with its transport closed hands its instance back; an `abandoned` one (the client left, the answer was
   * cut short) may still have a handler waiting on a backend, whose late notifications would go out on the
   * instance's next transport, another request's: that instance is ended, never lent again. An instance the handler
   * never connected (a `subscriptions/listen` the SDK's router served, a request refused before it ran) comes back.
   */
  release(request: Request, outcome: 'answered' | 'abandoned'): void {
    const list = this.lent.get(request);
    this.lent.delete(request);
    for (const { server, lease } of list ?? []) {
      const entry = this.entries.get(server);
      if (!entry?.busy || entry.lease !== lease) continue;
      if (outcome === 'answered' && server.transport === undefined) this.handBack(server, entry);
      else this.retire(server, entry);
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

  private handBack(server: S, entry: Entry): void {
    const ready = this.idle.get(entry.key) ?? [];
    const kept = this.idlePerCaller ?? this.lentPeak.get(entry.key) ?? 1;
    if (this.closed || ready.length >= kept || this.idleCount >= this.idleTotal) {
      this.retire(server, entry);
      return;
    }
    this.endLending(entry);
    entry.idleSince = Date.now();
    ready.push(server);
    this.idle.set(entry.key, ready);
    this.idleCount += 1;
    this.sweeper ??= setInterval(() => this.sweep(), this.idleMs).unref();
  }

  /** Ends an instance for good: it leaves the hub, and a transport it still has is closed. */
  private retire(server: S, entry: Entry): void {
    this.endLending(entry);
    // Never lent again: a lease no `release` holds.
    entry.lease += 1;
    entry.teardown?.();
    if (server.transport !== undefined) void server.close().catch(() => {});
  }

  private endLending(entry: Entry): void {
    if (!entry.busy) return;
    entry.busy = false;
    const lentNow = (this.lentCount.get(entry.key) ?? 1) - 1;
    if (lentNow > 0) this.lentCount.set(entry.key, lentNow);
    else this.lentCount.delete(entry.key);
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
    // A burst's peak counts until the next sweep: from then on, what each caller has lent now.
    this.lentPeak.clear();
    for (const [key, lentNow] of this.lentCount) this.lentPeak.set(key, lentNow);
    if (this.idleCount === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
