/**
 * The algorithms graphdb shares with its peers, each engine timed in its own process on the
 * same Kronecker graphs: graphdb's `algo.*` procedures (whole query, warm projection cache),
 * graphology, Kuzu's bundled algo extension (`page_rank`, `weakly_connected_components`,
 * `strongly_connected_components`, `louvain`, `k_core_decomposition` on a projected graph; no
 * betweenness or closeness) and Grafeo's `grafeo.*` procedures. Prints two Markdown tables,
 * wall and CPU milliseconds per engine (median of `--runs` runs after the shared warm-up,
 * `medianMs`; CPU counts every thread of the engine's process) and graphdb's time as a ratio
 * of each peer's ("–" where the peer has no such algorithm).
 *
 *   node dist/bench/algo-peers.js [--scale 17] [--small 12] [--runs 3] [--only louvain,scc] [--engines graphdb,kuzu] [--kuzu-gb 4]
 *
 * Run it compiled (from dist/, see bench/README.md). The parent generates the edge lists once
 * and writes them to a temporary file; every engine then runs in a child process of its own
 * (`node --expose-gc --stack-size=65500 --max-old-space-size=8000 … --child ENGINE`), which
 * loads only the graphs its cases need, times them and prints one JSON line. Why: in one heap
 * a major GC during one engine's run also marks every other engine's graph, and Kuzu's and
 * Grafeo's native memory and threads stay alive beside graphdb's kernels. Grafeo and
 * graphology get one child per graph variant (undirected, as generated), so that only one
 * copy of the graph is resident at a time (kron-19 holds 7.7 M edges).
 *
 * Undirected algorithms run on the undirected graph in every engine: graphology's
 * UndirectedGraph, Kuzu and Grafeo with every edge stored in both directions (their
 * algorithms follow stored directions), graphdb with `direction: 'BOTH'` (or on the
 * undirected projection the procedure defines). SCC runs on the edges as generated, in a
 * second Kuzu table and a separate Grafeo database. The O(n·m) centralities run on the
 * smaller graph (`--small`). `--stack-size` lets graphology's recursive SCC finish.
 *
 * Every engine's answer from its last timed run is written beside the edge files (one float64
 * per vertex) and compared with graphdb's by the case's rule (bench/algo-check.ts: exact sets
 * for components, core values exactly, scores within a tolerance, Louvain by modularity); a
 * disagreement is printed under the tables and the benchmark exits with status 1.
 * `--corrupt-check` alters graphdb's answers first, to show that the checks catch it.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import grafeo from '@grafeo-db/js';
import { DirectedGraph, UndirectedGraph } from 'graphology';
import { connectedComponents, stronglyConnectedComponents } from 'graphology-components';
import kuzu from 'kuzu';
import type { Database } from '../src/engine/database.js';
import { corrupt, corruptAnswers, disagreement, fromSets, perVertex, type Rule } from './algo-check.js';
import { arg, graphology, kronecker, loadGraphdb, medianMs } from './algo-graphs.js';

const { louvain, betweenness, closeness, pagerank } = graphology;

type GrafeoDb = InstanceType<typeof grafeo.GrafeoDB>;
type KuzuConn = InstanceType<typeof kuzu.Connection>;

const ENGINES = ['graphdb', 'graphology', 'kuzu', 'grafeo'] as const;
type Engine = (typeof ENGINES)[number];
const PEERS = ['graphology', 'kuzu', 'grafeo'] as const;

/** Which graph a case runs on: the large one undirected or as generated, or the small one undirected. */
type Variant = 'both' | 'directed' | 'small';

/** One engine's copy of one graph variant. */
interface Loaded {
  n: number;
  graphdb?: Database;
  graphology?: UndirectedGraph | DirectedGraph;
  kuzu?: KuzuConn;
  grafeo?: GrafeoDb;
  /** Vertex (0..n-1) of each graphdb node id or Grafeo node id. */
  vertexOf?: Map<number, number>;
}

