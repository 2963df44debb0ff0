/**
 * The `algo.*` procedures against networkx (Debian's python3-networkx, run with
 * /usr/bin/python3; .ci/run installs it) on the graph families of algo.graphs.ts. One python
 * process computes every reference answer. Exact algorithms must agree exactly (partitions,
 * orders, integers) or within 1e-9 relative (floating-point sums in another order; 1e-6 for
 * power iterations that stop on a tolerance); Louvain and Leiden are checked by quality
 * (modularity of our partition, measured by networkx, within 2 % of networkx's best Louvain
 * run over three seeds; Leiden's communities connected); embeddings by neighbourhoods (see
 * algo.embeddings.test.ts).
 */

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/engine/database.js';
import { toJs } from '../../runtime/format.js';
import { parallelFloor } from '../../procedures/algo/parallel.js';
import { families, load, type TestGraph } from './algo.graphs.js';

const PYTHON = '/usr/bin/python3';
const ORACLE = fileURLToPath(new URL('./algo.oracle.py', import.meta.url));

type Answers = Record<string, Record<string, unknown>>;

function reference(graphs: TestGraph[], partitions: { graph: string; communities: number[][] }[] = []): Answers {
  if (!existsSync(PYTHON)) throw new Error('The networkx oracle needs /usr/bin/python3 with python3-networkx (apt-get install python3-networkx)');
  const out = execFileSync(PYTHON, [ORACLE], { input: JSON.stringify({ graphs, partitions }), maxBuffer: 64 << 20 });
  return JSON.parse(out.toString()) as Answers;
}

/** Vertex number (as a string) → the `column` of `call`. */
function values(db: Database, call: string, column: string): Record<string, unknown> {
  const rows = db.executeSync(`${call} YIELD node, ${column} AS value RETURN node.i AS i, value`).records;
  return Object.fromEntries(rows.map((r) => [String(r[0]), toJs(r[1])]));
}

function expectClose(ours: Record<string, unknown>, theirs: Record<string, unknown>, tol: number): void {
  expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
  for (const [k, v] of Object.entries(theirs)) {
    const a = Number(ours[k]);
    const b = Number(v);
    if (Math.abs(a - b) > tol * Math.max(1, Math.abs(b))) expect.fail(`vertex ${k}: ours ${a}, networkx ${b}`);
  }
}

function partitionOf(byVertex: Record<string, unknown>): number[][] {
  const groups = new Map<unknown, number[]>();
  for (const [k, c] of Object.entries(byVertex)) {
    const g = groups.get(c) ?? [];
    g.push(Number(k));
    groups.set(c, g);
  }
  return [...groups.values()].map((g) => g.sort((a, b) => a - b)).sort((a, b) => (String(a) < String(b) ? -1 : 1));
}

/** Runs `f` with the parallel floor at 0, so that the worker-pool kernels run on small graphs too. */
function onThePool(f: () => void): void {
  const floor = parallelFloor.work;
  parallelFloor.work = 0;
  try {
    f();
  } finally {
    parallelFloor.work = floor;
  }
}

function sortPartition(p: number[][]): number[][] {
  return p.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => (String(a) < String(b) ? -1 : 1));
}

const graphs = families();
let answers: Answers;
const dbs = new Map<string, Database>();

beforeAll(() => {
  answers = reference(graphs);
  for (const g of graphs) dbs.set(g.name, load(g));
}, 60_000);

