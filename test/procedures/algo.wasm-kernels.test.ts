/**
 * The hand-written WebAssembly kernels (procedures/algo/wasm/) against the JavaScript kernels
 * they replace on one thread, which stay the reference: PageRank's rounds must give the same
 * bits (every score `Object.is`-equal), the same round count and the same convergence, plain
 * and personalised, on Kronecker graphs and on random graphs with dangling nodes, isolated
 * nodes and self-loops; a second call over the same CSR reuses the kept memory and leaves the
 * first call's scores alone; the pool's path (2 threads) still agrees; delta-stepping, the
 * direction-optimising BFS and Afforest give the JavaScript forms' results (and Dijkstra's,
 * the plain BFS's, the union-find's), delta-stepping also past its bucket lists' window and
 * on the pool (its rounds over one shared memory on 2 and 3 threads: one thread's distances
 * bit for bit and its order, and a deadline that stops it); triangle count on one thread
 * and on the pool gives the JavaScript kernel's counts; a
 * CSR keeps one memory, whichever kernels run over it; and the encoder's LEB128 numbers
 * decode back.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { kronecker } from '../../bench/algo-graphs.js';
import { csrOf } from '../../bench/algo-kernels.js';
import { bfs } from '../../procedures/algo/bfs.js';
import { bfsDirectionOptimising } from '../../procedures/algo/bfs-parallel.js';
import type { BfsResult } from '../../procedures/algo/bfs.js';
import type { Csr } from '../../procedures/algo/csr.js';
import { deltaStepping, type DeltaSteppingResult } from '../../procedures/algo/delta-stepping.js';
import { pageRank, type PageRankOptions, type PageRankResult } from '../../procedures/algo/pagerank.js';
import { dijkstra } from '../../procedures/algo/sssp.js';
import { afforest, weaklyConnected } from '../../procedures/algo/wcc.js';
import { sleb, uleb } from '../../procedures/algo/wasm/encode.js';
import { instanceFor, useWasmKernels } from '../../procedures/algo/wasm/instance.js';
import { wasmPageRank } from '../../procedures/algo/wasm/pagerank.js';
import { wasmAfforest } from '../../procedures/algo/wasm/wcc.js';
import { wasmBfs } from '../../procedures/algo/wasm/bfs.js';
import { wasmDeltaStepping } from '../../procedures/algo/wasm/delta-stepping.js';
import { defaultDelta } from '../../procedures/algo/delta-stepping.js';
import { simpleUndirected } from '../../procedures/algo/csr.js';
import { trianglesPerNode } from '../../procedures/algo/triangles.js';
import { wasmTriangles } from '../../procedures/algo/wasm/triangles.js';
import { parallelRuns } from '../../procedures/algo/parallel.js';
import { transpose } from '../../procedures/algo/simple.js';
import { random } from './algo.graphs.js';

const none = (): void => undefined;

/** `m` random directed edges over `n` nodes (self-loops and repeats kept, a tail of nodes left without edges). */
function randomCsr(n: number, m: number, seed: number, direction: 'out' | 'both'): Csr {
  const rand = random(seed);
  const edges: [number, number][] = [];
  const reach = Math.max(1, Math.floor(n * 0.9));
  for (let k = 0; k < m; k++) edges.push([Math.floor(rand() ** 2 * reach), Math.floor(rand() * reach)]);
  return csrOf(n, edges, direction);
}

/** PageRank on one thread, by the JavaScript rounds (`js`) or the WebAssembly ones. */
function run(csr: Csr, opts: PageRankOptions, wasm: boolean): PageRankResult {
  useWasmKernels(wasm);
  try {
    return pageRank(csr, opts, none);
  } finally {
    useWasmKernels(true);
  }
}

function expectSameBits(a: PageRankResult, b: PageRankResult): void {
  expect(a.iterations).toBe(b.iterations);
  expect(a.converged).toBe(b.converged);
  expect(a.scores.length).toBe(b.scores.length);
  let differ = 0;
  for (let v = 0; v < a.scores.length; v++) if (!Object.is(a.scores[v], b.scores[v])) differ++;
  expect(differ).toBe(0);
}

