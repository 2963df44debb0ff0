/**
 * PageRank and its relatives by power iteration over the CSR.
 *
 * PageRank: scores start at the teleport vector and always sum to 1. Each step gives every
 * node (1 - d)·p(v), plus d times the share of its in-neighbours' scores (a node splits its
 * score evenly over its CSR row, parallel edges counting once each), plus d times the mass
 * of nodes without any outgoing edge ("dangling" nodes) spread by p as well. p is uniform
 * (1/n), or uniform over `sources` for personalised PageRank — the definition networkx and
 * most libraries use, so dangling mass returns to the sources. Iteration stops after
 * `maxIterations` steps or as soon as the summed absolute change of all scores falls below
 * `tolerance`. (Scores sum to 1, so that is a change relative to the whole. networkx and
 * graphology compare with n × tolerance instead, which on large graphs stops after a few
 * rounds with the ranking still moving: on kron-17, n × 1e-6 allows a total change of 0.13
 * and ends after 3 rounds, with the 10th and 11th vertices in the wrong order.)
 *
 * ArticleRank (Li et al., 2009; as Neo4j GDS computes it): like PageRank without
 * normalisation, but a node's share is divided by (out-degree + average out-degree), so
 * nodes with few outgoing links do not pass on outsized weight: x(v) = (1 - d) + d ·
 * Σ_{u→v} x(u) / (deg(u) + avgDeg). Scores start at 1 - d and are O(1) each, so iteration
 * stops when the mean absolute change per node falls below `tolerance`.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface PageRankOptions {
  dampingFactor: number;
  maxIterations: number;
  tolerance: number;
  /** Dense indices of the personalisation sources; empty for plain PageRank. */
  sources?: readonly number[];
}

export interface PageRankResult {
  scores: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Pushes `x[v] * share[v]` along every row into `next` (which the caller has prefilled). */
function spread(csr: Csr, x: Float64Array, share: Float64Array, next: Float64Array, deadline: Deadline): void {
  const { n, offsets, targets } = csr;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    const c = x[v] * share[v];
    if (c === 0) continue;
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) next[targets[e]] += c;
  }
}

function change(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let v = 0; v < a.length; v++) s += Math.abs(a[v] - b[v]);
  return s;
}

export function pageRank(csr: Csr, opts: PageRankOptions, deadline: Deadline): PageRankResult {
  const { n, offsets } = csr;
  let x = new Float64Array(n);
  let next = new Float64Array(n);
  if (n === 0) return { scores: x, iterations: 0, converged: true };
  const teleport = new Float64Array(n);
  const sources = opts.sources ?? [];
  if (sources.length === 0) teleport.fill(1 / n);
  else for (const s of sources) teleport[s] += 1 / sources.length;
  x.set(teleport);
  const d = opts.dampingFactor;
  const share = new Float64Array(n); // d / out-degree, 0 for dangling nodes
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    share[v] = deg > 0 ? d / deg : 0;
  }
  const uniform = sources.length === 0;
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    let dangling = 0;
    for (let v = 0; v < n; v++) if (share[v] === 0) dangling += x[v];
    const base = 1 - d + d * dangling;
    if (uniform) next.fill(base / n);
    else for (let v = 0; v < n; v++) next[v] = base * teleport[v];
    spread(csr, x, share, next, deadline);
    const delta = change(next, x);
    const t = x;
    x = next;
    next = t;
    if (delta < opts.tolerance) {
      converged = true;
      break;
    }
  }
  return { scores: x, iterations, converged };
}

export function articleRank(csr: Csr, opts: PageRankOptions, deadline: Deadline): PageRankResult {
  const { n, offsets } = csr;
  let x = new Float64Array(n);
  let next = new Float64Array(n);
  if (n === 0) return { scores: x, iterations: 0, converged: true };
  const d = opts.dampingFactor;
  const avg = offsets[n] / n;
  const share = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    share[v] = deg > 0 ? d / (deg + avg) : 0;
  }
  x.fill(1 - d);
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    next.fill(1 - d);
    spread(csr, x, share, next, deadline);
    const delta = change(next, x);
    const t = x;
    x = next;
    next = t;
    if (delta < opts.tolerance * n) {
      converged = true;
      break;
    }
  }
  return { scores: x, iterations, converged };
}
