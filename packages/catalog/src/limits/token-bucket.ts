import type { RateConfig } from '@search-mcp/shared';

const millisecondsPerMinute = 60_000;

/**
 * One token bucket (docs/trust.md, "Rate limits"): it holds up to `burst` tokens and gains `requestsPerMinute` a
 * minute; a call takes one. The refill is computed when the bucket is read, from the time given, so no timer runs and
 * tests pass their own clock. The rate is passed at each read rather than kept, so a reloaded config applies at once
 * to the tokens the bucket holds (clamped to the new burst).
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(rate: RateConfig, now: number) {
    this.tokens = rate.burst;
    this.updatedAt = now;
  }

  /** The tokens held at `now` (fractions included), after the refill since the last read. */
  refill(rate: RateConfig, now: number): number {
    // A clock that went back adds nothing (and the next read counts from the earlier time).
    const elapsed = Math.max(0, now - this.updatedAt);
    this.tokens = Math.min(rate.burst, this.tokens + (elapsed * rate.requestsPerMinute) / millisecondsPerMinute);
    this.updatedAt = now;
    return this.tokens;
  }

  /** Milliseconds until a token is there, after `refill`: 0 when one is there now. */
  waitMs(rate: RateConfig): number {
    if (this.tokens >= 1) return 0;
    return Math.ceil(((1 - this.tokens) * millisecondsPerMinute) / rate.requestsPerMinute);
  }

  /** Takes one token; only after `waitMs` said 0. */
  take(): void {
    this.tokens -= 1;
  }

  /** Whether the bucket would be full at `now`: forgetting it loses nothing (a new one starts full). */
  isFullAt(rate: RateConfig, now: number): boolean {
    const elapsed = Math.max(0, now - this.updatedAt);
    return this.tokens + (elapsed * rate.requestsPerMinute) / millisecondsPerMinute >= rate.burst;
  }
}
