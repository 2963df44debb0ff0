/**
 * Delta-stepping (`algo.sssp` with `concurrency`, procedures/algo/delta-stepping.ts) against
 * networkx's Dijkstra (/usr/bin/python3 with python3-networkx, as algo.networkx.test.ts) on
 * random weighted graphs with zero weights, parallel relationships and self-loops, on one
 * thread and on three; against graphdb's own Dijkstra bit for bit on a larger graph; the
 * output order (distance, then node id); the query deadline on the pool; option errors. The
 * pool's rounds run in WebAssembly over a shared memory (kernel 'deltaSteppingWasm'), or in
 * JavaScript ('delta-stepping') where that memory cannot be had (`useWasmKernels(false)` here).
 */

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJs } from '../../runtime/format.js';
import { Database } from '../../src/engine/database.js';
import type { Csr } from '../../procedures/algo/csr.js';
import { deltaStepping } from '../../procedures/algo/delta-stepping.js';
import { parallelFloor, parallelRuns } from '../../procedures/algo/parallel.js';
import { dijkstra } from '../../procedures/algo/sssp.js';
import { useWasmKernels } from '../../procedures/algo/wasm/instance.js';
import { random } from './algo.graphs.js';

/** Rounds the pool ran, in WebAssembly or JavaScript. */
const pooled = (): number => (parallelRuns.get('deltaSteppingWasm') ?? 0) + (parallelRuns.get('delta-stepping') ?? 0);

/** `f` with the JavaScript forms (`wasm` false) or the WebAssembly ones. */
function withWasm<T>(wasm: boolean, f: () => T): T {
  useWasmKernels(wasm);
  try {
    return f();
  } finally {
    useWasmKernels(true);
  }
}

const PYTHON = '/usr/bin/python3';

/** networkx's distances from `source` per graph, vertex number (as a string) → distance. */
const ORACLE = `
import json, sys
import networkx as nx
out = []
for g in json.load(sys.stdin):
    G = nx.MultiDiGraph() if g["directed"] else nx.MultiGraph()
    G.add_nodes_from(range(g["n"]))
    for u, v, w in g["edges"]:
        G.add_edge(u, v, w=w)
    d = nx.single_source_dijkstra_path_length(G, g["source"], weight="w")
    out.append({str(k): v for k, v in d.items()})
print(json.dumps(out))
`;

interface Weighted {
  name: string;
  n: number;
  directed: boolean;
  source: number;
  edges: [number, number, number][];
}

/** `m` relationships over `n` vertices, hubs at low numbers; `weight` draws each weight. */
function graph(name: string, n: number, m: number, directed: boolean, seed: number, weight: (r: number) => number): Weighted {
  const rand = random(seed);
  const edges: [number, number, number][] = [];
  for (let k = 0; k < m; k++) edges.push([Math.floor(rand() ** 2 * n), Math.floor(rand() * n), weight(rand())]);
  // A few self-loops and parallel relationships with other weights.
  for (let k = 0; k < 20; k++) {
    const [u, v] = edges[k * 7];
    edges.push([u, u, weight(rand())], [u, v, weight(rand())]);
  }
  return { name, n, directed, source: 0, edges };
}

const GRAPHS: Weighted[] = [
  // Decimal weights with a tenth of zeros: ties and zero-weight cycles.
  graph('decimal weights, zeros, directed', 2500, 10000, true, 33, (r) => (r < 0.1 ? 0 : Math.round(r * 1000) / 100)),
  graph('integer weights 1..100, undirected', 2000, 6000, false, 34, (r) => 1 + Math.floor(r * 100)),
  // Sparse: many nodes unreached; weights spread over six orders of magnitude (many buckets).
  graph('wide weights, sparse, directed', 3000, 2400, true, 35, (r) => 10 ** (r * 6 - 3)),
];

function load(g: Weighted): Database {
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: g.n });
  db.executeSync('CREATE INDEX FOR (v:V) ON (v.i)');
  db.executeSync('UNWIND $edges AS e MATCH (a:V {i: e[0]}), (b:V {i: e[1]}) CREATE (a)-[:R {w: e[2]}]->(b)', { edges: g.edges });
  return db;
}

/** [vertex, distance] rows of algo.sssp in the order it yields them. */
function sssp(db: Database, g: Weighted, extra: string): [number, number][] {
  const call = `CALL algo.sssp({source: $s, direction: '${g.directed ? 'OUT' : 'BOTH'}', weightProperty: 'w'${extra}}) YIELD node, distance RETURN node.i, distance`;
  const s = db.executeSync('MATCH (v:V {i: $i}) RETURN id(v)', { i: g.source }).records[0][0];
  return db.executeSync(call, { s }).records.map((r) => [toJs(r[0]) as number, toJs(r[1]) as number]);
}

