/**
 * Counts failed authentications per client address: past `limit` failures in a minute, every further *wrong* token
 * from that address gets 429 (with `Retry-After`) until the minute is over, so a client stuck on a bad token backs off
 * and the log stays quiet. It limits failures, never the address: a valid token is checked first and always gets in,
 * since on loopback one address is every local client (issue 14). What keeps tokens unguessable is their length
 * (generated tokens carry 256 bits; the CLI warns about short configured ones). Successful requests are limited per
 * token elsewhere (`--rate-limit`).
 */
export class FailedAuthenticationLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number {
    const entry = this.failures.get(address);
    if (!entry) return 0;
    const now = this.now();
    if (now >= entry.resetAt) {
      this.failures.delete(address);
      return 0;
    }
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  recordFailure(address: string): void {
    const now = this.now();
    const entry = this.failures.get(address);
    if (!entry || now >= entry.resetAt) this.failures.set(address, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
    // Bounded memory under a flood from many addresses: forget expired entries now and then.
    if (this.failures.size > 10_000) {
      for (const [key, value] of this.failures) if (now >= value.resetAt) this.failures.delete(key);
    }
  }
}
