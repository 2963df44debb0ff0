/**
 * Graph families for the algorithm oracle tests (test/procedures/algo.networkx.test.ts):
 * small Kronecker (R-MAT) graphs, a grid with coordinates, a star, a disconnected graph,
 * self-loops, parallel relationships, weighted and negative-weight graphs, the empty graph.
 * Each is an edge list over vertices 0..n-1, loaded into a fresh in-memory database as
 * `(:V {i})-[:R {w}]->(:V)`, so node ids ascend with vertex numbers.
 */

import { Database } from '../../src/engine/database.js';

export interface TestGraph {
  name: string;
  n: number;
  directed: boolean;
  /** Parallel relationships present (networkx builds a multigraph). */
  multi?: boolean;
  /** Simple: no self-loops and no parallel relationships. */
  simple: boolean;
  edges: [number, number, number][];
  source?: number;
  target?: number;
  k?: number;
  coords?: [number, number][];
  negative?: boolean;
}

/** xorshift32: deterministic test data. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** R-MAT edges (a = 0.57, b = c = 0.19) on 2^scale vertices, deduplicated, no loops. */
function kronecker(scale: number, edgeFactor: number, seed: number): [number, number, number][] {
  const rand = random(seed);
  const n = 2 ** scale;
  const seen = new Set<string>();
  const edges: [number, number, number][] = [];
  for (let i = 0; i < n * edgeFactor; i++) {
    let u = 0;
    let v = 0;
    for (let b = 0; b < scale; b++) {
      const r = rand();
      const bit = r < 0.57 ? [0, 0] : r < 0.76 ? [0, 1] : r < 0.95 ? [1, 0] : [1, 1];
      u = u * 2 + bit[0];
      v = v * 2 + bit[1];
    }
    const key = `${Math.min(u, v)},${Math.max(u, v)}`;
    if (u === v || seen.has(key)) continue;
    seen.add(key);
    edges.push([u, v, 1 + Math.floor(rand() * 9)]);
  }
  return edges;
}

function randomEdges(n: number, m: number, seed: number, opts: { loops: boolean; parallel: boolean; weights: (r: number) => number }): [number, number, number][] {
  const rand = random(seed);
  const seen = new Set<string>();
  const edges: [number, number, number][] = [];
  while (edges.length < m) {
    const u = Math.floor(n * rand());
    const v = Math.floor(n * rand());
    if (u === v && !opts.loops) continue;
    const key = `${u},${v}`;
    if (seen.has(key) && !opts.parallel) continue;
    seen.add(key);
    edges.push([u, v, opts.weights(rand())]);
  }
  return edges;
}

function grid(w: number, h: number): TestGraph {
  const edges: [number, number, number][] = [];
  const coords: [number, number][] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      coords.push([x, y]);
      const v = y * w + x;
      // Weights of at least the straight-line length keep A*'s heuristic admissible.
      if (x + 1 < w) edges.push([v, v + 1, 1 + ((x * 7 + y * 3) % 4)]);
      if (y + 1 < h) edges.push([v, v + w, 1 + ((x * 5 + y) % 3)]);
    }
  }
  return { name: 'grid', n: w * h, directed: false, simple: true, edges, coords, source: 0, target: w * h - 1, k: 4 };
}

export function families(): TestGraph[] {
  const kron = kronecker(6, 6, 7);
  const kronU = kronecker(6, 5, 11);
  const disc: [number, number, number][] = [
    ...kronecker(4, 3, 3),
    ...kronecker(4, 3, 5).map(([u, v, w]): [number, number, number] => [u + 16, v + 16, w]),
    [32, 33, 2],
  ];
  const star: [number, number, number][] = Array.from({ length: 12 }, (_, i): [number, number, number] => [0, i + 1, 1 + (i % 3)]);
  const dag = randomEdges(40, 120, 17, { loops: false, parallel: false, weights: (r) => Math.floor(r * 15) - 4 }).map(([u, v, w]): [number, number, number] => (u < v ? [u, v, w] : [v, u, w]));
  const dagSeen = new Set<string>();
  return [
    { name: 'kron-directed', n: 64, directed: true, simple: true, edges: kron, source: 0, target: 37, k: 4 },
    { name: 'kron-undirected', n: 64, directed: false, simple: true, edges: kronU, source: 0, target: 45, k: 4 },
    grid(6, 5),
    { name: 'star', n: 13, directed: false, simple: true, edges: star, source: 3 },
    { name: 'disconnected', n: 36, directed: false, simple: true, edges: disc, source: 1 },
    { name: 'self-loops', n: 30, directed: true, simple: false, edges: randomEdges(30, 90, 23, { loops: true, parallel: false, weights: (r) => 1 + Math.floor(r * 5) }), source: 2 },
    { name: 'parallel', n: 30, directed: true, multi: true, simple: false, edges: randomEdges(30, 110, 29, { loops: false, parallel: true, weights: (r) => 1 + Math.floor(r * 5) }), source: 4 },
    { name: 'weighted', n: 50, directed: true, simple: true, edges: randomEdges(50, 200, 31, { loops: false, parallel: false, weights: (r) => Math.round(r * 100) / 10 + 0.1 }), source: 0, target: 9, k: 5 },
    { name: 'negative', n: 40, directed: true, simple: true, negative: true, edges: dag.filter(([u, v]) => !dagSeen.has(`${u},${v}`) && dagSeen.add(`${u},${v}`) !== undefined), source: 0 },
    { name: 'negative-cycle', n: 6, directed: true, simple: true, negative: true, edges: [[0, 1, 2], [1, 2, 1], [2, 3, -2], [3, 1, -1], [3, 4, 1], [4, 5, 1]], source: 0 },
    { name: 'empty', n: 0, directed: true, simple: true, edges: [] },
  ];
}

/** A database holding `g` as `(:V {i})-[:R {w}]->(:V)`. */
export function load(g: TestGraph): Database {
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: g.n });
  db.executeSync('CREATE INDEX FOR (v:V) ON (v.i)');
  db.executeSync('UNWIND $edges AS e MATCH (a:V {i: e[0]}), (b:V {i: e[1]}) CREATE (a)-[:R {w: e[2]}]->(b)', { edges: g.edges });
  return db;
}
