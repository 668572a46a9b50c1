/** How many log messages a backend may send: a steady rate and a burst above it. */
export interface LogRateLimit {
  perSecond: number;
  burst: number;
}

export const defaultLogRateLimit: LogRateLimit = { perSecond: 50, burst: 200 };

/**
 * A token bucket for one server's `notifications/message`: a flooding backend cannot drown the clients (or the
 * host's event loop). Dropped messages are counted; `onDropped` reports them at most once a second, so the client
 * learns that messages are missing.
 */
export class LogRateLimiter {
  private tokens: number;
  private refilledAt = performance.now();
  private dropped = 0;
  private reportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limit: LogRateLimit,
    private readonly onDropped: (count: number) => void,
  ) {
    this.tokens = limit.burst;
  }

  /** True when the message may pass. */
  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.limit.perSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.dropped += 1;
    this.reportTimer ??= setTimeout(() => this.report(), 1000);
    return false;
  }

  /** Stops the pending report (the connection ended); what was dropped is reported now. */
  close(): void {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.report();
  }

  private report(): void {
    this.reportTimer = undefined;
    const count = this.dropped;
    this.dropped = 0;
    if (count > 0) this.onDropped(count);
  }
}
