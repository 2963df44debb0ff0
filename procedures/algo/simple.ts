/**
 * Derived CSRs that several kernels share: the simple directed form of a projection (rows
 * sorted ascending, self-loops dropped, parallel edges merged keeping the smallest weight,
 * which is all a shortest-path count or a neighbour-set comparison wants), and the transpose
 * (in-edges as rows). Both are computed from a projection in O(n + m) plus the row sorts, and
 * remembered per projection object so repeated calls on a cached projection pay once.
 */

import type { Csr } from './csr.js';

const simpleOf = new WeakMap<Csr, Csr>();
const transposeOf = new WeakMap<Csr, Csr>();

/** The transpose of `csr` (row v lists the u with an edge u → v, ascending by u), weights carried along. */
export function transpose(csr: Csr): Csr {
  const hit = transposeOf.get(csr);
  if (hit) return hit;
  const { n, offsets, targets, weights } = csr;
  const starts = new Int32Array(n + 1);
  for (let e = 0; e < targets.length; e++) starts[targets[e] + 1]++;
  for (let v = 0; v < n; v++) starts[v + 1] += starts[v];
  const fill = starts.slice(0, n);
  const out = new Int32Array(targets.length);
  const w = weights === undefined ? undefined : new Float64Array(targets.length);
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const slot = fill[targets[e]]++;
      out[slot] = v;
      if (w !== undefined && weights !== undefined) w[slot] = weights[e];
    }
  }
  const t: Csr = { n, ids: csr.ids, index: csr.index, offsets: starts, targets: out, weights: w };
  transposeOf.set(csr, t);
  return t;
}

/** Rows sorted ascending, self-loops dropped, parallel edges merged (smallest weight kept). */
export function simpleDirected(csr: Csr): Csr {
  const hit = simpleOf.get(csr);
  if (hit) return hit;
  // Transposing twice sorts every row by target without a comparison sort.
  const sorted = transpose(transpose(csr));
  const { n, offsets, targets, weights } = sorted;
  const outOffsets = new Int32Array(n + 1);
  const outTargets = new Int32Array(targets.length);
  const outWeights = weights === undefined ? undefined : new Float64Array(targets.length);
  let k = 0;
  for (let v = 0; v < n; v++) {
    outOffsets[v] = k;
    const rowStart = k;
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const u = targets[e];
      if (u === v) continue;
      if (k > rowStart && outTargets[k - 1] === u) {
        if (outWeights !== undefined && weights !== undefined && weights[e] < outWeights[k - 1]) outWeights[k - 1] = weights[e];
        continue;
      }
      outTargets[k] = u;
      if (outWeights !== undefined && weights !== undefined) outWeights[k] = weights[e];
      k++;
    }
  }
  outOffsets[n] = k;
  const s: Csr = { n, ids: csr.ids, index: csr.index, offsets: outOffsets, targets: outTargets.slice(0, k), weights: outWeights?.slice(0, k) };
  simpleOf.set(csr, s);
  return s;
}
