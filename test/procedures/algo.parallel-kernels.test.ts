/**
 * WCC, direction-optimising BFS, SSSP by delta-stepping, triangle count, node similarity, knn and fastRP on the worker pool (procedures/algo/parallel.ts):
 * through `CALL`, a run with `concurrency` above 1 must give what one thread gives — the same
 * component ids, the same top-k lists in the same order, the same embedding bits. The
 * parallel floor is lowered so that the pool really runs on these small graphs, and the
 * pool's run counter proves it did. A query time limit stops the parallel kernels.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FloatBox, type Value } from '../../runtime/values.js';
import { Database } from '../../src/engine/database.js';
import { parallelFloor, parallelRuns } from '../../procedures/algo/parallel.js';
import { useWasmKernels } from '../../procedures/algo/wasm/instance.js';
import { slotLimit } from '../../procedures/algo/topk.js';
import { afforest, weaklyConnected } from '../../procedures/algo/wcc.js';
import { bfs } from '../../procedures/algo/bfs.js';
import { bfsDirectionOptimising } from '../../procedures/algo/bfs-parallel.js';
import { random } from './algo.graphs.js';

/**
 * `n` nodes with a small integer vector each (so that many similarity scores tie), and
 * `perNode`·n relationships from a skewed distribution (hubs at the low ids). Below one
 * relationship per node the graph falls into many components.
 */
function load(n: number, perNode: number, seed: number): Database {
  const db = Database.openInMemory();
  db.executeSync('CREATE INDEX FOR (v:V) ON (v.i)');
  const rand = random(seed);
  const vectors = Array.from({ length: n }, () => Array.from({ length: 4 }, () => Math.floor(rand() * 4)));
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i, v: $vectors[i]})', { n, vectors });
  const edges: number[][] = [];
  for (let k = 0; k < n * perNode; k++) edges.push([Math.floor(rand() ** 2 * n), Math.floor(rand() * n)]);
  db.executeSync('UNWIND $e AS e MATCH (a:V {i: e[0]}), (b:V {i: e[1]}) CREATE (a)-[:R]->(b)', { e: edges });
  return db;
}