type Run = ((g: Loaded) => unknown) | undefined;

interface Case {
  name: string;
  variant: Variant;
  graphdb: string;
  graphology: Run;
  kuzu: Run;
  grafeo: Run;
  /** How each peer's answer is compared with graphdb's (bench/algo-check.ts). */
  check: Rule | Partial<Record<Peer, Rule>>;
}

type Peer = (typeof PEERS)[number];

/** The rule for one peer. */
function ruleFor(c: Case, peer: Peer): Rule | undefined {
  return 'kind' in c.check ? (c.check as Rule) : (c.check as Partial<Record<Peer, Rule>>)[peer];
}

/** A Kuzu query run to its last row (one statement, so one result). */
const kz = (q: string) => (g: Loaded) => {
  const r = (g.kuzu as KuzuConn).querySync(q);
  return (Array.isArray(r) ? r[0] : r).getAllSync();
};
const gf = (q: string) => async (g: Loaded) => (await (g.grafeo as GrafeoDb).executeCypher(q)).rows();
const undirected = (g: Loaded): UndirectedGraph => g.graphology as UndirectedGraph;

const CASES: Case[] = [
  {
    name: 'PageRank (200 rounds max, 1e-7)',
    variant: 'both',
    graphdb: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7}) YIELD node, score AS value",
    graphology: (g) => pagerank(undirected(g), { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.n }),
    kuzu: kz("CALL page_rank('U', maxIterations := 200, tolerance := 0.0000001) RETURN node.id, rank"),
    grafeo: gf('CALL grafeo.pagerank({max_iterations: 200, tolerance: 0.0000001})'),
    // Kuzu's PageRank leaves the dangling vertices' mass out (its scores do not sum to 1), so
    // only their shape can be compared; Grafeo stops by its own rule, ~1e-6 from the others.
    check: { graphology: { kind: 'scores', scale: 'none', tolerance: 1e-6 }, kuzu: { kind: 'correlation', min: 0.999 }, grafeo: { kind: 'scores', scale: 'none', tolerance: 1e-5 } },
  },
  {
    name: 'WCC',
    variant: 'both',
    graphdb: 'CALL algo.wcc() YIELD node, componentId AS value',
    graphology: (g) => connectedComponents(undirected(g)),
    kuzu: kz("CALL weakly_connected_components('D') RETURN node.id, group_id"),
    grafeo: gf('CALL grafeo.connected_components()'),
    check: { kind: 'partition' },
  },
  {
    name: 'SCC (edges as generated)',
    variant: 'directed',
    graphdb: 'CALL algo.scc() YIELD node, componentId AS value',
    graphology: (g) => stronglyConnectedComponents(g.graphology as DirectedGraph),
    kuzu: kz("CALL strongly_connected_components('D') RETURN node.id, group_id"),
    grafeo: gf('CALL grafeo.strongly_connected_components()'),
    check: { kind: 'partition' },
  },
  {
    name: 'Louvain',
    variant: 'both',
    graphdb: 'CALL algo.louvain() YIELD node, communityId AS value',
    graphology: (g) => louvain(undirected(g), { getEdgeWeight: null }),
    kuzu: kz("CALL louvain('U') RETURN node.id, louvain_id"),
    grafeo: gf('CALL grafeo.louvain()'),
    check: { kind: 'modularity', slack: 0.02 },
  },
  {
    name: 'k-core',
    variant: 'both',
    graphdb: 'CALL algo.kCore() YIELD node, coreValue AS value',
    graphology: undefined,
    kuzu: kz("CALL k_core_decomposition('U') RETURN node.id, k_degree"),
    grafeo: gf('CALL grafeo.kcore()'),
    // Kuzu's undirected projection holds each edge twice (table B, both ways) and counts both in a degree.
    check: { graphology: { kind: 'exact' }, kuzu: { kind: 'scores', scale: 2, tolerance: 0 }, grafeo: { kind: 'exact' } },
  },
  {
    name: 'betweenness (exact)',
    variant: 'small',
    graphdb: "CALL algo.betweenness({direction: 'BOTH'}) YIELD node, score AS value",
    graphology: (g) => betweenness(undirected(g), { getEdgeWeight: null, normalized: false }),
    kuzu: undefined,
    grafeo: gf('CALL grafeo.betweenness_centrality({normalized: false})'),
    // Grafeo counts each pair of vertices in both orders on the undirected graph.
    check: { graphology: { kind: 'scores', scale: 'none', tolerance: 1e-9 }, grafeo: { kind: 'scores', scale: 2, tolerance: 1e-9 } },
  },
  {
    name: 'closeness',
    variant: 'small',
    graphdb: "CALL algo.closeness({direction: 'BOTH'}) YIELD node, score AS value",
    graphology: (g) => closeness(undirected(g)),
    kuzu: undefined,
    grafeo: gf('CALL grafeo.closeness_centrality()'),
    check: { kind: 'scores', scale: 'none', tolerance: 1e-9 },
  },
];

