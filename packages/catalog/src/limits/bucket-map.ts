import type { RateConfig } from '@search-mcp/shared';
import { TokenBucket } from './token-bucket.js';

/** How many of the least recently used buckets are looked at for a full one before the oldest is dropped. */
const evictionScan = 16;

/** A bucket and the rate it was last read with (what eviction judges fullness by). */
interface Entry {
  bucket: TokenBucket;
  rate: RateConfig;
}

/**
 * The buckets by key, at most `capacity` of them (keys come from callers: projects they name, tokens, tools). Kept in
 * least-recently-used order (a Map iterates in insertion order); when full, a bucket that has refilled completely is
 * dropped first, since a new one would start in the same state, and only when none of the oldest few is full the oldest
 * is. Every operation is O(1): the scan is bounded.
 */
export class BucketMap {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The kept bucket of `key`, now the most recently used, or undefined; never adds one. A call that may be refused
   * looks with this first, so a refused call adds no bucket (keys it names could otherwise push out others' drained
   * buckets), while a drained bucket its caller keeps knocking on stays young and is not dropped.
   */
  find(key: string, rate: RateConfig): TokenBucket | undefined {
    const existing = this.entries.get(key);
    if (!existing) return undefined;
    // Re-inserting moves the key to the young end.
    this.entries.delete(key);
    existing.rate = rate;
    this.entries.set(key, existing);
    return existing.bucket;
  }

  /** The bucket of `key` (a full new one when absent), now the most recently used. */
  bucket(key: string, rate: RateConfig, now: number): TokenBucket {
    const existing = this.find(key, rate);
    if (existing) return existing;
    const entry = { bucket: new TokenBucket(rate, now), rate };
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.evict(key, now);
    return entry.bucket;
  }

  clear(): void {
    this.entries.clear();
  }

  private evict(keep: string, now: number): void {
    let oldest: string | undefined;
    let scanned = 0;
    for (const [key, entry] of this.entries) {
      if (key === keep || scanned >= evictionScan) break;
      oldest ??= key;
      scanned += 1;
      if (entry.bucket.isFullAt(entry.rate, now)) {
        this.entries.delete(key);
        return;
      }
    }
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}
