import type { ServerState } from '@search-mcp/shared';
import { type RestartPolicy, restartDelayMs } from './restart-policy.js';

export interface PlannedRestart {
  delayMs: number;
  /** 1 for the first restart in a row. */
  attempt: number;
}

/**
 * When a server that is down is brought back: after a crash, capped exponential backoff, reset after a stable run,
 * and a limit of restarts in a row after which the server is given up (`failed`); sooner when a call finds it down.
 */
export class RestartScheduler {
  private timer?: NodeJS.Timeout;
  /** Restarts in a row since the last stable run; drives the backoff. */
  private consecutive = 0;
  /** Restarts since the last start on purpose. */
  private restartCount = 0;
  private lastAttemptAt = 0;

  constructor(readonly policy: RestartPolicy) {}

  /** Restarts since the last start on purpose (reported in status). */
  get restarts(): number {
    return this.restartCount;
  }

  /** A connection attempt begins (see `reconnectNow`'s throttle). */
  attempting(): void {
    this.lastAttemptAt = Date.now();
  }

  /**
   * A call found the server down in `state`: how to bring it back now, or undefined. A crashed server skips the rest
   * of its backoff wait (a restart, still in the backoff chain if it fails again); a failed one is tried at most once
   * per throttle window — a burst of calls to a server that keeps failing must not become a burst of spawns.
   */
  reconnectNow(state: ServerState): 'restart' | 'reconnect' | undefined {
    if (state !== 'failed' && state !== 'crashed' && state !== 'stopped') return undefined;
    const throttleMs = Math.min(1000, this.policy.initialDelayMs);
    if (state === 'failed' && Date.now() - this.lastAttemptAt < throttleMs) return undefined;
    this.cancel();
    if (state !== 'crashed') return 'reconnect';
    this.restartCount += 1;
    return 'restart';
  }

  /**
   * Plans the next restart after a crash of a connection made at `connectedAt`: after the backoff, `restart` runs
   * (counted) if `stillWanted()`. Returns undefined, planning nothing, when `maxAttempts` restarts in a row have been
   * used up.
   */
  schedule(connectedAt: Date | undefined, stillWanted: () => boolean, restart: () => void): PlannedRestart | undefined {
    if (connectedAt && Date.now() - connectedAt.getTime() >= this.policy.stableAfterMs) this.consecutive = 0;
    if (this.consecutive >= this.policy.maxAttempts) return undefined;
    this.consecutive += 1;
    const delayMs = restartDelayMs(this.policy, this.consecutive);
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!stillWanted()) return;
      this.restartCount += 1;
      restart();
    }, delayMs);
    // A pending restart must not keep the host alive.
    this.timer.unref();
    return { delayMs, attempt: this.consecutive };
  }

  /** Drops a planned restart (the server was stopped, or brought back sooner). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A start on purpose: the backoff and the restart count start over. */
  reset(): void {
    this.cancel();
    this.consecutive = 0;
    this.restartCount = 0;
  }
}
