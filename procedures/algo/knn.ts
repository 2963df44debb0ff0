/**
 * k nearest neighbours over a node property holding a vector (a list of numbers or a
 * VECTOR value): every node's `topK` most similar other nodes by cosine similarity, or by
 * 1 / (1 + Euclidean distance). Exact (all pairs, O(n²·d)): recall is 1 by construction.
 * Vectors are copied once into one Float64Array (n × d) so the inner loop runs over typed
 * memory; nodes without the property (or with a vector of another length) are left out.
 */

import type { Deadline } from './deadline.js';
import { topPerNode, type SimilarPair } from './similarity.js';

export type KnnMetric = 'COSINE' | 'EUCLIDEAN';

export function knn(vectors: Float64Array, dim: number, present: Uint8Array, metric: KnnMetric, topK: number, cutoff: number, deadline: Deadline): SimilarPair[] {
  const n = present.length;
  const norms = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += vectors[v * dim + i] ** 2;
    norms[v] = Math.sqrt(s);
  }
  const pairs: SimilarPair[] = [];
  for (let a = 0; a < n; a++) {
    if (present[a] === 0) continue;
    deadline(); // each row costs O(n·d): check every row

    const mine: SimilarPair[] = [];
    const oa = a * dim;
    for (let b = 0; b < n; b++) {
      if (b === a || present[b] === 0) continue;
      const ob = b * dim;
      let score: number;
      if (metric === 'COSINE') {
        let dot = 0;
        for (let i = 0; i < dim; i++) dot += vectors[oa + i] * vectors[ob + i];
        const denom = norms[a] * norms[b];
        score = denom === 0 ? 0 : dot / denom;
      } else {
        let d2 = 0;
        for (let i = 0; i < dim; i++) d2 += (vectors[oa + i] - vectors[ob + i]) ** 2;
        score = 1 / (1 + Math.sqrt(d2));
      }
      if (score >= cutoff) mine.push({ a, b, score });
    }
    pairs.push(...topPerNode(mine, topK));
  }
  return pairs;
}
