/**
 * k nearest neighbours over a node property holding a vector (a list of numbers or a
 * VECTOR value): every node's `topK` most similar other nodes by cosine similarity, or by
 * 1 / (1 + Euclidean distance). Exact (all pairs, O(n²·d)): recall is 1 by construction.
 * Vectors are copied once into one Float64Array (n × d) so the inner loop runs over typed
 * memory; nodes without the property (or with a vector of another length) are left out.
 * Each node's list is computed alone, so blocks of nodes run on the worker pool
 * (`concurrency`), with the same lists on any number of threads.
 */

import type { Deadline } from './deadline.js';
import { controlArray, registerKernel, runTask, sharedFloat64, threadsForWork, workCuts, type TaskBase } from './parallel.js';
import { collectPairs, offerTop, ranksBelow, siftDown, slotStarts, sortTop, type SimilarPair, type TopLists } from './topk.js';

export type KnnMetric = 'COSINE' | 'EUCLIDEAN';

/** Blocks of nodes whose neighbours are searched (see `knnItem`). */
export interface KnnTask extends TaskBase, TopLists {
  vectors: Float64Array;
  norms: Float64Array;
  present: Uint8Array;
  dim: number;
  cosine: boolean;
  cutoff: number;
  /** Block b is nodes cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
}

/** Nodes cuts[b] .. cuts[b + 1]: each scores every other node and keeps its best in its own slots. */
export function knnItem(t: KnnTask, blk: number, deadline: Deadline): void {
  const { vectors, norms, present, dim, ids, scores } = t;
  const n = present.length;
  const last = t.cuts[blk + 1];
  for (let a = t.cuts[blk]; a < last; a++) {
    if (present[a] === 0) continue;
    deadline(); // each row costs O(n·d): check every row
    const base = t.start[a];
    const cap = t.start[a + 1] - base;
    let size = 0;
    const oa = a * dim;
    for (let b = 0; b < n; b++) {
      if (b === a || present[b] === 0) continue;
      const ob = b * dim;
      let score: number;
      if (t.cosine) {
        let dot = 0;
        for (let i = 0; i < dim; i++) dot += vectors[oa + i] * vectors[ob + i];
        const denom = norms[a] * norms[b];
        score = denom === 0 ? 0 : dot / denom;
      } else {
        let d2 = 0;
        for (let i = 0; i < dim; i++) d2 += (vectors[oa + i] - vectors[ob + i]) ** 2;
        score = 1 / (1 + Math.sqrt(d2));
      }
      if (score >= t.cutoff) size = offerTop(ids, scores, base, size, cap, b, score);
    }
    sortTop(ids, scores, base, size);
    t.counts[a] = size;
  }
}

registerKernel('knn', knnItem, [ranksBelow, siftDown, offerTop, sortTop]);

function sharedBytes(array: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(Math.max(1, array.length))).subarray(0, array.length);
  copy.set(array);
  return copy;
}

export function knn(vectors: Float64Array, dim: number, present: Uint8Array, metric: KnnMetric, topK: number, cutoff: number, deadline: Deadline, threads = 1): SimilarPair[] {
  const n = present.length;
  const norms = new Float64Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += vectors[v * dim + i] ** 2;
    norms[v] = Math.sqrt(s);
    count += present[v];
  }
  const workers = n > 1 ? threadsForWork(threads, count * count * dim) : 1;
  const parallel = workers > 1;
  const shared = {
    vectors: parallel ? sharedFloat64(vectors) : vectors,
    norms: parallel ? sharedFloat64(norms) : norms,
    present: parallel ? sharedBytes(present) : present,
  };
  const uniform = new Float64Array(n + 1);
  const start = slotStarts(n, (a) => (present[a] === 0 ? 0 : Math.min(topK, count - 1)));
  return collectPairs(start, workers, (lists, blocks) => {
    const task: KnnTask = { kernel: 'knn', items: blocks, control: controlArray(), ...shared, dim, cosine: metric === 'COSINE', cutoff, cuts: workCuts(uniform, lists.hi, blocks, lists.lo), ...lists };
    runTask(task, workers, deadline);
  });
}
