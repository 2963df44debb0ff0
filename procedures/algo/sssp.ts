/**
 * Single-source shortest paths by Dijkstra's algorithm over the weighted CSR (weights are
 * non-negative; the CSR builder rejects others). Nodes are settled in order of distance,
 * ties broken by the smaller dense index (that is, the smaller node id); the result lists
 * the reached nodes in that order.
 *
 * A* (Hart, Nilsson & Raphael, 1968) is the same search ordered by distance plus an
 * admissible estimate of the remaining distance, so it settles fewer nodes towards a target.
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
  /** Predecessor on a shortest path per dense index, -1 for the source and unreached nodes. */
  parent: Int32Array;
}

/**
 * Dijkstra from `source`; with a `target` (≥ 0) the search stops once the target is settled.
 * `heuristic`, when given, turns it into A*: the heap is ordered by distance plus the
 * heuristic's estimate to the target (which must never overestimate for exact answers).
 */
export function dijkstra(csr: Csr, source: number, deadline: Deadline, target = -1, heuristic?: (v: number) => number): SsspResult {
  const { n, offsets, targets } = csr;
  const weights = csr.weights;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const order = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const key = heuristic === undefined ? dist : new Float64Array(n).fill(Infinity);
  const heap = new IndexedMinHeap(n, key);
  dist[source] = 0;
  if (heuristic !== undefined) key[source] = heuristic(source);
  heap.push(source);
  let count = 0;
  while (heap.size > 0) {
    if ((count & CHECK_MASK) === 0) deadline();
    const v = heap.pop();
    done[v] = 1;
    order[count++] = v;
    if (v === target) break;
    const dv = dist[v];
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      if (done[u] === 1) continue;
      const du = dv + (weights === undefined ? 1 : weights[e]);
      if (du < dist[u]) {
        dist[u] = du;
        parent[u] = v;
        if (heuristic !== undefined) key[u] = du + heuristic(u);
        if (heap.has(u)) heap.decrease(u);
        else heap.push(u);
      }
    }
  }
  return { order, count, dist, parent };
}

/** The path source → … → target as dense indices, from a search's parents; empty when unreached. */
export function pathTo(result: SsspResult, source: number, target: number): number[] {
  if (target !== source && result.parent[target] < 0) return [];
  const path: number[] = [];
  for (let v = target; v >= 0; v = result.parent[v]) path.push(v);
  return path.reverse();
}
