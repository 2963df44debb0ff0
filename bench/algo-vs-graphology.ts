/**
 * The algorithms graphology also has, timed side by side on one Kronecker graph in one
 * process: graphdb's `algo.*` procedures (whole query, warm projection cache) against
 * graphology's implementations on an UndirectedGraph holding the same edges. Prints a
 * Markdown table with the median of `--runs` warm runs and the ratio graphdb / graphology.
 * The O(n·m) centralities (betweenness, closeness) run on a smaller graph (`--small`).
 *
 *   node --expose-gc --stack-size=65500 dist/bench/algo-vs-graphology.js [--scale 14] [--small 10] [--runs 3] [--only louvain,scc]
 *
 * `--only` keeps the cases whose name contains one of the given words (case-insensitive). A
 * second table times the worker-pool kernels with one thread and with every core.
 */

import { DirectedGraph, UndirectedGraph } from 'graphology';
import { stronglyConnectedComponents } from 'graphology-components';
import { dfsFromNode } from 'graphology-traversal';
import { availableParallelism, loadavg } from 'node:os';
import type { Database } from '../src/engine/database.js';
import { arg, graphology, kronecker, loadGraphdb, medianMs } from './algo-graphs.js';

const { louvain, betweenness, closeness, eigenvector, hits, pagerank } = graphology;



interface Pair {
  db: Database;
  g: UndirectedGraph;
  /** The relationships as stored (edge from the first R-MAT end to the second). */
  directed: DirectedGraph;
  n: number;
  m: number;
}

function load(scale: number): Pair {
  const edges = kronecker(scale, 16, 20240611);
  const n = 2 ** scale;
  const db = loadGraphdb(n, edges);
  const g = new UndirectedGraph();
  for (let i = 0; i < n; i++) g.addNode(String(i));
  for (const [u, v] of edges) g.addEdge(String(u), String(v));
  const directed = new DirectedGraph();
  for (let i = 0; i < n; i++) directed.addNode(String(i));
  for (const [u, v] of edges) directed.addEdge(String(u), String(v));
  return { db, g, directed, n, m: edges.length };
}

interface Case {
  name: string;
  graph: 'large' | 'small';
  ours: string;
  theirs: (p: Pair) => unknown;
}

const CASES: Case[] = [
  { name: 'PageRank (to total change 1e-7)', graph: 'large', ours: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7}) YIELD node, score", theirs: ({ g }) => pagerank(g, { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.order }) },
  { name: 'eigenvector', graph: 'large', ours: "CALL algo.eigenvector({direction: 'BOTH', maxIterations: 1000, tolerance: 1e-9}) YIELD node, score", theirs: ({ g }) => eigenvector(g, { getEdgeWeight: null, maxIterations: 1000, tolerance: 1e-9 }) },
  { name: 'HITS', graph: 'large', ours: "CALL algo.hits({direction: 'BOTH', maxIterations: 1000, tolerance: 1e-8}) YIELD node, hub", theirs: ({ g }) => hits(g, { getEdgeWeight: null, maxIterations: 1000, tolerance: 1e-8 }) },
  { name: 'Louvain', graph: 'large', ours: 'CALL algo.louvain() YIELD node, communityId', theirs: ({ g }) => louvain(g, { getEdgeWeight: null }) },
  { name: 'SCC (relationships as stored)', graph: 'large', ours: 'CALL algo.scc() YIELD node, componentId', theirs: ({ directed }) => stronglyConnectedComponents(directed) },
  {
    name: 'DFS from vertex 0',
    graph: 'large',
    ours: "MATCH (s:V {id: 0}) CALL algo.dfs({source: s, direction: 'BOTH'}) YIELD node, depth",
    theirs: ({ g }) => {
      const out: [string, number][] = [];
      dfsFromNode(g, '0', (node, _attr, depth) => void out.push([node, depth]));
      return out;
    },
  },
  { name: 'betweenness (exact)', graph: 'small', ours: "CALL algo.betweenness({direction: 'BOTH'}) YIELD node, score", theirs: ({ g }) => betweenness(g, { getEdgeWeight: null, normalized: false }) },
  { name: 'closeness', graph: 'small', ours: "CALL algo.closeness({direction: 'BOTH'}) YIELD node, score", theirs: ({ g }) => closeness(g) },
];