describe.each(graphs.map((g) => [g.name, g] as const))('on %s', (name, g) => {
  const dir = g.directed ? 'OUT' : 'BOTH';
  const db = (): Database => dbs.get(name) as Database;
  const ref = (): Record<string, unknown> => answers[name];
  const src = g.source ?? 0;
  const srcId = (): number => Number(db().executeSync('MATCH (v:V {i: $i}) RETURN id(v)', { i: src }).records[0]?.[0] ?? -1);

  if (g.negative) {
    it('Bellman-Ford agrees on distances or on the presence of a negative cycle', () => {
      const rows = db().executeSync(`CALL algo.bellmanFord({source: $s, weightProperty: 'w'}) YIELD node, distance, negativeCycle RETURN node.i, distance, negativeCycle`, { s: srcId() }).records.map((r) => r.map((x) => toJs(x)));
      expect(rows.length > 0 && rows[0][2] === true).toBe(ref().negativeCycle);
      if (ref().negativeCycle) {
        // The reported nodes form a cycle of negative total weight.
        const cycle = rows.map((r) => r[0] as number);
        let total = 0;
        for (let i = 0; i < cycle.length; i++) {
          const [a, b] = [cycle[i], cycle[(i + 1) % cycle.length]];
          const ws = g.edges.filter(([u, v]) => u === a && v === b).map((e) => e[2]);
          expect(ws.length).toBeGreaterThan(0);
          total += Math.min(...ws);
        }
        expect(total).toBeLessThan(0);
      } else {
        expectClose(Object.fromEntries(rows.map((r) => [String(r[0]), r[1]])), ref().bellmanFord as Record<string, unknown>, 1e-9);
      }
    });
    return;
  }

  it('PageRank and personalised PageRank', () => {
    expectClose(values(db(), `CALL algo.pageRank({direction: '${dir}', tolerance: 0, maxIterations: 3000})`, 'score'), ref().pageRank as Record<string, unknown>, 1e-9);
    if (g.n > 0) expectClose(values(db(), `CALL algo.pageRank({direction: '${dir}', tolerance: 0, maxIterations: 3000, sourceNodes: [${srcId()}]})`, 'score'), ref().personalised as Record<string, unknown>, 1e-9);
  });

  it('ArticleRank (against its defining recurrence)', () => {
    expectClose(values(db(), `CALL algo.articleRank({direction: '${dir}', tolerance: 0, maxIterations: 2000})`, 'score'), ref().articleRank as Record<string, unknown>, 1e-9);
  });

  it('betweenness, unweighted and weighted', () => {
    expectClose(values(db(), `CALL algo.betweenness({direction: '${dir}'})`, 'score'), ref().betweenness as Record<string, unknown>, 1e-9);
    expectClose(values(db(), `CALL algo.betweenness({direction: '${dir}', weightProperty: 'w'})`, 'score'), ref().betweennessWeighted as Record<string, unknown>, 1e-9);
  });

  it('closeness, Wasserman-Faust, harmonic and weighted closeness', () => {
    expectClose(values(db(), `CALL algo.closeness({direction: '${dir}'})`, 'score'), ref().closeness as Record<string, unknown>, 1e-9);
    expectClose(values(db(), `CALL algo.closeness({direction: '${dir}', wassermanFaust: true})`, 'score'), ref().closenessWF as Record<string, unknown>, 1e-9);
    expectClose(values(db(), `CALL algo.closeness({direction: '${dir}', harmonic: true})`, 'score'), ref().harmonic as Record<string, unknown>, 1e-9);
    expectClose(values(db(), `CALL algo.closeness({direction: '${dir}', weightProperty: 'w'})`, 'score'), ref().closenessWeighted as Record<string, unknown>, 1e-9);
  });

  it('weakly and strongly connected components', () => {
    expect(partitionOf(values(db(), 'CALL algo.wcc()', 'componentId'))).toEqual(sortPartition(ref().wcc as number[][]));
    // `concurrency: 3` runs Afforest on the pool (the floor lowered so that it does on these small graphs), 1 the sequential kernel.
    onThePool(() => {
      for (const c of [1, 3]) expect(partitionOf(values(db(), `CALL algo.wcc({concurrency: ${c}})`, 'componentId'))).toEqual(sortPartition(ref().wcc as number[][]));
    });
    expect(partitionOf(values(db(), `CALL algo.scc({direction: '${g.directed ? 'OUT' : 'BOTH'}'})`, 'componentId'))).toEqual(sortPartition(ref().scc as number[][]));
  });

  it('core numbers, triangles and clustering', () => {
    expectClose(values(db(), 'CALL algo.kCore()', 'coreValue'), ref().kCore as Record<string, unknown>, 0);
    expectClose(values(db(), 'CALL algo.triangleCount()', 'triangles'), ref().triangles as Record<string, unknown>, 0);
    expectClose(values(db(), 'CALL algo.lcc()', 'coefficient'), ref().lcc as Record<string, unknown>, 1e-12);
  });

  if (g.n === 0) return;

  it('BFS depths, DFS preorder and Dijkstra distances', () => {
    expectClose(values(db(), `CALL algo.bfs({source: ${srcId()}, direction: '${dir}'})`, 'depth'), ref().bfs as Record<string, unknown>, 0);
    // Direction-optimising (with `concurrency`), on one thread and on three: the same depths.
    onThePool(() => {
      for (const c of [1, 3]) expectClose(values(db(), `CALL algo.bfs({source: ${srcId()}, direction: '${dir}', concurrency: ${c}})`, 'depth'), ref().bfs as Record<string, unknown>, 0);
    });
    const order = db().executeSync(`CALL algo.dfs({source: ${srcId()}, direction: '${dir}'}) YIELD node RETURN node.i`).records.map((r) => r[0]);
    expect(order).toEqual(ref().dfs);
    expectClose(values(db(), `CALL algo.sssp({source: ${srcId()}, direction: '${dir}', weightProperty: 'w'})`, 'distance'), ref().sssp as Record<string, unknown>, 1e-9);
    // Delta-stepping (with `concurrency`), on one thread and on three, default and narrow buckets: the same distances.
    onThePool(() => {
      for (const c of [1, 3]) {
        for (const delta of ['', ', delta: 0.25']) {
          expectClose(values(db(), `CALL algo.sssp({source: ${srcId()}, direction: '${dir}', weightProperty: 'w', concurrency: ${c}${delta}})`, 'distance'), ref().sssp as Record<string, unknown>, 1e-9);
        }
      }
    });
  });

  if (g.target !== undefined) {
    it('shortest path to a target, Yen and A*', () => {
      const tgt = Number(db().executeSync('MATCH (v:V {i: $i}) RETURN id(v)', { i: g.target }).records[0][0]);
      const path = db().executeSync(`CALL algo.sssp({source: ${srcId()}, target: ${tgt}, direction: '${dir}', weightProperty: 'w'}) YIELD node, distance RETURN node.i, distance`).records;
      expect(toJs(path[path.length - 1][1])).toBeCloseTo(ref().ssspTarget as number, 9);
      expect(path[0][0]).toBe(src);
      const yens = db().executeSync(`CALL algo.yens({source: ${srcId()}, target: ${tgt}, k: ${g.k ?? 3}, direction: '${dir}', weightProperty: 'w'}) YIELD totalCost RETURN totalCost`).records.map((r) => toJs(r[0]));
      expect(yens.length).toBe((ref().yens as number[]).length);
      (ref().yens as number[]).forEach((c, i) => expect(yens[i]).toBeCloseTo(c, 9));
      if (g.coords) {
        db().executeSync('UNWIND range(0, size($c) - 1) AS i MATCH (v:V {i: i}) SET v.x = $c[i][0], v.y = $c[i][1], v.p = point({x: $c[i][0], y: $c[i][1]})', { c: g.coords });
        for (const coords of ["xProperty: 'x', yProperty: 'y'", "pointProperty: 'p'"]) {
          const a = db().executeSync(`CALL algo.astar({source: ${srcId()}, target: ${tgt}, ${coords}, direction: '${dir}', weightProperty: 'w'}) YIELD node, distance RETURN distance`).records;
          expect(toJs(a[a.length - 1][0])).toBeCloseTo(ref().astar as number, 9);
        }
      }
    });
  }

  if (!g.directed) {
    it('articulation points, bridges and spanning trees', () => {
      const points = db().executeSync('CALL algo.articulationPoints() YIELD node RETURN node.i ORDER BY node.i').records.map((r) => r[0]);
      expect(points).toEqual(ref().articulationPoints);
      const bridges = db().executeSync('CALL algo.bridges() YIELD source, target RETURN source.i, target.i ORDER BY source.i, target.i').records;
      expect(bridges).toEqual(ref().bridges);
      for (const [objective, key] of [['minimum', 'mstMin'], ['maximum', 'mstMax']]) {
        const total = db().executeSync(`CALL algo.spanningTree.stats({weightProperty: 'w', objective: '${objective}'}) YIELD summary RETURN summary.totalWeight`).records[0][0];
        expect(toJs(total)).toBeCloseTo(ref()[key] as number, 9);
      }
    });

    it('eigenvector centrality', () => {
      const scores = values(db(), "CALL algo.eigenvector({direction: 'BOTH', tolerance: 1e-14, maxIterations: 100000})", 'score');
      if (ref().eigenvector !== null) {
        expectClose(scores, ref().eigenvector as Record<string, unknown>, 1e-6);
        return;
      }
      if (ref().eigenRadius === undefined) return; // a single vertex
      // Disconnected: networkx gives no unique answer, but ours must be a non-zero, non-negative
      // eigenvector of the adjacency matrix for its largest eigenvalue: sum of the neighbours'
      // scores = radius x own score, at every vertex.
      const radius = ref().eigenRadius as number;
      const neighbours = ref().neighbours as Record<string, number[]>;
      const x = (v: string | number): number => Number(scores[String(v)]);
      const norm = Math.sqrt(Object.keys(neighbours).reduce((s, v) => s + x(v) ** 2, 0));
      expect(norm).toBeGreaterThan(0);
      for (const [v, ns] of Object.entries(neighbours)) {
        expect(x(v)).toBeGreaterThanOrEqual(0);
        expect(Math.abs(ns.reduce((s, u) => s + x(u), 0) - radius * x(v)) / norm).toBeLessThan(1e-6);
      }
    });

    it('Jaccard node similarity and link prediction', () => {
      const rows = db().executeSync("CALL algo.nodeSimilarity({direction: 'BOTH', topK: 1000}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity").records;
      const ours = Object.fromEntries(rows.map((r) => [`${r[0]},${r[1]}`, toJs(r[2])]));
      expectClose(ours, ref().jaccard as Record<string, unknown>, 1e-12);
      for (const metric of ['adamicAdar', 'resourceAllocation', 'preferentialAttachment', 'commonNeighbours', 'totalNeighbours']) {
        const others = db().executeSync('MATCH (v:V) WHERE v.i <> $i RETURN collect(id(v))', { i: src }).records[0][0];
        const pairs = db().executeSync(`CALL algo.linkPrediction({metric: '${metric}', sourceNodes: [${srcId()}], targetNodes: $t}) YIELD node1, node2, score RETURN node1.i, node2.i, score`, { t: toJs(others) as number[] }).records;
        expectClose(Object.fromEntries(pairs.map((r) => [`${r[0]},${r[1]}`, toJs(r[2])])), ref()[metric] as Record<string, unknown>, 1e-12);
      }
    });
  }

  if (g.directed && g.edges.length > 0) {
    it('HITS hubs and authorities', () => {
      const rows = db().executeSync('CALL algo.hits({tolerance: 1e-15, maxIterations: 100000}) YIELD node, hub, authority RETURN node.i, hub, authority').records;
      const h = ref().hits as { hub: Record<string, number>; authority: Record<string, number> };
      expectClose(Object.fromEntries(rows.map((r) => [String(r[0]), toJs(r[1])])), h.hub, 1e-6);
      expectClose(Object.fromEntries(rows.map((r) => [String(r[0]), toJs(r[2])])), h.authority, 1e-6);
    });
  }
});

