/**
 * Node embeddings.
 *
 * FastRP (Chen et al., 2019): every node starts with a very sparse random vector (entries
 * ±√3 with probability 1/6 each, 0 otherwise; Achlioptas, 2003), scaled by degree^β
 * (`normalizationStrength`); each round replaces every vector by the mean of its
 * neighbours' and normalises it to unit length; the embedding is Σ wᵢ·Xᵢ over the rounds
 * (`iterationWeights`) plus `nodeSelfInfluence`·X₀. O(rounds · m · d). Rows are
 * independent within a round, so blocks of rows run on the worker pool (`concurrency`), one
 * pool task per round, and each node draws its initial vector from its own seeded stream:
 * the embedding is the same for a given seed on any number of threads.
 *
 * node2vec (Grover & Leskovec, 2016): `walksPerNode` second-order random walks of
 * `walkLength` per node — return parameter p, in-out parameter q, sampled by rejection so
 * no per-edge tables are needed — then skip-gram with negative sampling trained by SGD
 * over windows of `windowSize`, negatives drawn by degree^0.75. O(n · walks · length ·
 * window · d). Both are seeded (`randomSeed`), and both keep n × d floats.
 */

import type { Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, threadsForWork, workCuts, type TaskBase } from './parallel.js';
import type { Random } from './random.js';

export interface FastRpOptions {
  dimension: number;
  iterationWeights: number[];
  normalizationStrength: number;
  nodeSelfInfluence: number;
  /** Seed of the initial random vectors. */
  seed: number;
}

/**
 * One FastRP round over a block of rows (see `fastRpItem`). Round 0 draws the initial
 * vectors; round r > 0 averages the neighbours' vectors of round r - 1.
 */
export interface FastRpTask extends TaskBase {
  offsets: Int32Array;
  targets: Int32Array;
  cuts: Int32Array;
  d: number;
  round: number;
  seed: number;
  normalizationStrength: number;
  nodeSelfInfluence: number;
  /** This round's weight in the embedding. */
  weight: number;
  /** The previous round's vectors (read), this round's (written), and the embedding (n × d each). */
  x: Float32Array;
  next: Float32Array;
  out: Float32Array;
}

/**
 * Rows cuts[b] .. cuts[b + 1] of one round. Everything a row needs is the previous round and
 * its own seed, and a row is written only by the thread that owns it, so the result has the
 * same bits on any number of threads.
 *
 * Initial vectors: node v's entries come from its own mulberry32 stream, seeded by a hash of
 * (seed, v), not from one stream shared by all nodes, so a row does not depend on which rows
 * were drawn before it.
 */
