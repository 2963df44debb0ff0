/**
 * The graphs the algorithm benchmarks share: R-MAT Kronecker edge lists, generated the same
 * way in every benchmark so that timings from different scripts are on the same graph.
 */

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