// ---------------------------------------------------------------------------------------------
// Child: one engine, the graphs its cases need.

/** Edge file: int32 pairs (u, v), as `kronecker` generated them. */
function readEdges(file: string): [number, number][] {
  const b = readFileSync(file);
  const a = new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  const edges: [number, number][] = new Array(a.length >> 1);
  for (let i = 0; i < edges.length; i++) edges[i] = [a[2 * i], a[2 * i + 1]];
  return edges;
}

async function grafeoOf(n: number, edges: [number, number][], both: boolean): Promise<[GrafeoDb, Map<number, number>]> {
  const db = grafeo.GrafeoDB.create();
  const ids = await db.batchCreateNodesWithProps('V', Array.from({ length: n }, (_, i) => ({ id: i })));
  let batch: { src: number; dst: number; type: string }[] = [];
  for (const [u, v] of edges) {
    batch.push({ src: ids[u], dst: ids[v], type: 'E' });
    if (both) batch.push({ src: ids[v], dst: ids[u], type: 'E' });
    if (batch.length >= 50_000) {
      await db.batchCreateEdges(batch);
      batch = [];
    }
  }
  if (batch.length) await db.batchCreateEdges(batch);
  return [db, new Map(ids.map((id: number, v: number) => [Number(id), v]))];
}

/** Kuzu with table E (edges as generated) and B (both ways), projected as D and U. */
function kuzuOf(n: number, edges: [number, number][], dir: string): KuzuConn {
  // Kuzu's buffer pool (`--kuzu-gb`, default 4): its Louvain on kron-19 does not fit in 4 GB.
  const conn = new kuzu.Connection(new kuzu.Database(':memory:', arg('kuzu-gb', 4) * 2 ** 30));
  const nodes = join(dir, `v-${n}.csv`);
  const rels = join(dir, `e-${n}.csv`);
  writeFileSync(nodes, 'id\n' + Array.from({ length: n }, (_, i) => i).join('\n') + '\n');
  writeFileSync(rels, 'src,dst\n' + edges.map(([u, v]) => `${u},${v}`).join('\n') + '\n');
  const run = (q: string): void => void conn.querySync(q);
  run('CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))');
  run('CREATE REL TABLE E(FROM V TO V)');
  run('CREATE REL TABLE B(FROM V TO V)');
  run(`COPY V FROM '${nodes}' (HEADER=true)`);
  run(`COPY E FROM '${rels}' (HEADER=true)`);
  run(`COPY B FROM '${rels}' (HEADER=true)`);
  run(`COPY B FROM (LOAD FROM '${rels}' (HEADER=true) RETURN dst, src)`);
  run("CALL project_graph('D', ['V'], ['E'])");
  run("CALL project_graph('U', ['V'], ['B'])");
  return conn;
}

