/**
 * The weighted undirected graph that Louvain and Leiden work on, level after level, and the
 * modularity they optimise. `ModGraph` keeps each undirected edge in both rows (no self
 * entries) plus a per-node self-loop weight, so aggregating a partition is one pass over the
 * rows. Modularity follows Newman (2006) with a resolution γ, and counts like networkx:
 * Q = Σ_c [ L_c / m − γ (K_c / 2m)² ], with L_c the weight inside community c (a self-loop once)
 * and K_c the summed degrees (a self-loop adding twice its weight).
 */

import type { Csr } from './csr.js';

export interface ModGraph {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** Self-loop weight per node. */
  loops: Float64Array;
  /** Weighted degree per node (self-loops twice). */
  degree: Float64Array;
  /** Total edge weight m (each undirected edge once). */
  m: number;
  /**
   * Every entry of `weights` is 1 (a level-0 graph without a weight property): kernels then
   * skip reading `weights`, which is two thirds of the bytes a row scan streams.
   */
  unit: boolean;
}

function withDegrees(n: number, offsets: Int32Array, targets: Int32Array, weights: Float64Array, loops: Float64Array, unit: boolean): ModGraph {
  const degree = new Float64Array(n);
  let twiceM = 0;
  for (let v = 0; v < n; v++) {
    let k = 2 * loops[v];
    for (let e = offsets[v]; e < offsets[v + 1]; e++) k += weights[e];
    degree[v] = k;
    twiceM += k;
  }
  return { n, offsets, targets, weights, loops, degree, m: twiceM / 2, unit };
}

/**
 * Level-0 graphs already made, per projection: the projection cache (csr.ts) hands out the
 * same CSR while the graph is unchanged, so repeated Louvain / Leiden calls skip this copy.
 * Nothing mutates a ModGraph, so sharing it is safe.
 */
const level0 = new WeakMap<Csr, ModGraph>();

/** The level-0 graph of a `both`-direction projection (a self-loop is listed once there). */
export function modGraphOf(csr: Csr): ModGraph {
  let g = level0.get(csr);
  if (g === undefined) {
    g = buildModGraph(csr);
    level0.set(csr, g);
  }
  return g;
}

function buildModGraph(csr: Csr): ModGraph {
  const { n, offsets, targets } = csr;
  const loops = new Float64Array(n);
  const outOffsets = new Int32Array(n + 1);
  const outTargets = new Int32Array(targets.length);
  const outWeights = new Float64Array(targets.length);
  let k = 0;
  for (let v = 0; v < n; v++) {
    outOffsets[v] = k;
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const w = csr.weights === undefined ? 1 : csr.weights[e];
      if (targets[e] === v) loops[v] += w;
      else {
        outTargets[k] = targets[e];
        outWeights[k++] = w;
      }
    }
  }
  outOffsets[n] = k;
  return withDegrees(n, outOffsets, outTargets.subarray(0, k), outWeights.subarray(0, k), loops, csr.weights === undefined);
}

/** Renumbers `community` to 0..c-1 in order of first appearance; returns c. */
export function renumber(community: Int32Array): number {
  const map = new Int32Array(community.length).fill(-1);
  let c = 0;
  for (let v = 0; v < community.length; v++) {
    const x = community[v];
    if (map[x] < 0) map[x] = c++;
    community[v] = map[x];
  }
  return c;
}

/** The graph whose nodes are the `count` communities of `community` (numbered 0..count-1). */
export function aggregate(g: ModGraph, community: Int32Array, count: number): ModGraph {
  const { n, offsets, targets, weights, unit } = g;
  // Members grouped by community (counting sort).
  const start = new Int32Array(count + 1);
  for (let v = 0; v < n; v++) start[community[v] + 1]++;
  for (let c = 0; c < count; c++) start[c + 1] += start[c];
  const members = new Int32Array(n);
  const fill = start.slice(0, count);
  for (let v = 0; v < n; v++) members[fill[community[v]]++] = v;

  const loops = new Float64Array(count);
  const acc = new Float64Array(count);
  const touched = new Int32Array(count);
  const newOffsets = new Int32Array(count + 1);
  // Each entry of `g` yields at most one entry of the aggregate, but the aggregate is usually
  // far smaller (kron-17: 3.7 M entries down to 0.22 M), so the rows start small and double
  // when full rather than zeroing 45 MB up front.
  let cap = Math.min(targets.length, 4 * count + 1024);
  let newTargets = new Int32Array(cap);
  let newWeights = new Float64Array(cap);
  let k = 0;
  for (let c = 0; c < count; c++) {
    newOffsets[c] = k;
    let t = 0;
    let inside = 0;
    for (let i = start[c]; i < start[c + 1]; i++) {
      const v = members[i];
      inside += 2 * g.loops[v];
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const d = community[targets[e]];
        const w = unit ? 1 : weights[e];
        if (d === c) {
          inside += w; // seen from both ends: halved below
          continue;
        }
        if (acc[d] === 0) touched[t++] = d;
        acc[d] += w;
      }
    }
    loops[c] = inside / 2;
    if (k + t > cap) {
      cap = Math.min(targets.length, Math.max(2 * cap, k + t));
      const targetsNow = newTargets;
      const weightsNow = newWeights;
      newTargets = new Int32Array(cap);
      newWeights = new Float64Array(cap);
      newTargets.set(targetsNow);
      newWeights.set(weightsNow);
    }
    for (let i = 0; i < t; i++) {
      newTargets[k] = touched[i];
      newWeights[k++] = acc[touched[i]];
      acc[touched[i]] = 0;
    }
  }
  newOffsets[count] = k;
  return withDegrees(count, newOffsets, newTargets.slice(0, k), newWeights.slice(0, k), loops, false);
}

/** Modularity of a partition of `g` at resolution `gamma`. */
export function modularity(g: ModGraph, community: Int32Array, gamma: number): number {
  if (g.m === 0) return 0;
  const { n, offsets, targets, weights } = g;
  const inside = new Float64Array(n);
  const total = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const c = community[v];
    total[c] += g.degree[v];
    inside[c] += g.loops[v];
    for (let e = offsets[v]; e < offsets[v + 1]; e++) if (community[targets[e]] === c) inside[c] += weights[e] / 2;
  }
  let q = 0;
  for (let c = 0; c < n; c++) {
    if (total[c] === 0) continue;
    q += inside[c] / g.m - gamma * (total[c] / (2 * g.m)) ** 2;
  }
  return q;
}

/** Modularity of `g` with every node in its own community (of an aggregate: of the partition it was made from). */
export function singletonModularity(g: ModGraph, gamma: number): number {
  if (g.m === 0) return 0;
  let q = 0;
  for (let c = 0; c < g.n; c++) {
    if (g.degree[c] === 0) continue;
    q += g.loops[c] / g.m - gamma * (g.degree[c] / (2 * g.m)) ** 2;
  }
  return q;
}