describe('Louvain and Leiden by quality', () => {
  const simpleUndirected = graphs.filter((g) => !g.directed && g.simple && g.edges.length > 0);
  it.each(simpleUndirected.map((g) => [g.name, g] as const))('on %s: modularity within 2 %% of networkx Louvain, Leiden communities connected', (name) => {
    const db = dbs.get(name) as Database;
    const parts: { graph: string; communities: number[][] }[] = [];
    const reported: number[] = [];
    for (const alg of ['louvain', 'leiden']) {
      parts.push({ graph: name, communities: partitionOf(values(db, `CALL algo.${alg}()`, 'communityId')) });
      reported.push(Number(toJs(db.executeSync(`CALL algo.${alg}.stats() YIELD summary RETURN summary.modularity`).records[0][0])));
    }
    const judged = reference(graphs.filter((g) => g.name === name), parts) as unknown as { partitions: { modularity: number; connected: boolean }[] } & Answers;
    const best = answers[name].louvainModularity as number;
    judged.partitions.forEach((p, i) => {
      expect(p.modularity).toBeCloseTo(reported[i], 9); // our own modularity figure is right
      expect(p.modularity).toBeGreaterThanOrEqual(best * 0.98);
    });
    expect(judged.partitions[1].connected).toBe(true);
  });
});
