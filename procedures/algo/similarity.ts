/**
 * Neighbourhood similarity and link prediction over the simple form of the projection (sorted
 * rows, no self-loops, no parallel edges), so a neighbourhood is a set.
 *
 * Node similarity compares every pair of nodes that share a neighbour — found by walking two
 * hops, out along a node's row and back along the transpose — by Jaccard |A∩B| / |A∪B| or
 * overlap |A∩B| / min(|A|, |B|), and keeps each node's `topK` best (ties by smaller node id).
 * Cost O(Σ_t indeg(t)²) for the two-hop walk.
 *
 * Link prediction scores a candidate pair (u, v) from their neighbourhoods N(u), N(v)
 * (Liben-Nowell & Kleinberg, 2007): common neighbours |N(u)∩N(v)|, Adamic–Adar Σ 1/log|N(w)|
 * and resource allocation Σ 1/|N(w)| over common neighbours w, preferential attachment
 * |N(u)|·|N(v)| and total neighbours |N(u)∪N(v)|.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface SimilarPair {
  a: number;
  b: number;
  score: number;
}

export type SimilarityMetric = 'JACCARD' | 'OVERLAP';

/** Keeps the `k` best pairs per first node, best first, ties by smaller second node. */
export function topPerNode(pairs: SimilarPair[], k: number): SimilarPair[] {
  pairs.sort((x, y) => x.a - y.a || y.score - x.score || x.b - y.b);
  const out: SimilarPair[] = [];
  let run = 0;
  for (let i = 0; i < pairs.length; i++) {
    run = i > 0 && pairs[i - 1].a === pairs[i].a ? run + 1 : 0;
    if (run < k) out.push(pairs[i]);
  }
  return out;
}

export function nodeSimilarity(out: Csr, inn: Csr, metric: SimilarityMetric, topK: number, cutoff: number, degreeCutoff: number, deadline: Deadline): SimilarPair[] {
  const n = out.n;
  const common = new Int32Array(n);
  const touched = new Int32Array(n);
  const pairs: SimilarPair[] = [];
  for (let a = 0; a < n; a++) {
    if ((a & CHECK_MASK) === 0) deadline();
    const degA = out.offsets[a + 1] - out.offsets[a];
    if (degA < degreeCutoff || degA === 0) continue;
    let t = 0;
    for (let e = out.offsets[a]; e < out.offsets[a + 1]; e++) {
      const mid = out.targets[e];
      for (let f = inn.offsets[mid]; f < inn.offsets[mid + 1]; f++) {
        const b = inn.targets[f];
        if (b === a) continue;
        if (common[b]++ === 0) touched[t++] = b;
      }
    }
    const mine: SimilarPair[] = [];
    for (let i = 0; i < t; i++) {
      const b = touched[i];
      const c = common[b];
      common[b] = 0;
      const degB = out.offsets[b + 1] - out.offsets[b];
      if (degB < degreeCutoff) continue;
      const score = metric === 'JACCARD' ? c / (degA + degB - c) : c / Math.min(degA, degB);
      if (score >= cutoff) mine.push({ a, b, score });
    }
    pairs.push(...topPerNode(mine, topK));
  }
  return pairs;
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