describe('algo.sssp by delta-stepping', () => {
  const floor = parallelFloor.work;
  let answers: Record<string, number>[];
  const dbs: Database[] = [];
  beforeAll(() => {
    if (!existsSync(PYTHON)) throw new Error('The networkx oracle needs /usr/bin/python3 with python3-networkx (apt-get install python3-networkx)');
    answers = JSON.parse(execFileSync(PYTHON, ['-c', ORACLE], { input: JSON.stringify(GRAPHS), maxBuffer: 64 << 20 }).toString()) as Record<string, number>[];
    for (const g of GRAPHS) dbs.push(load(g));
    // The pool runs on these small graphs too.
    parallelFloor.work = 0;
  }, 120_000);
  afterAll(() => {
    parallelFloor.work = floor;
  });

  it.each(GRAPHS.map((g, k) => [g.name, k] as const))('gives networkx distances on 1 and 3 threads, and Dijkstra\'s exactly: %s', (_name, k) => {
    const g = GRAPHS[k];
    const want = answers[k];
    const dijkstraRows = sssp(dbs[k], g, '');
    const exact = new Map(dijkstraRows);
    expect(Object.keys(want).length).toBeGreaterThan(100);
    const before = parallelRuns.get('deltaSteppingWasm') ?? 0;
    const beforeJs = parallelRuns.get('delta-stepping') ?? 0;
    for (const [threads, wasm] of [[1, true], [3, true], [3, false]] as const) {
      for (const delta of ['', ', delta: 0.5', ', delta: 1000']) {
        const rows = withWasm(wasm, () => sssp(dbs[k], g, `, concurrency: ${threads}${delta}`));
        expect(rows.length).toBe(Object.keys(want).length);
        for (const [v, d] of rows) {
          const theirs = want[String(v)];
          if (theirs === undefined || Math.abs(d - theirs) > 1e-9 * Math.max(1, theirs)) expect.fail(`vertex ${v}: ours ${d}, networkx ${theirs}`);
          // The same sums as the sequential Dijkstra, to the bit.
          if (!Object.is(d, exact.get(v))) expect.fail(`vertex ${v}: delta-stepping ${d}, Dijkstra ${exact.get(v)}`);
        }
        // Rows by distance, then by node (node ids ascend with i here).
        for (let r = 1; r < rows.length; r++) {
          const [a, da] = rows[r - 1];
          const [b, db] = rows[r];
          if (!(da < db || (da === db && a < b))) expect.fail(`rows ${r - 1} and ${r} out of order: ${rows[r - 1]} then ${rows[r]}`);
        }
      }
    }
    // Some rounds were large enough (64 nodes and more) to be split over the pool, in WebAssembly and in JavaScript.
    expect(parallelRuns.get('deltaSteppingWasm') ?? 0).toBeGreaterThan(before);
    expect(parallelRuns.get('delta-stepping') ?? 0).toBeGreaterThan(beforeJs);
  }, 120_000);

  it('keeps Dijkstra (one path, in path order) when a target is given', () => {
    const g = GRAPHS[1];
    const db = dbs[1];
    const t = db.executeSync('MATCH (v:V {i: 7}) RETURN id(v)').records[0][0];
    const s = db.executeSync('MATCH (v:V {i: 0}) RETURN id(v)').records[0][0];
    const path = (c: string): unknown[][] => db.executeSync(`CALL algo.sssp({source: $s, target: $t, direction: 'BOTH', weightProperty: 'w'${c}}) YIELD node, distance RETURN node.i, distance`, { s, t }).records.map((r) => r.map((x) => toJs(x)));
    const plain = path('');
    expect(plain[0][0]).toBe(0);
    expect(plain[plain.length - 1]).toEqual([7, answers[1]['7']]);
    expect(path(', concurrency: 3')).toEqual(plain);
    expect(g.directed).toBe(false);
  });

  it('refuses a bucket width that is not positive', () => {
    const db = dbs[0];
    for (const bad of ['0', '-1.5', "'wide'"]) {
      expect(() => db.executeSync(`CALL algo.sssp({source: 0, weightProperty: 'w', concurrency: 2, delta: ${bad}}) YIELD node RETURN count(*)`)).toThrow(/delta/);
    }
  });
});

