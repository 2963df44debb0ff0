/**
 * Neighbourhood similarity and link prediction over the simple form of the projection (sorted
 * rows, no self-loops, no parallel edges), so a neighbourhood is a set.
 *
 * Node similarity compares every pair of nodes that share a neighbour — found by walking two
 * hops, out along a node's row and back along the transpose — by Jaccard |A∩B| / |A∪B| or
 * overlap |A∩B| / min(|A|, |B|), and keeps each node's `topK` best (ties by smaller node id).
 * Cost O(Σ_t indeg(t)²) for the two-hop walk. Each node's list is computed alone, so blocks
 * of nodes run on the worker pool (`concurrency`) with the same lists on any thread count.
 *
 * Link prediction scores a candidate pair (u, v) from their neighbourhoods N(u), N(v)
 * (Liben-Nowell & Kleinberg, 2007): common neighbours |N(u)∩N(v)|, Adamic–Adar Σ 1/log|N(w)|
 * and resource allocation Σ 1/|N(w)| over common neighbours w, preferential attachment
 * |N(u)|·|N(v)| and total neighbours |N(u)∪N(v)|.
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, threadsForWork, workCuts, type TaskBase } from './parallel.js';
import { collectPairs, offerTop, ranksBelow, siftDown, slotStarts, sortTop, type SimilarPair, type TopLists } from './topk.js';

export type { SimilarPair } from './topk.js';

export type SimilarityMetric = 'JACCARD' | 'OVERLAP';

/** Blocks of first nodes for node similarity (see `similarityItem`). */
export interface SimilarityTask extends TaskBase, TopLists {
  /** Out rows and in rows (the transpose) of the simple graph. */
  outOffsets: Int32Array;
  outTargets: Int32Array;
  inOffsets: Int32Array;
  inTargets: Int32Array;
  n: number;
  jaccard: boolean;
  cutoff: number;
  degreeCutoff: number;
  cuts: Int32Array;
  /** Per-thread counters (each worker gets its own copy of the task; created on first use). */
  common?: Int32Array;
  touched?: Int32Array;
}

/**
 * The first nodes cuts[b] .. cuts[b + 1]: for each, count the neighbours it shares with every
 * node two hops away, score them, and keep its best in its own slots (topk.ts). A node's list
 * depends only on the graph, so any thread may compute it.
 */
export function similarityItem(t: SimilarityTask, blk: number, deadline: Deadline): void {
  const { outOffsets, outTargets, inOffsets, inTargets, n, ids, scores } = t;
  if (t.common === undefined) t.common = new Int32Array(n);
  if (t.touched === undefined) t.touched = new Int32Array(n);
  const common = t.common;
  const touched = t.touched;
  const last = t.cuts[blk + 1];
  for (let a = t.cuts[blk]; a < last; a++) {
    if ((a & 255) === 0) deadline();
    const degA = outOffsets[a + 1] - outOffsets[a];
    if (degA < t.degreeCutoff || degA === 0) continue;
    let k = 0;
    for (let e = outOffsets[a]; e < outOffsets[a + 1]; e++) {
      const mid = outTargets[e];
      for (let f = inOffsets[mid]; f < inOffsets[mid + 1]; f++) {
        const b = inTargets[f];
        if (b === a) continue;
        if (common[b]++ === 0) touched[k++] = b;
      }
    }
    const base = t.start[a];
    const cap = t.start[a + 1] - base;
    let size = 0;
    for (let i = 0; i < k; i++) {
      const b = touched[i];
      const c = common[b];
      common[b] = 0;
      const degB = outOffsets[b + 1] - outOffsets[b];
      if (degB < t.degreeCutoff) continue;
      const score = t.jaccard ? c / (degA + degB - c) : c / Math.min(degA, degB);
      if (score >= t.cutoff) size = offerTop(ids, scores, base, size, cap, b, score);
    }
    sortTop(ids, scores, base, size);
    t.counts[a] = size;
  }
}

registerKernel('nodeSimilarity', similarityItem, [ranksBelow, siftDown, offerTop, sortTop]);

/**
 * Each node's `topK` most similar nodes, on up to `threads` threads. Work and list sizes are
 * bounded first from the degrees alone: node a meets at most Σ indeg(t) other nodes over its
 * out-neighbours t, which sizes its slots and balances the blocks.
 */
export function nodeSimilarity(out: Csr, inn: Csr, metric: SimilarityMetric, topK: number, cutoff: number, degreeCutoff: number, deadline: Deadline, threads = 1): SimilarPair[] {
  const n = out.n;
  const reach = new Float64Array(n + 1);
  for (let a = 0; a < n; a++) {
    let r = 0;
    for (let e = out.offsets[a]; e < out.offsets[a + 1]; e++) {
      const mid = out.targets[e];
      r += inn.offsets[mid + 1] - inn.offsets[mid];
    }
    reach[a + 1] = reach[a] + r;
  }
  const workers = n > 1 ? threadsForWork(threads, reach[n]) : 1;
  const parallel = workers > 1;
  const o = parallel ? sharedCsr(out) : out;
  const i = parallel ? sharedCsr(inn) : inn;
  const start = slotStarts(n, (a) => Math.min(topK, n - 1, reach[a + 1] - reach[a]));
  return collectPairs(start, workers, (lists, blocks) => {
    const task: SimilarityTask = {
      kernel: 'nodeSimilarity',
      items: blocks,
      control: controlArray(),
      outOffsets: o.offsets,
      outTargets: o.targets,
      inOffsets: i.offsets,
      inTargets: i.targets,
      n,
      jaccard: metric === 'JACCARD',
      cutoff,
      degreeCutoff,
      cuts: workCuts(reach, lists.hi, blocks, lists.lo),
      ...lists,
    };
    runTask(task, workers, deadline);
  });
}

export type LinkMetric = 'adamicAdar' | 'commonNeighbours' | 'preferentialAttachment' | 'resourceAllocation' | 'totalNeighbours';

/** The metric's score for (a, b) on the undirected simple graph `g` (sorted rows). */
export function linkScore(g: Csr, metric: LinkMetric, a: number, b: number): number {
  const { offsets, targets } = g;
  const degA = offsets[a + 1] - offsets[a];
  const degB = offsets[b + 1] - offsets[b];
  if (metric === 'preferentialAttachment') return degA * degB;
  let i = offsets[a];
  let j = offsets[b];
  let common = 0;
  let sum = 0;
  while (i < offsets[a + 1] && j < offsets[b + 1]) {
    const x = targets[i];
    const y = targets[j];
    if (x < y) i++;
    else if (y < x) j++;
    else {
      common++;
      const degW = offsets[x + 1] - offsets[x];
      if (metric === 'adamicAdar') sum += degW > 1 ? 1 / Math.log(degW) : 0;
      else if (metric === 'resourceAllocation') sum += 1 / degW;
      i++;
      j++;
    }
  }
  if (metric === 'commonNeighbours') return common;
  if (metric === 'totalNeighbours') return degA + degB - common;
  return sum;
}

/** Nodes exactly two hops from `a` (not `a`, not its neighbours), ascending. */
export function twoHop(g: Csr, a: number): number[] {
  const { offsets, targets } = g;
  const seen = new Set<number>([a]);
  for (let e = offsets[a]; e < offsets[a + 1]; e++) seen.add(targets[e]);
  const out = new Set<number>();
  for (let e = offsets[a]; e < offsets[a + 1]; e++) {
    const w = targets[e];
    for (let f = offsets[w]; f < offsets[w + 1]; f++) if (!seen.has(targets[f])) out.add(targets[f]);
  }
  return [...out].sort((x, y) => x - y);
}
