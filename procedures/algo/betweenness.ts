/**
 * Betweenness centrality by Brandes' algorithm (2001): one shortest-path search per source
 * (breadth-first, or Dijkstra when weighted) counts the shortest paths σ to every node, then
 * dependencies are accumulated in reverse settle order. O(n·m) unweighted, O(n·m·log n)
 * weighted, O(n + m) memory. Runs on the simple form of the projection (parallel edges count
 * once, self-loops not at all), as networkx does. On the undirected projection every path is
 * found from both ends, so scores are halved. With a sample of `k` sources (Brandes &
 * Pich, 2007) the sums are scaled by n / k, an unbiased estimate.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';

export function betweenness(csr: Csr, sources: Int32Array | undefined, undirected: boolean, deadline: Deadline): Float64Array {
  const { n, offsets, targets, weights } = csr;
  const score = new Float64Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const dist = new Float64Array(n);
  const order = new Int32Array(n);
  const heap = weights === undefined ? undefined : new IndexedMinHeap(n, dist);
  const count = sources === undefined ? n : sources.length;
  for (let i = 0; i < count; i++) {
    deadline();
    const s = sources === undefined ? i : sources[i];
    sigma.fill(0);
    delta.fill(0);
    dist.fill(Infinity);
    sigma[s] = 1;
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
          if (dist[w] === dv) sigma[w] += sigma[v];
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
            sigma[w] = sigma[v];
            if (heap.has(w)) heap.decrease(w);
            else heap.push(w);
          } else if (dw === dist[w] && w !== s) {
            sigma[w] += sigma[v];
          }
        }
        if ((settled & CHECK_MASK) === 0) deadline();
      }
    }
    // A node's successors on shortest paths settle after it, so reverse order sees them first.
    for (let j = settled - 1; j >= 0; j--) {
      const v = order[j];
      const dv = dist[v];
      let acc = 0;
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const w = targets[e];
        const step = weights === undefined ? 1 : weights[e];
        if (dist[w] === dv + step && sigma[w] > 0) acc += (sigma[v] / sigma[w]) * (1 + delta[w]);
      }
      delta[v] = acc;
      if (v !== s) score[v] += acc;
    }
  }
  const scale = (undirected ? 0.5 : 1) * (sources === undefined || count === 0 ? 1 : n / count);
  if (scale !== 1) for (let v = 0; v < n; v++) score[v] *= scale;
  return score;
}
