import { type RestartPolicy, restartDelayMs } from './restart-policy.js';

export interface PlannedRestart {
  delayMs: number;
  /** 1 for the first restart in a row. */
  attempt: number;
}

/**
 * When a crashed server is brought back: capped exponential backoff, reset after a stable run, and a limit of
 * restarts in a row after which the server is given up (`failed`).
 */
export class RestartScheduler {
  private timer?: NodeJS.Timeout;
  /** Restarts in a row since the last stable run; drives the backoff. */
  private consecutive = 0;

  constructor(readonly policy: RestartPolicy) {}

  /**
   * Plans the next restart after a crash of a connection made at `connectedAt` and runs `restart` after the
   * backoff. Returns undefined, planning nothing, when `maxAttempts` restarts in a row have been used up.
   */
  schedule(connectedAt: Date | undefined, restart: () => void): PlannedRestart | undefined {
    if (connectedAt && Date.now() - connectedAt.getTime() >= this.policy.stableAfterMs) this.consecutive = 0;
    if (this.consecutive >= this.policy.maxAttempts) return undefined;
    this.consecutive += 1;
    const delayMs = restartDelayMs(this.policy, this.consecutive);
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
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

  /** A start on purpose: the backoff starts over. */
  reset(): void {
    this.cancel();
    this.consecutive = 0;
  }
}
