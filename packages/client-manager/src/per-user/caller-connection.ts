import type { ServerConnection } from '../connection/server-connection.js';
import type { ServerAuthorization } from '../oauth/server-authorization.js';

/** Orders uses across every caller's connection (least recently used first), without ties of the clock. */
let useSequence = 0;

/**
 * One caller's own connection to a per-user server (README, "Per-user servers"): the `ServerConnection` built
 * with their own OAuth credentials, the calls using it now, when it was last used, its idle timer, and the
 * authorization begun for the caller (one at a time: concurrent calls share it, and its URL until it ends).
 */
export class CallerConnection {
  private inUse = 0;
  private lastUse = ++useSequence;
  private idleTimer: NodeJS.Timeout | undefined;
  private pendingUrl: string | undefined;
  private beginning: Promise<string | undefined> | undefined;

  constructor(
    readonly subject: string,
    readonly connection: ServerConnection,
    readonly authorization: ServerAuthorization,
  ) {}

  get busy(): boolean {
    return this.inUse > 0;
  }

  /** When it was last used: lower is longer ago. */
  get lastUsed(): number {
    return this.lastUse;
  }

  /** An authorization begun for the caller waits for its redirect: closing now would lose it. */
  waitingForPerson(): boolean {
    return this.authorization.waitingForPerson();
  }

  /** A call (or an authorization step) starts using it: not idle until `release`. */
  acquire(): void {
    this.inUse += 1;
    this.lastUse = ++useSequence;
    this.cancelIdleTimer();
  }

  /** The use ended: once nothing uses it, `onIdle` runs after `idleTimeoutMs` (unless used again meanwhile). */
  release(idleTimeoutMs: number, onIdle: () => void): void {
    this.inUse = Math.max(0, this.inUse - 1);
    this.lastUse = ++useSequence;
    if (this.inUse > 0) return;
    this.cancelIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (!this.busy) onIdle();
    }, idleTimeoutMs);
    // An idle connection never keeps the host alive.
    this.idleTimer.unref();
  }

  cancelIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * Begins an authorization for the caller with the host's redirect URL; the URL to open, or undefined when none is
   * needed (a grant without a person got the token). `reuse`: the URL of one already waiting for its redirect is
   * given again (a call meeting `needs-auth` twice must not make the first link stale); else always a new one.
   */
  begin(redirectUrl: string, reuse: boolean): Promise<string | undefined> {
    if (this.beginning) return this.beginning;
    if (reuse && this.pendingUrl !== undefined && this.waitingForPerson()) return Promise.resolve(this.pendingUrl);
    const started = this.authorization
      .begin(redirectUrl)
      .then((url) => {
        this.pendingUrl = url?.href;
        return url?.href;
      })
      .finally(() => {
        this.beginning = undefined;
      });
    this.beginning = started;
    return started;
  }
}
