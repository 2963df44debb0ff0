/**
 * Single-source shortest paths by Dijkstra's algorithm over the weighted CSR (weights are
 * non-negative; the CSR builder rejects others). Nodes are settled in order of distance,
 * ties broken by the smaller dense index (that is, the smaller node id); the result lists
 * the reached nodes in that order.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';

export interface SsspResult {
  /** Dense indices of the reached nodes in settle order (the first `count` entries). */
  order: Int32Array;
  count: number;
  /** Distance per dense index, Infinity when not reached. */
  dist: Float64Array;
}

export function dijkstra(csr: Csr, source: number, deadline: Deadline): SsspResult {
  const { n, offsets, targets } = csr;
  const weights = csr.weights;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const order = new Int32Array(n);
  const heap = new IndexedMinHeap(n, dist);
  dist[source] = 0;
  heap.push(source);
  let count = 0;
  while (heap.size > 0) {
    if ((count & CHECK_MASK) === 0) deadline();
    const v = heap.pop();
    done[v] = 1;
    order[count++] = v;
    const dv = dist[v];
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      if (done[u] === 1) continue;
      const du = dv + (weights === undefined ? 1 : weights[e]);
      if (du < dist[u]) {
        dist[u] = du;
        if (heap.has(u)) heap.decrease(u);
        else heap.push(u);
      }
    }
  }
  return { order, count, dist };
}
