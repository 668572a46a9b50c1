/**
 * Durations counted in log-spaced ranges, so that any number of them cost a bounded number of counters and two
 * histograms merge by adding (a minute's into an hour's, a tool's into its server's): docs/console.md, "Usage
 * statistics". Range `i` holds durations up to `FIRST_BOUND_MS * GROWTH^i`; the last one everything above.
 */
const FIRST_BOUND_MS = 0.5;
const GROWTH = 1.25;
/** 0.5 ms … about 15 minutes in 66 ranges; a quantile read from them is off by at most about 12 %. */
export const HISTOGRAM_RANGES = 66;
const LOG_GROWTH = Math.log(GROWTH);

/** The upper bound of range `index`, in milliseconds (the last range has none: its lower bound is returned). */
export function rangeUpperBound(index: number): number {
  return FIRST_BOUND_MS * GROWTH ** Math.min(index, HISTOGRAM_RANGES - 2);
}

/** The range a duration falls in. */
export function rangeOf(durationMs: number): number {
  if (!(durationMs > FIRST_BOUND_MS)) return 0;
  const index = Math.ceil(Math.log(durationMs / FIRST_BOUND_MS) / LOG_GROWTH - 1e-9);
  return Math.min(index, HISTOGRAM_RANGES - 1);
}

/** Counts per range: sparse, since one tool's durations usually fall in a handful of ranges. */
export class DurationHistogram {
  private readonly counts = new Map<number, number>();
  private total = 0;

  get count(): number {
    return this.total;
  }

  add(durationMs: number): void {
    const index = rangeOf(durationMs);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    this.total += 1;
  }

  addRange(index: number, count: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= HISTOGRAM_RANGES || !(count > 0)) {
      throw new TypeError(`not a histogram range: ${index} × ${count}`);
    }
    this.counts.set(index, (this.counts.get(index) ?? 0) + count);
    this.total += count;
  }

  merge(other: DurationHistogram): void {
    for (const [index, count] of other.counts) this.counts.set(index, (this.counts.get(index) ?? 0) + count);
    this.total += other.total;
  }

  /**
   * The duration below which a fraction `q` (0..1) of the counted ones fall: the geometric middle of the range the
   * rank lands in, rounded to 0.1 ms. Undefined when nothing was counted.
   */
  quantile(q: number): number | undefined {
    if (this.total === 0) return undefined;
    const rank = Math.max(1, Math.ceil(q * this.total));
    const indexes = [...this.counts.keys()].sort((a, b) => a - b);
    let seen = 0;
    for (const index of indexes) {
      seen += this.counts.get(index) ?? 0;
      if (seen >= rank) return Math.round(rangeMiddle(index) * 10) / 10;
    }
    return undefined;
  }

  /** `[range, count]` pairs, for the snapshot file. */
  toPairs(): Array<[number, number]> {
    return [...this.counts];
  }

  static fromPairs(pairs: unknown): DurationHistogram {
    const histogram = new DurationHistogram();
    if (!Array.isArray(pairs)) throw new TypeError('a histogram is a list of [range, count] pairs');
    for (const pair of pairs) {
      if (!Array.isArray(pair)) throw new TypeError('a histogram is a list of [range, count] pairs');
      histogram.addRange(pair[0], pair[1]);
    }
    return histogram;
  }
}

function rangeMiddle(index: number): number {
  if (index === 0) return FIRST_BOUND_MS;
  if (index === HISTOGRAM_RANGES - 1) return rangeUpperBound(index);
  return rangeUpperBound(index) / Math.sqrt(GROWTH);
}
