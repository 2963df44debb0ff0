/**
 * Core numbers (k-core decomposition) by the bucket algorithm of Batagelj & Zaversnik (2003):
 * repeatedly remove a node of least remaining degree; its core number is that degree at
 * removal. O(n + m) on the undirected simple graph (self-loops and parallel edges ignored).
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export function coreNumbers(csr: Csr, deadline: Deadline): Int32Array {
  const { n, offsets, targets } = csr;
  const deg = new Int32Array(n);
  let maxDeg = 0;
  for (let v = 0; v < n; v++) {
    deg[v] = offsets[v + 1] - offsets[v];
    if (deg[v] > maxDeg) maxDeg = deg[v];
  }
  // Nodes sorted by degree (counting sort); bin[d] is where degree d starts in `vert`.
  const bin = new Int32Array(maxDeg + 2);
  for (let v = 0; v < n; v++) bin[deg[v] + 1]++;
  for (let d = 0; d <= maxDeg; d++) bin[d + 1] += bin[d];
  const pos = new Int32Array(n);
  const vert = new Int32Array(n);
  const fill = bin.slice();
  for (let v = 0; v < n; v++) {
    pos[v] = fill[deg[v]]++;
    vert[pos[v]] = v;
  }
  for (let i = 0; i < n; i++) {
    if ((i & CHECK_MASK) === 0) deadline();
    const v = vert[i];
    // v's degree is final once v is reached, and no row lists v itself (simple graph), so it
    // is read once per row, not once per entry.
    const dv = deg[v];
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      const du = deg[u];
      if (du > dv) {
        // Move u to the front of its bin, then shrink the bin by one: u's degree drops.
        const pu = pos[u];
        const pw = bin[du];
        const w = vert[pw];
        if (u !== w) {
          pos[u] = pw;
          vert[pu] = w;
          pos[w] = pu;
          vert[pw] = u;
        }
        bin[du]++;
        deg[u] = du - 1;
      }
    }
  }
  return deg;
}
