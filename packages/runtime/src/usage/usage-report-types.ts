/** The shapes of `UsageStatistics.report` (docs/console.md, "REST API used by the console"). Types only. */

export type UsageWindow = '1h' | '24h' | '7d';

export interface UsageFigures {
  calls: number;
  /** Outcome `error` or `tool_error`. */
  errors: number;
  /** Absent without calls. */
  p50Ms?: number;
  p95Ms?: number;
}

export interface UsageReport {
  window: UsageWindow;
  /** ISO, inclusive. */
  from: string;
  /** ISO, exclusive. */
  to: string;
  /** 60 000 for 1h, 3 600 000 for 24h and 7d. */
  bucketMs: number;
  /** Whether these figures survive a restart (an `audit.file` is configured). */
  persisted: boolean;
  totals: UsageFigures;
  servers: Array<UsageFigures & { serverId: string }>;
  tools: Array<UsageFigures & { toolKey: string; serverId: string; lastCallAt?: string }>;
  /** The totals per bucket, oldest first, every bucket present (zeros included): for charts. */
  series: Array<UsageFigures & { at: string }>;
  /** Searches (tool_discovery and REST search): how many, how many found nothing, how long they took. */
  searches: { count: number; noMatch: number; p50Ms?: number; p95Ms?: number };
}

export interface UsageReportQuery {
  window: UsageWindow;
  serverId?: string;
  toolKey?: string;
  /** Whether the asker may see this tool; default every tool (the `(other)` series included). */
  visible?: (toolKey: string, serverId: string) => boolean;
}

export const usageWindows: Readonly<Record<UsageWindow, { bucketMs: number; buckets: number }>> = {
  '1h': { bucketMs: 60_000, buckets: 60 },
  '24h': { bucketMs: 3_600_000, buckets: 24 },
  '7d': { bucketMs: 3_600_000, buckets: 168 },
};

/** The series that holds every tool past the cap on series (bounded memory). */
export const OTHER_SERIES = '(other)';
