/**
 * Weakly connected components by union-find over the CSR (edge direction does not matter).
 * Roots are always the smallest dense index of their set, so a component's id is the
 * smallest node id in it: deterministic, and independent of edge order — and of how the
 * edges are split over threads.
 *
 * One thread: the sequential union-find below (`uniteRows`). More (`concurrency`, graphs above
 * `parallelFloor`): Afforest over one forest on a SharedArrayBuffer that every thread links
 * into by compare-and-swap (`weaklyConnected`). Afforest runs its phases on hand-written
 * WebAssembly functions where they can run (wasm/wcc.ts), on the pool over a shared
 * WebAssembly memory; the JavaScript phases are the fallback and the reference.
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, threadsForWork, workCuts, type TaskBase } from './parallel.js';
import { WCC_COMPRESS, WCC_FULL, WCC_SAMPLE, wasmAfforest, type WasmAfforest } from './wasm/wcc.js';

/**
 * Unites every edge of rows `from` .. `to` into `parent` (a forest where parent[v] <= v and
 * roots point at themselves): a larger root always goes under the smaller one, so a set's
 * root is its smallest member.
 */
export function uniteRows(offsets: Int32Array, targets: Int32Array, parent: Int32Array, from: number, to: number, deadline: Deadline): void {
  let e = offsets[from];
  for (let v = from; v < to; v++) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const end = offsets[v + 1];
    if (e === end) continue;
    // v's root, found once per row and kept up to date: a union either hangs the other root
    // under it or makes the other (smaller) root v's root, and path halving elsewhere never
    // changes a root. (Finding it again per edge, as before, was 1.5× slower on kron-17.)
    let a = v;
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    // One flat loop over the row: each turn either does one path-halving step for the
    // neighbour b or, b being a root, hangs the larger root under the smaller and takes the
    // next entry. With the find loop nested in the entry loop, V8's code re-checked the typed
    // arrays on every entry (it peels only innermost loops); flat, the kernel measured ~12 %
    // less CPU on kron-17, with the same roots.
    // A neighbour whose parent is a is in v's set already and is passed over (path halving
    // would only write a over a): on kron-17 that is the common case, and skipping it made the
    // kernel ~15 % faster here and ~12 % in kernels.c, which does the same.
    let b = targets[e++];
    for (;;) {
      const p = parent[b];
      if (p !== b && p !== a) {
        const g = parent[p];
        parent[b] = g;
        b = g;
        continue;
      }
      if (p === b) {
        if (a < b) parent[b] = a;
        else if (b < a) {
          parent[a] = b;
          a = b;
        }
      }
      // Entries already right under a are passed over four at a time (the same no-ops the
      // loop above makes one per turn).
      while (e + 3 < end && parent[targets[e]] === a && parent[targets[e + 1]] === a && parent[targets[e + 2]] === a && parent[targets[e + 3]] === a) e += 4;
      if (e === end) break;
      b = targets[e++];
    }
  }
}

/**
 * One phase of the parallel kernel over a shared parent array (Afforest, Sutton et al. 2018):
 * `phase` 0 links each vertex of the block with its neighbour number `round` (a sample of
 * the edges that, in two rounds, joins most of a power-law graph's giant component), 1 makes
 * every vertex of the block point at its root, 2 links every edge from `round` on, except
 * the rows of the vertices already under `skip` (the largest component found by sampling,
 * when every edge is in the CSR both ways: then each edge that could still join it to
 * something else is also in that something's row; -1 otherwise).
 */
