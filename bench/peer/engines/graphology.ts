/**
 * graphology adapter, for the algorithms only (graphology has no query language): the
 * Kronecker graph is built from arrays into an undirected `Graph`, with edge weight `w`.
 * Algorithms: PageRank (graphology-metrics), WCC (graphology-components), BFS levels
 * (graphology-shortest-path's unweighted single-source lengths), SSSP (its Dijkstra; the
 * library returns paths, which are summed into distances outside the timed part). It has no
 * CDLP or local clustering coefficient.
 */

import { join } from 'node:path';
import { UndirectedGraph } from 'graphology';
import { connectedComponents } from 'graphology-components';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { dijkstra, unweighted } from 'graphology-shortest-path';
import { readCsv, type DatasetMeta } from '../data.js';
import type { AlgoRun, Engine, Row } from '../engine.js';
import type { AlgoName } from '../workloads.js';

type G = UndirectedGraph<Record<string, never>, { w: number }>;
type Pagerank = typeof pagerankModule.default;
/** The package is CommonJS: at run time the default import is the function itself. */
const pagerank: Pagerank = (typeof pagerankModule === 'function' ? pagerankModule : pagerankModule.default) as Pagerank;

export class GraphologyEngine implements Engine {
  private graph: G = new UndirectedGraph();

  async load(meta: DatasetMeta, dir: string): Promise<void> {
    if (meta.kind !== 'graph') return;
    const g: G = new UndirectedGraph();
    for (const v of readCsv(join(dir, meta.nodes[0].file), meta.nodes[0].columns)) g.addNode(String(v.id));
    for (const e of readCsv(join(dir, meta.rels[0].file), meta.rels[0].columns)) g.addEdge(String(e.src), String(e.dst), { w: e.w as number });
    this.graph = g;
  }

  async query(): Promise<Row[]> {
    throw new Error('graphology has no query language');
  }

  algorithm(algo: AlgoName, source: number): AlgoRun | null {
    const g = this.graph;
    const fromRecord = (raw: unknown): Map<number, number> => {
      const m = new Map<number, number>();
      for (const [k, v] of Object.entries(raw as Record<string, number>)) m.set(Number(k), v);
      return m;
    };
    switch (algo) {
      case 'PageRank':
        // Converged as graphdb is (total change below 1e-7): graphology compares with n × tolerance.
        return { run: () => pagerank(g, { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.order }), values: fromRecord };
      case 'WCC':
        return {
          run: () => connectedComponents(g),
          values: (raw) => {
            const m = new Map<number, number>();
            (raw as string[][]).forEach((comp, i) => comp.forEach((v) => m.set(Number(v), i)));
            return m;
          },
        };
      case 'BFS':
        return { run: () => unweighted.singleSourceLength(g, String(source)), values: fromRecord };
      case 'SSSP':
        return {
          run: () => dijkstra.singleSource(g, String(source), 'w'),
          values: (raw) => {
            const m = new Map<number, number>();
            for (const [k, path] of Object.entries(raw as Record<string, string[]>)) {
              let d = 0;
              for (let i = 1; i < path.length; i++) d += g.getEdgeAttribute(path[i - 1], path[i], 'w');
              m.set(Number(k), d);
            }
            return m;
          },
        };
      default:
        return null;
    }
  }

  async close(): Promise<void> {
    this.graph.clear();
  }
}
