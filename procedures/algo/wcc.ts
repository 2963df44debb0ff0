/**
 * Weakly connected components by union-find over the CSR (edge direction does not matter).
 * Roots are always the smallest dense index of their set, so a component's id is the
 * smallest node id in it: deterministic, and independent of edge order.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

/** The root (smallest member) of each dense index's component. */
export function weaklyConnected(csr: Csr, deadline: Deadline): Int32Array {
  const { n, offsets, targets } = csr;
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      // Find both roots with path halving, then hang the larger root under the smaller.
      let a = v;
      while (parent[a] !== a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
      }
      let b = targets[e];
      while (parent[b] !== b) {
        parent[b] = parent[parent[b]];
        b = parent[b];
      }
      if (a < b) parent[b] = a;
      else if (b < a) parent[a] = b;
    }
  }
  // Roots have smaller indices than their members, so one ascending pass resolves every chain.
  for (let v = 0; v < n; v++) parent[v] = parent[parent[v]];
  return parent;
}
