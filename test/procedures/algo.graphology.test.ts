/**
 * Cross-checks of the `algo.*` procedures against graphology on seeded random graphs:
 * PageRank, WCC, BFS and Dijkstra against graphology's own implementations; local clustering,
 * triangles and label propagation against direct computations over graphology's neighbour
 * lookups (graphology has no such algorithms). The same edges are loaded into graphdb once,
 * as directed relationships, and projected with `direction: 'BOTH'`.
 */

import { describe, expect, it } from 'vitest';
import { UndirectedGraph } from 'graphology';
import { connectedComponents } from 'graphology-components';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { dijkstra, unweighted } from 'graphology-shortest-path';
import { Database } from '../../src/engine/database.js';
import { toJs } from '../../runtime/format.js';

type Pagerank = typeof pagerankModule.default;
/** The package is CommonJS: depending on the loader the default import is the function itself. */
const pagerank: Pagerank = (typeof pagerankModule === 'function' ? pagerankModule : pagerankModule.default) as Pagerank;

/** A small deterministic generator (xorshift32). */
function random(seed: number): () => number {
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

interface Fixture {
  db: Database;
  g: UndirectedGraph<Record<string, never>, { w: number }>;
  /** graphdb node id per vertex number. */
  nodeId: number[];
  n: number;
}

/** n vertices, m distinct undirected edges (no loops) with weights in (0, 1]. */
function fixture(n: number, m: number, seed: number): Fixture {
  const rand = random(seed);
  const g = new UndirectedGraph<Record<string, never>, { w: number }>();
  for (let i = 0; i < n; i++) g.addNode(String(i));
  const edges: { a: number; b: number; w: number }[] = [];
  while (edges.length < m) {
    // Skewed endpoints give hubs, triangles and some isolated vertices.
    const a = Math.floor(n * rand() * rand());
    const b = Math.floor(n * rand());
    if (a === b || g.hasEdge(String(a), String(b))) continue;
    const w = Math.round(rand() * 1000) / 1000 + 0.001;
    g.addEdge(String(a), String(b), { w });
    edges.push({ a, b, w });
  }
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n });
  db.executeSync('UNWIND $edges AS e MATCH (a:V {i: e.a}), (b:V {i: e.b}) CREATE (a)-[:E {w: e.w}]->(b)', { edges });
  const nodeId: number[] = [];
  for (const [i, id] of db.executeSync('MATCH (v:V) RETURN v.i, id(v)').records) nodeId[i as number] = id as number;
  return { db, g, nodeId, n };
}

/** Vertex number → value, from `CALL … YIELD node, <col>`. */
function perVertex(f: Fixture, call: string, params: Record<string, unknown> = {}): Map<number, number> {
  const rows = f.db.executeSync(`${call} RETURN node.i, value`, params).records;
  return new Map(rows.map((r) => [r[0] as number, Number(toJs(r[1]))]));
}

/** Triangles through each vertex, counted pair by pair. */
function naiveTriangles(g: Fixture['g'], v: string): number {
  const nb = g.neighbors(v);
  let t = 0;
  for (let i = 0; i < nb.length; i++) for (let j = i + 1; j < nb.length; j++) if (g.areNeighbors(nb[i], nb[j])) t++;
  return t;
}

describe.each([
  [400, 700, 7],
  [300, 2500, 42],
])('on a random graph with %i vertices and %i edges (seed %i)', (n, m, seed) => {
  const f = fixture(n, m, seed);
  const source = f.g.degree('1') > 0 ? 1 : 0;

  it('PageRank matches graphology', () => {
    const ours = perVertex(f, "CALL algo.pageRank({direction: 'BOTH', maxIterations: 1000, tolerance: 1e-13}) YIELD node, score AS value");
    const theirs = pagerank(f.g, { getEdgeWeight: null, maxIterations: 1000, tolerance: 1e-13 });
    for (let i = 0; i < n; i++) expect(ours.get(i)).toBeCloseTo(theirs[String(i)], 9);
  });

  it('WCC gives the same partition as graphology', () => {
    const ours = perVertex(f, 'CALL algo.wcc({}) YIELD node, componentId AS value');
    const comps = connectedComponents(f.g);
    expect(new Set(ours.values()).size).toBe(comps.length);
    for (const comp of comps) {
      const ids = new Set(comp.map((v) => ours.get(Number(v))));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toBe(Math.min(...comp.map((v) => f.nodeId[Number(v)])));
    }
  });

  it('BFS depths match graphology', () => {
    const ours = perVertex(f, "CALL algo.bfs({source: $s, direction: 'BOTH'}) YIELD node, depth AS value", { s: f.nodeId[source] });
    const theirs = unweighted.singleSourceLength(f.g, String(source));
    expect(ours.size).toBe(Object.keys(theirs).length);
    for (const [v, d] of Object.entries(theirs)) expect(ours.get(Number(v))).toBe(d);
  });

  it('Dijkstra distances match graphology', () => {
    const ours = perVertex(f, "CALL algo.sssp({source: $s, direction: 'BOTH', weightProperty: 'w'}) YIELD node, distance AS value", { s: f.nodeId[source] });
    const paths = dijkstra.singleSource(f.g, String(source), 'w');
    expect(ours.size).toBe(Object.keys(paths).length);
    for (const [v, path] of Object.entries(paths)) {
      let d = 0;
      for (let i = 1; i < path.length; i++) d += f.g.getEdgeAttribute(path[i - 1], path[i], 'w');
      expect(ours.get(Number(v))).toBeCloseTo(d, 9);
    }
  });

  it('triangles and local clustering match direct counts', () => {
    const tri = perVertex(f, 'CALL algo.triangleCount({}) YIELD node, triangles AS value');
    const lcc = perVertex(f, 'CALL algo.lcc({}) YIELD node, coefficient AS value');
    for (let i = 0; i < n; i++) {
      const t = naiveTriangles(f.g, String(i));
      const d = f.g.degree(String(i));
      expect(tri.get(i)).toBe(t);
      expect(lcc.get(i)).toBeCloseTo(d < 2 ? 0 : (2 * t) / (d * (d - 1)), 12);
    }
  });

  it('label propagation matches a direct synchronous implementation', () => {
    const ours = perVertex(f, 'CALL algo.cdlp({maxIterations: 10}) YIELD node, communityId AS value');
    // Reference: labels are vertex numbers (ascending with node ids), most frequent wins, smallest on ties.
    let labels = Array.from({ length: n }, (_, i) => i);
    for (let round = 0; round < 10; round++) {
      const next = labels.map((l, v) => {
        const counts = new Map<number, number>();
        for (const u of f.g.neighbors(String(v))) counts.set(labels[Number(u)], (counts.get(labels[Number(u)]) ?? 0) + 1);
        let best = l;
        let bestCount = 0;
        for (const [label, c] of counts) if (c > bestCount || (c === bestCount && label < best)) [best, bestCount] = [label, c];
        return best;
      });
      const same = next.every((l, i) => l === labels[i]);
      labels = next;
      if (same) break;
    }
    const smallest = new Map<number, number>();
    labels.forEach((l, v) => smallest.set(l, Math.min(smallest.get(l) ?? Infinity, f.nodeId[v])));
    for (let v = 0; v < n; v++) expect(ours.get(v)).toBe(smallest.get(labels[v]));
  });
});
