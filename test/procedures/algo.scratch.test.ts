/**
 * The working arrays kept per CSR (procedures/algo/scratch.ts) and the kernels that keep them:
 * the same array comes back for the same CSR, name and length (plain and shared apart), and a
 * kernel's result is its caller's: a second call over the same CSR leaves the first call's
 * PageRank scores, BFS depths and order, and delta-stepping distances as they were.
 */

import { describe, expect, it } from 'vitest';
import { bfs } from '../../procedures/algo/bfs.js';
import { bfsDirectionOptimising } from '../../procedures/algo/bfs-parallel.js';
import type { Csr } from '../../procedures/algo/csr.js';
import { deltaStepping } from '../../procedures/algo/delta-stepping.js';
import { pageRank } from '../../procedures/algo/pagerank.js';
import { scratchFloat64, scratchInt32, scratchObject, scratchUint8 } from '../../procedures/algo/scratch.js';
import { afforest } from '../../procedures/algo/wcc.js';
import { random } from './algo.graphs.js';

/** An undirected CSR (every edge both ways) of `m` random edges over `n` nodes, hubs at low numbers, weights 1..9. */
function undirected(n: number, m: number, seed: number): Csr {
  const rand = random(seed);
  const edges: [number, number][] = [];
  for (let k = 0; k < m; k++) edges.push([Math.floor(rand() ** 2 * n), Math.floor(rand() * n)]);
  const offsets = new Int32Array(n + 1);
  for (const [u, v] of edges) {
    offsets[u + 1]++;
    offsets[v + 1]++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const targets = new Int32Array(offsets[n]);
  const weights = new Float64Array(offsets[n]);
  const fill = offsets.slice(0, n);
  for (const [u, v] of edges) {
    const w = 1 + ((u * 31 + v * 17) % 9);
    weights[fill[u]] = w;
    targets[fill[u]++] = v;
    weights[fill[v]] = w;
    targets[fill[v]++] = u;
  }
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  return { n, ids, index: ids, offsets, targets, weights };
}

const none = (): void => undefined;

describe('per-CSR scratch arrays', () => {
  it('hands back the same array for the same CSR, name and length, plain and shared apart', () => {
    const a = undirected(50, 100, 1);
    const b = undirected(50, 100, 2);
    const x = scratchInt32(a, 'test.x', 10);
    expect(scratchInt32(a, 'test.x', 10)).toBe(x);
    expect(scratchInt32(b, 'test.x', 10)).not.toBe(x);
    expect(scratchInt32(a, 'test.y', 10)).not.toBe(x);
    const shared = scratchInt32(a, 'test.x', 10, true);
    expect(shared).not.toBe(x);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(scratchInt32(a, 'test.x', 10, true)).toBe(shared);
    // Another length: a new array, zeroed.
    x[0] = 7;
    const longer = scratchInt32(a, 'test.x', 11);
    expect(longer).not.toBe(x);
    expect(longer[0]).toBe(0);
    expect(scratchFloat64(a, 'test.f', 0, true).length).toBe(0);
    expect(scratchUint8(a, 'test.u', 5)).toBe(scratchUint8(a, 'test.u', 5));
    let made = 0;
    const make = (): { count: number } => ({ count: ++made });
    expect(scratchObject(a, 'test.o', make)).toBe(scratchObject(a, 'test.o', make));
    expect(made).toBe(1);
  });

  it("leaves a kernel's earlier results alone when it runs again over the same CSR", () => {
    const csr = undirected(3000, 12000, 7);
    const opts = { dampingFactor: 0.85, maxIterations: 100, tolerance: 1e-9 };
    const pr = pageRank(csr, opts, none);
    const prCopy = pr.scores.slice();
    const personalised = pageRank(csr, { ...opts, sources: [5] }, none);
    expect(personalised.scores).not.toEqual(prCopy);
    expect(pr.scores).toEqual(prCopy);
    expect(pageRank(csr, opts, none).scores).toEqual(prCopy);

    const first = bfsDirectionOptimising(csr, csr, 0, 2 ** 31 - 1, none, 1);
    const depth = first.depth.slice();
    const order = first.order.slice();
    bfsDirectionOptimising(csr, csr, 17, 2 ** 31 - 1, none, 1);
    expect(first.depth).toEqual(depth);
    expect(first.order).toEqual(order);
    // The same depths as the level-by-level BFS, itself run twice.
    expect(bfs(csr, 0, 2 ** 31 - 1, none).depth).toEqual(depth);
    expect(bfs(csr, 0, 2 ** 31 - 1, none).depth).toEqual(depth);

    const sssp = deltaStepping(csr, 0, none, 1);
    const dist = sssp.dist.slice();
    const ssspOrder = sssp.order.slice(0, sssp.count);
    const other = deltaStepping(csr, 17, none, 1);
    expect(other.dist[0]).toBeGreaterThan(0);
    expect(sssp.dist).toEqual(dist);
    expect(sssp.order.slice(0, sssp.count)).toEqual(ssspOrder);
    expect(deltaStepping(csr, 0, none, 1).dist).toEqual(dist);

    const roots = afforest(csr, none, 1, true);
    expect(afforest(csr, none, 1, true)).toEqual(roots);
  });
});
