/** How a crashed server is brought back: capped exponential backoff, reset after a stable run. */
export interface RestartPolicy {
  /** Delay before the first restart. Default 1,000 ms. */
  initialDelayMs: number;
  /** Cap of the doubling delay. Default 30,000 ms. */
  maxDelayMs: number;
  /** Restarts in a row (without a stable run between them) before the server is marked `failed`. Default 8. */
  maxAttempts: number;
  /** A run at least this long resets the backoff. Default 60,000 ms. */
  stableAfterMs: number;
}

export const defaultRestartPolicy: RestartPolicy = Object.freeze({
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  maxAttempts: 8,
  stableAfterMs: 60_000,
});

/** Delay before restart number `attempt` (1-based): 1 s, 2 s, 4 s … capped. */
export function restartDelayMs(policy: RestartPolicy, attempt: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(exponent, 30));
}
