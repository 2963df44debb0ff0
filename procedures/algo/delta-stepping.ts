/**
 * Single-source shortest paths by delta-stepping (Meyer & Sanders, 2003) on the worker pool:
 * nodes wait in buckets of width `delta` by tentative distance; the lowest non-empty bucket is
 * emptied in rounds that relax the light edges (weight ≤ delta) of its nodes, which may refill
 * it, and once it stays empty the heavy edges of every node it held are relaxed once, with
 * their final distances. Each round is one pool task over blocks of the round's nodes.
 *
 * Distances live in a shared Float64Array. A relaxation lowers a distance by compare-and-swap
 * on a BigInt64Array over the same bytes: a non-negative double's bit pattern, read as a signed
 * 64-bit integer, orders like the double, so the CAS loop keeps the least value whichever
 * thread writes last. The plain read before the CAS is only a hint; the CAS compares the exact
 * stored bits. The result is the fixed point of `dist[v] = min over edges (u, v) of dist[u] + w`,
 * the least left-to-right sum over paths, which is what Dijkstra computes too: distances
 * equal the sequential search's bit for bit, whatever the thread count or delta.
 *
 * The output has no predecessors (which thread wins a tie is not fixed); the reached nodes are
 * listed by distance, then by dense index.
 *
 * The search runs on hand-written WebAssembly functions (wasm/delta-stepping.ts) where they
 * can run: the rounds (`relaxSolo`'s loop over the same arrays in its memory), the buckets
 * (lists in the memory: `drainWasm`) and the result order; `relaxSolo`, `Buckets`, `drainJs`
 * and `byDistance` are the fallback. On the pool the memory is a shared one and a round's
 * blocks run `deltaItem`'s loop in WebAssembly on every thread (the same compare-and-swaps);
 * where shared WebAssembly memory cannot be had, `deltaItem` itself runs on the pool.
 */

import type { Csr } from './csr.js';
import type { Deadline } from './deadline.js';
import { controlArray, registerKernel, runTask, type TaskBase } from './parallel.js';
import { scratchFloat64, scratchInt32, scratchObject } from './scratch.js';
import { wasmDeltaStepping, WasmDeltaStepping, type SplitRows } from './wasm/delta-stepping.js';

/** One round of one bucket: light edges of the round's nodes (step 0) or heavy edges of the bucket's nodes (step 1). */
export interface DeltaTask extends TaskBase {
  step: number;
  /** The bucket being emptied and its width. */
  bucket: number;
  delta: number;
  /** Rows with light edges first: row v's light edges are offsets[v] .. split[v], heavy ones split[v] .. offsets[v + 1]. */
  offsets: Int32Array;
  split: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  dist: Float64Array;
  /** `dist`'s bytes as 64-bit integers, for the compare-and-swap. */
  bits: BigInt64Array;
  /** This round's nodes: queue[0 .. size), blocks of `chunk`. */
  queue: Int32Array;
  size: number;
  chunk: number;
  /** Nodes lowered into the current bucket (the next round), and into later buckets, deduplicated per round by stamps. */
  near: Int32Array;
  far: Int32Array;
  nearMark: Int32Array;
  farMark: Int32Array;
  round: number;
  /** [0] near count, [1] far count. */
  found: Int32Array;
}

/**
 * One block of one round on the pool: other threads share `dist`, so a distance is lowered by
 * compare-and-swap. (A round of one block runs on the calling thread alone, as `relaxSolo`.)
 */
