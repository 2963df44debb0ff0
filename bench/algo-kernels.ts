/**
 * The algorithm kernels alone, on a Kronecker CSR built in memory (no database load, no query):
 * for profiling (`node --cpu-prof dist/bench/algo-kernels.js --only louvain`: compiled, the profile keeps
 * line numbers, which tsx's output folds into one) and for
 * quick timings while a kernel is being changed. The CSR is laid out as a `direction: 'both'`
 * projection of the stored graph would be: per node, outgoing neighbours in insertion order,
 * then incoming ones. Prints the median of `--runs` runs per kernel.
 *
 *   node --expose-gc dist/bench/algo-kernels.js [--scale 17] [--small 12] [--runs 3] [--threads 1] [--only louvain,scc]
 *   node --expose-gc dist/bench/algo-kernels.js --speedup [--runs 5] [--only wcc,fastrp]   # worker pool: one thread against every core
 */

import { availableParallelism, loadavg } from 'node:os';
import { connectedComponents, stronglyConnectedComponents } from 'graphology-components';
import type { Csr } from '../procedures/algo/csr.js';
import { betweenness } from '../procedures/algo/betweenness.js';
import { closeness } from '../procedures/algo/closeness.js';
import { simpleUndirected } from '../procedures/algo/csr.js';
import { coreNumbers } from '../procedures/algo/kcore.js';
import { detectCommunities } from '../procedures/algo/louvain.js';
import { pageRank } from '../procedures/algo/pagerank.js';
import { trianglesPerNode } from '../procedures/algo/triangles.js';
import { stronglyConnected } from '../procedures/algo/scc.js';
import { weaklyConnected } from '../procedures/algo/wcc.js';
import { fastRp } from '../procedures/algo/embeddings.js';
import { knn } from '../procedures/algo/knn.js';
import { seededRandom } from '../procedures/algo/random.js';
import { nodeSimilarity } from '../procedures/algo/similarity.js';
import { simpleDirected, transpose } from '../procedures/algo/simple.js';
import { arg, graphology, graphologyGraphs, kronecker, warmUp } from './algo-graphs.js';

const { louvain, betweenness: betweennessOf, closeness: closenessOf, pagerank } = graphology;



/** The CSR of `edges` as stored (u→v): out rows, in rows, or both (out first, then in). */
export function csrOf(n: number, edges: [number, number][], direction: 'out' | 'in' | 'both'): Csr {
  const offsets = new Int32Array(n + 1);
  const useOut = direction !== 'in';
  const useIn = direction !== 'out';
  for (const [u, v] of edges) {
    if (useOut) offsets[u + 1]++;
    if (useIn) offsets[v + 1]++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const targets = new Int32Array(offsets[n]);
  const fill = offsets.slice(0, n);
  if (useOut) for (const [u, v] of edges) targets[fill[u]++] = v;
  if (useIn) for (const [u, v] of edges) targets[fill[v]++] = u;
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  return { n, ids, index: ids, offsets, targets };
}

/** Median wall and CPU (this process, all threads) milliseconds of `runs` warm runs (see `warmUp`). */
async function median(f: () => unknown, runs: number): Promise<{ wall: number; cpu: number }> {
  await warmUp(f);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    f();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const mid = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: mid(wall), cpu: mid(cpu) };
}

/**
 * `--speedup`: the worker-pool kernels on one thread and on every core, the two alternating
 * run by run after a warm-up of each (so that a change in the machine's other load hits both
 * medians alike), wall time. knn is exact (all pairs), so it runs on 4096 random vectors of
 * 64 entries rather than on a graph.
 */
