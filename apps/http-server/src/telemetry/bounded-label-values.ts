/** The label value every value past the cap is folded into. */
export const otherLabelValue = '(other)';

/**
 * Keeps a label's distinct values bounded: each time series costs Prometheus memory for good, and some label values
 * come from callers (a REST call may name any tool key). The first `max` distinct values are kept as they are; any
 * later new value is counted under `(other)`.
 */
export class BoundedLabelValues {
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  labelFor(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return otherLabelValue;
    this.seen.add(value);
    return value;
  }

  /** Frees a value's place (its series were removed). */
  forget(value: string): void {
    this.seen.delete(value);
  }
}
