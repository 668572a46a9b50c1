import type { ClusterStore } from '@search-mcp/cluster';
import type { AuditRecord } from '@search-mcp/server';
import { type Logger, silentLogger } from '@search-mcp/shared';
import { SearchSeries, ToolSeries } from './usage-buckets.js';
import { usageRecordKind } from './usage-record-kind.js';
import { buildUsageReport } from './usage-report-builder.js';
import { OTHER_SERIES, type UsageReport, type UsageReportQuery } from './usage-report-types.js';
import type { DecodedSnapshot } from './usage-snapshot.js';
import { SharedUsage } from './shared-usage.js';
import { UsageStore, type UsageStoreTarget } from './usage-store.js';

/**
 * Tool series kept by default: at most about 90 KB each (a call in every minute and hour bucket), so about 180 MB in
 * the worst case and about 20 MB for a typical 250 tools (docs/console.md, "Bounds").
 */
export const defaultMaxSeries = 2_000;

export interface UsageStatisticsOptions {
  /** The clock (ms since the epoch); tests pass their own. */
  now?: () => number;
  /** How many tools get a series of their own; calls of later ones go to the `(other)` series. Default 2,000. */
  maxSeries?: number;
  /**
   * Keep the figures across restarts: a snapshot in `usageFile`, written every `saveEveryMs` (default 30 s) and at
   * close, plus the lines of `auditFile` written after it, read at start.
   */
  persistence?: { auditFile: string; usageFile: string; saveEveryMs?: number };
  /**
   * Replicas sharing this store add up their figures (docs/scale-out.md, "Usage statistics"): what this one hears is
   * written there about once a second, and `reportAcrossReplicas` reads every replica's.
   */
  cluster?: { store: ClusterStore; flushEveryMs?: number };
  logger?: Logger;
}

/**
 * Usage statistics fed by audit records (docs/console.md, "Usage statistics"): per tool, calls, errors and a
 * duration histogram in minute buckets for the last hour and hour buckets for the last 7 days, and the same for
 * searches. Memory is bounded: at most `maxSeries` tool series (+ `(other)`), each with at most 61 minute and 169
 * hour buckets, whose histograms have at most 66 ranges.
 */
export class UsageStatistics {
  /** Whether the figures survive a restart. */
  readonly persisted: boolean;
  /**
   * Settles once the snapshot and the audit lines after it are read (at once without persistence). Records heard
   * meanwhile are counted; reports made meanwhile lack what is still being read.
   */
  readonly ready: Promise<void>;
  private readonly now: () => number;
  private readonly maxSeries: number;
  private readonly tools = new Map<string, ToolSeries>();
  private readonly searches = new SearchSeries();
  private readonly store: UsageStore | undefined;
  private readonly shared: SharedUsage | undefined;
  private lastDrop = Number.NEGATIVE_INFINITY;

  constructor(options: UsageStatisticsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxSeries = options.maxSeries ?? defaultMaxSeries;
    this.persisted = options.persistence !== undefined;
    this.store = options.persistence
      ? new UsageStore(this.storeTarget(), {
          ...options.persistence,
          now: this.now,
          logger: options.logger ?? silentLogger,
        })
      : undefined;
    this.ready = this.store ? this.store.load() : Promise.resolve();
    this.shared = options.cluster
      ? new SharedUsage(options.cluster.store, {
          now: this.now,
          maxSeries: this.maxSeries,
          logger: options.logger ?? silentLogger,
          ...(options.cluster.flushEveryMs !== undefined ? { flushEveryMs: options.cluster.flushEveryMs } : {}),
        })
      : undefined;
  }

  /** Counts one audit record as it is made (a `runtime.audit` listener). */
  record(record: AuditRecord): void {
    this.add(record);
    this.store?.heard(record);
    this.shared?.heard(record);
  }

  /** This process's figures. */
  report(query: UsageReportQuery): UsageReport {
    return buildUsageReport(this.tools.values(), this.searches, query, this.now(), this.persisted);
  }

  /** Every replica's figures summed (`/v1/stats`); without a shared store, this process's. */
  reportAcrossReplicas(query: UsageReportQuery): Promise<UsageReport> {
    return this.shared ? this.shared.report(query) : Promise.resolve(this.report(query));
  }

  /** How many tool series are held (the `(other)` one included). */
  get seriesCount(): number {
    return this.tools.size;
  }

  /** The audit sink failed: no later snapshot would be true, so none is written (docs/console.md, "The file"). */
  auditSinkFailed(): void {
    this.store?.auditSinkFailed();
  }

