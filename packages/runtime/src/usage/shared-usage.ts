import type { ClusterStore } from '@search-mcp/cluster';
import type { AuditRecord } from '@search-mcp/server';
import { type Logger, settleWithin } from '@search-mcp/shared';
import { DurationHistogram } from './duration-histogram.js';
import { HOUR_MS, HOURS_KEPT, MINUTE_MS, MINUTES_KEPT, SearchSeries, ToolSeries } from './usage-buckets.js';
import { usageRecordKind } from './usage-record-kind.js';
import { buildUsageReport } from './usage-report-builder.js';
import { OTHER_SERIES, type UsageReport, type UsageReportQuery, usageWindows } from './usage-report-types.js';

/** `[serverId, toolKey, calls, errors, histogram pairs, lastCallAt]` */
type ToolRow = [string, string, number, number, Array<[number, number]>, number];

/** What one replica counted in one minute or hour: the record it writes under its own id. */
interface ReplicaBucket {
  tools: ToolRow[];
  /** `[count, noMatch, histogram pairs]` */
  searches: [number, number, Array<[number, number]>];
}

interface ToolTally {
  serverId: string;
  toolKey: string;
  calls: number;
  errors: number;
  durations: DurationHistogram;
  lastCallAt: number;
}

/** A bucket being counted: written whole (the replica's figures so far), never as increments. */
interface BucketTally {
  resolution: 'm' | 'h';
  start: number;
  tools: Map<string, ToolTally>;
  searches: { count: number; noMatch: number; durations: DurationHistogram };
  dirty: boolean;
}

const resolutions = {
  m: { bucketMs: MINUTE_MS, keptMs: (MINUTES_KEPT + 1) * MINUTE_MS },
  h: { bucketMs: HOUR_MS, keptMs: (HOURS_KEPT + 1) * HOUR_MS },
} as const;

/**
 * How long a bucket is kept in memory after it ends: a record stamped before it ended but heard after still lands
 * in it, and the bucket written whole again holds it. One heard later still is counted in the current bucket,
 * so no write replaces a bucket with less than was written before.
 */
const lateRecordsMs = 10 * MINUTE_MS;

const membersKey = (resolution: 'm' | 'h', start: number) => `usage/${resolution}/${start}`;
const bucketKey = (resolution: 'm' | 'h', start: number, replicaId: string) =>
  `usage/${resolution}/${start}/${replicaId}`;

export interface SharedUsageOptions {
  now: () => number;
  logger: Logger;
  /** How often what was counted is written; default 1,000 ms. */
  flushEveryMs?: number;
  /** Tools with a row of their own per bucket, as `UsageStatistics`' `maxSeries`; later ones count as `(other)`. */
  maxSeries: number;
  /** The longest `close` waits for its last write; default 1,000 ms. */
  closeWaitMs?: number;
}

/**
 * Usage statistics summed over every replica (docs/scale-out.md, "Usage statistics"). Each replica counts the records
 * it hears, by the same rule as its own statistics (`usageRecordKind`), into its current minute and hour buckets, and
 * writes each changed bucket whole under its own id at most once per `flushEveryMs`, off the request path. Whole
 * buckets rather than increments: a write retried after a timeout counts nothing twice, and a restarted replica
 * (another id) adds its new calls next to what it wrote before, never the history it read back from its own files.
 * A report reads every replica's buckets of its window and builds the figures as one replica's statistics would.
 */
export class SharedUsage {
  private readonly tallies = new Map<string, BucketTally>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private failedWarned = false;

