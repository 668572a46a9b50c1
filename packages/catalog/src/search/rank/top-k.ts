/**
 * The k best items of an array by a numeric score, best first, without sorting the whole array: a bounded
 * min-heap, O(n log k). Ties keep the earlier item first (stable), so results do not depend on heap internals.
 */
export function topK<T>(items: readonly T[], k: number, score: (item: T) => number): T[] {
  if (k <= 0 || items.length === 0) return [];
  const better = (a: number, b: number): boolean => {
    const sa = score(items[a] as T);
    const sb = score(items[b] as T);
    return sa > sb || (sa === sb && a < b);
  };
  if (items.length <= k * 2) {
    const order = items.map((_, i) => i);
    order.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    return order.slice(0, k).map((i) => items[i] as T);
  }
  // heap[0] is the worst of the kept items.
  const heap: number[] = [];
  const siftUp = (start: number): void => {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(heap[parent] as number, heap[i] as number)) break;
      [heap[parent], heap[i]] = [heap[i] as number, heap[parent] as number];
      i = parent;
    }
  };
  const siftDown = (): void => {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && better(heap[worst] as number, heap[left] as number)) worst = left;
      if (right < heap.length && better(heap[worst] as number, heap[right] as number)) worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i] as number, heap[worst] as number];
      i = worst;
    }
  };
  for (let i = 0; i < items.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      siftUp(heap.length - 1);
    } else if (better(i, heap[0] as number)) {
      heap[0] = i;
      siftDown();
    }
  }
  heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  return heap.map((i) => items[i] as T);
}

/**
 * The k best of `candidates` (ids) by `score[id]`, best first; ties by smaller id. Typed arrays only, no
 * allocation per candidate: the hot path of a search over 50,000 tools.
 */
export function topKByScore(candidates: Int32Array, score: ArrayLike<number>, k: number): Int32Array {
  const size = Math.min(k, candidates.length);
  if (size <= 0) return new Int32Array(0);
  const heap = new Int32Array(size);
  let length = 0;
  // a is better than b.
  const better = (a: number, b: number): boolean => {
    const sa = score[a] as number;
    const sb = score[b] as number;
    return sa > sb || (sa === sb && a < b);
  };
  for (let c = 0; c < candidates.length; c++) {
    const id = candidates[c] as number;
    if (length < size) {
      let i = length++;
      heap[i] = id;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent] as number, heap[i] as number)) break;
        const tmp = heap[parent] as number;
        heap[parent] = heap[i] as number;
        heap[i] = tmp;
        i = parent;
      }
    } else if (better(id, heap[0] as number)) {
      heap[0] = id;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let worst = i;
        if (left < length && better(heap[worst] as number, heap[left] as number)) worst = left;
        if (right < length && better(heap[worst] as number, heap[right] as number)) worst = right;
        if (worst === i) break;
        const tmp = heap[worst] as number;
        heap[worst] = heap[i] as number;
        heap[i] = tmp;
        i = worst;
      }
    }
  }
  const out = Array.from(heap.subarray(0, length));
  out.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  return Int32Array.from(out);
}

/**
 * The positions of the k largest values, largest first; ties keep the lower position first, and NaN or infinite
 * values are skipped. For vectors of scores such as the cosine similarities of every tool (packages/embeddings),
 * so picking the 50 most similar of 50,000 tools does not sort 50,000 numbers.
 */
export function topKIndices(values: ArrayLike<number>, k: number): number[] {
  const limit = Math.floor(k);
  if (!(limit > 0) || values.length === 0) return [];
  const finite = new Int32Array(values.length);
  let count = 0;
  for (let position = 0; position < values.length; position++) {
    if (Number.isFinite(values[position])) finite[count++] = position;
  }
  return Array.from(topKByScore(finite.subarray(0, count), values, limit));
}