async function loadFor(engine: Engine, variant: Variant, n: number, edgeFile: string, dir: string, shared: Map<string, Loaded>): Promise<Loaded> {
  // graphdb's one store serves every direction; Kuzu's one database holds both tables.
  const key = engine === 'graphdb' || engine === 'kuzu' ? edgeFile : `${edgeFile}:${variant}`;
  const have = shared.get(key);
  if (have !== undefined) return have;
  shared.clear(); // one graph resident at a time (the parent orders the cases by graph)
  const edges = readEdges(edgeFile);
  const g: Loaded = { n };
  if (engine === 'graphdb') {
    g.graphdb = loadGraphdb(n, edges);
    g.vertexOf = new Map(g.graphdb.executeSync('MATCH (v:V) RETURN id(v), v.id').records.map((r) => [Number(r[0]), Number(r[1])]));
  } else if (engine === 'kuzu') g.kuzu = kuzuOf(n, edges, dir);
  else if (engine === 'grafeo') [g.grafeo, g.vertexOf] = await grafeoOf(n, edges, variant !== 'directed');
  else {
    const graph = variant === 'directed' ? new DirectedGraph() : new UndirectedGraph();
    for (let i = 0; i < n; i++) graph.addNode(String(i));
    for (const [u, v] of edges) graph.addEdge(String(u), String(v));
    g.graphology = graph;
  }
  shared.set(key, g);
  return g;
}

async function child(engine: Engine): Promise<void> {
  const runs = arg('runs', 3);
  const names = process.argv[process.argv.indexOf('--cases') + 1].split('|');
  const dir = process.argv[process.argv.indexOf('--dir') + 1];
  const files: Record<Variant, { file: string; n: number }> = {
    both: { file: join(dir, 'large.edges'), n: arg('n-large', 0) },
    directed: { file: join(dir, 'large.edges'), n: arg('n-large', 0) },
    small: { file: join(dir, 'small.edges'), n: arg('n-small', 0) },
  };
  const shared = new Map<string, Loaded>();
  const out: Record<string, number | null> = {};
  const cpu: Record<string, number | null> = {};
  for (const name of names) {
    const c = CASES.find((x) => x.name === name) as Case;
    const { file, n } = files[c.variant];
    const t = performance.now();
    const g = await loadFor(engine, c.variant, n, file, dir, shared);
    const loadMs = performance.now() - t;
    if (loadMs > 50) process.stderr.write(`[algo-peers ${engine}] loaded ${c.variant} in ${(loadMs / 1000).toFixed(1)} s\n`);
    const run: Run = engine === 'graphdb' ? (x) => (x.graphdb as Database).executeSync(`${c.graphdb} RETURN id(node) AS id, value`).records : c[engine];
    try {
      // CPU time of every run (warm-up included), this process's threads all counted; the
      // median of the last `runs` is the timed runs' own.
      const cpus: number[] = [];
      let last: unknown;
      const timed = async (): Promise<void> => {
        const c = process.cpuUsage();
        last = await (run as (x: Loaded) => unknown)(g);
        const d = process.cpuUsage(c);
        cpus.push((d.user + d.system) / 1000);
      };
      out[name] = run === undefined ? null : await medianMs(timed, runs);
      cpu[name] = run === undefined ? null : cpus.slice(-runs).sort((a, b) => a - b)[Math.floor(runs / 2)];
      process.stderr.write(`[algo-peers ${engine}] ${name}: ${out[name]?.toFixed(1)} ms, ${cpu[name]?.toFixed(1)} ms CPU, load average ${loadavg()[0].toFixed(1)}\n`);
      if (run !== undefined) writeFileSync(answerFile(dir, engine, name), answerOf(engine, last, g));
    } catch (err) {
      process.stderr.write(`[algo-peers ${engine}] ${name} failed: ${(err as Error).message.split('\n')[0]}\n`);
      out[name] = null;
    }
  }
  // Two lines: CPU times, then wall times (the last line, as the parent reads it).
  process.stdout.write(JSON.stringify({ cpu }) + '\n' + JSON.stringify(out) + '\n');
}