/** The kernels on the worker pool, timed with one thread and with every core (`concurrency`). */
const PARALLEL: { name: string; graph: 'large' | 'small'; call: string }[] = [
  { name: 'PageRank (to total change 1e-7)', graph: 'large', call: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7, concurrency: $c}) YIELD node, score AS value" },
  { name: 'closeness', graph: 'small', call: "CALL algo.closeness({direction: 'BOTH', concurrency: $c}) YIELD node, score AS value" },
  { name: 'betweenness (exact)', graph: 'small', call: "CALL algo.betweenness({direction: 'BOTH', concurrency: $c}) YIELD node, score AS value" },
  { name: 'betweenness (256 sampled sources)', graph: 'large', call: "CALL algo.betweenness({direction: 'BOTH', samplingSize: 256, concurrency: $c}) YIELD node, score AS value" },
  { name: 'triangle count', graph: 'large', call: 'CALL algo.triangleCount({concurrency: $c}) YIELD node, triangles AS value' },
];

async function parallelSpeedups(graphs: Record<'large' | 'small', Pair>, runs: number, only: string[] | undefined): Promise<string[]> {
  const cores = availableParallelism();
  const lines = ['', `Worker pool: one thread against ${cores} (\`concurrency\`), load average ${loadavg()[0].toFixed(1)} at the start.`, '', '| kernel | graph | 1 thread ms | ' + cores + ' threads ms | speed-up |', '|---|---|---:|---:|---:|'];
  for (const c of PARALLEL.filter((x) => only === undefined || only.some((w) => x.name.toLowerCase().includes(w)))) {
    const db = graphs[c.graph].db;
    const query = `${c.call} RETURN id(node) AS id, value`;
    const one = await medianMs(() => db.executeSync(query, { c: 1 }).records, runs);
    const many = await medianMs(() => db.executeSync(query, { c: cores }).records, runs);
    lines.push(`| ${c.name} | ${c.graph} | ${one.toFixed(1)} | ${many.toFixed(1)} | ${(one / many).toFixed(2)}× |`);
  }
  return lines;
}

async function main(): Promise<void> {
  const scale = arg('scale', 14);
  const small = arg('small', 10);
  const runs = arg('runs', 3);
  const log = (s: string): void => void process.stderr.write(`[algo-bench] ${s}\n`);
  log(`loading kron-${scale} and kron-${small} …`);
  const graphs = { large: load(scale), small: load(small) };
  const lines = [
    `Kronecker graphs, edge factor 16: kron-${scale} (${graphs.large.n} vertices, ${graphs.large.m} edges), kron-${small} (${graphs.small.n} vertices, ${graphs.small.m} edges); median of ${runs} warm runs.`,
    '',
    '| algorithm | graph | graphdb ms | graphology ms | graphdb / graphology |',
    '|---|---|---:|---:|---:|',
  ];
  const ratios: number[] = [];
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].toLowerCase().split(',') : undefined;
  for (const c of CASES.filter((x) => only === undefined || only.some((w) => x.name.toLowerCase().includes(w)))) {
    const p = graphs[c.graph];
    const query = `${c.ours.replace(/YIELD node, (\w+)$/, 'YIELD node, $1 AS value')} RETURN id(node) AS id, value`;
    const ours = await medianMs(() => p.db.executeSync(query).records, runs);
    const theirs = await medianMs(() => c.theirs(p), runs);
    ratios.push(ours / theirs);
    log(`${c.name}: ${ours.toFixed(1)} ms vs ${theirs.toFixed(1)} ms`);
    lines.push(`| ${c.name} | kron-${c.graph === 'large' ? scale : small} | ${ours.toFixed(1)} | ${theirs.toFixed(1)} | ${(ours / theirs).toFixed(2)} |`);
  }
  const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  lines.push('', `Geometric mean of the ratios: ${geo.toFixed(2)}.`);
  lines.push(...(await parallelSpeedups(graphs, runs, only)));
  console.log(lines.join('\n'));
}

await main();
