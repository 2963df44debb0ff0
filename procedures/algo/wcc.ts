/**
 * Weakly connected components by union-find over the CSR (edge direction does not matter).
 * Roots are always the smallest dense index of their set, so a component's id is the
 * smallest node id in it: deterministic, and independent of edge order — and of how the
 * edges are split over threads.
 *
 * On more than one thread (`concurrency`, graphs above `parallelFloor`) each thread unites the
 * blocks of rows it claims (of about equal edge counts) into a forest of its own, with the
 * same sequential kernel, and the calling thread then unites the forests: forest f's links
 * (v, parent_f[v]) connect exactly what f's edges connect, and there are only n of them
 * against about m / threads edges. No thread writes where another reads, so the
 * kernel needs no atomics and runs as fast as on one thread. (One shared forest re-parented
 * by compare-and-swap measured slower than the sequential pass on kron-17.)
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, threadsForWork, workCuts, type TaskBase } from './parallel.js';

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
    let b = targets[e++];
    for (;;) {
      const p = parent[b];
      if (p !== b) {
        const g = parent[p];
        parent[b] = g;
        b = g;
        continue;
      }
      if (a < b) parent[b] = a;
      else if (b < a) {
        parent[a] = b;
        a = b;
      }
      if (e === end) break;
      b = targets[e++];
    }
  }
}

/** Blocks of rows, united into one forest per thread (see the module comment). */
export interface WccTask extends TaskBase {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  /** Block b is rows cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
  /** Forest f is forests[f·n .. (f + 1)·n]; claimed[0] counts the forests taken. */
  forests: Int32Array;
  claimed: Int32Array;
  /** This thread's forest (each worker gets its own copy of the task; set on its first block). */
  forest?: number;
}

/**
 * Block `b` of rows, into the calling thread's forest, taken on its first block: a thread
 * that starts late (a busy machine) takes fewer blocks and, if none, adds no forest to merge.
 */
export function wccItem(t: WccTask, b: number, deadline: Deadline): void {
  const n = t.n;
  if (t.forest === undefined) {
    t.forest = Atomics.add(t.claimed, 0, 1);
    const fresh = t.forests.subarray(t.forest * n, (t.forest + 1) * n);
    for (let v = 0; v < n; v++) fresh[v] = v;
  }
  uniteRows(t.offsets, t.targets, t.forests.subarray(t.forest * n, (t.forest + 1) * n), t.cuts[b], t.cuts[b + 1], deadline);
}

registerKernel('wcc', wccItem, [uniteRows]);

/** The root (smallest member) of each dense index's component, on up to `threads` threads. */
export function weaklyConnected(csr: Csr, deadline: Deadline, threads = 1): Int32Array {
  const { n, offsets, targets } = csr;
  const workers = n > 1 ? threadsForWork(threads, offsets[n]) : 1;
  if (workers <= 1) {
    const parent = new Int32Array(n);
    for (let v = 0; v < n; v++) parent[v] = v;
    uniteRows(offsets, targets, parent, 0, n, deadline);
    return resolveRoots(parent);
  }
  const rows = sharedCsr(csr);
  const forests = new Int32Array(new SharedArrayBuffer(4 * workers * n));
  const claimed = new Int32Array(new SharedArrayBuffer(4));
  const blocks = Math.min(n, 8 * workers);
  runTask<WccTask>({ kernel: 'wcc', items: blocks, control: controlArray(), n, offsets: rows.offsets, targets: rows.targets, cuts: workCuts(offsets, n, blocks), forests, claimed }, workers, deadline);
  // The other forests' links, as rows of one entry each (v → root_f(v)), united into forest 0.
  // Every forest is flattened first (one sequential pass each), so the merge's finds take a
  // step or two instead of walking the chains the row pass left (which cost as much as the
  // row pass itself on kron-17).
  const parent = resolveRoots(forests.slice(0, n));
  for (let f = 1; f < claimed[0]; f++) mergeForest(parent, resolveRoots(forests.subarray(f * n, (f + 1) * n)));
  return resolveRoots(parent);
}

/** Unites each v with its root in `other` (a flattened forest) into `parent`; roots of `other` link nothing. */
function mergeForest(parent: Int32Array, other: Int32Array): void {
  for (let v = 0; v < other.length; v++) {
    let b = other[v];
    if (b === v) continue;
    let a = v;
    while (parent[a] !== a) a = parent[a] = parent[parent[a]];
    while (parent[b] !== b) b = parent[b] = parent[parent[b]];
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
  }
}

/** Roots have smaller indices than their members, so one ascending pass resolves every chain. */
function resolveRoots(parent: Int32Array): Int32Array {
  for (let v = 0; v < parent.length; v++) parent[v] = parent[parent[v]];
  return parent;
}
