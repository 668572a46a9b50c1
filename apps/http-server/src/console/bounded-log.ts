/**
 * The last `capacity` entries of something the console shows (activity, events), newest last, and whoever listens
 * for new ones (the live stream). Memory is bounded by `capacity`, whatever the traffic.
 */
export class BoundedLog<Entry> {
  private readonly entries: Entry[] = [];
  private readonly listeners = new Set<(entry: Entry) => void>();

  constructor(readonly capacity: number) {}

  add(entry: Entry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  /** The newest `limit` entries (all kept by default), oldest first. */
  latest(limit = this.capacity): Entry[] {
    return limit <= 0 ? [] : this.entries.slice(-limit);
  }

  /** Hears each new entry; the function returned stops it. */
  subscribe(listener: (entry: Entry) => void): () => void {
    const entry = (value: Entry) => listener(value);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }
}