export interface WccTask extends TaskBase {
  phase: number;
  round: number;
  skip: number;
  offsets: Int32Array;
  targets: Int32Array;
  /** parent[v] <= v; roots point at themselves. Shared by every thread. */
  parent: Int32Array;
  /** Block b is rows cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
}

/**
 * Joins the sets of u and v in the shared forest without locks: the larger root is hung under
 * the smaller by compare-and-swap, so a root stays its set's smallest member whatever the
 * interleaving; a lost race re-reads both roots and tries again (GAP benchmark suite's
 * Afforest link). Reads are plain: a stale parent only sends the loop round once more.
 */
export function linkShared(parent: Int32Array, u: number, v: number): void {
  let a = parent[u];
  let b = parent[v];
  while (a !== b) {
    const high = a > b ? a : b;
    const low = a > b ? b : a;
    const top = parent[high];
    if (top === low) return;
    if (top === high && Atomics.compareExchange(parent, high, high, low) === high) return;
    a = parent[parent[high]];
    b = parent[low];
  }
}

/**
 * `linkShared` for a forest no other thread writes: the root is hung by a plain write. A
 * compare-and-swap is a full memory barrier, which on one thread cost more than the rest of
 * the link: the loads of the next links could no longer run ahead of it (the sampled rounds,
 * which link almost every vertex, took 2.7x C's time with it).
 */
export function linkSolo(parent: Int32Array, u: number, v: number): void {
  let a = parent[u];
  let b = parent[v];
  while (a !== b) {
    const high = a > b ? a : b;
    const low = a > b ? b : a;
    const top = parent[high];
    if (top === low) return;
    if (top === high) {
      parent[high] = low;
      return;
    }
    a = parent[parent[high]];
    b = parent[low];
  }
}

/** One block of one phase (see WccTask). */
export function wccItem(t: WccTask, b: number, deadline: Deadline): void {
  const { offsets, targets, parent } = t;
  const from = t.cuts[b];
  const to = t.cuts[b + 1];
  if (t.phase === 1) {
    // Four vertices per turn: V8 reloads each typed array's map, length and data pointer
    // after every turn's interrupt check (and every turn of a chain walk), so whole turns
    // are fewer with the common one-step chains inline.
    let v = from;
    for (; v + 3 < to; v += 4) {
      parent[v] = rootOf(parent, v);
      parent[v + 1] = rootOf(parent, v + 1);
      parent[v + 2] = rootOf(parent, v + 2);
      parent[v + 3] = rootOf(parent, v + 3);
    }
    for (; v < to; v++) parent[v] = rootOf(parent, v);
    return;
  }
  const round = t.round;
  if (t.phase === 0) {
    deadline();
    // One entry per row (on one thread: sampleRound).
    for (let v = from; v < to; v++) {
      const e = offsets[v] + round;
      if (e < offsets[v + 1]) linkShared(parent, v, targets[e]);
    }
    return;
  }
  // The full pass. After sampling, most entries already share v's parent: a link would return
  // at its first test, so that test is made here, two entries per turn, against v's parent read
  // once, and only a pair with an outsider goes to the link function. (A pair that shared v's
  // parent at any moment is in v's set for good: skipping its links changes nothing.)
  const skip = t.skip;
  for (let v = from; v < to; v++) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    let a = parent[v];
    if (a === skip) continue;
    const end = offsets[v + 1];
    let e = offsets[v] + round;
    // Four entries per turn (kernels.c: two; the same links in the same order, as a link
    // whose ends already share v's parent changes nothing): a quarter of the per-turn reloads.
    for (; e + 3 < end; e += 4) {
      const x = targets[e];
      const y = targets[e + 1];
      const z = targets[e + 2];
      const w = targets[e + 3];
      if (parent[x] === a && parent[y] === a && parent[z] === a && parent[w] === a) continue;
      linkShared(parent, v, x);
      linkShared(parent, v, y);
      linkShared(parent, v, z);
      linkShared(parent, v, w);
      a = parent[v];
    }
    for (; e < end; e++) {
      if (parent[targets[e]] === a) continue;
      linkShared(parent, v, targets[e]);
      a = parent[v];
    }
  }
}

/** The root above `v` (a chain walk, no writes). */
export function rootOf(parent: Int32Array, v: number): number {
  let p = parent[v];
  while (p !== parent[p]) p = parent[p];
  return p;
}

registerKernel('wcc', wccItem, [linkShared, rootOf]);

/** The root most of 1024 vertices drawn at random (fixed seed) sit under: the likely largest component. */
function largestSampled(parent: Int32Array): number {
  const counts = new Map<number, number>();
  let seed = 12345;
  let best = -1;
  let most = 0;
  for (let i = 0; i < 1024; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const root = parent[seed % parent.length];
    const c = (counts.get(root) ?? 0) + 1;
    counts.set(root, c);
    if (c > most) [most, best] = [c, root];
  }
  return best;
}

/** Neighbour rounds sampled before the full pass (Afforest's default). */
const SAMPLED_ROUNDS = 2;

