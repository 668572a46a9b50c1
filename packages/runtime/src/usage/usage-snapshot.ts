import { DurationHistogram } from './duration-histogram.js';
import { type CallBucket, type SearchBucket, SearchSeries, type TimeBuckets, ToolSeries } from './usage-buckets.js';

/** `[start ms, calls, errors, histogram pairs]` */
type CallBucketRow = [number, number, number, Array<[number, number]>];
/** `[start ms, count, noMatch, histogram pairs]` */
type SearchBucketRow = [number, number, number, Array<[number, number]>];

/**
 * What `audit.usageFile` holds (docs/console.md, "Usage statistics"): the buckets, and how far into the audit file
 * they go, so a start reads only the lines written after them.
 */
export interface UsageSnapshot {
  version: 1;
  savedAt: string;
  audit: {
    /** Bytes of the audit file the buckets include. */
    offset: number;
    /** The audit file's inode then: another one means the file was rotated, and is read from its start. */
    inode?: number;
  };
  tools: Array<{
    serverId: string;
    toolKey: string;
    lastCallAt: number;
    minutes: CallBucketRow[];
    hours: CallBucketRow[];
  }>;
  searches: { minutes: SearchBucketRow[]; hours: SearchBucketRow[] };
}

export function encodeSnapshot(
  tools: Iterable<ToolSeries>,
  searches: SearchSeries,
  audit: UsageSnapshot['audit'],
  now: number,
): UsageSnapshot {
  const callRows = (buckets: TimeBuckets<CallBucket>): CallBucketRow[] =>
    [...buckets.buckets].map(([start, b]) => [start, b.calls, b.errors, b.durations.toPairs()]);
  const searchRows = (buckets: TimeBuckets<SearchBucket>): SearchBucketRow[] =>
    [...buckets.buckets].map(([start, b]) => [start, b.count, b.noMatch, b.durations.toPairs()]);
  return {
    version: 1,
    savedAt: new Date(now).toISOString(),
    audit,
    tools: [...tools]
      .filter((series) => !series.empty)
      .map((series) => ({
        serverId: series.serverId,
        toolKey: series.toolKey,
        lastCallAt: series.lastCallAt,
        minutes: callRows(series.minutes),
        hours: callRows(series.hours),
      })),
    searches: { minutes: searchRows(searches.minutes), hours: searchRows(searches.hours) },
  };
}

export interface DecodedSnapshot {
  audit: UsageSnapshot['audit'];
  tools: ToolSeries[];
  searches: SearchSeries;
}

/**
 * Rebuilds the buckets of a parsed snapshot file; throws on anything that is not one (the caller then starts
 * without it). Buckets older than what is kept at `now` are dropped.
 */
export function decodeSnapshot(value: unknown, now: number): DecodedSnapshot {
  const snapshot = value as Partial<UsageSnapshot> | null;
  if (typeof snapshot !== 'object' || snapshot === null || snapshot.version !== 1) {
    throw new TypeError('not a usage snapshot of version 1');
  }
  const audit = snapshot.audit;
  if (typeof audit?.offset !== 'number' || !(audit.offset >= 0)) throw new TypeError('no audit offset');
  if (audit.inode !== undefined && typeof audit.inode !== 'number') throw new TypeError('a bad audit inode');
  if (!Array.isArray(snapshot.tools)) throw new TypeError('no tools');
  const tools = snapshot.tools.map((row) => {
    if (typeof row?.serverId !== 'string' || typeof row.toolKey !== 'string') throw new TypeError('a bad tool');
    const series = new ToolSeries(row.serverId, row.toolKey);
    series.lastCallAt = typeof row.lastCallAt === 'number' ? row.lastCallAt : 0;
    fillCalls(series.minutes, row.minutes, now);
    fillCalls(series.hours, row.hours, now);
    return series;
  });
  const searches = new SearchSeries();
  fillSearches(searches.minutes, snapshot.searches?.minutes, now);
  fillSearches(searches.hours, snapshot.searches?.hours, now);
  return {
    audit: { offset: audit.offset, ...(audit.inode !== undefined ? { inode: audit.inode } : {}) },
    tools,
    searches,
  };
}

function rowsOf(rows: unknown): Array<[unknown, unknown, unknown, unknown]> {
  if (!Array.isArray(rows)) throw new TypeError('buckets are a list');
  for (const row of rows) if (!Array.isArray(row) || row.length !== 4) throw new TypeError('a bad bucket');
  return rows;
}

function counts(...values: unknown[]): number[] {
  for (const value of values) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new TypeError('a bad count');
  }
  return values as number[];
}

function fillCalls(target: TimeBuckets<CallBucket>, rows: unknown, now: number): void {
  for (const [start, ...rest] of rowsOf(rows)) {
    const [at, calls, errors] = counts(start, rest[0], rest[1]) as [number, number, number];
    const durations = DurationHistogram.fromPairs(rest[2]);
    const bucket = target.bucketAt(at, now);
    if (!bucket) continue;
    bucket.calls += calls;
    bucket.errors += errors;
    bucket.durations.merge(durations);
  }
}

function fillSearches(target: TimeBuckets<SearchBucket>, rows: unknown, now: number): void {
  for (const [start, ...rest] of rowsOf(rows ?? [])) {
    const [at, count, noMatch] = counts(start, rest[0], rest[1]) as [number, number, number];
    const durations = DurationHistogram.fromPairs(rest[2]);
    const bucket = target.bucketAt(at, now);
    if (!bucket) continue;
    bucket.count += count;
    bucket.noMatch += noMatch;
    bucket.durations.merge(durations);
  }
}
