/**
 * An indexed binary min-heap over dense indices 0..n-1 with float keys, for Dijkstra:
 * insert, decrease-key and pop-min in O(log n) without allocating per operation. Equal keys
 * are ordered by the smaller index, so pop order is fully deterministic.
 */

export class IndexedMinHeap {
  private readonly heap: Int32Array;
  /** Position in `heap` per index, -1 when absent. */
  private readonly pos: Int32Array;
  size = 0;

  constructor(
    capacity: number,
    /** Key per index; the heap reads it, the caller writes it before `push`/`decrease`. */
    private readonly key: Float64Array,
  ) {
    this.heap = new Int32Array(capacity);
    this.pos = new Int32Array(capacity).fill(-1);
  }

  has(i: number): boolean {
    return this.pos[i] >= 0;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a];
    const kb = this.key[b];
    return ka < kb || (ka === kb && a < b);
  }

  push(i: number): void {
    this.heap[this.size] = i;
    this.pos[i] = this.size++;
    this.up(this.pos[i]);
  }

  /** Restores order after `key[i]` went down. */
  decrease(i: number): void {
    this.up(this.pos[i]);
  }

  pop(): number {
    const heap = this.heap;
    const top = heap[0];
    this.pos[top] = -1;
    const last = heap[--this.size];
    if (this.size > 0) {
      heap[0] = last;
      this.pos[last] = 0;
      this.down(0);
    }
    return top;
  }

  private up(p: number): void {
    const heap = this.heap;
    const item = heap[p];
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const other = heap[parent];
      if (!this.less(item, other)) break;
      heap[p] = other;
      this.pos[other] = p;
      p = parent;
    }
    heap[p] = item;
    this.pos[item] = p;
  }

  private down(p: number): void {
    const heap = this.heap;
    const size = this.size;
    const item = heap[p];
    for (;;) {
      let child = 2 * p + 1;
      if (child >= size) break;
      if (child + 1 < size && this.less(heap[child + 1], heap[child])) child++;
      const other = heap[child];
      if (!this.less(other, item)) break;
      heap[p] = other;
      this.pos[other] = p;
      p = child;
    }
    heap[p] = item;
    this.pos[item] = p;
  }
}
