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
 *
 * Answers are checked (bench/algo-check.ts): graphdb's last timed answer against graphology's
 * (scores within a tolerance, the same components, Louvain by modularity, DFS as a valid tree
 * over the same vertices), and every worker-pool kernel's answer on all cores against its
 * answer on one thread. Disagreements are listed under the tables and the exit status is 1;
 * `--corrupt-check` alters graphdb's answers first, to show that the checks catch it.
 */

import type { DirectedGraph, UndirectedGraph } from 'graphology';
import { stronglyConnectedComponents } from 'graphology-components';
import { dfsFromNode } from 'graphology-traversal';
import { availableParallelism, loadavg } from 'node:os';
import type { Database } from '../src/engine/database.js';
import { corrupt, corruptAnswers, disagreement, fromSets, perVertex, type Rule } from './algo-check.js';
import { arg, graphology, graphologyGraphs, kronecker, loadGraphdb, medianMs } from './algo-graphs.js';

const { louvain, betweenness, closeness, eigenvector, hits, pagerank } = graphology;



/**
 * graphology's side of one graph. graphdb and graphology never share the heap: graphdb's
 * queries run first, with only its own store loaded, and graphology's graphs are built after
 * graphdb's databases are closed. Why: in one heap, a major GC during either side's run also
 * marks the other's graph (each engine has its own process in production, and in bench/run);
 * graphdb's Louvain query on kron-17 took 646 ms beside graphology's graphs and 588 ms alone
 * (both with the forced GC before every run that bench/algo-graphs.ts no longer does).
 */
interface Pair {
  g: UndirectedGraph;
  /** The relationships as stored (edge from the first R-MAT end to the second). */
  directed: DirectedGraph;
}

function graphologyPair(edges: [number, number][], n: number): Pair {
  const { undirected, directed } = graphologyGraphs(n, edges);
  return { g: undirected, directed };
}

interface Case {
  name: string;
  graph: 'large' | 'small';
  ours: string;
  theirs: (p: Pair) => unknown;
  /** graphology's result as one number per vertex (default: a vertex → value object). */
  answer?: (result: unknown, n: number) => Float64Array;
  check: Rule;
}

/** A graphology vertex → value object as one number per vertex. */
const byKey = (result: unknown, n: number): Float64Array => perVertex(n, Object.entries(result as Record<string, number>).map(([k, x]) => [Number(k), x]));