/**
 * The root (smallest member) of each dense index's component, on up to `threads` threads.
 * `symmetric`: the CSR holds every edge both ways, which lets the parallel pass skip the
 * largest component's rows.
 */
export function weaklyConnected(csr: Csr, deadline: Deadline, threads = 1, symmetric = false): Int32Array {
  const { n, offsets, targets } = csr;
  const workers = n > 1 ? threadsForWork(threads, offsets[n]) : 1;
  if (workers <= 1) {
    const parent = identity(new Int32Array(n));
    uniteRows(offsets, targets, parent, 0, n, deadline);
    return resolveRoots(parent);
  }
  return afforest(csr, deadline, workers, symmetric);
}

/**
 * Afforest over one shared forest, on `workers` threads (one runs the same phases on the
 * calling thread, `afforestSolo`: the benchmark's comparison with C's one-thread Afforest). Two sampled rounds
 * and a compression settle most vertices under their final root, so the full pass that
 * follows mostly finds both ends of an edge already under the same root (two plain reads, no
 * compare-and-swap). (Per-thread forests merged on the calling thread, as before, gained
 * 1.1× on 16 threads: the merge was sequential and as long as the kernel.)
 */
export function afforest(csr: Csr, deadline: Deadline, workers: number, symmetric = false): Int32Array {
  if (workers <= 1) return afforestSolo(csr, deadline, symmetric);
  const { n, offsets } = csr;
  const blocks = Math.min(n, 32 * workers);
  const byRows = Int32Array.from({ length: blocks + 1 }, (_, b) => Math.floor((b * n) / blocks));
  const byEdges = workCuts(offsets, n, blocks);
  const wasm = wasmAfforest(csr, true);
  if (wasm !== undefined) return afforestWasmPool(wasm, byRows, byEdges, workers, deadline, symmetric);
  const rows = sharedCsr(csr);
  const parent = identity(new Int32Array(new SharedArrayBuffer(4 * n)));
  const phase = (p: number, round: number, cuts: Int32Array, skip = -1): void =>
    runTask<WccTask>({ kernel: 'wcc', items: blocks, control: controlArray(), phase: p, round, skip, offsets: rows.offsets, targets: rows.targets, parent, cuts }, workers, deadline);
  for (let r = 0; r < SAMPLED_ROUNDS; r++) {
    phase(0, r, byRows);
    phase(1, 0, byRows);
  }
  phase(2, SAMPLED_ROUNDS, byEdges, symmetric ? largestSampled(parent) : -1);
  phase(1, 0, byRows);
  return parent;
}

/**
 * `afforest`'s phases on the WebAssembly functions on the pool (wasm/wcc.ts): the same phases
 * over the same blocks, linking by compare-and-swap in the shared memory; the roots are
 * copied out of the kept memory.
 */
function afforestWasmPool(wasm: WasmAfforest, byRows: Int32Array, byEdges: Int32Array, workers: number, deadline: Deadline, symmetric: boolean): Int32Array {
  const parent = identity(wasm.parent);
  for (let r = 0; r < SAMPLED_ROUNDS; r++) {
    wasm.phaseOnPool(WCC_SAMPLE, r, -1, byRows, workers, deadline);
    wasm.phaseOnPool(WCC_COMPRESS, 0, -1, byRows, workers, deadline);
  }
  wasm.phaseOnPool(WCC_FULL, SAMPLED_ROUNDS, symmetric ? largestSampled(parent) : -1, byEdges, workers, deadline);
  wasm.phaseOnPool(WCC_COMPRESS, 0, -1, byRows, workers, deadline);
  return parent.slice();
}

/**
 * Afforest on the calling thread alone: the phases of `afforest` in the same order over the
 * same rows, so the same links and the same roots, without what only several threads need —
 * no copy of the CSR onto shared memory, no task objects, blocks or work cuts per phase, and
 * each phase one loop over every row (a function of its own, see `identity`) with no
 * one-thread-or-pool test inside.
 */
function afforestSolo(csr: Csr, deadline: Deadline, symmetric: boolean): Int32Array {
  const wasm = wasmAfforest(csr);
  if (wasm !== undefined) return afforestWasm(wasm, deadline, symmetric);
  const { n, offsets, targets } = csr;
  const parent = identity(new Int32Array(n));
  for (let r = 0; r < SAMPLED_ROUNDS; r++) {
    deadline();
    sampleRound(offsets, targets, parent, r);
    compress(parent);
  }
  fullPassSolo(offsets, targets, parent, SAMPLED_ROUNDS, symmetric ? largestSampled(parent) : -1, deadline);
  compress(parent);
  return parent;
}