/** `csr` with weights from each edge's ends: integers 1..64 (`integer`) or fractions in (0, 10]. */
function weighted(csr: Csr, integer: boolean): Csr {
  const weights = new Float64Array(csr.targets.length);
  for (let v = 0; v < csr.n; v++) {
    for (let e = csr.offsets[v]; e < csr.offsets[v + 1]; e++) {
      const h = (Math.imul(v, 0x9e3779b1) ^ Math.imul(csr.targets[e], 0x85ebca77)) >>> 0;
      weights[e] = integer ? 1 + (h % 64) : ((h % 1000) + 1) / 100;
    }
  }
  return { ...csr, weights };
}

/** Delta-stepping on one thread, by the JavaScript rounds or the WebAssembly ones. */
function sssp(csr: Csr, source: number, wasm: boolean, delta?: number): DeltaSteppingResult {
  useWasmKernels(wasm);
  try {
    return deltaStepping(csr, source, none, 1, delta);
  } finally {
    useWasmKernels(true);
  }
}

function expectSameSearch(a: DeltaSteppingResult, b: DeltaSteppingResult): void {
  expect(a.count).toBe(b.count);
  expect(Buffer.from(a.dist.buffer, a.dist.byteOffset, a.dist.byteLength).equals(Buffer.from(b.dist.buffer, b.dist.byteOffset, b.dist.byteLength))).toBe(true);
  expect(Array.from(a.order.subarray(0, a.count))).toEqual(Array.from(b.order.subarray(0, b.count)));
}

const plain: PageRankOptions = { dampingFactor: 0.85, maxIterations: 200, tolerance: 1e-7 };

