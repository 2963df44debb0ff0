/**
 * PageRank and its relatives by power iteration over the CSR.
 *
 * PageRank: scores start at the teleport vector and always sum to 1. Each step gives every
 * node (1 - d)·p(v), plus d times the share of its in-neighbours' scores (a node splits its
 * score evenly over its CSR row, parallel edges counting once each), plus d times the mass
 * of nodes without any outgoing edge ("dangling" nodes) spread by p as well. p is uniform
 * (1/n), or uniform over `sources` for personalised PageRank — the definition networkx and
 * most libraries use, so dangling mass returns to the sources. Iteration stops after
 * `maxIterations` steps or as soon as the summed absolute change of all scores falls below
 * `tolerance`. (Scores sum to 1, so that is a change relative to the whole. networkx and
 * graphology compare with n × tolerance instead, which on large graphs stops after a few
 * rounds with the ranking still moving: on kron-17, n × 1e-6 allows a total change of 0.13
 * and ends after 3 rounds, with the 10th and 11th vertices in the wrong order.)
 *
 * A PageRank round pulls: each node sums its in-neighbours' contributions over the
 * transposed CSR, so blocks of nodes are independent and run on the worker pool
 * (`concurrency`) over shared arrays, with one pool task per round. The blocks are fixed by
 * the graph, not the thread count, so every thread count gives the same bits. The rounds run
 * on a hand-written WebAssembly function (wasm/pagerank.ts) where it can run, with the same
 * blocks and additions, so the same bits: on one thread, or on the pool over a shared
 * WebAssembly memory that every thread instantiates the module on. The JavaScript rounds are
 * the fallback (no WebAssembly, or no shared memory for the pool) and the reference.
 *
 * ArticleRank (Li et al., 2009; as Neo4j GDS computes it): like PageRank without
 * normalisation, but a node's share is divided by (out-degree + average out-degree), so
 * nodes with few outgoing links do not pass on outsized weight: x(v) = (1 - d) + d ·
 * Σ_{u→v} x(u) / (deg(u) + avgDeg). Scores start at 1 - d and are O(1) each, so iteration
 * stops when the mean absolute change per node falls below `tolerance`.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { controlArray, registerKernel, runTask, sharedCsr, sharedFloats, workCuts, type TaskBase } from './parallel.js';
import { scratchFloat64 } from './scratch.js';
import { transpose } from './simple.js';
import { wasmPageRank, type WasmPageRank } from './wasm/pagerank.js';

export interface PageRankOptions {
  dampingFactor: number;
  maxIterations: number;
  tolerance: number;
  /** Dense indices of the personalisation sources; empty for plain PageRank. */
  sources?: readonly number[];
}

export interface PageRankResult {
  scores: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Pushes `x[v] * share[v]` along every row into `next` (which the caller has prefilled). */
function spread(csr: Csr, x: Float64Array, share: Float64Array, next: Float64Array, deadline: Deadline): void {
  const { n, offsets, targets } = csr;
  for (let v = 0; v < n; v++) {
    if ((v & CHECK_MASK) === 0) deadline();
    const c = x[v] * share[v];
    if (c === 0) continue;
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) next[targets[e]] += c;
  }
}

function change(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let v = 0; v < a.length; v++) s += Math.abs(a[v] - b[v]);
  return s;
}

/** One PageRank round, cut into blocks of nodes that threads claim (see `pageRankItem`). */
export interface PageRankTask extends TaskBase {
  /** In-neighbour rows (the transposed CSR). */
  offsets: Int32Array;
  targets: Int32Array;
  /** d / out-degree, 0 for dangling nodes. */
  share: Float64Array;
  /** Teleport weight per node; empty when uniform (then `base` is already divided by n). */
  teleport: Float64Array;
  /** (1 - d + d · dangling mass), divided by n when the teleport is uniform. */
  base: number;
  /** This round's scores and what each node passes to each out-neighbour (score · share). */
  x: Float64Array;
  contrib: Float64Array;
  /** Written by the round: the next scores and contributions. */
  next: Float64Array;
  contribNext: Float64Array;
  /** Block b is nodes cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
  /** Per block: summed absolute change and dangling mass of the next scores. */
  deltas: Float64Array;
  danglings: Float64Array;
}

