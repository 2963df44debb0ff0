/**
 * Single-source shortest paths with negative weights: Bellman–Ford (1958) with a FIFO work
 * queue (only nodes whose distance just dropped are relaxed again), O(n·m) at worst. A
 * tentative path of n or more edges proves a negative cycle reachable from the source; the
 * cycle is then read off the predecessor graph, where any cycle has negative weight
 * (CLRS lemma 24.16). Until the predecessor graph shows one, relaxation simply goes on.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface BellmanFordResult {
  dist: Float64Array;
  parent: Int32Array;
  /** Dense indices of a negative cycle in path order, or empty. */
  negativeCycle: number[];
}

export function bellmanFord(csr: Csr, source: number, deadline: Deadline): BellmanFordResult {
  const { n, offsets, targets, weights } = csr;
  const dist = new Float64Array(n).fill(Infinity);
  const parent = new Int32Array(n).fill(-1);
  const hops = new Int32Array(n); // edges on the tentative path
  const queued = new Uint8Array(n);
  const queue = new Int32Array(n + 1); // ring buffer: each node is queued at most once at a time
  let head = 0;
  let tail = 0;
  dist[source] = 0;
  queue[tail++] = source;
  queued[source] = 1;
  let work = 0;
  let cycle: number[] = [];
  while (head !== tail && cycle.length === 0) {
    const v = queue[head];
    head = head === n ? 0 : head + 1;
    queued[v] = 0;
    if ((++work & CHECK_MASK) === 0) deadline();
    const dv = dist[v];
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      const du = dv + (weights === undefined ? 1 : weights[e]);
      if (du < dist[u]) {
        dist[u] = du;
        parent[u] = v;
        hops[u] = hops[v] + 1;
        if (hops[u] >= n && (cycle = parentCycle(parent)).length > 0) break;
        if (queued[u] === 0) {
          queued[u] = 1;
          queue[tail] = u;
          tail = tail === n ? 0 : tail + 1;
        }
      }
    }
  }
  return { dist, parent, negativeCycle: cycle };
}

/** A cycle of the predecessor graph in path order, or empty. */
function parentCycle(parent: Int32Array): number[] {
  const n = parent.length;
  const walk = new Int32Array(n).fill(-1); // the walk that first reached a node
  for (let s = 0; s < n; s++) {
    let v = s;
    while (v >= 0 && walk[v] < 0) {
      walk[v] = s;
      v = parent[v];
    }
    if (v < 0 || walk[v] !== s) continue;
    const cycle: number[] = [];
    let u = v;
    do {
      cycle.push(u);
      u = parent[u];
    } while (u !== v);
    return cycle.reverse();
  }
  return [];
}