async function speedups(both: Csr, out: Csr, smallBoth: Csr, runs: number, only: string[] | undefined): Promise<void> {
  const cores = availableParallelism();
  const none = (): void => undefined;
  const simple = simpleUndirected(both);
  const simOut = simpleDirected(out);
  const simIn = transpose(simOut);
  const rand = seededRandom(20261126);
  const dim = 64;
  const vectors = Float64Array.from({ length: 4096 * dim }, () => rand() - 0.5);
  const present = new Uint8Array(4096).fill(1);
  const rp = { dimension: 64, iterationWeights: [0, 1, 1], normalizationStrength: 0, nodeSelfInfluence: 0, seed: 42 };
  const kernels: [string, string, (threads: number) => unknown][] = [
    ['pagerank', 'large', (t) => pageRank(both, { dampingFactor: 0.85, maxIterations: 200, tolerance: 1e-7 }, none, t)],
    ['betweenness', 'small', (t) => betweenness(smallBoth, undefined, true, t, none)],
    ['betweenness, 256 sampled sources', 'large', (t) => betweenness(both, Int32Array.from({ length: 256 }, (_, i) => (i * 2654435761) % both.n), true, t, none)],
    ['closeness', 'small', (t) => closeness(smallBoth, { harmonic: false, wassermanFaust: false }, t, none)],
    ['triangles', 'large', (t) => trianglesPerNode(simple, t, none)],
    ['wcc', 'large', (t) => weaklyConnected(out, none, t)],
    ['node similarity (Jaccard, top 10)', 'large', (t) => nodeSimilarity(simOut, simIn, 'JACCARD', 10, 1e-42, 1, none, t)],
    ['knn (cosine, top 10)', '4096 × 64', (t) => knn(vectors, dim, present, 'COSINE', 10, 1e-42, none, t)],
    ['fastRP (64 dimensions, 3 rounds)', 'large', (t) => fastRp(both, rp, none, t)],
  ];
  console.log(`Load average ${loadavg()[0].toFixed(1)} at the start. CPU: this process, every thread; CPU ${cores} / CPU 1 above 1 is the pool's overhead (on free cores the speed-up approaches ${cores} ÷ that ratio).\n`);
  console.log(`| kernel | graph | 1 thread ms | ${cores} threads ms | speed-up | 1 thread CPU ms | ${cores} threads CPU ms | CPU ${cores} / CPU 1 |\n|---|---|---:|---:|---:|---:|---:|---:|`);
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (const [name, graph, f] of kernels) {
    if (only !== undefined && !only.some((w) => name.toLowerCase().includes(w))) continue;
    await warmUp(() => f(1));
    await warmUp(() => f(cores));
    const one: number[] = [];
    const many: number[] = [];
    const oneCpu: number[] = [];
    const manyCpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const [threads, wall, cpu] of [[1, one, oneCpu], [cores, many, manyCpu]] as const) {
        const c = cpuMs();
        const t = performance.now();
        f(threads);
        wall.push(performance.now() - t);
        cpu.push(cpuMs() - c);
      }
    }
    const mid = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `| ${name} | ${graph} | ${mid(one).toFixed(1)} | ${mid(many).toFixed(1)} | ${(mid(one) / mid(many)).toFixed(2)}× | ${mid(oneCpu).toFixed(1)} | ${mid(manyCpu).toFixed(1)} | ${(mid(manyCpu) / mid(oneCpu)).toFixed(2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const scale = arg('scale', 17);
  const small = arg('small', 12);
  const runs = arg('runs', 3);
  const threads = arg('threads', 1);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].toLowerCase().split(',') : undefined;
  const large = kronecker(scale, 16, 20240611);
  const sm = kronecker(small, 16, 20240611);
  const nL = 2 ** scale;
  const nS = 2 ** small;
  const both = csrOf(nL, large, 'both');
  const out = csrOf(nL, large, 'out');
  const smallBoth = csrOf(nS, sm, 'both');
  const none = (): void => undefined;
  const cases: [string, () => unknown][] = [
    ['pagerank', () => pageRank(both, { dampingFactor: 0.85, maxIterations: 200, tolerance: 1e-7 }, none, threads)],
    ['wcc', () => weaklyConnected(out, none)],
    ['scc', () => stronglyConnected(out, none)],
    ['kcore', () => coreNumbers(simpleUndirected(both), none)],
    ['louvain', () => detectCommunities(both, { leiden: false, gamma: 1, maxLevels: 10, maxIterations: 10, tolerance: 1e-7 }, none)],
    ['betweenness', () => betweenness(smallBoth, undefined, true, threads, none)],
    ['closeness', () => closeness(smallBoth, { harmonic: false, wassermanFaust: false }, threads, none)],
  ];
  if (process.argv.includes('--speedup')) {
    await speedups(both, out, smallBoth, runs, only);
    return;
  }
  const withGraphology = process.argv.includes('--graphology');
  const { undirected: g, directed: d } = graphologyGraphs(withGraphology ? nL : 0, withGraphology ? large : []);
  const gs = graphologyGraphs(withGraphology ? nS : 0, withGraphology ? sm : []).undirected;
  const theirs: Record<string, () => unknown> = {
    pagerank: () => pagerank(g, { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.order }),
    scc: () => stronglyConnectedComponents(d),
    wcc: () => connectedComponents(g),
    louvain: () => louvain(g, { getEdgeWeight: null }),
    betweenness: () => betweennessOf(gs, { getEdgeWeight: null, normalized: false }),
    closeness: () => closenessOf(gs),
  };
  for (const [name, f] of cases) {
    if (only !== undefined && !only.some((w) => name.includes(w))) continue;
    const a = await median(f, runs);
    let line = `${name}: ${a.wall.toFixed(1)} ms wall, ${a.cpu.toFixed(1)} ms cpu`;
    if (withGraphology) {
      const b = await median(theirs[name], runs);
      line += ` | graphology ${b.wall.toFixed(1)} wall, ${b.cpu.toFixed(1)} cpu | ratio wall ${(a.wall / b.wall).toFixed(3)}, cpu ${(a.cpu / b.cpu).toFixed(3)}`;
    }
    console.log(line);
  }
}

if (/algo-kernels\.[jt]s$/.test(process.argv[1] ?? '')) await main();