  /** Writes the snapshot now (nothing without persistence). */
  save(): Promise<void> {
    return this.store?.save() ?? Promise.resolve();
  }

  /** Stops the periodic snapshot and writes a last one. Later records are not counted (the audit file keeps them). */
  async close(): Promise<void> {
    await this.shared?.close();
    await this.store?.close();
  }

  private add(record: AuditRecord): void {
    const kind = usageRecordKind(record);
    if (kind.kind === 'none') return;
    const now = this.now();
    const parsed = Date.parse(record.ts);
    // A clock that stepped back must not open buckets in the future.
    const at = Number.isNaN(parsed) ? now : Math.min(parsed, now);
    const duration = Number.isFinite(record.durationMs) ? record.durationMs : 0;
    if (kind.kind === 'search') {
      for (const bucket of [this.searches.minutes.bucketAt(at, now), this.searches.hours.bucketAt(at, now)]) {
        if (!bucket) continue;
        bucket.count += 1;
        if (kind.noMatch) bucket.noMatch += 1;
        bucket.durations.add(duration);
      }
      return;
    }
    const series = this.seriesOf(kind.serverId, kind.toolKey);
    for (const bucket of [series.minutes.bucketAt(at, now), series.hours.bucketAt(at, now)]) {
      if (!bucket) continue;
      bucket.calls += 1;
      if (kind.error) bucket.errors += 1;
      bucket.durations.add(duration);
    }
    if (at > series.lastCallAt && at >= series.hours.horizon(now)) series.lastCallAt = at;
  }

  private seriesOf(serverId: string, toolKey: string): ToolSeries {
    const key = `${serverId}\u0000${toolKey}`;
    let series = this.tools.get(key);
    if (series) return series;
    const other = serverId === OTHER_SERIES && toolKey === OTHER_SERIES;
    if (!other && this.tools.size >= this.maxSeries) {
      // At most once a minute: past the cap, every record of a new tool asks.
      const now = this.now();
      if (now - this.lastDrop >= 60_000) {
        this.lastDrop = now;
        this.dropEmptySeries();
      }
      if (this.tools.size >= this.maxSeries) return this.seriesOf(OTHER_SERIES, OTHER_SERIES);
    }
    series = new ToolSeries(serverId, toolKey);
    this.tools.set(key, series);
    return series;
  }

  /** Forgets tools without calls in the last 7 days, freeing their place under the cap. */
  private dropEmptySeries(): void {
    const now = this.now();
    for (const [key, series] of this.tools) {
      series.minutes.prune(now);
      series.hours.prune(now);
      if (series.empty) this.tools.delete(key);
    }
  }

  /** What the store reads and fills: the series, a record replayed from the file, a snapshot's buckets. */
  private storeTarget(): UsageStoreTarget {
    return {
      tools: () => {
        this.dropEmptySeries();
        return this.tools.values();
      },
      searches: this.searches,
      replay: (record: AuditRecord) => this.add(record),
      merge: (snapshot: DecodedSnapshot) => this.merge(snapshot),
    };
  }

  private merge(snapshot: DecodedSnapshot): void {
    const now = this.now();
    for (const decoded of snapshot.tools) {
      const key = `${decoded.serverId}\u0000${decoded.toolKey}`;
      // The usual case at start (no record of the tool heard yet): the decoded series is taken as it is.
      if (!this.tools.has(key) && this.tools.size < this.maxSeries) {
        this.tools.set(key, decoded);
        continue;
      }
      const series = this.seriesOf(decoded.serverId, decoded.toolKey);
      for (const [start, bucket] of decoded.minutes.buckets) {
        const target = series.minutes.bucketAt(start, now);
        target?.durations.merge(bucket.durations);
        if (target) {
          target.calls += bucket.calls;
          target.errors += bucket.errors;
        }
      }
      for (const [start, bucket] of decoded.hours.buckets) {
        const target = series.hours.bucketAt(start, now);
        target?.durations.merge(bucket.durations);
        if (target) {
          target.calls += bucket.calls;
          target.errors += bucket.errors;
        }
      }
      series.lastCallAt = Math.max(series.lastCallAt, decoded.lastCallAt);
    }
    for (const [source, target] of [
      [snapshot.searches.minutes, this.searches.minutes],
      [snapshot.searches.hours, this.searches.hours],
    ] as const) {
      for (const [start, bucket] of source.buckets) {
        const into = target.bucketAt(start, now);
        if (!into) continue;
        into.count += bucket.count;
        into.noMatch += bucket.noMatch;
        into.durations.merge(bucket.durations);
      }
    }
  }
}
