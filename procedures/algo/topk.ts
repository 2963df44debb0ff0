/**
 * Per-node top-k lists in flat typed arrays, for the similarity kernels (node similarity and
 * knn) that run on worker threads: node a owns slots start[a] .. start[a + 1] of `ids` and
 * `scores` (shared arrays), keeps its best candidates there as a bounded heap while it scans,
 * then sorts them best first. Order: higher score first, ties by smaller id; a node's list
 * depends only on its own candidates, so it is the same whichever thread computed it.
 *
 * These are plain functions over their arguments (no module state, no imported constants):
 * parallel.ts ships their source text to the workers.
 */

/** A node pair and its similarity (node similarity, knn). */
export interface SimilarPair {
  a: number;
  b: number;
  score: number;
}

/** Whether (s1, b1) ranks below (s2, b2): a lower score, or the same score and a larger id. */
export function ranksBelow(s1: number, b1: number, s2: number, b2: number): boolean {
  return s1 < s2 || (s1 === s2 && b1 > b2);
}

/** Restores the heap (worst candidate at `base`) below slot `i` of a heap of `size`. */
export function siftDown(ids: Int32Array, scores: Float64Array, base: number, size: number, i: number): void {
  const b = ids[base + i];
  const s = scores[base + i];
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && ranksBelow(scores[base + c + 1], ids[base + c + 1], scores[base + c], ids[base + c])) c++;
    if (!ranksBelow(scores[base + c], ids[base + c], s, b)) break;
    ids[base + i] = ids[base + c];
    scores[base + i] = scores[base + c];
    i = c;
  }
  ids[base + i] = b;
  scores[base + i] = s;
}

/**
 * Offers candidate (b, s) to the heap of `size` entries at `base` holding at most `cap`;
 * returns the new size. The worst entry sits at `base`, so a full heap rejects most
 * candidates with one comparison.
 */
export function offerTop(ids: Int32Array, scores: Float64Array, base: number, size: number, cap: number, b: number, s: number): number {
  if (size < cap) {
    let i = size;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!ranksBelow(s, b, scores[base + p], ids[base + p])) break;
      ids[base + i] = ids[base + p];
      scores[base + i] = scores[base + p];
      i = p;
    }
    ids[base + i] = b;
    scores[base + i] = s;
    return size + 1;
  }
  if (cap === 0 || !ranksBelow(scores[base], ids[base], s, b)) return size;
  ids[base] = b;
  scores[base] = s;
  siftDown(ids, scores, base, size, 0);
  return size;
}

/** Sorts a heap of `size` at `base` best first (heapsort: the worst goes to the end each time). */
export function sortTop(ids: Int32Array, scores: Float64Array, base: number, size: number): void {
  for (let end = size - 1; end > 0; end--) {
    const b = ids[base + end];
    const s = scores[base + end];
    ids[base + end] = ids[base];
    scores[base + end] = scores[base];
    ids[base] = b;
    scores[base] = s;
    siftDown(ids, scores, base, end, 0);
  }
}

/** Per-node result slots: `start` (n + 1 offsets), the lists, and how many each node filled. */
export interface TopLists {
  start: Float64Array;
  ids: Int32Array;
  scores: Float64Array;
  counts: Int32Array;
}

/** Slots for nodes whose capacities are `cap(a)`, on shared memory when `shared`. */
export function topLists(n: number, cap: (a: number) => number, shared: boolean): TopLists {
  const start = new Float64Array(n + 1);
  for (let a = 0; a < n; a++) start[a + 1] = start[a] + cap(a);
  const total = start[n];
  if (!shared) return { start, ids: new Int32Array(total), scores: new Float64Array(total), counts: new Int32Array(n) };
  const sab = (bytes: number, count: number): SharedArrayBuffer => new SharedArrayBuffer(bytes * Math.max(1, count));
  return {
    start: copyTo(new Float64Array(sab(8, n + 1)).subarray(0, n + 1), start),
    ids: new Int32Array(sab(4, total)).subarray(0, total),
    scores: new Float64Array(sab(8, total)).subarray(0, total),
    counts: new Int32Array(sab(4, n)).subarray(0, n),
  };
}

function copyTo(into: Float64Array, from: Float64Array): Float64Array {
  into.set(from);
  return into;
}

/** The lists as pairs, node by node, best first. */
export function pairsOf(lists: TopLists): SimilarPair[] {
  const pairs: SimilarPair[] = [];
  const { start, ids, scores, counts } = lists;
  for (let a = 0; a < counts.length; a++) {
    const base = start[a];
    for (let i = 0; i < counts[a]; i++) pairs.push({ a, b: ids[base + i], score: scores[base + i] });
  }
  return pairs;
}
