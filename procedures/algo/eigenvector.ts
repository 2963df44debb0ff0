/**
 * Eigenvector centrality and HITS by power iteration.
 *
 * Eigenvector: the principal eigenvector of the adjacency matrix, where a node's score is
 * the (weighted) sum of the scores of the nodes with an edge to it. Iterating x ← (A + I)ᵀx
 * (the identity shift keeps bipartite graphs from oscillating and leaves the eigenvector
 * unchanged) with x normalised to unit Euclidean length after each step; stops when the summed
 * absolute change is below n × tolerance. Start vector 1/n — as networkx computes it.
 *
 * HITS (Kleinberg, 1999): authority a = Aᵀh, hub h = Aa; h is scaled to a maximum of 1 each
 * round and iteration stops when its summed absolute change is below `tolerance`; finally
 * both vectors are scaled to sum 1.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface PowerResult {
  scores: Float64Array;
  iterations: number;
  converged: boolean;
}

/** next[t] += x[v] · w(v, t) for every edge v → t. */
function push(csr: Csr, x: Float64Array, next: Float64Array, deadline: Deadline): void {
  const { n, offsets, targets, weights } = csr;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    const xv = x[v];
    if (xv === 0) continue;
    if (weights === undefined) for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) next[targets[e]] += xv;
    else for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) next[targets[e]] += xv * weights[e];
  }
}

export function eigenvector(csr: Csr, maxIterations: number, tolerance: number, deadline: Deadline): PowerResult {
  const n = csr.n;
  let x = new Float64Array(n).fill(1 / Math.max(n, 1));
  let next = new Float64Array(n);
  let iterations = 0;
  let converged = n === 0;
  while (!converged && iterations < maxIterations) {
    iterations++;
    next.set(x);
    push(csr, x, next, deadline);
    let norm = 0;
    for (let v = 0; v < n; v++) norm += next[v] * next[v];
    norm = Math.sqrt(norm) || 1;
    let delta = 0;
    for (let v = 0; v < n; v++) {
      next[v] /= norm;
      delta += Math.abs(next[v] - x[v]);
    }
    const t = x;
    x = next;
    next = t;
    if (delta < n * tolerance) converged = true;
  }
  return { scores: x, iterations, converged };
}

export interface HitsResult {
  hubs: Float64Array;
  authorities: Float64Array;
  iterations: number;
  converged: boolean;
}

/** `out` lists v's successors, `inn` its predecessors (the transpose). */
export function hits(out: Csr, inn: Csr, maxIterations: number, tolerance: number, deadline: Deadline): HitsResult {
  const n = out.n;
  let h = new Float64Array(n).fill(1 / Math.max(n, 1));
  let next = new Float64Array(n);
  const a = new Float64Array(n);
  let iterations = 0;
  let converged = n === 0;
  while (!converged && iterations < maxIterations) {
    iterations++;
    a.fill(0);
    push(out, h, a, deadline); // a = Aᵀh: each hub passes its score to the nodes it points at
    next.fill(0);
    push(inn, a, next, deadline); // h = Aa
    let max = 0;
    for (let v = 0; v < n; v++) if (next[v] > max) max = next[v];
    let delta = 0;
    for (let v = 0; v < n; v++) {
      next[v] = max > 0 ? next[v] / max : 0;
      delta += Math.abs(next[v] - h[v]);
    }
    const t = h;
    h = next;
    next = t;
    if (delta < tolerance) converged = true;
  }
  a.fill(0);
  push(out, h, a, deadline);
  const scale = (x: Float64Array): void => {
    let s = 0;
    for (let v = 0; v < n; v++) s += x[v];
    if (s > 0) for (let v = 0; v < n; v++) x[v] /= s;
  };
  scale(h);
  scale(a);
  return { hubs: h, authorities: a, iterations, converged };
}
