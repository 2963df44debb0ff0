/**
 * Node embeddings.
 *
 * FastRP (Chen et al., 2019): every node starts with a very sparse random vector (entries
 * ±√3 with probability 1/6 each, 0 otherwise; Achlioptas, 2003), scaled by degree^β
 * (`normalizationStrength`); each round replaces every vector by the mean of its
 * neighbours' and normalises it to unit length; the embedding is Σ wᵢ·Xᵢ over the rounds
 * (`iterationWeights`) plus `nodeSelfInfluence`·X₀. O(rounds · m · d).
 *
 * node2vec (Grover & Leskovec, 2016): `walksPerNode` second-order random walks of
 * `walkLength` per node — return parameter p, in-out parameter q, sampled by rejection so
 * no per-edge tables are needed — then skip-gram with negative sampling trained by SGD
 * over windows of `windowSize`, negatives drawn by degree^0.75. O(n · walks · length ·
 * window · d). Both are seeded (`randomSeed`), and both keep n × d floats.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import type { Random } from './random.js';

export interface FastRpOptions {
  dimension: number;
  iterationWeights: number[];
  normalizationStrength: number;
  nodeSelfInfluence: number;
}

function normaliseRows(x: Float32Array, n: number, d: number): void {
  for (let v = 0; v < n; v++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += x[v * d + i] ** 2;
    if (s === 0) continue;
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < d; i++) x[v * d + i] *= inv;
  }
}

export function fastRp(csr: Csr, opts: FastRpOptions, random: Random, deadline: Deadline): Float32Array {
  const { n, offsets, targets } = csr;
  const d = opts.dimension;
  let x = new Float32Array(n * d);
  const root3 = Math.sqrt(3);
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    const scale = deg > 0 && opts.normalizationStrength !== 0 ? deg ** opts.normalizationStrength : 1;
    for (let i = 0; i < d; i++) {
      const r = random();
      x[v * d + i] = r < 1 / 6 ? root3 * scale : r < 1 / 3 ? -root3 * scale : 0;
    }
  }
  const out = new Float32Array(n * d);
  if (opts.nodeSelfInfluence !== 0) for (let k = 0; k < x.length; k++) out[k] = opts.nodeSelfInfluence * x[k];
  let next = new Float32Array(n * d);
  for (const w of opts.iterationWeights) {
    next.fill(0);
    for (let v = 0; v < n; v++) {
      if ((v & CHECK_MASK) === 0) deadline();
      const deg = offsets[v + 1] - offsets[v];
      if (deg === 0) continue;
      const o = v * d;
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        const u = targets[e] * d;
        for (let i = 0; i < d; i++) next[o + i] += x[u + i];
      }
      const inv = 1 / deg;
      for (let i = 0; i < d; i++) next[o + i] *= inv;
    }
    normaliseRows(next, n, d);
    for (let k = 0; k < out.length; k++) out[k] += w * next[k];
    const t = x;
    x = next;
    next = t;
  }
  return out;
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
