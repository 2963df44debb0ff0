/**
 * What the algorithm benchmarks share: R-MAT Kronecker edge lists, generated the same way in
 * every benchmark so that timings from different scripts are on the same graph, graphdb
 * loaded with them, and the timing loop.
 */

import { Database } from '../src/engine/database.js';

/** R-MAT (a = 0.57, b = c = 0.19) undirected edges, deduplicated, no loops (xorshift32). */
export function kronecker(scale: number, edgeFactor: number, seed: number): [number, number][] {
  let s = seed >>> 0 || 1;
  const rand = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
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

/** CommonJS packages: depending on the loader the default import is the function itself. */
export function fn<T>(m: T | { default: T }): T {
  return (typeof m === 'function' ? m : (m as { default: T }).default) as T;
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

/** Median wall milliseconds of `runs` runs after one warm-up run (JIT, projection caches). */
export async function medianMs(f: () => unknown, runs: number): Promise<number> {
  await f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
