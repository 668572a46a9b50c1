/**
 * The positions of the k largest values, largest first, in O(n log k): a bounded min-heap, so picking the 50 most
 * similar of 50,000 tools does not sort 50,000 numbers. Ties keep the lower position first (stable results).
 */
export function topKIndices(values: ArrayLike<number>, k: number): number[] {
  const limit = Math.max(0, Math.min(Math.floor(k), values.length));
  if (limit === 0) return [];
  const heap: number[] = [];
  // The heap's root is the weakest kept position: smaller value, or equal value and later position.
  const weaker = (a: number, b: number): boolean => {
    const va = values[a] as number;
    const vb = values[b] as number;
    return va < vb || (va === vb && a > b);
  };
  const siftDown = (start: number): void => {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let weakest = i;
      if (left < heap.length && weaker(heap[left] as number, heap[weakest] as number)) weakest = left;
      if (right < heap.length && weaker(heap[right] as number, heap[weakest] as number)) weakest = right;
      if (weakest === i) return;
      [heap[i], heap[weakest]] = [heap[weakest] as number, heap[i] as number];
      i = weakest;
    }
  };
  for (let position = 0; position < values.length; position++) {
    if (!Number.isFinite(values[position])) continue;
    if (heap.length < limit) {
      heap.push(position);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!weaker(heap[i] as number, heap[parent] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else if ((values[position] as number) > (values[heap[0] as number] as number)) {
      // Strictly better than the weakest kept (a tie loses: the kept one has the lower position).
      heap[0] = position;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (weaker(a, b) ? 1 : weaker(b, a) ? -1 : 0));
}
