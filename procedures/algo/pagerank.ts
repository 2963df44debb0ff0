/**
 * PageRank by power iteration over the CSR. Scores start at 1/n and always sum to 1: each
 * step gives every node (1 - d)/n, plus d times the share of its in-neighbours' scores (a
 * node splits its score evenly over its CSR row, parallel edges counting once each), plus d
 * times the mass of nodes without any outgoing edge ("dangling" nodes) spread evenly over
 * all nodes. Iteration stops after `maxIterations` steps or as soon as the summed absolute
 * change of all scores falls below `tolerance` × n.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface PageRankOptions {
  dampingFactor: number;
  maxIterations: number;
  tolerance: number;
}

export interface PageRankResult {
  scores: Float64Array;
  iterations: number;
}

export function pageRank(csr: Csr, opts: PageRankOptions, deadline: Deadline): PageRankResult {
  const { n, offsets, targets } = csr;
  let x = new Float64Array(n);
  let next = new Float64Array(n);
  if (n === 0) return { scores: x, iterations: 0 };
  x.fill(1 / n);
  const d = opts.dampingFactor;
  const share = new Float64Array(n); // d / out-degree, 0 for dangling nodes
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    share[v] = deg > 0 ? d / deg : 0;
  }
  let iterations = 0;
  while (iterations < opts.maxIterations) {
    iterations++;
    let dangling = 0;
    for (let v = 0; v < n; v++) if (share[v] === 0) dangling += x[v];
    next.fill(((1 - d) + d * dangling) / n);
    for (let v = 0; v < n; v++) {
      if ((v & CHECK_MASK) === 0) deadline();
      const c = x[v] * share[v];
      if (c === 0) continue;
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) next[targets[e]] += c;
    }
    let change = 0;
    for (let v = 0; v < n; v++) change += Math.abs(next[v] - x[v]);
    const t = x;
    x = next;
    next = t;
    if (change < opts.tolerance * n) break;
  }
  return { scores: x, iterations };
}
