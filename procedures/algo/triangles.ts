/**
 * Triangles per node and the local clustering coefficient, on the undirected simple graph
 * (`simpleUndirected`: no self-loops, no parallel edges). Each triangle is found exactly
 * once by orienting every edge from the lower-ranked to the higher-ranked end, rank being
 * (degree, index): a node then has few higher-ranked neighbours even when its degree is
 * huge, which bounds the work by O(m^1.5).
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

/** Triangles through each node of `simple` (an undirected simple CSR). */
export function trianglesPerNode(simple: Csr, deadline: Deadline): Float64Array {
  const { n, offsets, targets } = simple;
  const deg = (v: number): number => offsets[v + 1] - offsets[v];
  // Forward rows: neighbours of higher rank only.
  const fwdOffsets = new Int32Array(n + 1);
  const fwd = new Int32Array(targets.length >> 1);
  let w = 0;
  for (let v = 0; v < n; v++) {
    fwdOffsets[v] = w;
    const dv = deg(v);
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      const du = deg(u);
      if (du > dv || (du === dv && u > v)) fwd[w++] = u;
    }
  }
  fwdOffsets[n] = w;
  const triangles = new Float64Array(n);
  const mark = new Int32Array(n); // mark[x] === v + 1: x is a forward neighbour of v
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    const a = fwdOffsets[v];
    const b = fwdOffsets[v + 1];
    if (b - a < 2) continue;
    const stamp = v + 1;
    for (let e = a; e < b; e++) mark[fwd[e]] = stamp;
    for (let e = a; e < b; e++) {
      const u = fwd[e];
      for (let f = fwdOffsets[u], end = fwdOffsets[u + 1]; f < end; f++) {
        const x = fwd[f];
        if (mark[x] === stamp) {
          triangles[v]++;
          triangles[u]++;
          triangles[x]++;
        }
      }
    }
  }
  return triangles;
}

/** Local clustering coefficient per node: triangles / (d·(d-1)/2), 0 when the degree d < 2. */
export function localClustering(simple: Csr, triangles: Float64Array): Float64Array {
  const { n, offsets } = simple;
  const lcc = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const d = offsets[v + 1] - offsets[v];
    lcc[v] = d < 2 ? 0 : (2 * triangles[v]) / (d * (d - 1));
  }
  return lcc;
}
