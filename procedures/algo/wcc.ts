/**
 * Weakly connected components by union-find over the CSR (edge direction does not matter).
 * Roots are always the smallest dense index of their set, so a component's id is the
 * smallest node id in it: deterministic, and independent of edge order — and of how the
 * edges are split over threads.
 *
 * On more than one thread (`concurrency`, graphs above `parallelFloor`) each thread unites a
 * block of rows (of about equal edge counts) into a forest of its own, with the same
 * sequential kernel, and the calling thread then unites the forests: forest b's links
 * (v, parent_b[v]) connect exactly what b's edges connect, and there are only n of them
 * against the block's m / threads edges. No thread writes where another reads, so the
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

/** Blocks of rows, each united into its own forest (see the module comment). */
export interface WccTask extends TaskBase {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  /** Block b is rows cuts[b] .. cuts[b + 1]; its forest is forests[b·n .. (b + 1)·n]. */
  cuts: Int32Array;
  forests: Int32Array;
}

export function wccItem(t: WccTask, b: number, deadline: Deadline): void {
  const n = t.n;
  const parent = t.forests.subarray(b * n, (b + 1) * n);
  for (let v = 0; v < n; v++) parent[v] = v;
  uniteRows(t.offsets, t.targets, parent, t.cuts[b], t.cuts[b + 1], deadline);
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
  runTask<WccTask>({ kernel: 'wcc', items: workers, control: controlArray(), n, offsets: rows.offsets, targets: rows.targets, cuts: workCuts(offsets, n, workers), forests }, workers, deadline);
  // The other forests' links, as rows of one entry each (v → parent_b[v]), united into forest 0.
  const parent = forests.slice(0, n);
  const single = new Int32Array(n + 1);
  for (let v = 0; v <= n; v++) single[v] = v;
  for (let b = 1; b < workers; b++) uniteRows(single, forests.subarray(b * n, (b + 1) * n), parent, 0, n, deadline);
  return resolveRoots(parent);
}

/** Roots have smaller indices than their members, so one ascending pass resolves every chain. */
function resolveRoots(parent: Int32Array): Int32Array {
  for (let v = 0; v < parent.length; v++) parent[v] = parent[parent[v]];
  return parent;
}
