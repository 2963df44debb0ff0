/**
 * Depth-first search from one source, iterative (an explicit stack of node and edge cursor),
 * over the simple form of the projection, whose rows are sorted: neighbours are explored in
 * ascending node-id order, which makes the preorder deterministic (and the one networkx gives
 * for the same adjacency order). Yields nodes in discovery order with their tree depth.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface DfsResult {
  order: Int32Array;
  count: number;
  /** Depth in the search tree per dense index, -1 when not reached. */
  depth: Int32Array;
}

export function dfs(csr: Csr, source: number, maxDepth: number, deadline: Deadline): DfsResult {
  const { n, offsets, targets } = csr;
  const depth = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const stackNode = new Int32Array(n);
  const stackEdge = new Int32Array(n);
  let count = 0;
  depth[source] = 0;
  order[count++] = source;
  stackNode[0] = source;
  stackEdge[0] = offsets[source];
  let sp = 1;
  let work = 0;
  while (sp > 0) {
    if ((++work & CHECK_MASK) === 0) deadline();
    const v = stackNode[sp - 1];
    const e = stackEdge[sp - 1];
    if (e >= offsets[v + 1] || depth[v] >= maxDepth) {
      sp--;
      continue;
    }
    stackEdge[sp - 1] = e + 1;
    const u = targets[e];
    if (depth[u] >= 0) continue;
    depth[u] = depth[v] + 1;
    order[count++] = u;
    stackNode[sp] = u;
    stackEdge[sp] = offsets[u];
    sp++;
  }
  return { order, count, depth };
}