export function deltaItem(t: DeltaTask, b: number, deadline: Deadline): void {
  const { offsets, split, targets, weights, dist, bits, nearMark, farMark, delta, bucket, round, queue, found } = t;
  const light = t.step === 0;
  // The CAS compares bit patterns: doubles go through this pair of views to become integers.
  const conv = new Float64Array(2);
  const convBits = new BigInt64Array(conv.buffer);
  // The thread gathers its finds and reserves room in the shared lists once.
  const near: number[] = [];
  const far: number[] = [];
  const from = b * t.chunk;
  const to = Math.min(t.size, from + t.chunk);
  for (let i = from; i < to; i++) {
    if ((i & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const u = queue[i];
    const du = dist[u];
    const start = light ? offsets[u] : split[u];
    const end = light ? split[u] : offsets[u + 1];
    for (let e = start; e < end; e++) {
      const v = targets[e];
      const nd = du + weights[e];
      let seen = dist[v];
      if (!(nd < seen)) continue;
      let won = false;
      while (nd < seen) {
        conv[0] = seen;
        conv[1] = nd;
        const expected = convBits[0];
        const got = Atomics.compareExchange(bits, v, expected, convBits[1]);
        if (got === expected) {
          won = true;
          break;
        }
        convBits[0] = got;
        seen = conv[0];
      }
      if (!won) continue;
      // Queue v once per round: for the next round when it fell into this bucket, else for a later one.
      if (Math.floor(nd / delta) <= bucket) {
        const mark = nearMark[v];
        if (mark !== round && Atomics.compareExchange(nearMark, v, mark, round) === mark) near.push(v);
      } else {
        const mark = farMark[v];
        if (mark !== round && Atomics.compareExchange(farMark, v, mark, round) === mark) far.push(v);
      }
    }
  }
  if (near.length > 0) {
    const at = Atomics.add(found, 0, near.length);
    for (let k = 0; k < near.length; k++) t.near[at + k] = near[k];
  }
  if (far.length > 0) {
    const at = Atomics.add(found, 1, far.length);
    for (let k = 0; k < far.length; k++) t.far[at + k] = far[k];
  }
}

/**
 * A whole round on the calling thread alone: plain stores, finds appended in place, the near
 * and far counts kept in locals and written to `found` once at the end. Every array and
 * figure comes as an argument, none through the task object: with the task's fields read
 * per lowering (and the counts incremented in `found`), V8 reloaded each from memory after
 * every store into a typed array, and the round took ~3x C's time per scanned entry. The
 * entries are relaxed one after another, in row order, so a repeated target sees the
 * distance its previous entry wrote; a lowered node is queued once per round (stamps), for
 * this bucket's next round when floor(nd / delta) is still `bucket` (the same test as
 * kernels.c, so the same nodes in the same order), else for a later bucket.
 */
export function relaxSolo(
  offsets: Int32Array, split: Int32Array, targets: Int32Array, weights: Float64Array, dist: Float64Array,
  nodes: Int32Array, size: number, light: boolean, delta: number, bucket: number, round: number,
  near: Int32Array, far: Int32Array, nearMark: Int32Array, farMark: Int32Array, found: Int32Array, deadline: Deadline,
): void {
  let nearCount = 0;
  let farCount = 0;
  // The width as a double and the bucket's end, each made once: V8 passes the arguments as
  // tagged values and, used inside the loop, unboxed `delta` again at every lowering.
  const width = delta * 1;
  const limit = bucket + 1;
  for (let i = 0; i < size; i++) {
    if ((i & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const u = nodes[i];
    const du = dist[u];
    const end = light ? split[u] : offsets[u + 1];
    let e = light ? offsets[u] : split[u];
    // Four entries per turn: V8 re-checks each typed array's map and reloads its length and
    // data pointer after every turn's interrupt check, and in the one-entry loop that cost
    // more than the entry (about 19 % of the round here). Still one after another in row order.
    for (; e + 3 < end; e += 4) {
      const a = targets[e];
      const da = du + weights[e];
      if (da < dist[a]) {
        dist[a] = da;
        const q = queueAs(a, da, width, limit, round, nearMark, farMark);
        if (q === 1) near[nearCount++] = a;
        else if (q === 2) far[farCount++] = a;
      }
      const b = targets[e + 1];
      const db = du + weights[e + 1];
      if (db < dist[b]) {
        dist[b] = db;
        const q = queueAs(b, db, width, limit, round, nearMark, farMark);
        if (q === 1) near[nearCount++] = b;
        else if (q === 2) far[farCount++] = b;
      }
      const c = targets[e + 2];
      const dc = du + weights[e + 2];
      if (dc < dist[c]) {
        dist[c] = dc;
        const q = queueAs(c, dc, width, limit, round, nearMark, farMark);
        if (q === 1) near[nearCount++] = c;
        else if (q === 2) far[farCount++] = c;
      }
      const d = targets[e + 3];
      const dd = du + weights[e + 3];
      if (dd < dist[d]) {
        dist[d] = dd;
        const q = queueAs(d, dd, width, limit, round, nearMark, farMark);
        if (q === 1) near[nearCount++] = d;
        else if (q === 2) far[farCount++] = d;
      }
    }
    for (; e < end; e++) {
      const v = targets[e];
      const nd = du + weights[e];
      if (nd < dist[v]) {
        dist[v] = nd;
        const q = queueAs(v, nd, width, limit, round, nearMark, farMark);
        if (q === 1) near[nearCount++] = v;
        else if (q === 2) far[farCount++] = v;
      }
    }
  }
  found[0] = nearCount;
  found[1] = farCount;
}

/**
 * Where relaxSolo queues `v`, just lowered to `nd`: 1 for this bucket's next round, 2 for a
 * later bucket, 0 when this round has queued it there already (its stamp is set here).
 * `limit` is the bucket's number + 1: for an integer bucket b, floor(nd / delta) <= b exactly
 * when nd / delta < b + 1, so the test is kernels.c's without the rounding (and without V8's
 * check that the floored value fits in 32 bits).
 */
export function queueAs(v: number, nd: number, delta: number, limit: number, round: number, nearMark: Int32Array, farMark: Int32Array): number {
  if (nd / delta < limit) {
    if (nearMark[v] === round) return 0;
    nearMark[v] = round;
    return 1;
  }
  if (farMark[v] === round) return 0;
  farMark[v] = round;
  return 2;
}

registerKernel('delta-stepping', deltaItem, []);

/** `bits` on one thread, where no round runs on the pool. */
const EMPTY_BITS = new BigInt64Array(0);

/** Rows split into light and heavy edges for one delta, kept per CSR (the projection cache keeps a CSR while the graph is unchanged). */
interface Split extends SplitRows {
  delta: number;
  shared: boolean;
}

const splits = new WeakMap<Csr, Split>();

function splitRows(csr: Csr, delta: number, shared: boolean): Split {
  const hit = splits.get(csr);
  if (hit !== undefined && hit.delta === delta && hit.shared === shared) return hit;
  const { n, offsets } = csr;
  const m = offsets[n];
  const ints = (length: number): Int32Array => (shared ? new Int32Array(new SharedArrayBuffer(4 * Math.max(1, length))).subarray(0, length) : new Int32Array(length));
  const rows: SplitRows = {
    offsets: ints(n + 1),
    split: ints(n),
    targets: ints(m),
    weights: shared ? new Float64Array(new SharedArrayBuffer(8 * Math.max(1, m))).subarray(0, m) : new Float64Array(m),
  };
  fillSplit(csr, delta, rows);
  const made = { delta, shared, ...rows };
  splits.set(csr, made);
  return made;
}

/** Writes `csr`'s rows split at `delta` into `out` (arrays of n + 1, n, m and m entries). */
function fillSplit(csr: Csr, delta: number, out: SplitRows): void {
  const { n, offsets, targets, weights } = csr;
  const { offsets: outOffsets, split, targets: outTargets, weights: outWeights } = out;
  outOffsets.set(offsets);
  for (let v = 0; v < n; v++) {
    // Light edges from the front, heavy ones from the back; each side keeps the row's order.
    let lo = offsets[v];
    let heavy = 0;
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const w = weights === undefined ? 1 : weights[e];
      if (w <= delta) {
        outTargets[lo] = targets[e];
        outWeights[lo++] = w;
      } else heavy++;
    }
    split[v] = lo;
    if (heavy === 0) continue;
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const w = weights === undefined ? 1 : weights[e];
      if (w > delta) {
        outTargets[lo] = targets[e];
        outWeights[lo++] = w;
      }
    }
  }
}

/**
 * The bucket width used when none is given: the heaviest weight over the mean out-degree, so
 * that a bucket's light edges are about a node's worth of the heaviest; 1 when unweighted or
 * when every weight is 0. bench/algo-c/kernels.c computes the same figure.
 */
export function defaultDelta(csr: Csr): number {
  const hit = defaultDeltas.get(csr);
  if (hit !== undefined) return hit;
  const made = computeDelta(csr);
  defaultDeltas.set(csr, made);
  return made;
}

const defaultDeltas = new WeakMap<Csr, number>();

function computeDelta(csr: Csr): number {
  const m = csr.offsets[csr.n];
  if (csr.weights === undefined || m === 0) return 1;
  let max = 0;
  for (let e = 0; e < m; e++) if (csr.weights[e] > max) max = csr.weights[e];
  return max > 0 ? (max * csr.n) / m : 1;
}

export interface DeltaSteppingResult {
  /** Dense indices of the reached nodes by distance, then by index (the first `count` entries). */
  order: Int32Array;
  count: number;
  /** Distance per dense index, Infinity when not reached. */
  dist: Float64Array;
}

/** A min-heap of bucket numbers (plain numbers: buckets can be sparse and far apart). */
class BucketHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(x: number): void {
    const a = this.items;
    let i = a.push(x) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= x) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= a.length) break;
        if (c + 1 < a.length && a[c + 1] < a[c]) c++;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

/** Bucket numbers below this are kept in an array by number, as bench/algo-c/kernels.c keeps them; higher ones (sparse: a heavy weight far above delta) in a map. */
const DENSE_BUCKETS = 1 << 16;

/** One bucket's waiting nodes: list[0 .. length), in filing order. */
interface Bucket {
  list: Int32Array;
  length: number;
}

/**
 * The nodes waiting per bucket, each bucket a list in filing order, and a heap of the non-empty
 * buckets' numbers. A bucket's nodes lie together in memory: a linked list threaded through one
 * array of entries for all buckets (the earlier layout) sent each drain on a random walk. The
 * lists are Int32Arrays grown by doubling and kept with the CSR between searches (as
 * kernels.c keeps its bucket arrays between runs): JavaScript arrays grown by push left about
 * a megabyte of garbage per search on kron-17, which the young generation's collections copied.
 */
class Buckets {
  private readonly dense: (Bucket | undefined)[] = [];
  private sparse = new Map<number, Bucket>();
  private order = new BucketHeap();
  get size(): number {
    return this.order.size;
  }
  /** Every bucket empty (a search a deadline stopped may have left some filled). */
  reset(): void {
    for (const b of this.dense) if (b !== undefined) b.length = 0;
    this.sparse = new Map();
    this.order = new BucketHeap();
  }
  add(k: number, v: number): void {
    let b = k < DENSE_BUCKETS ? this.dense[k] : this.sparse.get(k);
    if (b === undefined) {
      b = { list: new Int32Array(16), length: 0 };
      if (k < DENSE_BUCKETS) this.dense[k] = b;
      else this.sparse.set(k, b);
    }
    if (b.length === 0) this.order.push(k);
    if (b.length === b.list.length) {
      const grown = new Int32Array(2 * b.length);
      grown.set(b.list);
      b.list = grown;
    }
    b.list[b.length++] = v;
  }
  /** The lowest non-empty bucket's number, taken off the heap (`take` its nodes next). */
  popLowest(): number {
    return this.order.pop();
  }
  /** Bucket `k` (stale entries included); the caller empties it (length 0) once it has read it. */
  take(k: number): Bucket {
    return (k < DENSE_BUCKETS ? this.dense[k] : this.sparse.get(k)) ?? { list: new Int32Array(0), length: 0 };
  }
}

/** The WebAssembly search's stand-in (its buckets are lists in its memory). */
const NO_BUCKETS = new Buckets();

/**
 * The per-node block of a search (queue, near, far, near and far marks, heavy list, heavy
 * marks, ranks, and the two counts), kept per CSR (scratch.ts): in plain memory for one
 * thread, on a SharedArrayBuffer for the pool. The marks and ranks are compared against
 * counters that start at 0 per search, so they are cleared at the start of each; the lists
 * are written before they are read.
 */
function searchBlock(csr: Csr, n: number, shared: boolean): Int32Array {
  return clearBlock(scratchInt32(csr, 'delta-stepping.block', 8 * n + 2, shared), n);
}

/** The block's marks and ranks cleared for a new search. */
function clearBlock(block: Int32Array, n: number): Int32Array {
  block.fill(0, 3 * n, 5 * n);
  block.fill(0, 6 * n, 8 * n);
  return block;
}

/**
 * Shortest distances from `source` by delta-stepping on up to `threads` threads (the calling
 * thread alone when 1). `delta` ≤ 0 or absent picks `defaultDelta`. Weights must be
 * non-negative (the CSR builder checks).
 */
export function deltaStepping(csr: Csr, source: number, deadline: Deadline, threads: number, delta?: number): DeltaSteppingResult {
  const n = csr.n;
  const width = delta !== undefined && delta > 0 ? delta : defaultDelta(csr);
  const parallel = threads > 1;
  // The WebAssembly search where it can run (wasm/delta-stepping.ts), the split rows,
  // distances and per-node block then in its memory; on the pool a shared memory, whose
  // rounds run on every thread. Else the JavaScript rounds (on the pool: shared arrays).
  const wasm = wasmDeltaStepping(csr, width, (rows) => fillSplit(csr, width, rows), parallel);
  // On one thread the distances are the result, made here; on the pool (and in WebAssembly
  // memory) they are kept, and copied out at the end.
  const dist = (wasm !== undefined ? wasm.dist : parallel ? scratchFloat64(csr, 'delta-stepping.dist', n, true) : new Float64Array(n)).fill(Infinity);
  const search = new DeltaSearch(csr, wasm ?? splitRows(csr, width, parallel), width, dist, threads, deadline);
  const ranks = search.drain(source);
  const out = parallel || wasm !== undefined ? dist.slice() : dist;
  const { order, count } = wasm !== undefined ? wasm.byDistance(search.rankOf, ranks) : byDistance(out, search.rankOf, ranks);
  return { order, count, dist: out };
}

/**
 * One search's state and its two steps (a round, and the whole bucket loop), as a class rather
 * than closures made per call: a closure made afresh per call is a new call target each time,
 * and V8's code for the caller deoptimised on it ("wrong call target"). The bucket loop is a
 * method of its own, ending where the loop ends: V8 compiles a long loop by on-stack
 * replacement, and code after the loop that had never run before (the final ordering) was
 * compiled without type feedback and deoptimised there.
 */
class DeltaSearch {
  private readonly n: number;
  private readonly dist: Float64Array;
  /** The compare-and-swap's view (the pool's rounds only; a plain buffer's is never used). */
  private readonly bits: BigInt64Array;
  private queue: Int32Array;
  private near: Int32Array;
  private readonly far: Int32Array;
  private readonly nearMark: Int32Array;
  private readonly farMark: Int32Array;
  private readonly heavy: Int32Array;
  private readonly found: Int32Array;
  /** Per node: the last heavy pass that listed it, so a bucket's heavy pass takes each node once. */
  private readonly heavyMark: Int32Array;
  /**
   * Per node: the rank (1, 2, …) of the last bucket that processed it. A node is processed last
   * in the bucket of its final distance, so this groups the nodes by final bucket for the
   * output order without sorting all of them.
   */
  readonly rankOf: Int32Array;
  /** Nodes waiting in later buckets; entries go stale when a node moves lower. */
  private readonly buckets: Buckets;
  private round = 0;

  private readonly rows: SplitRows;
  /** The WebAssembly rounds, when they run (the one-thread search). */
  private readonly wasm: WasmDeltaStepping | undefined;

  constructor(
    csr: Csr,
    rows: SplitRows | WasmDeltaStepping,
    private readonly width: number,
    dist: Float64Array,
    private readonly threads: number,
    private readonly deadline: Deadline,
  ) {
    const n = csr.n;
    const parallel = threads > 1;
    this.n = n;
    this.dist = dist;
    this.bits = parallel && !(rows instanceof WasmDeltaStepping) ? new BigInt64Array(dist.buffer, dist.byteOffset, n) : EMPTY_BITS;
    // The per-node arrays, one block kept per CSR (a call allocates nothing per round but the tasks).
    this.wasm = rows instanceof WasmDeltaStepping ? rows : undefined;
    this.rows = rows instanceof WasmDeltaStepping ? rows.rows : rows;
    const block = this.wasm !== undefined ? clearBlock(this.wasm.block, n) : searchBlock(csr, n, parallel);
    const part = (k: number): Int32Array => block.subarray(k * n, (k + 1) * n);
    this.queue = part(0);
    this.near = part(1);
    this.far = part(2);
    this.nearMark = part(3);
    this.farMark = part(4);
    this.heavy = part(5);
    this.heavyMark = part(6);
    this.rankOf = part(7);
    this.found = block.subarray(8 * n, 8 * n + 2);
    this.buckets = this.wasm !== undefined ? NO_BUCKETS : scratchObject(csr, 'delta-stepping.buckets', () => new Buckets());
    this.buckets.reset();
  }

  /** Empties the buckets from `source` on; returns the number of buckets processed (the ranks). */
  drain(source: number): number {
    return this.wasm !== undefined ? this.drainWasm(this.wasm, source) : this.drainJs(source);
  }

  /**
   * drainJs's loop with every per-node step on WebAssembly (wasm/delta-buckets-kernel.ts): the
   * buckets are its lists, taking a bucket, listing the heavy pass's nodes and filing a
   * round's far nodes are its functions; what stays here runs once per bucket or round.
   */
  private drainWasm(wasm: WasmDeltaStepping, source: number): number {
    const { found, deadline } = this;
    wasm.reset();
    if (this.n === 0) return 0;
    this.dist[source] = 0;
    this.far[0] = source;
    wasm.file(this.far, 1, -1);
    let rank = 0;
    let heavyPass = 0;
    for (let bucket = wasm.nextBucket(0); bucket >= 0; bucket = wasm.nextBucket(bucket + 1)) {
      deadline();
      rank++;
      let size = wasm.take(bucket, this.queue);
      while (size > 0) {
        heavyPass++;
        let heavySize = 0;
        while (size > 0) {
          heavySize = wasm.heavyList(this.queue, size, heavyPass, rank, this.heavyMark, this.rankOf, this.heavy, heavySize);
          this.run(0, bucket, this.queue, size);
          size = found[0];
          this.swap();
        }
        this.run(1, bucket, this.heavy, heavySize);
        size = found[0];
        if (size > 0) this.swap();
      }
    }
    return rank;
  }

  private drainJs(source: number): number {
    const { dist, width, nearMark, heavyMark, rankOf, heavy, found, buckets, deadline } = this;
    if (this.n > 0) {
      dist[source] = 0;
      buckets.add(0, source);
    }
    let rank = 0;
    let heavyPass = 0;
    while (buckets.size > 0) {
      deadline();
      const bucket = buckets.popLowest();
      const filed = buckets.take(bucket);
      const round = ++this.round;
      rank++;
      let size = 0;
      const list = filed.list;
      const queue = this.queue;
      for (let i = 0; i < filed.length; i++) {
        const v = list[i];
        // Stale entries (the node moved to a lower bucket, already emptied) and repeats drop out.
        if (Math.floor(dist[v] / width) === bucket && nearMark[v] !== round) {
          nearMark[v] = round;
          queue[size++] = v;
        }
      }
      filed.length = 0;
      while (size > 0) {
        heavyPass++;
        let heavySize = 0;
        // Light rounds until the bucket stays empty, gathering its nodes for the heavy pass.
        while (size > 0) {
          const nodes = this.queue;
          for (let i = 0; i < size; i++) {
            const v = nodes[i];
            if (heavyMark[v] !== heavyPass) {
              heavyMark[v] = heavyPass;
              rankOf[v] = rank;
              heavy[heavySize++] = v;
            }
          }
          this.run(0, bucket, nodes, size);
          size = found[0];
          this.swap();
        }
        // Heavy edges lead to later buckets, except where rounding keeps a sum in this one: those come back as a round.
        this.run(1, bucket, heavy, heavySize);
        size = found[0];
        if (size > 0) this.swap();
      }
    }
    return rank;
  }

  /** The round's finds (`near`) become the next round's nodes (`queue`). */
  private swap(): void {
    const q = this.queue;
    this.queue = this.near;
    this.near = q;
  }

  /** One round: light (step 0) or heavy (1) edges of `nodes`; lowered nodes into `near` and, past this bucket, into the buckets. */
  private run(step: number, bucket: number, nodes: Int32Array, size: number): void {
    const { rows, dist, width, threads, far, found } = this;
    const round = ++this.round;
    found[0] = 0;
    found[1] = 0;
    const chunk = threads === 1 ? Math.max(1, size) : Math.max(64, Math.ceil(size / (8 * threads)));
    const items = Math.ceil(size / chunk);
    if (this.wasm !== undefined) {
      if (threads > 1) this.wasm.relaxOnPool(nodes, size, step === 0, bucket, round, this.near, far, this.nearMark, this.farMark, found, threads, this.deadline);
      else this.wasm.relax(nodes, size, step === 0, bucket, round, this.near, far, this.nearMark, this.farMark, found, this.deadline);
      this.wasm.file(far, found[1], bucket);
      return;
    } else if (items <= 1) {
      // One item: this thread alone, plain stores, no task object (runTask would wake no worker for it).
      relaxSolo(rows.offsets, rows.split, rows.targets, rows.weights, dist, nodes, size, step === 0, width, bucket, round, this.near, far, this.nearMark, this.farMark, found, this.deadline);
    } else {
      runTask<DeltaTask>(
        {
          kernel: 'delta-stepping', items, control: controlArray(), step, bucket, delta: width,
          offsets: rows.offsets, split: rows.split, targets: rows.targets, weights: rows.weights, dist, bits: this.bits,
          queue: nodes, size, chunk, near: this.near, far, nearMark: this.nearMark, farMark: this.farMark, round, found,
        },
        threads,
        this.deadline,
      );
    }
    const farCount = found[1];
    const buckets = this.buckets;
    for (let i = 0; i < farCount; i++) {
      const v = far[i];
      const k = Math.floor(dist[v] / width);
      // A node lowered again into this bucket in the same round sits in `near` already.
      if (k > bucket) buckets.add(k, v);
    }
  }
}

/**
 * The reached nodes by distance, then by index: counted into groups by final bucket (`rankOf`,
 * 1..`ranks`; 0 for unreached nodes), each group, in index order, then ordered on its own. A
 * group's distinct distances are few (a bucket is narrow) and found by a native sort of its
 * distances; its nodes are then distributed by distance in one stable counting pass, which
 * costs far less than a comparison sort calling back into JavaScript. Each loop over the nodes
 * is a function of its own (see DeltaSearch: in one function, the code after the first loop
 * V8 compiled by on-stack replacement deoptimised on one call after another).
 */
function byDistance(dist: Float64Array, rankOf: Int32Array, ranks: number): { order: Int32Array; count: number } {
  const n = dist.length;
  const start = new Int32Array(ranks + 2);
  countRanks(rankOf, start);
  const count = n - start[1];
  start[1] = 0;
  let widest = 0;
  for (let r = 1; r <= ranks; r++) {
    widest = Math.max(widest, start[r + 1]);
    start[r + 1] += start[r];
  }
  const order = new Int32Array(count);
  placeByRank(rankOf, start.slice(), order);
  const group: Group = { keys: new Float64Array(widest), slot: new Int32Array(widest), place: new Int32Array(widest + 1), moved: new Int32Array(widest) };
  for (let r = 1; r <= ranks; r++) {
    const from = start[r];
    const size = start[r + 1] - from;
    if (size >= 2) orderGroup(dist, order, from, size, group);
  }
  return { order, count };
}

/** start[r + 1] += the nodes of rank r. */
function countRanks(rankOf: Int32Array, start: Int32Array): void {
  for (let v = 0; v < rankOf.length; v++) start[rankOf[v] + 1]++;
}

/** The ranked nodes into `order`, group r from fill[r] on, in index order. */
function placeByRank(rankOf: Int32Array, fill: Int32Array, order: Int32Array): void {
  for (let v = 0; v < rankOf.length; v++) {
    const r = rankOf[v];
    if (r > 0) order[fill[r]++] = v;
  }
}

/** Working arrays for orderGroup, as long as the widest group. */
interface Group {
  keys: Float64Array;
  slot: Int32Array;
  place: Int32Array;
  moved: Int32Array;
}

/** order[from .. from + size) by distance, ties in their present (index) order. */
function orderGroup(dist: Float64Array, order: Int32Array, from: number, size: number, g: Group): void {
  const { keys, slot, place, moved } = g;
  for (let i = 0; i < size; i++) keys[i] = dist[order[from + i]];
  const sorted = keys.subarray(0, size).sort();
  let distinct = 1;
  for (let i = 1; i < size; i++) if (sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i];
  if (distinct === 1) return;
  place.fill(0, 0, distinct + 1);
  for (let i = 0; i < size; i++) {
    // Binary search for the node's distance among the distinct ones.
    const d = dist[order[from + i]];
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < d) lo = mid + 1;
      else hi = mid;
    }
    slot[i] = lo;
    place[lo + 1]++;
  }
  for (let k = 0; k < distinct; k++) place[k + 1] += place[k];
  for (let i = 0; i < size; i++) moved[place[slot[i]]++] = order[from + i];
  order.set(moved.subarray(0, size), from);
}
