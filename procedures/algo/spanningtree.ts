/**
 * Minimum (or maximum) spanning trees by Prim's algorithm (1957) with an indexed heap, over
 * the undirected weighted projection: from `source` the tree of its component, otherwise a
 * forest (one tree per component, each grown from its smallest node id). Maximum trees
 * negate the weights. O(m log n).
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';

export interface SpanningTree {
  /** Tree nodes in the order they joined. */
  order: Int32Array;
  count: number;
  /** Tree parent per dense index (-1 for roots and nodes outside the tree). */
  parent: Int32Array;
  /** Weight of the edge to the parent per dense index. */
  weight: Float64Array;
  total: number;
}

export function prim(csr: Csr, source: number, maximum: boolean, deadline: Deadline): SpanningTree {
  const { n, offsets, targets, weights } = csr;
  const key = new Float64Array(n).fill(Infinity);
  const parent = new Int32Array(n).fill(-1);
  const weight = new Float64Array(n);
  const inTree = new Uint8Array(n);
  const order = new Int32Array(n);
  const heap = new IndexedMinHeap(n, key);
  const sign = maximum ? -1 : 1;
  let count = 0;
  let total = 0;
  const roots = source >= 0 ? [source] : Array.from({ length: n }, (_, v) => v);
  for (const root of roots) {
    if (inTree[root] === 1) continue;
    key[root] = 0;
    heap.push(root);
    while (heap.size > 0) {
      const v = heap.pop();
      inTree[v] = 1;
      order[count++] = v;
      if ((count & CHECK_MASK) === 0) deadline();
      if (parent[v] >= 0) total += weight[v];
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const u = targets[e];
        if (inTree[u] === 1) continue;
        const w = weights === undefined ? 1 : weights[e];
        if (sign * w < key[u]) {
          key[u] = sign * w;
          parent[u] = v;
          weight[u] = w;
          if (heap.has(u)) heap.decrease(u);
          else heap.push(u);
        }
      }
    }
  }
  return { order, count, parent, weight, total };
}
