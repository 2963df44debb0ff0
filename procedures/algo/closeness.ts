/**
 * Closeness and harmonic centrality: shortest-path distances from every node (breadth-first,
 * or Dijkstra when weighted), following the projection's direction, so distances are measured
 * from the node outwards. With r − 1 other nodes reached at total distance D:
 * closeness = (r − 1) / D (0 when nothing is reached), and with `wassermanFaust` scaled by
 * (r − 1) / (n − 1) for graphs that are not connected (Wasserman & Faust, 1994). Harmonic
 * centrality (Marchiori & Latora, 2000) is Σ 1/d(v, u) over the reached u ≠ v, and stays
 * meaningful on disconnected graphs. O(n·m) time, O(n + m) memory.
 *
 * Unweighted, the searches run 32 sources at a time as one multi-source BFS (Then et al.,
 * "The More the Merrier", VLDB 2014): each node holds a 32-bit mask of the sources that have
 * reached it, and one pass over a level's edges advances all 32 searches, so the edges are read
 * once per level of the batch instead of once per source. Per source only the number of nodes
 * first reached at each depth is kept, and the figures are computed from those counts, so a
 * source's score does not depend on which batch (or thread) it ran in.
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';
import { controlArray, registerKernel, runTask, sharedCsr, sharedFloats, type TaskBase } from './parallel.js';

export interface ClosenessOptions {
  harmonic: boolean;
  wassermanFaust: boolean;
}

/** The score of a source that reached `reached` other nodes at summed distance `total` (harmonic sum `harmonic`). */
function scoreOf(opts: ClosenessOptions, n: number, reached: number, total: number, harmonic: number): number {
  if (opts.harmonic) return harmonic;
  if (total === 0) return 0;
  return (reached / total) * (opts.wassermanFaust ? reached / (n - 1) : 1);
}

/** Scratch of one batch runner: masks per node and two frontier lists. */
export interface BatchScratch {
  seen: Int32Array;
  frontier: Int32Array;
  next: Int32Array;
  list: Int32Array;
  nextList: Int32Array;
}

export function batchScratch(n: number): BatchScratch {
  return { seen: new Int32Array(n), frontier: new Int32Array(n), next: new Int32Array(n), list: new Int32Array(n), nextList: new Int32Array(n) };
}

/**
 * Scores of the sources `first .. first + count - 1` (count ≤ 32) into `score`, by one
 * multi-source BFS. `seen`, `frontier` and `next` are all zero on entry and on exit.
 */
export function closenessBatch(offsets: Int32Array, targets: Int32Array, n: number, first: number, count: number, opts: ClosenessOptions, score: Float64Array, w: BatchScratch): void {
  const { seen, frontier, next } = w;
  let list = w.list;
  let nextList = w.nextList;
  const reached = new Float64Array(count);
  const total = new Float64Array(count);
  const harmonic = new Float64Array(count);
  const perLevel = new Int32Array(count);
  let size = 0;
  for (let k = 0; k < count; k++) {
    const s = first + k;
    seen[s] = 1 << k;
    frontier[s] = 1 << k;
    list[size++] = s;
  }
  let depth = 0;
  while (size > 0) {
    depth++;
    let nextSize = 0;
    for (let i = 0; i < size; i++) {
      const v = list[i];
      const f = frontier[v];
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const u = targets[e];
        const fresh = f & ~seen[u];
        if (fresh !== 0) {
          if (next[u] === 0) nextList[nextSize++] = u;
          next[u] |= fresh;
          seen[u] |= fresh;
        }
      }
      frontier[v] = 0;
    }
    for (let i = 0; i < nextSize; i++) {
      const u = nextList[i];
      let bits = next[u];
      frontier[u] = bits;
      next[u] = 0;
      while (bits !== 0) {
        perLevel[31 - Math.clz32(bits & -bits)]++;
        bits &= bits - 1;
      }
    }
    for (let k = 0; k < count; k++) {
      const c = perLevel[k];
      if (c === 0) continue;
      reached[k] += c;
      total[k] += c * depth;
      harmonic[k] += c / depth;
      perLevel[k] = 0;
    }
    const t = list;
    list = nextList;
    nextList = t;
    size = nextSize;
  }
  seen.fill(0); // O(n) per batch of 32 searches: less than a level's edge scan
  for (let k = 0; k < count; k++) score[first + k] = scoreOf(opts, n, reached[k], total[k], harmonic[k]);
}

/** The rows a kernel reads: a CSR's arrays without its id maps. */
type Rows = Pick<Csr, 'n' | 'offsets' | 'targets' | 'weights'>;

/** Scores of sources `from .. to - 1` by one Dijkstra each (weighted projections). */
export function closenessDijkstra(rows: Rows, from: number, to: number, opts: ClosenessOptions, score: Float64Array, deadline: Deadline): void {
  const { n, offsets, targets } = rows;
  const wts = rows.weights as Float64Array;
  const dist = new Float64Array(n).fill(Infinity);
  const order = new Int32Array(n);
  const heap = new IndexedMinHeap(n, dist);
  for (let s = from; s < to; s++) {
    deadline();
    dist[s] = 0;
    let settled = 0;
    heap.push(s);
    while (heap.size > 0) {
      const v = heap.pop();
      order[settled++] = v;
      const dv = dist[v];
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const u = targets[e];
        const du = dv + wts[e];
        if (du < dist[u]) {
          dist[u] = du;
          if (heap.has(u)) heap.decrease(u);
          else heap.push(u);
        }
      }
    }
    let total = 0;
    let harmonic = 0;
    for (let j = 1; j < settled; j++) {
      const d = dist[order[j]];
      total += d;
      if (d > 0) harmonic += 1 / d;
    }
    score[s] = scoreOf(opts, n, settled - 1, total, harmonic);
    for (let j = 0; j < settled; j++) dist[order[j]] = Infinity;
  }
}

/** Sources per item of a closeness task: four batches of 32. */
const SOURCES_PER_ITEM = 128;

export interface ClosenessTask extends TaskBase, Rows {
  opts: ClosenessOptions;
  /** Output, one score per source (shared between the threads). */
  score: Float64Array;
}

/** Item `item` of a closeness task: the scores of 128 consecutive sources. */
export function closenessItem(t: ClosenessTask, item: number, deadline: Deadline): void {
  const from = item * 128; // SOURCES_PER_ITEM (kernels see no module constants)
  const to = Math.min(t.n, from + 128);
  if (t.weights !== undefined) {
    closenessDijkstra(t, from, to, t.opts, t.score, deadline);
    return;
  }
  const w = batchScratch(t.n);
  for (let first = from; first < to; first += 32) {
    deadline();
    closenessBatch(t.offsets, t.targets, t.n, first, Math.min(32, to - first), t.opts, t.score, w);
  }
}

registerKernel('closeness', closenessItem, [scoreOf, batchScratch, closenessBatch, IndexedMinHeap, closenessDijkstra]);

/** Closeness (or harmonic) centrality of every node, on `threads` threads. */
export function closeness(csr: Csr, opts: ClosenessOptions, threads: number, deadline: Deadline): Float64Array {
  const rows = threads > 1 ? sharedCsr(csr) : csr;
  const score = threads > 1 ? sharedFloats(csr.n) : new Float64Array(csr.n);
  const task: ClosenessTask = { kernel: 'closeness', items: Math.ceil(csr.n / SOURCES_PER_ITEM), control: controlArray(), n: rows.n, offsets: rows.offsets, targets: rows.targets, weights: rows.weights, opts, score };
  runTask(task, threads, deadline);
  return score;
}