/** Where a child leaves an engine's answer to a case for the parent to check. */
function answerFile(dir: string, engine: Engine, name: string): string {
  return join(dir, `answer-${engine}-${CASES.findIndex((c) => c.name === name)}.f64`);
}

/**
 * One engine's result as one number per vertex. graphdb: rows (id(node), value); Kuzu: rows
 * {node.id, value}; Grafeo: rows [node_id, value, …]; graphology: a vertex → value object, or
 * a list of components.
 */
function answerOf(engine: Engine, result: unknown, g: Loaded): Float64Array {
  const pairs: [number, number][] = [];
  if (engine === 'graphdb' || engine === 'grafeo') {
    const vertex = g.vertexOf as Map<number, number>;
    // graphdb boxes a float that is a whole number (FloatBox) so that it stays a float.
    const num = (x: unknown): number => Number(typeof x === 'object' && x !== null && 'value' in x ? x.value : x);
    for (const row of result as unknown[][]) pairs.push([vertex.get(Number(row[0])) as number, num(row[1])]);
  } else if (engine === 'kuzu') {
    for (const row of result as Record<string, unknown>[]) {
      const [id, value] = Object.values(row);
      pairs.push([Number(id), Number(value)]);
    }
  } else if (Array.isArray(result)) return fromSets(g.n, result as string[][]);
  else for (const [id, value] of Object.entries(result as Record<string, number>)) pairs.push([Number(id), Number(value)]);
  return perVertex(g.n, pairs);
}

/** Each peer's answer against graphdb's: one line per disagreement (empty when all agree). */
function checkAnswers(cases: Case[], dir: string, edges: Record<'large' | 'small', [number, number][]>): string[] {
  const read = (engine: Engine, name: string): Float64Array | undefined => {
    const file = answerFile(dir, engine, name);
    if (!existsSync(file)) return undefined;
    const b = readFileSync(file);
    return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  };
  const problems: string[] = [];
  let compared = 0;
  for (const c of cases) {
    const mine = read('graphdb', c.name);
    if (mine === undefined) continue;
    for (const peer of PEERS) {
      const theirs = read(peer, c.name);
      const rule = ruleFor(c, peer);
      if (theirs === undefined || rule === undefined) continue;
      const why = disagreement(rule, corruptAnswers ? corrupt(mine, rule) : mine, theirs, c.variant === 'small' ? edges.small : edges.large);
      compared++;
      if (why !== undefined) problems.push(`- ${c.name}: graphdb and ${peer} disagree (${rule.kind}): ${why}`);
    }
  }
  return [`Answers checked: ${compared} engine pairs, ${problems.length} disagreeing.`, ...problems];
}

// ---------------------------------------------------------------------------------------------
// Parent: edge lists, one child per engine (and graph variant), the table.

function writeEdges(file: string, edges: [number, number][]): void {
  const a = new Int32Array(edges.length * 2);
  for (let i = 0; i < edges.length; i++) {
    a[2 * i] = edges[i][0];
    a[2 * i + 1] = edges[i][1];
  }
  writeFileSync(file, a);
}

/** Wall and CPU medians per case name (null where the engine failed). */
interface ChildTimes {
  wall: Record<string, number | null>;
  cpu: Record<string, number | null>;
}

function spawnChild(engine: Engine, cases: Case[], dir: string, scale: number, small: number, runs: number): ChildTimes {
  const self = fileURLToPath(import.meta.url);
  const args = [
    '--expose-gc', '--stack-size=65500', '--max-old-space-size=8000', self, '--child', engine,
    '--cases', cases.map((c) => c.name).join('|'), '--dir', dir,
    '--n-large', String(2 ** scale), '--n-small', String(2 ** small), '--runs', String(runs), '--kuzu-gb', String(arg('kuzu-gb', 4)),
  ];
  const text = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  const [cpu, wall] = text.trim().split('\n').slice(-2).map((l) => JSON.parse(l) as Record<string, number | null>);
  return { wall, cpu: (cpu as unknown as { cpu: Record<string, number | null> }).cpu };
}

