/**
 * Breadth-first search from one source over the CSR: the depth (number of hops) of every
 * node reached within `maxDepth` hops, in visit order. Visit order is deterministic: by
 * depth, and within a depth in the order nodes were first discovered (CSR row order).
 *
 * (Walking the store's adjacency directly from the source was tried: it visits nodes in
 * search order, which scatters memory accesses, and measured slower than building the CSR
 * in one sequential sweep and searching that.)
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { scratchUint8 } from './scratch.js';

export interface BfsResult {
  /** Dense indices of the reached nodes in visit order (the first `count` entries). */
  order: Int32Array;
  count: number;
  /** Depth per dense index, -1 when not reached. */
  depth: Int32Array;
}

export function bfs(csr: Csr, source: number, maxDepth: number, deadline: Deadline): BfsResult {
  const { n, offsets, targets } = csr;
  const depth = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  // The test per edge reads a byte per node rather than the 4-byte depth: on kron-17 the
  // marks fit in the core's cache where the depths do not (measured ~1.2× faster).
  // The marks are scratch kept per CSR (scratch.ts), cleared here: a search a deadline
  // stopped leaves them dirty. The depths and the order are the caller's to keep.
  const seen = scratchUint8(csr, 'bfs.seen', n).fill(0);
  seen[source] = 1;
  order[0] = source;
  let head = 0;
  let tail = 1;
  // Level by level. The inner loop only marks and queues; a level's depths are written when
  // the level is complete, in one pass over its stretch of `order` (the level is the loop's
  // counter), which keeps a random 4-byte write out of the per-edge loop. Rows are read four
  // entries per turn (as pagerank.ts sums them), which cuts V8's per-turn loop overhead
  // (interrupt check, branch, and reloading each typed array's length and data pointer); each
  // entry is tested after the one before it is marked, so a repeated neighbour is still queued
  // once. Together ~15 % less CPU on kron-17 at two per turn, ~10 % less again at four.
  // bench/algo-c/kernels.c's BFS reads two per turn: four measured no faster in C.
  let start = 0;
  for (let level = 0; ; level++) {
    for (let i = start; i < tail; i++) depth[order[i]] = level;
    start = tail;
    if (head === tail || level >= maxDepth) break;
    const levelEnd = tail;
    for (; head < levelEnd; head++) {
      if ((head & CHECK_MASK) === 0) deadline();
      const v = order[head];
      let e = offsets[v];
      const end = offsets[v + 1];
      // Four entries per turn (each still tested after the one before it is marked).
      for (; e + 3 < end; e += 4) {
        const u = targets[e];
        const w = targets[e + 1];
        const x = targets[e + 2];
        const y = targets[e + 3];
        if (seen[u] === 0) {
          seen[u] = 1;
          order[tail++] = u;
        }
        if (seen[w] === 0) {
          seen[w] = 1;
          order[tail++] = w;
        }
        if (seen[x] === 0) {
          seen[x] = 1;
          order[tail++] = x;
        }
        if (seen[y] === 0) {
          seen[y] = 1;
          order[tail++] = y;
        }
      }
      for (; e + 1 < end; e += 2) {
        const u = targets[e];
        const w = targets[e + 1];
        if (seen[u] === 0) {
          seen[u] = 1;
          order[tail++] = u;
        }
        if (seen[w] === 0) {
          seen[w] = 1;
          order[tail++] = w;
        }
      }
      if (e < end) {
        const u = targets[e];
        if (seen[u] === 0) {
          seen[u] = 1;
          order[tail++] = u;
        }
      }
    }
  }
  return { order, count: tail, depth };
}
