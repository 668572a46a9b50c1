import { DurationHistogram } from './duration-histogram.js';

/** Calls of one tool in one minute or hour. */
export interface CallBucket {
  calls: number;
  errors: number;
  durations: DurationHistogram;
}

/** Searches in one minute or hour. */
export interface SearchBucket {
  count: number;
  noMatch: number;
  durations: DurationHistogram;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Minute buckets kept: the last hour (the current minute included). */
export const MINUTES_KEPT = 60;
/** Hour buckets kept: the last 7 days (the current hour included). */
export const HOURS_KEPT = 168;

/**
 * Buckets by their start time (ms since the epoch) at one resolution, keeping only the last `kept` of them: the
 * oldest are dropped whenever a new one opens, so one of these never holds more than `kept` + 1 buckets.
 */
export class TimeBuckets<Bucket> {
  readonly buckets = new Map<number, Bucket>();
  /** The horizon of the last prune: nothing to drop until the clock passes a bucket boundary. */
  private prunedTo = Number.NEGATIVE_INFINITY;

  constructor(
    readonly bucketMs: number,
    private readonly kept: number,
    private readonly create: () => Bucket,
  ) {}

  /** The bucket of time `at`, opened if need be; undefined when `at` is older than what is kept at `now`. */
  bucketAt(at: number, now: number): Bucket | undefined {
    const start = at - (at % this.bucketMs);
    const horizon = this.horizon(now);
    if (start < horizon) return undefined;
    let bucket = this.buckets.get(start);
    if (!bucket) {
      if (horizon > this.prunedTo) this.prune(now);
      bucket = this.create();
      this.buckets.set(start, bucket);
    }
    return bucket;
  }

  /** The start of the oldest bucket kept at `now`. */
  horizon(now: number): number {
    return now - (now % this.bucketMs) - (this.kept - 1) * this.bucketMs;
  }

  prune(now: number): void {
    const horizon = this.horizon(now);
    this.prunedTo = horizon;
    for (const start of this.buckets.keys()) if (start < horizon) this.buckets.delete(start);
  }
}

export function createCallBucket(): CallBucket {
  return { calls: 0, errors: 0, durations: new DurationHistogram() };
}

export function createSearchBucket(): SearchBucket {
  return { count: 0, noMatch: 0, durations: new DurationHistogram() };
}

/** One tool's calls: a minute resolution for the last hour, an hour resolution for the last 7 days. */
export class ToolSeries {
  readonly minutes = new TimeBuckets<CallBucket>(MINUTE_MS, MINUTES_KEPT, createCallBucket);
  readonly hours = new TimeBuckets<CallBucket>(HOUR_MS, HOURS_KEPT, createCallBucket);
  /** ms since the epoch; 0 before the first call. */
  lastCallAt = 0;

  constructor(
    readonly serverId: string,
    readonly toolKey: string,
  ) {}

  get empty(): boolean {
    return this.minutes.buckets.size === 0 && this.hours.buckets.size === 0;
  }
}

/** Every search, at both resolutions. */
export class SearchSeries {
  readonly minutes = new TimeBuckets<SearchBucket>(MINUTE_MS, MINUTES_KEPT, createSearchBucket);
  readonly hours = new TimeBuckets<SearchBucket>(HOUR_MS, HOURS_KEPT, createSearchBucket);
}