/**
 * Block `b` of a round, by pull: every node sums its in-neighbours' contributions, so each
 * thread writes only its own nodes and no update races. The block's change and dangling mass
 * go to their own slots and are added in block order by the caller, so the result does not
 * depend on how many threads ran the blocks.
 */
export function pageRankItem(t: PageRankTask, b: number, deadline: Deadline): void {
  const { offsets, targets, share, teleport, base, x, contrib, next, contribNext } = t;
  const uniform = teleport.length === 0;
  let delta = 0;
  let dangling = 0;
  const last = t.cuts[b + 1];
  // One edge cursor through the block's rows and two partial sums per row (even and odd
  // entries): V8 compiles this about twice as fast as reloading each row's start with one
  // running sum (bench/algo-c/kernels.c sums rows the same way).
  let e = offsets[t.cuts[b]];
  for (let v = t.cuts[b]; v < last; v++) {
    if ((v & 4095) === 0) deadline();
    let even = 0;
    let odd = 0;
    const stop = offsets[v + 1];
    // Four entries per turn into the same two sums (the same additions in the same order as
    // two per turn, so the same bits): V8 reloads each typed array's length and data pointer
    // once per turn, after the loop's interrupt check, and pays that a quarter as often.
    for (; e + 3 < stop; e += 4) {
      even += contrib[targets[e]];
      odd += contrib[targets[e + 1]];
      even += contrib[targets[e + 2]];
      odd += contrib[targets[e + 3]];
    }
    if (e + 1 < stop) {
      even += contrib[targets[e]];
      odd += contrib[targets[e + 1]];
      e += 2;
    }
    if (e < stop) even += contrib[targets[e++]];
    const nv = (uniform ? base : base * teleport[v]) + (even + odd);
    delta += Math.abs(nv - x[v]);
    next[v] = nv;
    const sv = share[v];
    contribNext[v] = nv * sv;
    if (sv === 0) dangling += nv;
  }
  t.deltas[b] = delta;
  t.danglings[b] = dangling;
}

registerKernel('pageRank', pageRankItem, []);

/**
 * Below this many edges a round takes well under a millisecond, less than waking the worker
 * threads costs, so the calling thread runs it alone.
 */
const PARALLEL_MIN_EDGES = 1 << 17;

/**
 * The first round's inputs: share (d / out-degree), scores (the teleport vector) and their
 * contributions; returns the dangling nodes' mass. A function of its own so that V8 compiles
 * the loop once, not by on-stack replacement inside pageRank on every call (which it then
 * threw away at the next statement: six deoptimisations in thirty calls on kron-17).
 */
function initialScores(offsets: Int32Array, d: number, uniform: boolean, teleport: Float64Array, share: Float64Array, x: Float64Array, contrib: Float64Array): number {
  const n = share.length;
  let dangling = 0;
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    share[v] = deg > 0 ? d / deg : 0;
    x[v] = uniform ? 1 / n : teleport[v];
    contrib[v] = x[v] * share[v];
    if (deg === 0) dangling += x[v];
  }
  return dangling;
}

/** The control array of a one-thread round, which runs on the calling thread and never reads it (a shared one per round costs a SharedArrayBuffer). */
const SOLO_CONTROL = new Int32Array(4);

