/** The `limit` highest-scoring entries, best first (ties: earlier ordinal first). */
export function topK(scores: Map<number, number>, limit: number): [number, number][] {
  const better = (left: [number, number], right: [number, number]) =>
    left[1] > right[1] || (left[1] === right[1] && left[0] < right[0]);
  if (scores.size <= limit * 4)
    return [...scores].sort((left, right) => (better(left, right) ? -1 : 1)).slice(0, limit);
  // A min-heap of the best `limit` seen so far.
  const heap: [number, number][] = [];
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  for (const item of scores) {
    if (heap.length < limit) {
      heap.push(item);
      for (let index = heap.length - 1; index > 0; ) {
        const parent = (index - 1) >> 1;
        if (!better(heap[parent]!, heap[index]!)) break;
        swap(parent, index);
        index = parent;
      }
    } else if (better(item, heap[0]!)) {
      heap[0] = item;
      for (let index = 0; ; ) {
        const left = 2 * index + 1;
        const right = left + 1;
        let worst = index;
        if (left < heap.length && better(heap[worst]!, heap[left]!)) worst = left;
        if (right < heap.length && better(heap[worst]!, heap[right]!)) worst = right;
        if (worst === index) break;
        swap(worst, index);
        index = worst;
      }
    }
  }
  return heap.sort((left, right) => (better(left, right) ? -1 : 1));
}

/** Pushes onto a min-heap kept at most `limit` long (dropping its smallest). */
export function pushBounded(heap: number[], value: number, limit: number): void {
  if (heap.length === limit) {
    heap[0] = value;
    for (let index = 0; ; ) {
      const left = 2 * index + 1;
      const right = left + 1;
      let least = index;
      if (left < heap.length && heap[left]! < heap[least]!) least = left;
      if (right < heap.length && heap[right]! < heap[least]!) least = right;
      if (least === index) return;
      [heap[least], heap[index]] = [heap[index]!, heap[least]!];
      index = least;
    }
  }
  heap.push(value);
  for (let index = heap.length - 1; index > 0; ) {
    const parent = (index - 1) >> 1;
    if (heap[parent]! <= heap[index]!) return;
    [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
    index = parent;
  }
}

/** The k-th largest of `values` (k ≤ length). */
export function kthLargest(values: readonly number[], k: number): number {
  const heap: number[] = [];
  for (const value of values) if (heap.length < k || value > heap[0]!) pushBounded(heap, value, k);
  return heap[0]!;
}

export function norm(vector: number[]): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}
