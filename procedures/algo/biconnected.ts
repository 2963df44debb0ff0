/**
 * Articulation points and bridges of the undirected graph by Tarjan's low-link depth-first
 * search (Hopcroft & Tarjan, 1973), iterative. Works on the `both`-direction projection
 * (each relationship listed from both ends): the edge back to a node's tree parent is
 * skipped once, so a second, parallel relationship to the parent counts as a back edge —
 * two parallel relationships are never a bridge. Self-loops are ignored. O(n + m).
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface Biconnected {
  articulation: Uint8Array;
  /** Bridges as (tree parent, child) dense-index pairs, in discovery order. */
  bridges: [number, number][];
}

export function biconnected(csr: Csr, deadline: Deadline): Biconnected {
  const { n, offsets, targets } = csr;
  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const skippedParent = new Uint8Array(n);
  const children = new Int32Array(n);
  const stackNode = new Int32Array(n);
  const stackEdge = new Int32Array(n);
  const articulation = new Uint8Array(n);
  const bridges: [number, number][] = [];
  let time = 0;
  let work = 0;
  for (let root = 0; root < n; root++) {
    if (disc[root] >= 0) continue;
    let sp = 0;
    disc[root] = low[root] = time++;
    stackNode[sp] = root;
    stackEdge[sp++] = offsets[root];
    while (sp > 0) {
      if ((++work & CHECK_MASK) === 0) deadline();
      const v = stackNode[sp - 1];
      const e = stackEdge[sp - 1];
      if (e < offsets[v + 1]) {
        stackEdge[sp - 1] = e + 1;
        const u = targets[e];
        if (u === v) continue;
        if (u === parent[v] && skippedParent[v] === 0) {
          skippedParent[v] = 1;
          continue;
        }
        if (disc[u] < 0) {
          parent[u] = v;
          children[v]++;
          disc[u] = low[u] = time++;
          stackNode[sp] = u;
          stackEdge[sp++] = offsets[u];
        } else if (disc[u] < low[v]) {
          low[v] = disc[u];
        }
        continue;
      }
      sp--;
      const p = parent[v];
      if (p < 0) {
        if (children[v] > 1) articulation[v] = 1;
        continue;
      }
      if (low[v] < low[p]) low[p] = low[v];
      if (low[v] > disc[p]) bridges.push([p, v]);
      if (parent[p] >= 0 && low[v] >= disc[p]) articulation[p] = 1;
    }
  }
  return { articulation, bridges };
}