async function parent(): Promise<void> {
  const scale = arg('scale', 17);
  const small = arg('small', 12);
  const runs = arg('runs', 3);
  const pick = (flag: string): string[] | undefined => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1].toLowerCase().split(',') : undefined);
  const only = pick('--only');
  const engines = ENGINES.filter((e) => pick('--engines')?.includes(e) ?? true);
  const cases = CASES.filter((c) => only === undefined || only.some((w) => c.name.toLowerCase().includes(w)));
  const log = (s: string): void => void process.stderr.write(`[algo-peers] ${s}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'algo-peers-'));
  try {
    log(`generating kron-${scale} and kron-${small} …`);
    const large = kronecker(scale, 16, 20240611);
    writeEdges(join(dir, 'large.edges'), large);
    const smallEdges = kronecker(small, 16, 20240611);
    writeEdges(join(dir, 'small.edges'), smallEdges);
    const start = loadavg()[0];
    const ms = new Map<string, number | null>(); // `${engine}:${case}`
    const cpuMs = new Map<string, number | null>();
    for (const engine of engines) {
      const mine = cases.filter((c) => engine === 'graphdb' || c[engine] !== undefined);
      // One child per graph variant, except where one loaded copy serves every variant.
      const groups = engine === 'graphdb' || engine === 'kuzu' ? [mine] : (['both', 'directed', 'small'] as const).map((v) => mine.filter((c) => c.variant === v));
      for (const group of groups) {
        if (group.length === 0) continue;
        log(`${engine}: ${group.map((c) => c.name).join(', ')}`);
        try {
          const got = spawnChild(engine, group, dir, scale, small, runs);
          for (const c of group) {
            ms.set(`${engine}:${c.name}`, got.wall[c.name] ?? null);
            cpuMs.set(`${engine}:${c.name}`, got.cpu[c.name] ?? null);
          }
        } catch (err) {
          log(`${engine} failed: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    }
    const lines = [
      `kron-${scale} (${2 ** scale} vertices, ${large.length} edges) and kron-${small} (edge factor 16), one process per engine, median of ${runs} run(s) after a warm-up of at least 3 runs and 1 s; ${availableParallelism()} cores, load average ${start.toFixed(1)} at the start.`,
    ];
    // Wall time, then CPU time of the engine's whole process (Kuzu and Grafeo run on every
    // core, graphdb's kernels on one thread except the worker-pool ones): on a loaded machine
    // the CPU figures move less, and they show the work each engine does.
    for (const [what, table] of [['wall', ms], ['CPU', cpuMs]] as const) {
      lines.push('', `${what} milliseconds:`, '', '| algorithm | graph | graphdb ms | graphology ms | Kuzu ms | Grafeo ms | ÷ graphology | ÷ Kuzu | ÷ Grafeo |', '|---|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const c of cases) {
        const get = (e: Engine): number | undefined => table.get(`${e}:${c.name}`) ?? undefined;
        const ours = get('graphdb');
        const show = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(1));
        const ratio = (x: number | undefined): string => (x === undefined || ours === undefined ? '–' : (ours / x).toFixed(2));
        lines.push(`| ${c.name} | kron-${c.variant === 'small' ? small : scale} | ${show(ours)} | ${PEERS.map((p) => show(get(p))).join(' | ')} | ${PEERS.map((p) => ratio(get(p))).join(' | ')} |`);
      }
    }
    lines.push('', `Load average at the end: ${loadavg()[0].toFixed(1)}.`);
    const checked = checkAnswers(cases, dir, { large, small: smallEdges });
    lines.push('', ...checked);
    console.log(lines.join('\n'));
    if (checked.length > 1) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) await child(process.argv[childAt + 1] as Engine);
else await parent();
