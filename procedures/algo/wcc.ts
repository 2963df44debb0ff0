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
  let e = 0;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    const end = offsets[v + 1];
    if (e === end) continue;
    // v's root, found once per row and kept up to date: a union either hangs the other root
    // under it or makes the other (smaller) root v's root, and path halving elsewhere never
    // changes a root. (Finding it again per edge, as before, was 1.5× slower on kron-17.)
    let a = v;
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    // One flat loop over the row: each turn either does one path-halving step for the
    // neighbour b or, b being a root, hangs the larger root under the smaller and takes the
    // next entry. With the find loop nested in the entry loop, V8's code re-checked the typed
    // arrays on every entry (it peels only innermost loops); flat, the kernel measured ~12 %
    // less CPU on kron-17, with the same roots.
    let b = targets[e++];
    for (;;) {
      const p = parent[b];
      if (p !== b) {
        const g = parent[p];
        parent[b] = g;
        b = g;
        continue;
      }
      if (a < b) parent[b] = a;
      else if (b < a) {
        parent[a] = b;
        a = b;
      }
      if (e === end) break;
      b = targets[e++];
    }
  }
  // Roots have smaller indices than their members, so one ascending pass resolves every chain.
  for (let v = 0; v < n; v++) parent[v] = parent[parent[v]];
  return parent;
}