/**
 * `afforestSolo`'s phases on the WebAssembly functions (wasm/wcc.ts), in the same order; the
 * roots (each component's smallest member) are the caller's, copied out of the kept memory.
 */
function afforestWasm(wasm: WasmAfforest, deadline: Deadline, symmetric: boolean): Int32Array {
  const parent = identity(wasm.parent);
  for (let r = 0; r < SAMPLED_ROUNDS; r++) {
    deadline();
    wasm.sample(r);
  }
  wasm.fullPass(SAMPLED_ROUNDS, symmetric ? largestSampled(parent) : -1, deadline);
  wasm.compress();
  return parent.slice();
}

/** Links each vertex with its neighbour number `round` (the one-thread phase 0), two rows per turn (see wccItem). */
function sampleRound(offsets: Int32Array, targets: Int32Array, parent: Int32Array, round: number): void {
  const n = parent.length;
  let v = 0;
  let start = offsets[0];
  for (; v + 1 < n; v += 2) {
    const mid = offsets[v + 1];
    const end = offsets[v + 2];
    if (start + round < mid) linkSolo(parent, v, targets[start + round]);
    if (mid + round < end) linkSolo(parent, v + 1, targets[mid + round]);
    start = end;
  }
  if (v < n && start + round < offsets[v + 1]) linkSolo(parent, v, targets[start + round]);
}

/**
 * Every vertex pointed at its root (phase 1), four per turn (see wccItem). The last n % 4
 * vertices go first: a tail loop after the main one was never run by the interpreter (V8
 * compiles the main loop by on-stack replacement on the first call, and that code runs to
 * the end), so its compare had no type feedback and the optimised code deoptimised there on
 * every call, 210 times in one benchmark run, each call then starting over in baseline code.
 * (Compressing the tail first is safe: a root found for it stays a root until a link.)
 */
function compress(parent: Int32Array): void {
  const n = parent.length;
  const body = n - (n & 3);
  for (let v = body; v < n; v++) parent[v] = rootOf(parent, v);
  for (let v = 0; v < body; v += 4) {
    parent[v] = rootOf(parent, v);
    parent[v + 1] = rootOf(parent, v + 1);
    parent[v + 2] = rootOf(parent, v + 2);
    parent[v + 3] = rootOf(parent, v + 3);
  }
}

/** Every edge from `round` on, rows under `skip` passed over (phase 2 on one thread; see wccItem). */
function fullPassSolo(offsets: Int32Array, targets: Int32Array, parent: Int32Array, round: number, skip: number, deadline: Deadline): void {
  const n = parent.length;
  for (let v = 0; v < n; v++) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK
    let a = parent[v];
    if (a === skip) continue;
    const end = offsets[v + 1];
    let e = offsets[v] + round;
    for (; e + 3 < end; e += 4) {
      const x = targets[e];
      const y = targets[e + 1];
      const z = targets[e + 2];
      const w = targets[e + 3];
      if (parent[x] === a && parent[y] === a && parent[z] === a && parent[w] === a) continue;
      linkSolo(parent, v, x);
      linkSolo(parent, v, y);
      linkSolo(parent, v, z);
      linkSolo(parent, v, w);
      a = parent[v];
    }
    for (; e < end; e++) {
      if (parent[targets[e]] === a) continue;
      linkSolo(parent, v, targets[e]);
      a = parent[v];
    }
  }
}

/**
 * `parent` with every vertex its own root. A function of its own, as is every loop here that
 * runs once per call: inside the caller, V8 compiles the loop by on-stack replacement on every
 * call and throws that code away at the first later statement it had not seen run (measured:
 * one deoptimisation per call of weaklyConnected).
 */
function identity(parent: Int32Array): Int32Array {
  for (let v = 0; v < parent.length; v++) parent[v] = v;
  return parent;
}

/** Roots have smaller indices than their members, so one ascending pass resolves every chain. */
function resolveRoots(parent: Int32Array): Int32Array {
  for (let v = 0; v < parent.length; v++) parent[v] = parent[parent[v]];
  return parent;
}
