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

/** Per-node result slots for nodes lo..hi-1: `start` (rebased so that node lo starts at 0), the lists, and how many each node filled. */
export interface TopLists {
  lo: number;
  hi: number;
  start: Float64Array;
  ids: Int32Array;
  scores: Float64Array;
  counts: Int32Array;
}

/**
 * Slots per pass at most (12 bytes each). A larger result (a huge `topK`) is computed in
 * passes over ranges of nodes, each pass's lists turned into pairs before the next, so the
 * slots never take more than ~200 MB whatever the options. A property so that tests can
 * lower it.
 */
export const slotLimit = { slots: 1 << 24 };

/** Cumulative slot counts (length n + 1) for nodes whose capacities are `cap(a)`. */
export function slotStarts(n: number, cap: (a: number) => number): Float64Array {
  const start = new Float64Array(n + 1);
  for (let a = 0; a < n; a++) start[a + 1] = start[a] + cap(a);
  return start;
}

/** Ranges [lo, hi) of nodes whose slots fit in one pass (`slotLimit`, or one node). */
function passes(start: Float64Array): [number, number][] {
  const n = start.length - 1;
  const out: [number, number][] = [];
  let lo = 0;
  while (lo < n) {
    let hi = lo + 1;
    while (hi < n && start[hi + 1] - start[lo] <= slotLimit.slots) hi++;
    out.push([lo, hi]);
    lo = hi;
  }
  return out;
}

/** Slots for nodes lo..hi-1 (`start` from `slotStarts`), on shared memory when `shared`. */
function topLists(start: Float64Array, lo: number, hi: number, shared: boolean): TopLists {
  const n = start.length - 1;
  const total = start[hi] - start[lo];
  const rebased = (into: Float64Array): Float64Array => {
    for (let a = lo; a <= hi; a++) into[a] = start[a] - start[lo];
    return into;
  };
  if (!shared) return { lo, hi, start: rebased(new Float64Array(n + 1)), ids: new Int32Array(total), scores: new Float64Array(total), counts: new Int32Array(n) };
  const sab = (bytes: number, count: number): SharedArrayBuffer => new SharedArrayBuffer(bytes * Math.max(1, count));
  return {
    lo,
    hi,
    start: rebased(new Float64Array(sab(8, n + 1)).subarray(0, n + 1)),
    ids: new Int32Array(sab(4, total)).subarray(0, total),
    scores: new Float64Array(sab(8, total)).subarray(0, total),
    counts: new Int32Array(sab(4, n)).subarray(0, n),
  };
}

/**
 * Every node's list, node by node, best first: `start` (from `slotStarts`) cut into passes,
 * `run` filling each pass's slots (with blocks of its nodes: `cuts` over lo..hi-1, one block
 * per 1/16 of a thread, or one block on one thread).
 */
export function collectPairs(start: Float64Array, workers: number, run: (lists: TopLists, blocks: number) => void): SimilarPair[] {
  const pairs: SimilarPair[] = [];
  for (const [lo, hi] of passes(start)) {
    const lists = topLists(start, lo, hi, workers > 1);
    run(lists, workers > 1 ? Math.min(hi - lo, 16 * workers) : 1);
    pairsOf(lists, pairs);
  }
  return pairs;
}

/** Appends the lists of nodes lo..hi-1 to `pairs`, node by node, best first. */
function pairsOf(lists: TopLists, pairs: SimilarPair[]): void {
  const { start, ids, scores, counts } = lists;
  for (let a = lists.lo; a < lists.hi; a++) {
    const base = start[a];
    for (let i = 0; i < counts[a]; i++) pairs.push({ a, b: ids[base + i], score: scores[base + i] });
  }
}