describe('the delta-stepping kernel', () => {
  /** 100 000 nodes, 0 to 9 edges each (node 0: 9), weights from `weight`. */
  function big(seed: number, weight: (r: number) => number): Csr {
    const n = 100_000;
    const rand = random(seed);
    const offsets = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + (v === 0 ? 9 : Math.floor(rand() * 10));
    const targets = new Int32Array(offsets[n]);
    const weights = new Float64Array(offsets[n]);
    for (let e = 0; e < targets.length; e++) {
      targets[e] = Math.floor(rand() * n);
      weights[e] = weight(rand());
    }
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    return { n, ids, index: ids, offsets, targets, weights };
  }
  const none = (): void => undefined;

  it('gives Dijkstra\'s distances bit for bit on 1, 2 and 3 threads, any delta', () => {
    for (const csr of [big(41, (r) => r * 7.3), big(42, (r) => (r < 0.2 ? 0 : 1 + Math.floor(r * 50)))]) {
      const want = dijkstra(csr, 0, none);
      expect(want.count).toBeGreaterThan(csr.n / 2);
      for (const threads of [1, 2, 3]) {
        for (const delta of [undefined, 0.5, 1e9]) {
          const got = deltaStepping(csr, 0, none, threads, delta);
          expect(got.count).toBe(want.count);
          expect(got.dist.findIndex((d, v) => !Object.is(d, want.dist[v]))).toBe(-1);
        }
      }
    }
  }, 120_000);

  it('keeps buckets far apart (numbers past the dense range, in the map) in order', () => {
    // Half the weights near 1e7 with delta 1: bucket numbers run into the millions, sparse.
    const csr = big(44, (r) => (r < 0.5 ? r : 1e7 + r));
    const want = dijkstra(csr, 0, none);
    for (const threads of [1, 2]) {
      const got = deltaStepping(csr, 0, none, threads, 1);
      expect(got.count).toBe(want.count);
      expect(got.dist.findIndex((d, v) => !Object.is(d, want.dist[v]))).toBe(-1);
      expect(Array.from(got.order.subarray(0, got.count))).toEqual(Array.from(want.order.subarray(0, want.count)));
    }
  }, 60_000);

  it.each([['WebAssembly', true], ['JavaScript', false]] as const)('stops at the deadline on the pool and leaves the pool usable (%s rounds)', (_form, wasm) => {
    const csr = big(43, (r) => r);
    const before = pooled();
    // Time runs out once a few rounds have gone to the pool: mid-search, with workers engaged.
    const deadline = (): void => {
      if (pooled() > before + 3) throw new Error('time limit reached');
    };
    expect(() => withWasm(wasm, () => deltaStepping(csr, 0, deadline, 3, 0.01))).toThrow(/time limit/);
    const want = dijkstra(csr, 0, none);
    expect(withWasm(wasm, () => deltaStepping(csr, 0, none, 3)).dist.findIndex((d, v) => !Object.is(d, want.dist[v]))).toBe(-1);
  }, 60_000);

  it('gives Dijkstra\'s distances and order search after search while it reuses its working arrays', () => {
    // The marks, lists and ranks are kept per CSR between searches: searches from other sources,
    // on two graphs in turn, after one stopped by its deadline, must each match Dijkstra's.
    const a = big(45, (r) => 1 + Math.floor(r * 20));
    const rand = random(46);
    const n = 30_001;
    const offsets = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + 1 + Math.floor(rand() * 6);
    const targets = Int32Array.from({ length: offsets[n] }, () => Math.floor(rand() * n));
    const weights = Float64Array.from({ length: offsets[n] }, () => rand() * 3);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const b: Csr = { n, ids, index: ids, offsets, targets, weights };
    let checks = 0;
    const stop = (): void => {
      if (++checks > 5) throw new Error('time is up');
    };
    for (const [csr, source] of [[a, 0], [b, 7], [a, 0], [a, 99], [b, 30_000]] as const) {
      checks = 0;
      // (A narrow delta: many buckets, a deadline check each.)
      expect(() => deltaStepping(csr, source, stop, 1, 0.25)).toThrow('time is up');
      for (const threads of [1, 2]) {
        const want = dijkstra(csr, source, none);
        expect(want.count).toBeGreaterThan(1000);
        const got = deltaStepping(csr, source, none, threads);
        expect(got.count).toBe(want.count);
        expect(got.dist.findIndex((d, v) => !Object.is(d, want.dist[v]))).toBe(-1);
        expect(Array.from(got.order.subarray(0, got.count))).toEqual(Array.from(want.order.subarray(0, want.count)));
      }
    }
  }, 60_000);

  it('stops at the query time limit through CALL', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(0, 29999) AS i CREATE (:V {i: i})');
    db.executeSync('CREATE INDEX FOR (v:V) ON (v.i)');
    db.executeSync('MATCH (a:V) UNWIND [(a.i * 7 + 1) % 30000, (a.i * 13 + 5) % 30000, (a.i + 1) % 30000] AS j MATCH (b:V {i: j}) CREATE (a)-[:R {w: 1 + (a.i % 17) + (a.i % 1000) / 1000.0}]->(b)');
    const s = db.executeSync('MATCH (v:V {i: 0}) RETURN id(v)').records[0][0];
    // A limit no machine meets (the projection alone takes longer; it checks no deadline, so the
    // search's first check throws); the kernel-level test above stops a search mid-way on the pool.
    expect(() => db.executeSync("CALL algo.sssp({source: $s, weightProperty: 'w', concurrency: 2, delta: 0.000001}) YIELD node RETURN count(*)", { s }, { timeoutMs: 1 })).toThrow(/time limit/);
    const rows = db.executeSync("CALL algo.sssp({source: $s, weightProperty: 'w', concurrency: 2}) YIELD node RETURN count(*)", { s }).records;
    expect(toJs(rows[0][0])).toBe(30000);
  }, 120_000);
});
