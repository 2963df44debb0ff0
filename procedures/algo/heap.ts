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

  // up and down read the arrays into locals and compare keys inline: they run in loops, after
  // whose every turn V8 reloads what it read through `this`.
  private up(p: number): void {
    const heap = this.heap;
    const pos = this.pos;
    const key = this.key;
    const item = heap[p];
    const k = key[item];
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const other = heap[parent];
      const ko = key[other];
      if (!(k < ko || (k === ko && item < other))) break;
      heap[p] = other;
      pos[other] = p;
      p = parent;
    }
    heap[p] = item;
    pos[item] = p;
  }

  private down(p: number): void {
    const heap = this.heap;
    const pos = this.pos;
    const key = this.key;
    const size = this.size;
    const item = heap[p];
    const k = key[item];
    for (;;) {
      let child = 2 * p + 1;
      if (child >= size) break;
      let other = heap[child];
      let ko = key[other];
      if (child + 1 < size) {
        const right = heap[child + 1];
        const kr = key[right];
        if (kr < ko || (kr === ko && right < other)) {
          child++;
          other = right;
          ko = kr;
        }
      }
      if (!(ko < k || (ko === k && other < item))) break;
      heap[p] = other;
      pos[other] = p;
      p = child;
    }
    heap[p] = item;
    pos[item] = p;
  }
}