export function pageRank(csr: Csr, opts: PageRankOptions, deadline: Deadline, threads = 1): PageRankResult {
  const { n, offsets } = csr;
  if (n === 0) return { scores: new Float64Array(0), iterations: 0, converged: true };
  const parallel = threads > 1 && offsets[n] >= PARALLEL_MIN_EDGES;
  // The working arrays are kept per CSR (scratch.ts; shared ones for the pool), so a call over
  // a cached projection allocates only its result: five fresh arrays of n doubles per call
  // drove V8 into a full collection of the heap every dozen calls or so.
  const floats = (name: string): Float64Array => scratchFloat64(csr, `pagerank.${name}`, n, parallel);
  const transposed = transpose(csr);
  const sources = opts.sources ?? [];
  const uniform = sources.length === 0;
  const teleport = uniform ? NO_TELEPORT : floats('teleport').fill(0);
  for (const s of sources) teleport[s] += 1 / sources.length;
  const d = opts.dampingFactor;
  const blocks = Math.max(1, Math.min(64, Math.ceil((n + offsets[n]) / 32768)));
  // On the pool the WebAssembly rounds need a shared memory; where there is none, the
  // JavaScript rounds run on the pool instead.
  const wasm = wasmPageRank(csr, transposed, parallel);
  // A fixed number of blocks per graph size, not per thread count, so that every thread
  // count adds the same partial sums in the same order.
  const cuts = workCuts(transposed.offsets, n, blocks);
  if (wasm !== undefined) return pageRankWasm(wasm, offsets, opts, teleport, cuts, blocks, deadline, parallel ? threads : 1);
  const rows = parallel ? sharedCsr(transposed) : transposed;
  const share = floats('share');
  const x = floats('x');
  const contrib = floats('contrib');
  let dangling = initialScores(offsets, d, uniform, teleport, share, x, contrib);
  const task: PageRankTask = {
    kernel: 'pageRank',
    items: blocks,
    control: SOLO_CONTROL,
    offsets: rows.offsets,
    targets: rows.targets,
    share,
    teleport,
    base: 0,
    x,
    contrib,
    next: floats('next'),
    contribNext: floats('contrib-next'),
    cuts,
    deltas: parallel ? sharedFloats(blocks) : new Float64Array(blocks),
    danglings: parallel ? sharedFloats(blocks) : new Float64Array(blocks),
  };
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    const base = 1 - d + d * dangling;
    task.base = uniform ? base / n : base;
    if (parallel) task.control = controlArray();
    runTask(task, parallel ? threads : 1, deadline);
    let delta = 0;
    dangling = 0;
    for (let b = 0; b < blocks; b++) {
      delta += task.deltas[b];
      dangling += task.danglings[b];
    }
    [task.x, task.next] = [task.next, task.x];
    [task.contrib, task.contribNext] = [task.contribNext, task.contrib];
    if (delta < opts.tolerance) {
      converged = true;
      break;
    }
  }
  // The scores are the caller's to keep: copied out of the kept arrays.
  return { scores: task.x.slice(), iterations, converged };
}

/**
 * The one-thread rounds on the WebAssembly kernel (wasm/pagerank.ts): the same blocks, the
 * same order of additions and the same stopping rule as the JavaScript rounds, so the same
 * bits. `teleport` is empty for plain PageRank.
 */
function pageRankWasm(wasm: WasmPageRank, offsets: Int32Array, opts: PageRankOptions, teleport: Float64Array, cuts: Int32Array, blocks: number, deadline: Deadline, threads: number): PageRankResult {
  const n = wasm.share.length;
  const d = opts.dampingFactor;
  const uniform = teleport.length === 0;
  if (!uniform) wasm.teleport.set(teleport);
  let dangling = initialScores(offsets, d, uniform, wasm.teleport, wasm.share, wasm.x, wasm.contrib);
  const sums = new Float64Array(2);
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    const base = 1 - d + d * dangling;
    wasm.round(cuts, blocks, uniform ? base / n : base, uniform, deadline, sums, threads);
    dangling = sums[1];
    if (sums[0] < opts.tolerance) {
      converged = true;
      break;
    }
  }
  return { scores: wasm.x.slice(), iterations, converged };
}

/** The teleport vector of plain PageRank: empty (uniform; `base` is then divided by n). */
const NO_TELEPORT = new Float64Array(0);

export function articleRank(csr: Csr, opts: PageRankOptions, deadline: Deadline): PageRankResult {
  const { n, offsets } = csr;
  let x = new Float64Array(n);
  let next = new Float64Array(n);
  if (n === 0) return { scores: x, iterations: 0, converged: true };
  const d = opts.dampingFactor;
  const avg = offsets[n] / n;
  const share = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const deg = offsets[v + 1] - offsets[v];
    share[v] = deg > 0 ? d / (deg + avg) : 0;
  }
  x.fill(1 - d);
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    next.fill(1 - d);
    spread(csr, x, share, next, deadline);
    const delta = change(next, x);
    const t = x;
    x = next;
    next = t;
    if (delta < opts.tolerance * n) {
      converged = true;
      break;
    }
  }
  return { scores: x, iterations, converged };
}