export function fastRpItem(t: FastRpTask, b: number, deadline: Deadline): void {
  const { offsets, targets, d, x, next, out } = t;
  const last = t.cuts[b + 1];
  if (t.round === 0) {
    const root3 = Math.sqrt(3);
    for (let v = t.cuts[b]; v < last; v++) {
      if ((v & 4095) === 0) deadline(); // CHECK_MASK (kernels see no module constants)
      const deg = offsets[v + 1] - offsets[v];
      const scale = deg > 0 && t.normalizationStrength !== 0 ? deg ** t.normalizationStrength : 1;
      // murmur3's finaliser over (seed, v): neighbouring ids get unrelated streams.
      let h = Math.imul(t.seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(v + 1, 0x85ebca77);
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      let a = (h ^ (h >>> 16)) >>> 0;
      const o = v * d;
      for (let i = 0; i < d; i++) {
        a = (a + 0x6d2b79f5) >>> 0; // mulberry32, as random.ts
        let z = a;
        z = Math.imul(z ^ (z >>> 15), z | 1);
        z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
        const r = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
        const value = r < 1 / 6 ? root3 * scale : r < 1 / 3 ? -root3 * scale : 0;
        next[o + i] = value;
        out[o + i] = t.nodeSelfInfluence * next[o + i];
      }
    }
    return;
  }
  const row = new Float64Array(d);
  const w = t.weight;
  for (let v = t.cuts[b]; v < last; v++) {
    if ((v & 4095) === 0) deadline();
    const start = offsets[v];
    const end = offsets[v + 1];
    const o = v * d;
    if (start === end) {
      for (let i = 0; i < d; i++) next[o + i] = 0;
      continue;
    }
    row.fill(0);
    for (let e = start; e < end; e++) {
      const u = targets[e] * d;
      for (let i = 0; i < d; i++) row[i] += x[u + i];
    }
    // The mean's direction is the sum's: normalising the sum to unit length gives the same row.
    let s = 0;
    for (let i = 0; i < d; i++) s += row[i] * row[i];
    const inv = s === 0 ? 0 : 1 / Math.sqrt(s);
    for (let i = 0; i < d; i++) {
      const value = Math.fround(row[i] * inv);
      next[o + i] = value;
      out[o + i] += w * value;
    }
  }
}

registerKernel('fastRP', fastRpItem, []);

export function fastRp(csr: Csr, opts: FastRpOptions, deadline: Deadline, threads = 1): Float32Array {
  const { n, offsets } = csr;
  const d = opts.dimension;
  const workers = threadsForWork(threads, (offsets[n] + n) * d);
  const parallel = workers > 1 && n > 1;
  const floats = (length: number): Float32Array => (parallel ? new Float32Array(new SharedArrayBuffer(4 * Math.max(1, length))).subarray(0, length) : new Float32Array(length));
  const rows = parallel ? sharedCsr(csr) : csr;
  const blocks = Math.max(1, Math.min(n, parallel ? 16 * workers : 1));
  const task: FastRpTask = {
    kernel: 'fastRP',
    items: blocks,
    control: controlArray(),
    offsets: rows.offsets,
    targets: rows.targets,
    cuts: workCuts(offsets, n, blocks),
    d,
    round: 0,
    seed: opts.seed,
    normalizationStrength: opts.normalizationStrength,
    nodeSelfInfluence: opts.nodeSelfInfluence,
    weight: 0,
    x: floats(n * d),
    next: floats(n * d),
    out: floats(n * d),
  };
  for (let round = 0; round <= opts.iterationWeights.length; round++) {
    task.round = round;
    task.weight = round === 0 ? 0 : opts.iterationWeights[round - 1];
    [task.x, task.next] = [task.next, task.x];
    task.control = controlArray();
    runTask(task, parallel ? workers : 1, deadline);
  }
  return task.out;
}

export interface Node2VecOptions {
  dimension: number;
  walkLength: number;
  walksPerNode: number;
  returnFactor: number;
  inOutFactor: number;
  windowSize: number;
  negativeSamples: number;
  iterations: number;
  learningRate: number;
}

/** Whether `u` is in v's (sorted) row. */
function adjacent(g: Csr, v: number, u: number): boolean {
  let lo = g.offsets[v];
  let hi = g.offsets[v + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = g.targets[mid];
    if (t === u) return true;
    if (t < u) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** One walk from `start` into `walk`; returns its length. `g` has sorted rows. */
function walkFrom(g: Csr, start: number, opts: Node2VecOptions, random: Random, walk: Int32Array): number {
  const { offsets, targets } = g;
  const p = opts.returnFactor;
  const q = opts.inOutFactor;
  const maxBias = Math.max(1 / p, 1, 1 / q);
  walk[0] = start;
  let len = 1;
  while (len < opts.walkLength) {
    const v = walk[len - 1];
    const deg = offsets[v + 1] - offsets[v];
    if (deg === 0) break;
    if (len === 1 || (p === 1 && q === 1)) {
      walk[len++] = targets[offsets[v] + Math.floor(random() * deg)];
      continue;
    }
    const prev = walk[len - 2];
    // Rejection sampling against the largest bias; bounded so a pathological p, q cannot spin.
    let next = targets[offsets[v] + Math.floor(random() * deg)];
    for (let attempt = 0; attempt < 64; attempt++) {
      const bias = next === prev ? 1 / p : adjacent(g, prev, next) ? 1 : 1 / q;
      if (random() * maxBias < bias) break;
      next = targets[offsets[v] + Math.floor(random() * deg)];
    }
    walk[len++] = next;
  }
  return len;
}

export function node2vec(g: Csr, opts: Node2VecOptions, random: Random, deadline: Deadline): Float32Array {
  const { n, offsets } = g;
  const d = opts.dimension;
  const input = new Float32Array(n * d);
  const output = new Float32Array(n * d);
  for (let k = 0; k < input.length; k++) input[k] = (random() - 0.5) / d;
  // Negative-sampling table: node v appears in proportion to degree^0.75.
  const table = new Int32Array(Math.max(1, Math.min(1 << 20, 16 * n)));
  let totalWeight = 0;
  for (let v = 0; v < n; v++) totalWeight += (offsets[v + 1] - offsets[v] + 1) ** 0.75;
  let slot = 0;
  let acc = 0;
  for (let v = 0; v < n && slot < table.length; v++) {
    acc += (offsets[v + 1] - offsets[v] + 1) ** 0.75 / totalWeight;
    while (slot < table.length && slot / table.length < acc) table[slot++] = v;
  }
  for (; slot < table.length; slot++) table[slot] = n - 1;

  const walk = new Int32Array(opts.walkLength);
  const gradient = new Float32Array(d);
  const totalSteps = opts.iterations * opts.walksPerNode * n;
  let step = 0;
  for (let it = 0; it < opts.iterations; it++) {
    for (let w = 0; w < opts.walksPerNode; w++) {
      for (let s = 0; s < n; s++) {
        if ((step & 255) === 0) deadline();
        const rate = Math.max(opts.learningRate * 1e-4, opts.learningRate * (1 - step / totalSteps));
        step++;
        const len = walkFrom(g, s, opts, random, walk);
        for (let i = 0; i < len; i++) {
          const centre = walk[i] * d;
          for (let j = Math.max(0, i - opts.windowSize); j < Math.min(len, i + opts.windowSize + 1); j++) {
            if (j === i) continue;
            gradient.fill(0);
            for (let k = 0; k <= opts.negativeSamples; k++) {
              const target = k === 0 ? walk[j] : table[Math.floor(random() * table.length)];
              if (k > 0 && target === walk[j]) continue;
              const label = k === 0 ? 1 : 0;
              const o = target * d;
              let dot = 0;
              for (let x = 0; x < d; x++) dot += input[centre + x] * output[o + x];
              const sig = dot > 6 ? 1 : dot < -6 ? 0 : 1 / (1 + Math.exp(-dot));
              const g2 = (label - sig) * rate;
              for (let x = 0; x < d; x++) {
                gradient[x] += g2 * output[o + x];
                output[o + x] += g2 * input[centre + x];
              }
            }
            for (let x = 0; x < d; x++) input[centre + x] += gradient[x];
          }
        }
      }
    }
  }
  return input;
}
