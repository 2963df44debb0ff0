/**
 * Triangles per node and the local clustering coefficient, on the undirected simple graph
 * (`simpleUndirected`: no self-loops, no parallel edges). Each triangle is found exactly
 * once by orienting every edge from the lower-ranked to the higher-ranked end, rank being
 * (degree, index): a node then has few higher-ranked neighbours even when its degree is
 * huge, which bounds the work by O(m^1.5).
 *
 * The count runs on hand-written WebAssembly (wasm/triangles.ts) where it can: on one thread
 * over a memory of its own, on the pool over a shared one (blocks of nodes counting into a
 * lane per running thread, the lanes added by the caller). `forwardRows` and `trianglesItem`
 * are the fallback (where WebAssembly, or on the pool shared WebAssembly memory, cannot be had)
 * and the reference.
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, type TaskBase } from './parallel.js';
import { wasmTriangles } from './wasm/triangles.js';

/** The forward rows of `simple`: each node's neighbours of higher rank, (degree, index). */
function forwardRows(simple: Csr): { offsets: Int32Array; targets: Int32Array } {
  const { n, offsets, targets } = simple;
  const fwdOffsets = new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
  const fwd = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, targets.length >> 1)));
  let w = 0;
  for (let v = 0; v < n; v++) {
    fwdOffsets[v] = w;
    const dv = offsets[v + 1] - offsets[v];
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      const du = offsets[u + 1] - offsets[u];
      if (du > dv || (du === dv && u > v)) fwd[w++] = u;
    }
  }
  fwdOffsets[n] = w;
  return { offsets: fwdOffsets, targets: fwd };
}

/** Items of a triangle task: fixed node ranges, each counting into its own partial vector. */
const TRIANGLE_ITEMS = 16;

export interface TriangleTask extends TaskBase {
  n: number;
  /** Forward rows. */
  offsets: Int32Array;
  targets: Int32Array;
  /** Output: `items` partial counts of n each (shared between the threads). */
  partials: Float64Array;
}

/** Item `item` of a triangle task: the triangles whose lowest-ranked corner lies in the item's node range. */
export function trianglesItem(t: TriangleTask, item: number, deadline: Deadline): void {
  const { n, offsets, targets } = t;
  const from = Math.floor((item * n) / t.items);
  const to = Math.floor(((item + 1) * n) / t.items);
  const count = t.partials.subarray(item * n, (item + 1) * n);
  const mark = new Int32Array(n); // mark[x] === v + 1: x is a forward neighbour of v
  for (let v = from; v < to; v++) {
    if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
    const a = offsets[v];
    const b = offsets[v + 1];
    if (b - a < 2) continue;
    const stamp = v + 1;
    for (let e = a; e < b; e++) mark[targets[e]] = stamp;
    // v's and u's counts are summed in locals and added once (integers: the same totals);
    // u's row is read four entries per turn, as V8 reloads each typed array's map, length and
    // data pointer after every turn's interrupt check.
    let cv = 0;
    for (let e = a; e < b; e++) {
      const u = targets[e];
      let cu = 0;
      let f = offsets[u];
      const end = offsets[u + 1];
      for (; f + 3 < end; f += 4) {
        const x = targets[f];
        const y = targets[f + 1];
        const z = targets[f + 2];
        const w = targets[f + 3];
        if (mark[x] === stamp) {
          cu++;
          count[x]++;
        }
        if (mark[y] === stamp) {
          cu++;
          count[y]++;
        }
        if (mark[z] === stamp) {
          cu++;
          count[z]++;
        }
        if (mark[w] === stamp) {
          cu++;
          count[w]++;
        }
      }
      for (; f < end; f++) {
        const x = targets[f];
        if (mark[x] === stamp) {
          cu++;
          count[x]++;
        }
      }
      count[u] += cu;
      cv += cu;
    }
    count[v] += cv;
  }
}

registerKernel('triangles', trianglesItem, []);

/**
 * Triangles through each node of `simple` (an undirected simple CSR), on `threads` threads.
 * Counts are integers (exact in a double), so adding the partials gives the same result
 * whatever the split.
 */
export function trianglesPerNode(simple: Csr, threads: number, deadline: Deadline): Float64Array {
  const wasm = wasmTriangles(simple, threads, threads > 1);
  if (wasm !== undefined) return wasm.count(threads, deadline);
  const n = simple.n;
  const fwd = forwardRows(simple);
  const items = Math.max(1, Math.min(TRIANGLE_ITEMS, n));
  const partials = new Float64Array(new SharedArrayBuffer(8 * Math.max(1, items * n))).subarray(0, items * n);
  runTask<TriangleTask>({ kernel: 'triangles', items, control: controlArray(), n, offsets: fwd.offsets, targets: fwd.targets, partials }, threads, deadline);
  const triangles = new Float64Array(n);
  for (let i = 0; i < items; i++) {
    const off = i * n;
    for (let v = 0; v < n; v++) triangles[v] += partials[off + v];
  }
  return triangles;
}

export function localClustering(simple: Csr, triangles: Float64Array): Float64Array {
  const { n, offsets } = simple;
  const lcc = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const d = offsets[v + 1] - offsets[v];
    lcc[v] = d < 2 ? 0 : (2 * triangles[v]) / (d * (d - 1));
  }
  return lcc;
}