const CASES: Case[] = [
  { name: 'PageRank (to total change 1e-7)', graph: 'large', ours: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7}) YIELD node, score", theirs: ({ g }) => pagerank(g, { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.order }), check: { kind: 'scores', scale: 'none', tolerance: 1e-6 } },
  { name: 'eigenvector', graph: 'large', ours: "CALL algo.eigenvector({direction: 'BOTH', maxIterations: 1000, tolerance: 1e-9}) YIELD node, score", theirs: ({ g }) => eigenvector(g, { getEdgeWeight: null, maxIterations: 1000, tolerance: 1e-9 }), check: { kind: 'scores', scale: 'l2', tolerance: 1e-6 } },
  { name: 'HITS', graph: 'large', ours: "CALL algo.hits({direction: 'BOTH', maxIterations: 1000, tolerance: 1e-8}) YIELD node, hub", theirs: ({ g }) => hits(g, { getEdgeWeight: null, maxIterations: 1000, tolerance: 1e-8 }), answer: (r, n) => byKey((r as { hubs: unknown }).hubs, n), check: { kind: 'scores', scale: 'sum', tolerance: 1e-6 } },
  { name: 'Louvain', graph: 'large', ours: 'CALL algo.louvain() YIELD node, communityId', theirs: ({ g }) => louvain(g, { getEdgeWeight: null }), check: { kind: 'modularity', slack: 0.02 } },
  { name: 'SCC (relationships as stored)', graph: 'large', ours: 'CALL algo.scc() YIELD node, componentId', theirs: ({ directed }) => stronglyConnectedComponents(directed), answer: (r, n) => fromSets(n, r as string[][]), check: { kind: 'partition' } },
  {
    name: 'DFS from vertex 0',
    graph: 'large',
    ours: "MATCH (s:V {id: 0}) CALL algo.dfs({source: s, direction: 'BOTH'}) YIELD node, depth",
    theirs: ({ g }) => {
      const out: [string, number][] = [];
      dfsFromNode(g, '0', (node, _attr, depth) => void out.push([node, depth]));
      return out;
    },
    answer: (r, n) => perVertex(n, (r as [string, number][]).map(([k, d]) => [Number(k), d])),
    check: { kind: 'tree', source: 0 },
  },
  { name: 'betweenness (exact)', graph: 'small', ours: "CALL algo.betweenness({direction: 'BOTH'}) YIELD node, score", theirs: ({ g }) => betweenness(g, { getEdgeWeight: null, normalized: false }), check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
  { name: 'closeness', graph: 'small', ours: "CALL algo.closeness({direction: 'BOTH'}) YIELD node, score", theirs: ({ g }) => closeness(g), check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
];

/** The kernels on the worker pool, timed with one thread and with every core (`concurrency`). */
/** Their answers on all cores are checked against one thread's by `check` (node similarity: each node's summed similarities; fastRP: each embedding's weighted sum). */
const PARALLEL: { name: string; graph: 'large' | 'small'; call: string; check: Rule }[] = [
  { name: 'PageRank (to total change 1e-7)', graph: 'large', call: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7, concurrency: $c}) YIELD node, score AS value", check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
  { name: 'closeness', graph: 'small', call: "CALL algo.closeness({direction: 'BOTH', concurrency: $c}) YIELD node, score AS value", check: { kind: 'scores', scale: 'none', tolerance: 1e-12 } },
  { name: 'betweenness (exact)', graph: 'small', call: "CALL algo.betweenness({direction: 'BOTH', concurrency: $c}) YIELD node, score AS value", check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
  { name: 'betweenness (256 sampled sources)', graph: 'large', call: "CALL algo.betweenness({direction: 'BOTH', samplingSize: 256, concurrency: $c}) YIELD node, score AS value", check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
  { name: 'triangle count', graph: 'large', call: 'CALL algo.triangleCount({concurrency: $c}) YIELD node, triangles AS value', check: { kind: 'exact' } },
  { name: 'WCC', graph: 'large', call: 'CALL algo.wcc({concurrency: $c}) YIELD node, componentId AS value', check: { kind: 'partition' } },
  { name: 'node similarity (Jaccard, top 10)', graph: 'large', call: 'CALL algo.nodeSimilarity({concurrency: $c}) YIELD node1 AS node, similarity AS value', check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
  { name: 'fastRP (64 dimensions)', graph: 'large', call: 'CALL algo.fastRP({concurrency: $c}) YIELD node, embedding AS value', check: { kind: 'scores', scale: 'none', tolerance: 1e-9 } },
];

/** graphdb's vertex (the `id` property) of each node id. */
function vertices(db: Database): Map<number, number> {
  return new Map(db.executeSync('MATCH (v:V) RETURN id(v), v.id').records.map((r) => [Number(r[0]), Number(r[1])]));
}

/** A number from a result cell: graphdb boxes whole floats (FloatBox); a list (an embedding) counts as its entries weighted by position. */
function numberOf(x: unknown): number {
  if (Array.isArray(x)) return x.reduce((s: number, e: unknown, i) => s + (i + 1) * numberOf(e), 0);
  return Number(typeof x === 'object' && x !== null && 'value' in x ? x.value : x);
}

/** graphdb's rows (id(node), value) as one number per vertex; a vertex on several rows gets their sum. */
function ourAnswer(records: unknown[][], vertexOf: Map<number, number>, n: number): Float64Array {
  const out = new Float64Array(n).fill(NaN);
  for (const [id, value] of records) {
    const v = vertexOf.get(Number(id)) as number;
    out[v] = (Number.isNaN(out[v]) ? 0 : out[v]) + numberOf(value);
  }
  return out;
}

async function parallelSpeedups(dbs: Record<'large' | 'small', Database>, edges: Record<'large' | 'small', [number, number][]>, runs: number, only: string[] | undefined, problems: string[]): Promise<string[]> {
  const cores = availableParallelism();
  const lines = ['', `Worker pool: one thread against ${cores} (\`concurrency\`), load average ${loadavg()[0].toFixed(1)} at the start.`, '', '| kernel | graph | 1 thread ms | ' + cores + ' threads ms | speed-up |', '|---|---|---:|---:|---:|'];
  for (const c of PARALLEL.filter((x) => only === undefined || only.some((w) => x.name.toLowerCase().includes(w)))) {
    const db = dbs[c.graph];
    const query = `${c.call} RETURN id(node) AS id, value`;
    let oneAnswer: unknown[][] = [];
    let manyAnswer: unknown[][] = [];
    const one = await medianMs(() => (oneAnswer = db.executeSync(query, { c: 1 }).records), runs);
    const many = await medianMs(() => (manyAnswer = db.executeSync(query, { c: cores }).records), runs);
    const vertexOf = vertices(db);
    const n = vertexOf.size;
    const mine = ourAnswer(manyAnswer, vertexOf, n);
    const why = disagreement(c.check, corruptAnswers ? corrupt(mine, c.check) : mine, ourAnswer(oneAnswer, vertexOf, n), edges[c.graph]);
    if (why !== undefined) problems.push(`- ${c.name}: ${cores} threads and 1 thread disagree (${c.check.kind}): ${why}`);
    lines.push(`| ${c.name} | ${c.graph} | ${one.toFixed(1)} | ${many.toFixed(1)} | ${(one / many).toFixed(2)}× |`);
  }
  return lines;
}

/** graphdb's side: every case and the worker-pool table, then the databases are closed. */
async function timeGraphdb(cases: Case[], edges: Record<'large' | 'small', [number, number][]>, n: Record<'large' | 'small', number>, runs: number, only: string[] | undefined, problems: string[]): Promise<{ ours: Map<string, number>; answers: Map<string, Float64Array>; parallel: string[] }> {
  const dbs = { large: loadGraphdb(n.large, edges.large), small: loadGraphdb(n.small, edges.small) };
  const vertexOf = { large: vertices(dbs.large), small: vertices(dbs.small) };
  const ours = new Map<string, number>();
  const answers = new Map<string, Float64Array>();
  for (const c of cases) {
    const db = dbs[c.graph];
    const query = `${c.ours.replace(/YIELD node, (\w+)$/, 'YIELD node, $1 AS value')} RETURN id(node) AS id, value`;
    let last: unknown[][] = [];
    ours.set(c.name, await medianMs(() => (last = db.executeSync(query).records), runs));
    answers.set(c.name, ourAnswer(last, vertexOf[c.graph], n[c.graph]));
    process.stderr.write(`[algo-bench] ${c.name}: graphdb ${(ours.get(c.name) as number).toFixed(1)} ms\n`);
  }
  const parallel = await parallelSpeedups(dbs, edges, runs, only, problems);
  dbs.large.close();
  dbs.small.close();
  return { ours, answers, parallel };
}

async function main(): Promise<void> {
  const scale = arg('scale', 14);
  const small = arg('small', 10);
  const runs = arg('runs', 3);
  const log = (s: string): void => void process.stderr.write(`[algo-bench] ${s}\n`);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].toLowerCase().split(',') : undefined;
  const cases = CASES.filter((x) => only === undefined || only.some((w) => x.name.toLowerCase().includes(w)));
  const edges = { large: kronecker(scale, 16, 20240611), small: kronecker(small, 16, 20240611) };
  const n = { large: 2 ** scale, small: 2 ** small };
  log(`loading kron-${scale} and kron-${small} into graphdb …`);
  const problems: string[] = [];
  const { ours, answers, parallel } = await timeGraphdb(cases, edges, n, runs, only, problems);
  globalThis.gc?.();
  log(`building graphology's graphs …`);
  const pairs = { large: graphologyPair(edges.large, n.large), small: graphologyPair(edges.small, n.small) };
  const lines = [
    `Kronecker graphs, edge factor 16: kron-${scale} (${n.large} vertices, ${edges.large.length} edges), kron-${small} (${n.small} vertices, ${edges.small.length} edges); median of ${runs} warm runs; graphdb measured first, graphology after graphdb's store was dropped (one heap each).`,
    '',
    '| algorithm | graph | graphdb ms | graphology ms | graphdb / graphology |',
    '|---|---|---:|---:|---:|',
  ];
  const ratios: number[] = [];
  for (const c of cases) {
    const p = pairs[c.graph];
    let last: unknown;
    const theirs = await medianMs(() => (last = c.theirs(p)), runs);
    const mine = ours.get(c.name) as number;
    const answer = answers.get(c.name) as Float64Array;
    const why = disagreement(c.check, corruptAnswers ? corrupt(answer, c.check) : answer, (c.answer ?? byKey)(last, n[c.graph]), edges[c.graph]);
    if (why !== undefined) problems.push(`- ${c.name}: graphdb and graphology disagree (${c.check.kind}): ${why}`);
    ratios.push(mine / theirs);
    log(`${c.name}: ${mine.toFixed(1)} ms vs ${theirs.toFixed(1)} ms`);
    lines.push(`| ${c.name} | kron-${c.graph === 'large' ? scale : small} | ${mine.toFixed(1)} | ${theirs.toFixed(1)} | ${(mine / theirs).toFixed(2)} |`);
  }
  const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  lines.push('', `Geometric mean of the ratios: ${geo.toFixed(2)}.`);
  lines.push(...parallel);
  lines.push('', `Answers checked: ${cases.length} against graphology, ${parallel.length - 5} on all cores against one thread; ${problems.length} disagreeing.`, ...problems);
  console.log(lines.join('\n'));
  if (problems.length > 0) process.exitCode = 1;
}

await main();
