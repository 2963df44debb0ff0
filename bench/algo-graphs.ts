/**
 * What the algorithm benchmarks share: R-MAT Kronecker edge lists, generated the same way in
 * every benchmark so that timings from different scripts are on the same graph, graphdb
 * loaded with them, and the timing loop.
 */

import { DirectedGraph, UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import betweennessModule from 'graphology-metrics/centrality/betweenness.js';
import closenessModule from 'graphology-metrics/centrality/closeness.js';
import eigenvectorModule from 'graphology-metrics/centrality/eigenvector.js';
import hitsModule from 'graphology-metrics/centrality/hits.js';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { Database } from '../src/engine/database.js';
import { random } from '../test/procedures/algo.graphs.js';

/** R-MAT (a = 0.57, b = c = 0.19) undirected edges, deduplicated, no loops (xorshift32). */
export function kronecker(scale: number, edgeFactor: number, seed: number): [number, number][] {
  const rand = random(seed);
  const seen = new Set<number>();
  const edges: [number, number][] = [];
  const n = 2 ** scale;
  for (let i = 0; i < n * edgeFactor; i++) {
    let u = 0;
    let v = 0;
    for (let b = 0; b < scale; b++) {
      const r = rand();
      u = u * 2 + (r >= 0.76 ? 1 : 0);
      v = v * 2 + (r >= 0.57 && r < 0.76 ? 1 : r >= 0.95 ? 1 : 0);
    }
    const key = Math.min(u, v) * n + Math.max(u, v);
    if (u === v || seen.has(key)) continue;
    seen.add(key);
    edges.push([u, v]);
  }
  return edges;
}

/** The same edge list as graphology graphs, undirected and directed (vertex keys are the ids as text). */
export function graphologyGraphs(n: number, edges: readonly [number, number][]): { undirected: UndirectedGraph; directed: DirectedGraph } {
  const undirected = new UndirectedGraph();
  const directed = new DirectedGraph();
  for (let i = 0; i < n; i++) {
    undirected.addNode(String(i));
    directed.addNode(String(i));
  }
  for (const [u, v] of edges) {
    undirected.addEdge(String(u), String(v));
    directed.addEdge(String(u), String(v));
  }
  return { undirected, directed };
}

/** CommonJS packages: depending on the loader the default import is the function itself. */
function fn<T>(m: T | { default: T }): T {
  return (typeof m === 'function' ? m : (m as { default: T }).default) as T;
}

/** graphology's algorithms the benchmarks compare with. */
export const graphology: {
  louvain: typeof louvainModule.default;
  betweenness: typeof betweennessModule.default;
  closeness: typeof closenessModule.default;
  eigenvector: typeof eigenvectorModule.default;
  hits: typeof hitsModule.default;
  pagerank: typeof pagerankModule.default;
} = {
  louvain: fn(louvainModule as unknown as typeof louvainModule.default),
  betweenness: fn(betweennessModule as unknown as typeof betweennessModule.default),
  closeness: fn(closenessModule as unknown as typeof closenessModule.default),
  eigenvector: fn(eigenvectorModule as unknown as typeof eigenvectorModule.default),
  hits: fn(hitsModule as unknown as typeof hitsModule.default),
  pagerank: fn(pagerankModule as unknown as typeof pagerankModule.default),
};

/** The number after `--name` on the command line, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** An in-memory graphdb holding `edges` as (:V {id})-[:E]->(:V {id}), vertices 0..n-1 created in order. */
export function loadGraphdb(n: number, edges: [number, number][]): Database {
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {id: i})', { n });
  db.executeSync('CREATE INDEX FOR (v:V) ON (v.id)');
  for (let i = 0; i < edges.length; i += 10_000) {
    db.executeSync('UNWIND $b AS e MATCH (a:V {id: e[0]}), (b:V {id: e[1]}) CREATE (a)-[:E]->(b)', { b: edges.slice(i, i + 10_000) });
  }
  return db;
}

/**
 * Warm-up before timing: the garbage of earlier cases collected (and V8's background sweeper
 * given 100 ms to finish with it), then at least WARM_UPS runs and WARM_UP_MS of them. The
 * timed runs that follow are back to back, without a forced GC: the first run after `gc()`
 * is 2–3× slower (Louvain's query on kron-16: 123–138 ms back to back, 172–352 ms right after
 * `gc()`, 134–156 ms when one untimed run follows it), and the sweeper `gc()` leaves running
 * competes with the next run on 2 cores (WCC on kron-17: 12 ms alone, 40–110 ms right after
 * `gc()`). Garbage a run makes is collected by V8 as it goes, inside the timed runs, on both
 * sides of a comparison alike. Warm-up runs: V8 compiles a long kernel in stages (on-stack
 * replacement, then deoptimisations as later phases first run; Louvain on kron-17 took 1.9 s,
 * 1.2 s, 0.66 s, 0.60 s on its first four runs), and a short kernel's optimised code comes
 * from a background compile that on a loaded machine finished after three 10 ms WCC runs had
 * ended (WCC then measured 2.8× C in one process and 1.7–2.0× in others).
 */
export async function warmUp(f: () => unknown): Promise<void> {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const start = performance.now();
  for (let i = 0; i < WARM_UPS || performance.now() - start < WARM_UP_MS; i++) await f();
}

const WARM_UPS = 3;
const WARM_UP_MS = 1000;

/** Median wall milliseconds of `runs` runs after a warm-up (`warmUp`: JIT, projection caches). */
export async function medianMs(f: () => unknown, runs: number): Promise<number> {
  await warmUp(f);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
