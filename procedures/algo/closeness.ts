/**
 * Closeness and harmonic centrality: one shortest-path search from every node (breadth-first,
 * or Dijkstra when weighted), following the projection's direction, so distances are measured
 * from the node outwards. With r − 1 other nodes reached at total distance D:
 * closeness = (r − 1) / D (0 when nothing is reached), and with `wassermanFaust` scaled by
 * (r − 1) / (n − 1) for graphs that are not connected (Wasserman & Faust, 1994). Harmonic
 * centrality (Marchiori & Latora, 2000) is Σ 1/d(v, u) over the reached u ≠ v, and stays
 * meaningful on disconnected graphs. O(n·m) time, O(n + m) memory.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';

export interface ClosenessOptions {
  harmonic: boolean;
  wassermanFaust: boolean;
}

export function closeness(csr: Csr, opts: ClosenessOptions, deadline: Deadline): Float64Array {
  const { n, offsets, targets, weights } = csr;
  const score = new Float64Array(n);
  const dist = new Float64Array(n).fill(Infinity);
  const order = new Int32Array(n);
  const heap = weights === undefined ? undefined : new IndexedMinHeap(n, dist);
  for (let s = 0; s < n; s++) {
    deadline();
    dist[s] = 0;
    let settled = 0;
    if (heap === undefined) {
      order[0] = s;
      let tail = 1;
      while (settled < tail) {
        const v = order[settled++];
        const dv = dist[v] + 1;
        for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
          const w = targets[e];
          if (dist[w] === Infinity) {
            dist[w] = dv;
            order[tail++] = w;
          }
        }
        if ((settled & CHECK_MASK) === 0) deadline();
      }
    } else {
      const wts = weights as Float64Array;
      heap.push(s);
      while (heap.size > 0) {
        const v = heap.pop();
        order[settled++] = v;
        const dv = dist[v];
        for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
          const w = targets[e];
          const dw = dv + wts[e];
          if (dw < dist[w]) {
            dist[w] = dw;
            if (heap.has(w)) heap.decrease(w);
            else heap.push(w);
          }
        }
        if ((settled & CHECK_MASK) === 0) deadline();
      }
    }
    let total = 0;
    let harmonic = 0;
    for (let j = 1; j < settled; j++) {
      const d = dist[order[j]];
      total += d;
      if (d > 0) harmonic += 1 / d;
    }
    if (opts.harmonic) score[s] = harmonic;
    else if (total > 0) {
      const r = settled - 1;
      score[s] = (r / total) * (opts.wassermanFaust ? r / (n - 1) : 1);
    }
    for (let j = 0; j < settled; j++) dist[order[j]] = Infinity;
  }
  return score;
}