  constructor(
    private readonly store: ClusterStore,
    private readonly options: SharedUsageOptions,
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? 1000);
    this.timer.unref();
  }

  /** Counts one audit record heard live (never one read back from the audit file: that is counted already). */
  heard(record: AuditRecord): void {
    if (this.closed) return;
    const kind = usageRecordKind(record);
    if (kind.kind === 'none') return;
    const now = this.options.now();
    const parsed = Date.parse(record.ts);
    const at = Number.isNaN(parsed) ? now : Math.min(parsed, now);
    const duration = Number.isFinite(record.durationMs) ? record.durationMs : 0;
    for (const resolution of ['m', 'h'] as const) {
      const tally = this.tallyAt(resolution, at);
      tally.dirty = true;
      if (kind.kind === 'search') {
        tally.searches.count += 1;
        if (kind.noMatch) tally.searches.noMatch += 1;
        tally.searches.durations.add(duration);
        continue;
      }
      let key = `${kind.serverId}\u0000${kind.toolKey}`;
      // Bounded as the process's own series are: a bucket's record never outgrows the cap.
      const full = !tally.tools.has(key) && tally.tools.size >= this.options.maxSeries;
      if (full) key = `${OTHER_SERIES}\u0000${OTHER_SERIES}`;
      let tool = tally.tools.get(key);
      if (!tool) {
        tool = {
          serverId: full ? OTHER_SERIES : kind.serverId,
          toolKey: full ? OTHER_SERIES : kind.toolKey,
          calls: 0,
          errors: 0,
          durations: new DurationHistogram(),
          lastCallAt: 0,
        };
        tally.tools.set(key, tool);
      }
      tool.calls += 1;
      if (kind.error) tool.errors += 1;
      tool.durations.add(duration);
      tool.lastCallAt = Math.max(tool.lastCallAt, at);
    }
  }

  /** Writes every bucket changed since the last write (one flush at a time). Failures are logged, never thrown. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** The figures of every replica, this one's last calls included (written first). */
  async report(query: UsageReportQuery): Promise<UsageReport> {
    await this.flush();
    const now = this.options.now();
    const { bucketMs, buckets } = usageWindows[query.window];
    const resolution = bucketMs === MINUTE_MS ? 'm' : 'h';
    const to = now - (now % bucketMs) + bucketMs;
    const starts = Array.from({ length: buckets }, (_, index) => to - (buckets - index) * bucketMs);
    const read = await Promise.all(
      starts.map(async (start) => {
        const replicas = await this.store.members(membersKey(resolution, start));
        const records = await Promise.all(
          replicas.map((replicaId) => this.store.getRecord<ReplicaBucket>(bucketKey(resolution, start, replicaId))),
        );
        return { start, records };
      }),
    );
    const tools = new Map<string, ToolSeries>();
    const searches = new SearchSeries();
    for (const { start, records } of read) {
      for (const record of records) {
        if (!record) continue;
        for (const [serverId, toolKey, calls, errors, pairs, lastCallAt] of record.tools ?? []) {
          const key = `${serverId}\u0000${toolKey}`;
          let series = tools.get(key);
          if (!series) {
            series = new ToolSeries(serverId, toolKey);
            tools.set(key, series);
          }
          const bucket = (resolution === 'm' ? series.minutes : series.hours).bucketAt(start, now);
          if (!bucket) continue;
          bucket.calls += calls;
          bucket.errors += errors;
          bucket.durations.merge(DurationHistogram.fromPairs(pairs));
          series.lastCallAt = Math.max(series.lastCallAt, lastCallAt);
        }
        const [count, noMatch, pairs] = record.searches ?? [0, 0, []];
        const bucket = (resolution === 'm' ? searches.minutes : searches.hours).bucketAt(start, now);
        if (!bucket) continue;
        bucket.count += count;
        bucket.noMatch += noMatch;
        bucket.durations.merge(DurationHistogram.fromPairs(pairs));
      }
    }
    // The store keeps them: these figures survive a replica's restart.
    return buildUsageReport(tools.values(), searches, query, now, true);
  }

  /**
   * Stops the periodic write and writes what is left, waiting at most `closeWaitMs` for the store: a shutdown with
   * the store away loses this replica's last second of figures rather than outlasting its stop timeout.
   */
  async close(): Promise<void> {
    if (this.closed) return this.flushing;
    this.closed = true;
    clearInterval(this.timer);
    await settleWithin(this.flush(), this.options.closeWaitMs ?? 1000);
  }

  private tallyAt(resolution: 'm' | 'h', at: number): BucketTally {
    const { bucketMs } = resolutions[resolution];
    const now = this.options.now();
    const late = at - (at % bucketMs) + bucketMs + lateRecordsMs <= now;
    const start = late ? now - (now % bucketMs) : at - (at % bucketMs);
    const id = `${resolution}${start}`;
    let tally = this.tallies.get(id);
    if (!tally) {
      tally = {
        resolution,
        start,
        tools: new Map(),
        searches: { count: 0, noMatch: 0, durations: new DurationHistogram() },
        dirty: false,
      };
      this.tallies.set(id, tally);
    }
    return tally;
  }

  private async write(): Promise<void> {
    const now = this.options.now();
    const { replicaId } = this.store;
    const writes: Promise<void>[] = [];
    for (const [id, tally] of this.tallies) {
      const { bucketMs, keptMs } = resolutions[tally.resolution];
      if (tally.dirty) {
        tally.dirty = false;
        // Kept as long as a report may read the bucket.
        const ttlMs = tally.start + keptMs - now;
        const record: ReplicaBucket = {
          tools: [...tally.tools.values()].map((tool) => [
            tool.serverId,
            tool.toolKey,
            tool.calls,
            tool.errors,
            tool.durations.toPairs(),
            tool.lastCallAt,
          ]),
          searches: [tally.searches.count, tally.searches.noMatch, tally.searches.durations.toPairs()],
        };
        writes.push(
          (async () => {
            await this.store.setRecord(bucketKey(tally.resolution, tally.start, replicaId), record, { ttlMs });
            await this.store.addMember(membersKey(tally.resolution, tally.start), replicaId, { ttlMs });
            // Written again: the next outage gets its own warning.
            this.failedWarned = false;
          })().catch((error: unknown) => {
            // Counted again at the next write: the bucket is written whole.
            tally.dirty = true;
            if (this.failedWarned) return;
            this.failedWarned = true;
            this.options.logger.warn('cannot write the usage statistics to the cluster store; retrying', {
              store: this.store.description,
              error: error instanceof Error ? error.message : String(error),
            });
          }),
        );
      } else if (tally.start + bucketMs + lateRecordsMs <= now) {
        // Written and over: a record heard from now on goes to the current bucket.
        this.tallies.delete(id);
      }
    }
    await Promise.all(writes);
  }
}