function plain(v: Value): unknown {
  if (v instanceof FloatBox) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** The rows of `call` (with `concurrency: $c` added to its config), values unboxed; `toEqual` then compares float bits. */
function rows(db: Database, call: string, concurrency: number): unknown[][] {
  return db.executeSync(call.replace('})', `, concurrency: $c})`), { c: concurrency }).records.map((r) => r.map(plain));
}

/** Runs `call` on 1 thread, then on 2 and 3, checking that the pool ran the kernel and that every result equals the first. */
function sameOnEveryThreadCount(db: Database, call: string, kernel: string): unknown[][] {
  const one = rows(db, call, 1);
  for (const c of [2, 3]) {
    const before = parallelRuns.get(kernel) ?? 0;
    expect(rows(db, call, c)).toEqual(one);
    expect(parallelRuns.get(kernel) ?? 0).toBeGreaterThan(before);
  }
  return one;
}

describe('parallel WCC, node similarity, knn and fastRP', () => {
  const floor = parallelFloor.work;
  let sparse: Database;
  let dense: Database;
  beforeAll(() => {
    parallelFloor.work = 0;
    sparse = load(3000, 0.7, 20261126);
    dense = load(600, 4, 20261127);
  }, 120_000);
  afterAll(() => {
    parallelFloor.work = floor;
  });

  it('give the single-threaded component ids, run after run', () => {
    const call = "CALL algo.wcc({relationshipTypes: 'R'}) YIELD node, componentId RETURN node.i, componentId ORDER BY node.i";
    const one = rows(sparse, call, 1);
    const components = new Set(one.map((r) => r[1]));
    expect(components.size).toBeGreaterThan(100);
    expect(components.size).toBeLessThan(2900);
    // Afforest's WebAssembly phases on the pool (wasm/wcc.ts); test/procedures/algo.wasm-kernels.test.ts runs the JavaScript ones there too.
    expect(sameOnEveryThreadCount(sparse, call, 'wccWasm')).toEqual(one);
    sameOnEveryThreadCount(dense, call, 'wccWasm');
  });

  it('give the single-threaded distances (delta-stepping) and triangle counts, their WebAssembly forms on the pool', () => {
    // Weights 0, 0.5, .., 3 (zero weights and many equal sums), and unweighted (every path length a tie).
    const db = load(2000, 3, 20261130);
    db.executeSync('MATCH ()-[r:R]->() SET r.w = (id(r) % 7) * 0.5');
    // (A bucket width of 3 with the weights: rounds of more than 64 nodes, which go to the pool.)
    for (const weight of [", weightProperty: 'w', delta: 3.0", '']) {
      const call = `MATCH (s:V) WHERE s.i = 0 CALL algo.sssp({source: s, direction: 'BOTH'${weight}}) YIELD node, distance RETURN node.i, distance`;
      const one = sameOnEveryThreadCount(db, call, 'deltaSteppingWasm');
      expect(one.length).toBeGreaterThan(1500);
      expect(new Set(one.map((r) => r[1])).size).toBeLessThan(one.length / 10);
    }
    const triangles = sameOnEveryThreadCount(db, "CALL algo.triangleCount({relationshipTypes: 'R'}) YIELD node, triangles RETURN node.i, triangles ORDER BY node.i", 'trianglesWasm');
    expect(triangles.reduce((sum, r) => sum + (r[1] as number), 0)).toBeGreaterThan(30);
    sameOnEveryThreadCount(dense, "CALL algo.lcc({relationshipTypes: 'R'}) YIELD node, coefficient RETURN node.i, coefficient ORDER BY node.i", 'trianglesWasm');
  });

  it('WCC stays on one thread unless concurrency asks for more', () => {
    const pooled = (): number => (parallelRuns.get('wcc') ?? 0) + (parallelRuns.get('wccWasm') ?? 0);
    const before = pooled();
    const call = "CALL algo.wcc({relationshipTypes: 'R'}) YIELD node, componentId RETURN node.i, componentId ORDER BY node.i";
    expect(sparse.executeSync(call).records.map((r) => r.map(plain))).toEqual(rows(sparse, call, 1));
    expect(pooled()).toBe(before);
  });

  it('the one-thread union-find passes over neighbours already in the row\'s set and still links the one that is not', () => {
    // Row 0 puts 1..4 under 0. Row 5 meets 0 (5 goes under it), then 1, 2, 3, already under 0,
    // and 6, which only this row links: the four are not all passed over. Row 8 meets 0, then
    // 1..4, passed over at once, and 9, which only this row links.
    const rowsOf = [[1, 2, 3, 4], [], [], [], [], [0, 1, 2, 3, 6], [], [], [0, 1, 2, 3, 4, 9], []];
    const offsets = new Int32Array(rowsOf.length + 1);
    rowsOf.forEach((r, v) => (offsets[v + 1] = offsets[v] + r.length));
    const ids = Int32Array.from({ length: rowsOf.length }, (_, i) => i);
    const csr = { n: rowsOf.length, ids, index: ids, offsets, targets: Int32Array.from(rowsOf.flat()) };
    expect(Array.from(weaklyConnected(csr, () => undefined))).toEqual([0, 0, 0, 0, 0, 0, 0, 7, 0, 0]);
  });

  it('link one shared forest (Afforest) into the single-threaded roots on a large graph', () => {
    // The kernel alone on a CSR built here: 200 000 nodes, one giant component and many small
    // ones, rows split over 2 and 3 threads.
    const n = 200_000;
    const rand = random(7);
    const offsets = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + (rand() < 0.5 ? 1 : 0) + (rand() < 0.3 ? 1 : 0);
    const targets = new Int32Array(offsets[n]);
    for (let e = 0; e < targets.length; e++) targets[e] = Math.floor(rand() ** 3 * n);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const csr = { n, ids, index: ids, offsets, targets };
    const none = (): void => undefined;
    const one = weaklyConnected(csr, none, 1);
    expect(new Set(one).size).toBeGreaterThan(1000);
    // The index of the first difference (a failing `toEqual` on 200 000 entries takes minutes to print).
    const firstDifference = (a: Int32Array): number => a.findIndex((x, i) => x !== one[i]);
    for (const threads of [2, 3]) expect(firstDifference(weaklyConnected(csr, none, threads))).toBe(-1);
    expect(firstDifference(afforest(csr, none, 1))).toBe(-1);
    // The same edges both ways: Afforest may then skip the largest component's rows, with the same roots.
    const both = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) {
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        both[v + 1]++;
        both[targets[e] + 1]++;
      }
    }
    for (let v = 0; v < n; v++) both[v + 1] += both[v];
    const fill = both.slice(0, n);
    const bothTargets = new Int32Array(both[n]);
    for (let v = 0; v < n; v++) {
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        bothTargets[fill[v]++] = targets[e];
        bothTargets[fill[targets[e]]++] = v;
      }
    }
    const symmetric = { n, ids, index: ids, offsets: both, targets: bothTargets };
    for (const threads of [1, 2, 3]) expect(firstDifference(afforest(symmetric, none, threads, true))).toBe(-1);
  });

  it('direction-optimising BFS gives the sequential depths on 1, 2 and 3 threads, top-down and bottom-up', () => {
    // 100 003 nodes, a power-law-ish undirected graph (every edge both ways, so the CSR is its
    // own transpose) plus a directed one searched with its transpose for the bottom-up levels.
    // (Not a multiple of 4: the bottom-up walk's last nodes are taken one at a time.)
    const n = 100_003;
    const rand = random(11);
    const pairs: [number, number][] = [];
    for (let k = 0; k < 4 * n; k++) pairs.push([Math.floor(rand() ** 2 * n), Math.floor(rand() * n)]);
    const csrOf = (edges: [number, number][]) => {
      const offsets = new Int32Array(n + 1);
      for (const [a] of edges) offsets[a + 1]++;
      for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
      const fill = offsets.slice(0, n);
      const targets = new Int32Array(edges.length);
      for (const [a, b] of edges) targets[fill[a]++] = b;
      const ids = Int32Array.from({ length: n }, (_, i) => i);
      return { n, ids, index: ids, offsets, targets };
    };
    const none = (): void => undefined;
    const undirected = csrOf([...pairs, ...pairs.map(([a, b]): [number, number] => [b, a])]);
    const directed = csrOf(pairs);
    const reversed = csrOf(pairs.map(([a, b]) => [b, a]));
    for (const [csr, incoming] of [[undirected, undirected], [directed, reversed]] as const) {
      const want = bfs(csr, 0, 2 ** 31 - 1, none);
      const reached = want.depth.filter((d) => d >= 0).length;
      expect(reached).toBeGreaterThan(n / 4);
      // The WebAssembly levels (on the pool over a shared memory: kernel 'bfsWasm') and the JavaScript ones ('bfs-level').
      for (const [wasm, kernel] of [[true, 'bfsWasm'], [false, 'bfs-level']] as const) {
        useWasmKernels(wasm);
        try {
          for (const threads of [1, 2, 3]) {
            const before = parallelRuns.get(kernel) ?? 0;
            const got = bfsDirectionOptimising(csr, incoming, 0, 2 ** 31 - 1, none, threads);
            expect(got.depth.findIndex((d, v) => d !== want.depth[v])).toBe(-1);
            expect(got.count).toBe(reached);
            // Visit order: by depth, then by index.
            const order = Array.from(got.order.subarray(0, got.count));
            expect(order).toEqual([...order].sort((a, b) => got.depth[a] - got.depth[b] || a - b));
            if (threads > 1) expect(parallelRuns.get(kernel) ?? 0).toBeGreaterThan(before);
          }
          // A depth limit stops it where the sequential search stops.
          const near = bfsDirectionOptimising(csr, incoming, 0, 2, none, 2);
          const nearWant = bfs(csr, 0, 2, none);
          expect(near.depth.findIndex((d, v) => d !== nearWant.depth[v])).toBe(-1);
        } finally {
          useWasmKernels(true);
        }
      }
    }
  });

  it('direction-optimising BFS on one thread fills the next queue from many top-down blocks in turn', () => {
    // A 300 × 300 grid (every edge both ways): frontiers of hundreds of nodes with few edges
    // each, so every level stays top-down and is cut into blocks of 64 that one thread appends
    // to the next queue one after another.
    const side = 300;
    const n = side * side;
    const offsets = new Int32Array(n + 1);
    const rows: number[][] = Array.from({ length: n }, () => []);
    const link = (a: number, b: number): void => {
      rows[a].push(b);
      rows[b].push(a);
    };
    for (let v = 0; v < n; v++) {
      if (v % side < side - 1) link(v, v + 1);
      if (v + side < n) link(v, v + side);
    }
    for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + rows[v].length;
    const targets = Int32Array.from(rows.flat());
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const grid = { n, ids, index: ids, offsets, targets };
    const none = (): void => undefined;
    const source = side * 150 + 150;
    const want = bfs(grid, source, 2 ** 31 - 1, none);
    const got = bfsDirectionOptimising(grid, grid, source, 2 ** 31 - 1, none, 1);
    expect(got.depth.findIndex((d, v) => d !== want.depth[v])).toBe(-1);
    expect(got.count).toBe(n);
    const order = Array.from(got.order.subarray(0, got.count));
    expect(order).toEqual([...order].sort((a, b) => got.depth[a] - got.depth[b] || a - b));
  });

  it('BFS, plain and direction-optimising, gives right depths search after search while it reuses its working arrays', () => {
    // Both kernels keep their marks, queues and bitmaps per CSR between searches. Searches from
    // different sources on two graphs of different sizes, in turn, and one stopped half-way by
    // its deadline, must each give the depths of an independent search (plain arrays).
    const graph = (n: number, seed: number) => {
      const rand = random(seed);
      const rows: number[][] = Array.from({ length: n }, () => []);
      for (let k = 0; k < 3 * n; k++) {
        const a = Math.floor(rand() ** 2 * n);
        const b = Math.floor(rand() * n);
        rows[a].push(b);
        rows[b].push(a);
      }
      const offsets = new Int32Array(n + 1);
      for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + rows[v].length;
      const ids = Int32Array.from({ length: n }, (_, i) => i);
      return { csr: { n, ids, index: ids, offsets, targets: Int32Array.from(rows.flat()) }, rows };
    };
    const oracle = (rows: number[][], source: number, maxDepth: number): number[] => {
      const depth = rows.map(() => -1);
      depth[source] = 0;
      let level = [source];
      for (let d = 1; level.length > 0 && d <= maxDepth; d++) {
        const next: number[] = [];
        for (const u of level) {
          for (const v of rows[u]) {
            if (depth[v] !== -1) continue;
            depth[v] = d;
            next.push(v);
          }
        }
        level = next;
      }
      return depth;
    };
    const none = (): void => undefined;
    const big = graph(20_011, 31);
    const small = graph(3_001, 32);
    const searches: [typeof big, number, number][] = [[big, 0, 2 ** 31 - 1], [small, 5, 2 ** 31 - 1], [big, 17_000, 3], [small, 2_999, 2 ** 31 - 1], [big, 4_242, 2 ** 31 - 1]];
    for (const [g, source, maxDepth] of searches) {
      const want = oracle(g.rows, source, maxDepth);
      const reached = want.filter((d) => d >= 0).length;
      expect(reached).toBeGreaterThan(maxDepth === 3 ? 100 : g.csr.n / 2);
      const plainRun = bfs(g.csr, source, maxDepth, none);
      expect(Array.from(plainRun.depth)).toEqual(want);
      expect(plainRun.count).toBe(reached);
      for (const threads of [1, 2]) {
        const got = bfsDirectionOptimising(g.csr, g.csr, source, maxDepth, none, threads);
        expect(Array.from(got.depth)).toEqual(want);
        expect(got.count).toBe(reached);
        const order = Array.from(got.order.subarray(0, got.count));
        expect(order).toEqual([...order].sort((a, b) => want[a] - want[b] || a - b));
      }
      // A search stopped by its deadline after its first checks (every 4096 nodes) leaves its arrays half-written; the next must not mind.
      if (g !== big) continue;
      let checks = 0;
      const stop = (): void => {
        if (++checks > 2) throw new Error('time is up');
      };
      expect(() => bfs(g.csr, (source + 1) % g.csr.n, 2 ** 31 - 1, stop)).toThrow('time is up');
      checks = 0;
      expect(() => bfsDirectionOptimising(g.csr, g.csr, (source + 1) % g.csr.n, 2 ** 31 - 1, stop, 1)).toThrow('time is up');
    }
  });

  it('agree with an independent labelling of the components', () => {
    const edges = sparse.executeSync('MATCH (a)-[:R]->(b) RETURN a.i, b.i').records as number[][];
    const label = Array.from({ length: 3000 }, (_, i) => i);
    // Relabel to the smallest member until nothing changes: slow and obviously right.
    for (let changed = true; changed; ) {
      changed = false;
      for (const [a, b] of edges) {
        const m = Math.min(label[a], label[b]);
        if (label[a] !== m || label[b] !== m) {
          label[a] = label[b] = m;
          changed = true;
        }
      }
    }
    const got = rows(sparse, "CALL algo.wcc({relationshipTypes: 'R'}) YIELD node, componentId RETURN node.i, componentId ORDER BY node.i", 2);
    // The procedure's ids are store node ids, ours are `i`: compare the partitions.
    const byId = new Map<unknown, number>();
    for (const [i, id] of got as [number, unknown][]) {
      if (!byId.has(id)) byId.set(id, label[i]);
      expect(label[i]).toBe(byId.get(id));
    }
    expect(byId.size).toBe(new Set(label).size);
  });

  it.each([
    "CALL algo.nodeSimilarity({topK: 3}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
    "CALL algo.nodeSimilarity({direction: 'BOTH', similarityMetric: 'OVERLAP', topK: 5, degreeCutoff: 2}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
    "CALL algo.nodeSimilarity({direction: 'IN', topK: 1000, similarityCutoff: 0.2}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
  ])('give the single-threaded similarity lists: %s', (call) => {
    const one = sameOnEveryThreadCount(dense, call, 'nodeSimilarity');
    expect(one.length).toBeGreaterThan(100);
  });

  it.each([
    "CALL algo.knn({nodeProperties: 'v', topK: 4}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
    "CALL algo.knn({nodeProperties: 'v', similarityMetric: 'EUCLIDEAN', topK: 7, similarityCutoff: 0.3}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
  ])('give the single-threaded nearest neighbours, ties in the same order: %s', (call) => {
    const one = sameOnEveryThreadCount(dense, call, 'knn');
    expect(one.length).toBeGreaterThan(1000);
    // Integer vectors of four entries in 0..3 repeat, so many lists hold ties: their order is by node.
    const ties = one.filter((r, k) => k > 0 && one[k - 1][0] === r[0] && one[k - 1][2] === r[2]);
    expect(ties.length).toBeGreaterThan(100);
  });

  it('give the same lists when the result slots are filled in several passes', () => {
    const calls = [
      "CALL algo.nodeSimilarity({topK: 50}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
      "CALL algo.knn({nodeProperties: 'v', topK: 20}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity",
    ];
    const whole = calls.map((call) => rows(dense, call, 2));
    const limit = slotLimit.slots;
    slotLimit.slots = 97; // a few nodes' lists per pass
    try {
      calls.forEach((call, k) => {
        expect(rows(dense, call, 2)).toEqual(whole[k]);
        expect(rows(dense, call, 1)).toEqual(whole[k]);
      });
    } finally {
      slotLimit.slots = limit;
    }
  });

  it('find the nearest neighbours a brute-force search finds, best first, ties by node', () => {
    const vectors = new Map((dense.executeSync('MATCH (v:V) RETURN v.i, v.v').records as [number, number[]][]).map(([i, v]) => [i, v]));
    const norm = (v: number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    const cosine = (a: number[], b: number[]): number => (norm(a) * norm(b) === 0 ? 0 : a.reduce((s, x, k) => s + x * b[k], 0) / (norm(a) * norm(b)));
    const got = rows(dense, "CALL algo.knn({nodeProperties: 'v', topK: 4}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity", 2) as [number, number, number][];
    const lists = new Map<number, [number, number][]>();
    for (const [a, b, s] of got) lists.set(a, [...(lists.get(a) ?? []), [b, s]]);
    expect(lists.size).toBeGreaterThan(590);
    for (const a of vectors.keys()) {
      const list = lists.get(a) ?? [];
      const expected = [...vectors.keys()]
        .filter((b) => b !== a)
        .map((b) => [b, cosine(vectors.get(a) as number[], vectors.get(b) as number[])] as [number, number])
        .filter(([, s]) => s >= 1e-42) // the default similarityCutoff
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, 4);
      // Node ids follow `i` here (created in order), so the tie order by node is the order by `i`.
      expect(list.map(([b, s]) => [b, Number(s.toFixed(12))])).toEqual(expected.map(([b, s]) => [b, Number(s.toFixed(12))]));
    }
  });

  it.each([
    'CALL algo.fastRP({embeddingDimension: 32}) YIELD node, embedding RETURN node.i, embedding ORDER BY node.i',
    "CALL algo.fastRP({embeddingDimension: 16, direction: 'OUT', normalizationStrength: -0.5, nodeSelfInfluence: 0.3, iterationWeights: [1.0, 0.5, 0.25], randomSeed: 9}) YIELD node, embedding RETURN node.i, embedding ORDER BY node.i",
  ])('give the same embedding for a seed on any number of threads: %s', (call) => {
    const one = sameOnEveryThreadCount(dense, call, 'fastRP');
    expect(one.length).toBe(600);
    expect(one.some((r) => (r[1] as number[]).some((x) => x !== 0))).toBe(true);
  });

  it('draw other initial vectors for another seed', () => {
    const call = (seed: number): unknown[][] => rows(dense, `CALL algo.fastRP({embeddingDimension: 8, randomSeed: ${seed}}) YIELD node, embedding RETURN embedding ORDER BY node.i`, 2);
    expect(call(1)).toEqual(call(1));
    expect(call(1)).not.toEqual(call(2));
  });

  it('stop at the query time limit on the pool and leave it usable', () => {
    const big = Database.openInMemory();
    big.executeSync('UNWIND range(1, 20000) AS i CREATE (:N {v: [i % 7, i % 11, i % 13, 1]})');
    expect(() => big.executeSync("CALL algo.knn({nodeProperties: 'v', concurrency: 2}) YIELD similarity RETURN count(*)", undefined, { timeoutMs: 200 })).toThrow(/time limit/);
    const call = "CALL algo.knn({nodeProperties: 'v', topK: 2}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity";
    expect(rows(dense, call, 2)).toEqual(rows(dense, call, 1));
  }, 60_000);
});
