/** Growable typed arrays: the build-time scratch of the BM25F index builder (no per-posting objects). */

/** Growable typed array of 32-bit ints (build-time scratch). */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  /** Appends a copy of its own values from `start` to `end` (a span written before). */
  repeat(start: number, end: number): void {
    const count = end - start;
    if (this.length + count > this.data.length) {
      let capacity = this.data.length * 2;
      while (capacity < this.length + count) capacity *= 2;
      const next = new Int32Array(capacity);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    const data = this.data;
    let at = this.length;
    // Most spans are a few terms: a loop beats copyWithin's call for them.
    if (count > 32) data.copyWithin(at, start, end);
    else for (let from = start; from < end; from++) data[at++] = data[from] as number;
    this.length += count;
  }
}

/** Growable Uint8Array with a fixed stride (per-field term frequencies of each posting). */
export class ByteRows {
  data: Uint8Array;
  rows = 0;
  constructor(
    readonly stride: number,
    capacity = 1024,
  ) {
    this.data = new Uint8Array(capacity * stride);
  }
  addRow(): number {
    if ((this.rows + 1) * this.stride > this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    return this.rows++;
  }
}

/** Growable Float32Array. */
export class FloatList {
  data: Float32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}
