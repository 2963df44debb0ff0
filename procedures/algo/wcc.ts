/**
 * Weakly connected components by union-find over the CSR (edge direction does not matter).
 * Roots are always the smallest dense index of their set, so a component's id is the
 * smallest node id in it: deterministic, and independent of edge order — and of how the
 * edges are split over threads.
 *
 * On more than one thread (`concurrency`, graphs above `parallelFloor`) blocks of rows are
 * united concurrently on one shared parent array (`wccItem`): a root is hung under another
 * only by compare-and-swap, so two threads cannot both re-parent the same root, and a lost
 * race just finds the roots again. Path halving writes plainly: it only ever points a
 * non-root at one of its ancestors, which any interleaving keeps true.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, sharedInt32, threadsForWork, workCuts, type TaskBase } from './parallel.js';

/** One block of rows of a concurrent union-find (see `wccItem`). */
export interface WccTask extends TaskBase {
  offsets: Int32Array;
  targets: Int32Array;
  /** The shared forest: parent[v] <= v, roots point at themselves. */
  parent: Int32Array;
  /** Block b is rows cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
}

/**
 * Unites every edge of the rows in block `b`. A larger root goes under the smaller one, so
 * parent[v] <= v always holds and a set's root is its smallest member, whichever thread
 * linked what.
 */
export function wccItem(t: WccTask, b: number, deadline: Deadline): void {
  const { offsets, targets, parent } = t;
  const last = t.cuts[b + 1];
  let e = offsets[t.cuts[b]];
  for (let v = t.cuts[b]; v < last; v++) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const end = offsets[v + 1];
    let a = v;
    for (; e < end; e++) {
      let u = targets[e];
      for (;;) {
        // Another thread may have hung `a` under a smaller root since the last edge. Halving
        // writes only when it shortens the path: a store to a hot entry (the giant
        // component's root) would bounce its cache line between the cores.
        for (let p = parent[a]; p !== a; p = parent[a]) {
          const g = parent[p];
          if (g !== p) parent[a] = g;
          a = g;
        }
        for (let p = parent[u]; p !== u; p = parent[u]) {
          const g = parent[p];
          if (g !== p) parent[u] = g;
          u = g;
        }
        if (a === u) break;
        if (a < u) {
          if (Atomics.compareExchange(parent, u, u, a) === u) break;
        } else if (Atomics.compareExchange(parent, a, a, u) === a) {
          a = u;
          break;
        }
      }
    }
  }
}

registerKernel('wcc', wccItem, []);

/** The root (smallest member) of each dense index's component, on up to `threads` threads. */
export function weaklyConnected(csr: Csr, deadline: Deadline, threads = 1): Int32Array {
  const { n, offsets } = csr;
  const workers = n > 1 ? threadsForWork(threads, offsets[n]) : 1;
  if (workers > 1) {
    const rows = sharedCsr(csr);
    const parent = sharedInt32(identity(n));
    const blocks = Math.min(n, 16 * workers);
    runTask<WccTask>({ kernel: 'wcc', items: blocks, control: controlArray(), offsets: rows.offsets, targets: rows.targets, parent, cuts: workCuts(offsets, n, blocks) }, workers, deadline);
    return resolveRoots(parent);
  }
  return unionFind(csr, deadline);
}

function identity(n: number): Int32Array {
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  return parent;
}

/** Roots have smaller indices than their members, so one ascending pass resolves every chain. */
function resolveRoots(parent: Int32Array): Int32Array {
  for (let v = 0; v < parent.length; v++) parent[v] = parent[parent[v]];
  return parent;
}

/** The single-threaded union-find. */
function unionFind(csr: Csr, deadline: Deadline): Int32Array {
  const { n, offsets, targets } = csr;
  const parent = identity(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  let e = 0;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
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
  return resolveRoots(parent);
}
