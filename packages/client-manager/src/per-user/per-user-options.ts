/** `McpClientManager` option `perUser`: the connections kept for callers of servers with `identity: "per-user"`. */
export interface PerUserOptions {
  /**
   * The most callers with a connection of their own open at once, per server. At the limit the least recently used
   * idle one is closed for a new caller; when all are in use, the new caller gets a retryable `ServerNotRunningError`.
   * Default 50.
   */
  maxConnections?: number;
  /** A caller's connection with no call for this long is closed (its tokens stay stored). Default 600,000 ms. */
  idleTimeoutMs?: number;
}

export interface PerUserLimits {
  maxConnections: number;
  idleTimeoutMs: number;
}

export const defaultPerUserLimits: PerUserLimits = { maxConnections: 50, idleTimeoutMs: 600_000 };

export function perUserLimits(options: PerUserOptions | undefined): PerUserLimits {
  return {
    maxConnections: Math.max(1, options?.maxConnections ?? defaultPerUserLimits.maxConnections),
    idleTimeoutMs: Math.max(0, options?.idleTimeoutMs ?? defaultPerUserLimits.idleTimeoutMs),
  };
}