describe('WebAssembly kernels', () => {
  afterEach(() => useWasmKernels(true));

  it('can run here (Node has WebAssembly)', () => {
    expect(instanceFor(1024, false)).toBeDefined();
    const csr = randomCsr(10, 20, 1, 'both');
    expect(wasmPageRank(csr, transpose(csr))).toBeDefined();
  });

  it('PageRank: the same bits as the JavaScript rounds on Kronecker graphs', () => {
    for (const scale of [8, 12]) {
      const edges = kronecker(scale, 16, 20240611 + scale);
      for (const direction of ['both', 'out'] as const) {
        const csr = csrOf(2 ** scale, edges, direction);
        expectSameBits(run(csr, plain, true), run(csr, plain, false));
      }
    }
  });

  it('PageRank: the same bits on random graphs, plain and personalised, to a fixed round count', () => {
    for (const [n, m, seed] of [[1, 0, 1], [2, 1, 2], [7, 30, 3], [300, 900, 4], [5000, 40000, 5], [20000, 50000, 6]] as const) {
      for (const direction of ['both', 'out'] as const) {
        const csr = randomCsr(n, m, seed, direction);
        expectSameBits(run(csr, plain, true), run(csr, plain, false));
        const fixed = { ...plain, tolerance: 0, maxIterations: 17 };
        expectSameBits(run(csr, fixed, true), run(csr, fixed, false));
        const personalised = { ...plain, sources: [0, Math.floor(n / 2), n - 1] };
        expectSameBits(run(csr, personalised, true), run(csr, personalised, false));
      }
    }
  });

  it('PageRank: a second call over the same CSR reuses the memory and leaves the first scores alone', () => {
    const csr = randomCsr(3000, 20000, 7, 'both');
    const first = run(csr, plain, true);
    const copy = first.scores.slice();
    const kept = wasmPageRank(csr, transpose(csr));
    const second = run(csr, { ...plain, sources: [1] }, true);
    expect(wasmPageRank(csr, transpose(csr))).toBe(kept);
    expect(Array.from(first.scores)).toEqual(Array.from(copy));
    expect(second.scores[1]).toBeGreaterThan(first.scores[1]);
    expectSameBits(run(csr, plain, true), first);
  });

  it('PageRank: the pool (2 threads, shared memory, JavaScript) gives the same bits as the WebAssembly rounds', () => {
    const edges = kronecker(13, 16, 99);
    const csr = csrOf(2 ** 13, edges, 'both');
    useWasmKernels(false);
    const before = parallelRuns.get('pageRank') ?? 0;
    const js = pageRank(csr, plain, none, 2);
    useWasmKernels(true);
    expect(parallelRuns.get('pageRank') ?? 0).toBeGreaterThan(before);
    expectSameBits(js, run(csr, plain, true));
  });

  it('PageRank: the WebAssembly rounds on the pool (2 and 3 threads, one shared memory) give the bits of one thread', () => {
    // Scale 14: the 'out' CSR too has the 2^17 edges below which a round stays on one thread.
    const edges = kronecker(14, 16, 98);
    for (const direction of ['both', 'out'] as const) {
      const csr = csrOf(2 ** 14, edges, direction);
      const one = run(csr, plain, false);
      for (const threads of [2, 3]) {
        const before = parallelRuns.get('pageRankWasm') ?? 0;
        expectSameBits(pageRank(csr, plain, none, threads), one);
        expect(parallelRuns.get('pageRankWasm') ?? 0).toBeGreaterThan(before);
      }
      // The shared memory is kept and serves one thread too; personalised and fixed rounds as well.
      expect(wasmPageRank(csr, transpose(csr), true)?.shared).toBe(true);
      expectSameBits(run(csr, plain, true), one);
      const personalised = { ...plain, sources: [3, 200, 2 ** 14 - 1] };
      expectSameBits(pageRank(csr, personalised, none, 2), run(csr, personalised, false));
      const fixed = { ...plain, tolerance: 0, maxIterations: 9 };
      expectSameBits(pageRank(csr, fixed, none, 3), run(csr, fixed, false));
    }
  });

  it('PageRank: a deadline stops the WebAssembly rounds on the pool, which stays usable', () => {
    const csr = csrOf(2 ** 13, kronecker(13, 16, 97), 'both');
    let calls = 0;
    const deadline = (): void => {
      if (++calls > 12) throw new Error('out of time');
    };
    expect(() => pageRank(csr, { ...plain, tolerance: 0, maxIterations: 1000 }, deadline, 2)).toThrow('out of time');
    expectSameBits(pageRank(csr, plain, none, 2), run(csr, plain, false));
  });

  it('PageRank: a deadline stops the WebAssembly rounds', () => {
    const csr = randomCsr(20000, 100000, 8, 'both');
    let calls = 0;
    const deadline = (): void => {
      if (++calls > 10) throw new Error('out of time');
    };
    expect(() => pageRank(csr, { ...plain, tolerance: 0, maxIterations: 1000 }, deadline)).toThrow('out of time');
    // The kept memory is still good for the next call.
    expectSameBits(run(csr, plain, true), run(csr, plain, false));
  });

  it('delta-stepping: the same distances and order as the JavaScript rounds, for several widths', () => {
    const kron = csrOf(2 ** 12, kronecker(12, 16, 5), 'both');
    for (const [csr, integer] of [[kron, true], [kron, false], [randomCsr(5000, 30000, 9, 'out'), false], [randomCsr(40, 100, 10, 'both'), true], [randomCsr(1, 0, 11, 'both'), true]] as const) {
      const g = weighted(csr, integer);
      for (const delta of [undefined, 0.5, 3, 100]) {
        const a = sssp(g, 0, true, delta);
        expectSameSearch(a, sssp(g, 0, false, delta));
        // And Dijkstra's distances, bit for bit.
        const d = dijkstra(g, 0, none).dist;
        expect(Buffer.from(a.dist.buffer, a.dist.byteOffset, a.dist.byteLength).equals(Buffer.from(d.buffer, d.byteOffset, d.byteLength))).toBe(true);
      }
    }
  });

  it('delta-stepping: the same results where buckets pass the WebAssembly lists\' window (later buckets spread over new windows), with zero and far weights', () => {
    const kron = weighted(csrOf(2 ** 10, kronecker(10, 8, 21), 'both'), false);
    // Widths so narrow that the distances span millions of buckets: many windows, nodes moved between them.
    for (const delta of [1e-4, 3e-6]) {
      const a = sssp(kron, 0, true, delta);
      expectSameSearch(a, sssp(kron, 0, false, delta));
      expect(Array.from(a.dist)).toEqual(Array.from(dijkstra(kron, 0, none).dist));
    }
    // Weights of 0 (a bucket refilled by its own rounds) and weights far above the width, on a random graph.
    const g = randomCsr(3000, 20000, 22, 'out');
    const weights = new Float64Array(g.targets.length);
    const rand = random(23);
    for (let e = 0; e < weights.length; e++) weights[e] = rand() < 0.2 ? 0 : rand() < 0.1 ? 1e6 * rand() : rand();
    const zero = { ...g, weights };
    for (const delta of [undefined, 0.01, 1e-5, 5]) {
      const a = sssp(zero, 0, true, delta);
      expectSameSearch(a, sssp(zero, 0, false, delta));
      expect(Array.from(a.dist)).toEqual(Array.from(dijkstra(zero, 0, none).dist));
    }
  });

  it('delta-stepping: a deadline stops the WebAssembly search, and the kept memory is good for the next one', () => {
    const g = weighted(csrOf(2 ** 12, kronecker(12, 16, 24), 'both'), true);
    let calls = 0;
    const deadline = (): void => {
      if (++calls > 3) throw new Error('out of time');
    };
    expect(() => deltaStepping(g, 0, deadline, 1)).toThrow('out of time');
    expectSameSearch(sssp(g, 0, true), sssp(g, 0, false));
  });

  it('delta-stepping: results are the caller\'s (a second search leaves the first one\'s distances), and the pool still agrees', () => {
    const g = weighted(csrOf(2 ** 12, kronecker(12, 16, 6), 'both'), true);
    const first = sssp(g, 0, true);
    const copy = first.dist.slice();
    const second = sssp(g, 5, true);
    expect(second.dist[5]).toBe(0);
    expect(Array.from(first.dist)).toEqual(Array.from(copy));
    expectSameSearch(deltaStepping(g, 0, none, 2), first);
  });

  it('delta-stepping on the pool: the WebAssembly rounds over one shared memory (2 and 3 threads) give one thread\'s distances bit for bit and its order', () => {
    // Integer weights (many equal sums: ties), fractional ones, and a random directed graph with
    // a tenth of zero weights, a few far above the width, and a tenth of its nodes without edges
    // (unreached: parts apart from the source's).
    const kron = csrOf(2 ** 13, kronecker(13, 16, 32), 'both');
    const sparse = randomCsr(20000, 60000, 33, 'out');
    const rand = random(34);
    const zeroWeights = Float64Array.from({ length: sparse.targets.length }, () => (rand() < 0.1 ? 0 : rand() < 0.05 ? 1000 * rand() : rand()));
    const zero: Csr = { ...sparse, weights: zeroWeights };
    const cases: [string, Csr, (number | undefined)[]][] = [
      ['integer weights', weighted(kron, true), [undefined, 2, 1000]],
      ['fractional weights', weighted(kron, false), [undefined, 0.05]],
      ['zero and far weights, unreached nodes', zero, [undefined, 1e-3, 5]],
    ];
    for (const [, g, deltas] of cases) {
      for (const delta of deltas) {
        const one = sssp(g, 0, true, delta);
        // The one-thread rounds agree with the JavaScript ones and with Dijkstra (the references).
        expectSameSearch(one, sssp(g, 0, false, delta));
        const d = dijkstra(g, 0, none).dist;
        expect(Buffer.from(one.dist.buffer, one.dist.byteOffset, one.dist.byteLength).equals(Buffer.from(d.buffer, d.byteOffset, d.byteLength))).toBe(true);
        expect(one.count).toBeLessThan(g.n);
        for (const threads of [2, 3]) {
          const before = parallelRuns.get('deltaSteppingWasm') ?? 0;
          expectSameSearch(deltaStepping(g, 0, none, threads, delta), one);
          expect(parallelRuns.get('deltaSteppingWasm') ?? 0).toBeGreaterThan(before);
        }
      }
    }
    // The kept memory is a shared one and serves one thread too; another source, and the JavaScript rounds on the pool (the fallback) agree.
    const g = cases[0][1];
    const pooled = deltaStepping(g, 0, none, 2);
    const kept = wasmDeltaStepping(g, defaultDelta(g), () => {
      throw new Error('the memory was made again');
    }, true);
    expect(kept?.shared).toBe(true);
    expectSameSearch(sssp(g, 0, true), pooled);
    expect(wasmDeltaStepping(g, defaultDelta(g), () => undefined)).toBe(kept);
    expectSameSearch(deltaStepping(g, 4000, none, 3), sssp(g, 4000, false));
    useWasmKernels(false);
    const beforeJs = parallelRuns.get('delta-stepping') ?? 0;
    const js = deltaStepping(g, 0, none, 2);
    expect(parallelRuns.get('delta-stepping') ?? 0).toBeGreaterThan(beforeJs);
    useWasmKernels(true);
    expectSameSearch(js, sssp(g, 0, true));
  });

  it('delta-stepping on the pool: a deadline stops the WebAssembly rounds (checked by the calling thread at each round), and the pool stays usable', () => {
    const g = weighted(csrOf(2 ** 13, kronecker(13, 16, 35), 'both'), false);
    // Out of time once the third round has gone to the pool. Whichever thread claims its blocks,
    // the search stops there: in it (this thread's check of a block it runs, or of its wait for
    // the workers) or, if the workers finished it first, at this thread's check before the next.
    // A width above every distance puts every node in one bucket, so pool rounds follow one
    // another with no bucket's check between them; a narrow one makes many buckets.
    for (const delta of [1e9, 0.05]) {
      const before = parallelRuns.get('deltaSteppingWasm') ?? 0;
      const deadline = (): void => {
        if ((parallelRuns.get('deltaSteppingWasm') ?? 0) >= before + 3) throw new Error('out of time');
      };
      expect(() => deltaStepping(g, 0, deadline, 2, delta)).toThrow('out of time');
      expect(parallelRuns.get('deltaSteppingWasm') ?? 0).toBe(before + 3);
      expectSameSearch(deltaStepping(g, 0, none, 2, delta), sssp(g, 0, true, delta));
    }
    // The check before each pool round alone, the blocks' checks and runTask's wait ignored (by
    // the stack: as if the workers ran every block): in one bucket it still stops the search
    // before a fourth pool round starts.
    const before = parallelRuns.get('deltaSteppingWasm') ?? 0;
    const driverOnly = (): void => {
      if ((parallelRuns.get('deltaSteppingWasm') ?? 0) >= before + 3 && !/deltaWasmItem|runTask/.test(new Error().stack ?? '')) throw new Error('out of time');
    };
    expect(() => deltaStepping(g, 0, driverOnly, 2, 1e9)).toThrow('out of time');
    expect(parallelRuns.get('deltaSteppingWasm') ?? 0).toBe(before + 3);
  });

  it('direction-optimising BFS: the same depths, order and count as the JavaScript steps and as the plain BFS', () => {
    const search = (csr: Csr, incoming: Csr, source: number, maxDepth: number, wasm: boolean): BfsResult => {
      useWasmKernels(wasm);
      try {
        return bfsDirectionOptimising(csr, incoming, source, maxDepth, none, 1);
      } finally {
        useWasmKernels(true);
      }
    };
    const kron = csrOf(2 ** 13, kronecker(13, 16, 12), 'both');
    const directed = randomCsr(6000, 40000, 13, 'out');
    // A clique with a long path hanging off it: bottom-up after the first level (the queue made a bitmap), top-down again along the path (the depths made a queue).
    const cliquePath: [number, number][] = [];
    for (let a = 0; a < 120; a++) for (let b = a + 1; b < 120; b++) cliquePath.push([a, b]);
    for (let v = 119; v < 400; v++) cliquePath.push([v, v + 1]);
    const tail = csrOf(401, cliquePath, 'both');
    const cases: [Csr, Csr][] = [[tail, tail], [kron, kron], [directed, transpose(directed)], [randomCsr(1, 0, 14, 'both'), randomCsr(1, 0, 14, 'both')], [randomCsr(50, 60, 15, 'both'), randomCsr(50, 60, 15, 'both')]];
    for (const [csr, incoming] of cases) {
      for (const source of [0, Math.floor(csr.n / 3), csr.n - 1]) {
        for (const maxDepth of [2 ** 31 - 1, 2]) {
          const a = search(csr, incoming, source, maxDepth, true);
          const b = search(csr, incoming, source, maxDepth, false);
          expect(a.count).toBe(b.count);
          expect(Array.from(a.depth)).toEqual(Array.from(b.depth));
          expect(Array.from(a.order.subarray(0, a.count))).toEqual(Array.from(b.order.subarray(0, b.count)));
          expect(Array.from(a.depth)).toEqual(Array.from(bfs(csr, source, maxDepth, none).depth));
        }
      }
    }
    // A second search leaves the first one's depths alone.
    const first = search(kron, kron, 0, 2 ** 31 - 1, true);
    const copy = first.depth.slice();
    search(kron, kron, 7, 2 ** 31 - 1, true);
    expect(Array.from(first.depth)).toEqual(Array.from(copy));
  });

  it('direction-optimising BFS on the pool: the WebAssembly levels over one shared memory give the plain BFS, both ways of switching, and stop at a deadline', () => {
    const cliquePath: [number, number][] = [];
    for (let a = 0; a < 150; a++) for (let b = a + 1; b < 150; b++) cliquePath.push([a, b]);
    for (let v = 149; v < 3000; v++) cliquePath.push([v, v + 1]);
    const tail = csrOf(3001, cliquePath, 'both');
    const kron = csrOf(2 ** 13, kronecker(13, 16, 30), 'both');
    const directed = randomCsr(9000, 60000, 31, 'out');
    for (const [csr, incoming] of [[tail, tail], [kron, kron], [directed, transpose(directed)]] as const) {
      for (const source of [0, csr.n - 1]) {
        const want = bfs(csr, source, 2 ** 31 - 1, none);
        for (const threads of [2, 3]) {
          const before = parallelRuns.get('bfsWasm') ?? 0;
          const got = bfsDirectionOptimising(csr, incoming, source, 2 ** 31 - 1, none, threads);
          expect(got.count).toBe(want.count);
          expect(Array.from(got.depth)).toEqual(Array.from(want.depth));
          expect(Array.from(got.order.subarray(0, got.count))).toEqual(Array.from(bfsDirectionOptimising(csr, incoming, source, 2 ** 31 - 1, none, 1).order.subarray(0, want.count)));
          if (want.count > 1) expect(parallelRuns.get('bfsWasm') ?? 0).toBeGreaterThan(before);
        }
      }
    }
    expect(wasmBfs(kron, kron, true)?.shared).toBe(true);
    let calls = 0;
    const deadline = (): void => {
      if (++calls > 2) throw new Error('out of time');
    };
    expect(() => bfsDirectionOptimising(tail, tail, 0, 2 ** 31 - 1, deadline, 2)).toThrow('out of time');
    expect(Array.from(bfsDirectionOptimising(tail, tail, 0, 2 ** 31 - 1, none, 2).depth)).toEqual(Array.from(bfs(tail, 0, 2 ** 31 - 1, none).depth));
  });

  it('Afforest: the same roots as the JavaScript phases and the union-find, directed and undirected, skipping or not', () => {
    const roots = (csr: Csr, symmetric: boolean, wasm: boolean): Int32Array => {
      useWasmKernels(wasm);
      try {
        return afforest(csr, none, 1, symmetric);
      } finally {
        useWasmKernels(true);
      }
    };
    const edges = kronecker(12, 16, 16);
    const cases: [Csr, boolean][] = [
      [csrOf(2 ** 12, edges, 'out'), false], [csrOf(2 ** 12, edges, 'both'), true], [csrOf(2 ** 12, edges, 'both'), false],
      [randomCsr(3000, 2500, 17, 'out'), false], [randomCsr(3000, 2500, 17, 'both'), true], [randomCsr(1, 0, 18, 'both'), true], [randomCsr(5, 3, 19, 'out'), false],
    ];
    for (const [csr, symmetric] of cases) {
      const a = roots(csr, symmetric, true);
      expect(Array.from(a)).toEqual(Array.from(roots(csr, symmetric, false)));
      expect(Array.from(a)).toEqual(Array.from(weaklyConnected(csr, none)));
    }
    // The roots are the caller's: a second call leaves them alone.
    const csr = cases[0][0];
    const first = roots(csr, false, true);
    first[5] = -7;
    expect(roots(csr, false, true)[5]).not.toBe(-7);
  });

  it('Afforest on the pool: the WebAssembly phases over one shared memory (2 and 3 threads) give the union-find roots', () => {
    const edges = kronecker(13, 16, 26);
    const cases: [Csr, boolean][] = [
      [csrOf(2 ** 13, edges, 'out'), false], [csrOf(2 ** 13, edges, 'both'), true], [csrOf(2 ** 13, edges, 'both'), false],
      [randomCsr(20000, 15000, 27, 'out'), false], [randomCsr(20000, 15000, 27, 'both'), true], [randomCsr(7, 4, 28, 'both'), true],
    ];
    for (const [csr, symmetric] of cases) {
      const expected = Array.from(weaklyConnected(csr, none));
      for (const threads of [2, 3]) {
        const before = parallelRuns.get('wccWasm') ?? 0;
        expect(Array.from(afforest(csr, none, threads, symmetric))).toEqual(expected);
        expect(parallelRuns.get('wccWasm') ?? 0).toBeGreaterThan(before);
      }
      // The JavaScript phases on the pool, the fallback, agree as well.
      useWasmKernels(false);
      const beforeJs = parallelRuns.get('wcc') ?? 0;
      expect(Array.from(afforest(csr, none, 2, symmetric))).toEqual(expected);
      expect(parallelRuns.get('wcc') ?? 0).toBeGreaterThan(beforeJs);
      useWasmKernels(true);
    }
    // The kept shared memory serves one thread too, and a call's roots are its own.
    const csr = cases[0][0];
    expect(wasmAfforest(csr, true)?.shared).toBe(true);
    const first = afforest(csr, none, 2);
    first[5] = -7;
    expect(afforest(csr, none, 1)[5]).not.toBe(-7);
    expect(Array.from(afforest(csr, none, 1))).toEqual(Array.from(weaklyConnected(csr, none)));
  });

  it('Afforest on the pool: a deadline stops the WebAssembly phases, and the pool stays usable', () => {
    const csr = csrOf(2 ** 13, kronecker(13, 16, 29), 'both');
    // Out of time at the third check. Which thread claims how many blocks varies from run to
    // run (on a busy machine the worker may take them all), but the calling thread checks at
    // the start of each of the six phases as well.
    let calls = 0;
    const deadline = (): void => {
      if (++calls >= 3) throw new Error('out of time');
    };
    expect(() => afforest(csr, deadline, 2)).toThrow('out of time');
    expect(Array.from(afforest(csr, none, 2))).toEqual(Array.from(weaklyConnected(csr, none)));
  });

  it('triangle count: the WebAssembly kernel on one thread and on the pool (2 and 3 threads) gives the JavaScript kernel\'s counts', () => {
    // The counts through each node by brute force over sorted neighbour sets (small graphs only).
    const bruteForce = (csr: Csr): number[] => {
      const rows = Array.from({ length: csr.n }, (_, v) => new Set(csr.targets.subarray(csr.offsets[v], csr.offsets[v + 1])));
      const count = new Array<number>(csr.n).fill(0);
      for (let a = 0; a < csr.n; a++) {
        for (const b of rows[a]) {
          if (b <= a) continue;
          for (const c of rows[b]) if (c > b && rows[a].has(c)) [a, b, c].forEach((x) => count[x]++);
        }
      }
      return count;
    };
    const jsCount = (csr: Csr, threads: number): Float64Array => {
      useWasmKernels(false);
      try {
        return trianglesPerNode(csr, threads, none);
      } finally {
        useWasmKernels(true);
      }
    };
    // A clique of 40 with a path off it (counts of hundreds per node, equal degrees: ranks by index), a Kronecker graph, a random
    // graph in many parts with a tenth of its nodes isolated, and graphs of one node and of one triangle.
    const clique: [number, number][] = [];
    for (let a = 0; a < 40; a++) for (let b = a + 1; b < 40; b++) clique.push([a, b]);
    for (let v = 39; v < 300; v++) clique.push([v, v + 1]);
    const cases: [string, Csr][] = [
      ['clique and path', simpleUndirected(csrOf(301, clique, 'both'))],
      ['kronecker', simpleUndirected(csrOf(2 ** 13, kronecker(13, 16, 36), 'both'))],
      ['random, many parts', simpleUndirected(randomCsr(30000, 40000, 37, 'both'))],
      ['one node', simpleUndirected(randomCsr(1, 0, 38, 'both'))],
      ['one triangle', simpleUndirected(csrOf(3, [[0, 1], [1, 2], [2, 0]], 'both'))],
    ];
    for (const [name, csr] of cases) {
      const want = jsCount(csr, 1);
      if (csr.n <= 301) expect(Array.from(want), name).toEqual(bruteForce(csr));
      const total = want.reduce((a, b) => a + b, 0);
      if (csr.n > 1) expect(total, name).toBeGreaterThan(0);
      const firstDifference = (got: Float64Array): number => (got.length === want.length ? got.findIndex((x, v) => !Object.is(x, want[v])) : -2);
      expect(firstDifference(trianglesPerNode(csr, 1, none)), name).toBe(-1);
      for (const threads of [2, 3]) {
        const before = parallelRuns.get('trianglesWasm') ?? 0;
        expect(firstDifference(trianglesPerNode(csr, threads, none)), `${name}, ${threads} threads`).toBe(-1);
        if (csr.n >= 2 * threads) expect(parallelRuns.get('trianglesWasm') ?? 0).toBeGreaterThan(before);
      }
      // The kept shared memory serves one thread again, and the JavaScript kernel on the pool (the fallback) agrees.
      expect(firstDifference(trianglesPerNode(csr, 1, none)), name).toBe(-1);
      expect(firstDifference(jsCount(csr, 2)), name).toBe(-1);
    }
    const kron = cases[1][1];
    expect(wasmTriangles(kron, 3, true)?.shared).toBe(true);
    // The counts are the caller's: a second count leaves them alone.
    const first = trianglesPerNode(kron, 2, none);
    const copy = first.slice();
    trianglesPerNode(kron, 1, none);
    expect(Array.from(first)).toEqual(Array.from(copy));
  });

  it('triangle count: a deadline stops the WebAssembly kernel on one thread and on the pool, which stays usable', () => {
    // Scale 15: a count of some 100 ms, so that the workers cannot finish every block before this thread's first check of a block or of its wait.
    const csr = simpleUndirected(csrOf(2 ** 15, kronecker(15, 16, 39), 'both'));
    const want = trianglesPerNode(csr, 1, none);
    let calls = 0;
    const stopAt = (limit: number) => (): void => {
      if (++calls >= limit) throw new Error('out of time');
    };
    // One thread: at the second of its checks (every 4096 nodes), mid-count.
    calls = 0;
    expect(() => trianglesPerNode(csr, 1, stopAt(2))).toThrow('out of time');
    expect(calls).toBe(2);
    // The pool: already out of time, the calling thread's check before the task stops it, whichever thread would have claimed the blocks.
    const before = parallelRuns.get('trianglesWasm') ?? 0;
    calls = 0;
    expect(() => trianglesPerNode(csr, 2, stopAt(1))).toThrow('out of time');
    expect(parallelRuns.get('trianglesWasm') ?? 0).toBe(before);
    // And mid-count: the second check comes from this thread's first block or from its wait for the workers' blocks; the lanes they held are free again after.
    calls = 0;
    expect(() => trianglesPerNode(csr, 3, stopAt(2))).toThrow('out of time');
    for (const threads of [2, 3, 1]) expect(trianglesPerNode(csr, threads, none).findIndex((x, v) => !Object.is(x, want[v]))).toBe(-1);
  });

  it('a CSR keeps one WebAssembly memory (one copy of its rows), for the kernel that ran last; results do not change', () => {
    const g = weighted(csrOf(2 ** 11, kronecker(11, 16, 25), 'both'), true);
    const rows = transpose(g);
    const rank = run(g, plain, true);
    const kept = wasmPageRank(g, rows);
    expect(wasmPageRank(g, rows)).toBe(kept);
    const search = sssp(g, 0, true);
    const roots = afforest(g, none, 1, true);
    const depths = bfsDirectionOptimising(g, g, 0, 2 ** 31 - 1, none, 1);
    // Each kernel's run let go of the memory the one before it kept: PageRank's is made anew.
    const again = wasmPageRank(g, rows);
    expect(again).toBeDefined();
    expect(again).not.toBe(kept);
    expectSameBits(run(g, plain, true), rank);
    expectSameSearch(sssp(g, 0, true), search);
    expect(Array.from(afforest(g, none, 1, true))).toEqual(Array.from(roots));
    expect(Array.from(bfsDirectionOptimising(g, g, 0, 2 ** 31 - 1, none, 1).depth)).toEqual(Array.from(depths.depth));
    expectSameSearch(sssp(g, 0, false), search);
  });

  it('encodes LEB128 numbers that decode back', () => {
    const decodeU = (b: number[]): number => b.reduce((acc, byte, i) => acc + (byte & 0x7f) * 2 ** (7 * i), 0);
    for (const v of [0, 1, 63, 64, 127, 128, 300, 65535, 2 ** 31 - 1, 2 ** 32 - 1]) expect(decodeU(uleb(v))).toBe(v);
    const decodeS = (b: number[]): number => {
      let result = 0;
      let shift = 0;
      for (const byte of b) {
        result |= (byte & 0x7f) << shift;
        shift += 7;
      }
      return shift < 32 && (b[b.length - 1] & 0x40) !== 0 ? result | (-1 << shift) : result;
    };
    for (const v of [0, 1, -1, 63, 64, -64, -65, 127, 128, -128, 2 ** 31 - 1, -(2 ** 31)]) expect(decodeS(sleb(v))).toBe(v);
  });
});
