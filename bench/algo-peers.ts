/**
 * The algorithms graphdb shares with its peers, timed in one process on one Kronecker graph:
 * graphdb's `algo.*` procedures (whole query, warm projection cache), graphology, Kuzu's
 * bundled algo extension (`page_rank`, `weakly_connected_components`,
 * `strongly_connected_components`, `louvain`, `k_core_decomposition` on a projected graph; no
 * betweenness or closeness) and Grafeo's `grafeo.*` procedures. Prints one Markdown table:
 * milliseconds per engine (median of `--runs` runs after a warm-up) and graphdb's time as a
 * ratio of each peer's ("–" where the peer has no such algorithm).
 *
 *   node --expose-gc --stack-size=65500 dist/bench/algo-peers.js [--scale 17] [--small 12] [--runs 1] [--only louvain,scc]
 *
 * Undirected algorithms run on the undirected graph in every engine: graphology's
 * UndirectedGraph, Kuzu and Grafeo with every edge stored in both directions (their
 * algorithms follow stored directions), graphdb with `direction: 'BOTH'` (or on the
 * undirected projection the procedure defines). SCC runs on the edges as generated, in a
 * second Kuzu table and a second Grafeo database. The O(n·m) centralities run on the smaller
 * graph (`--small`). `--stack-size` lets graphology's recursive SCC finish on kron-17.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import grafeo from '@grafeo-db/js';
import { DirectedGraph, UndirectedGraph } from 'graphology';
import { connectedComponents, stronglyConnectedComponents } from 'graphology-components';
import kuzu from 'kuzu';
import type { Database } from '../src/engine/database.js';
import { arg, graphology, graphologyGraphs, kronecker, loadGraphdb, medianMs } from './algo-graphs.js';

const { louvain, betweenness, closeness, pagerank } = graphology;


type GrafeoDb = InstanceType<typeof grafeo.GrafeoDB>;
type KuzuConn = InstanceType<typeof kuzu.Connection>;


/** One graph loaded into every engine. */
interface Loaded {
  n: number;
  m: number;
  graphdb: Database;
  undirected: UndirectedGraph;
  directed: DirectedGraph;
  kuzu: KuzuConn;
  /** Edges both ways (undirected algorithms). */
  grafeoBoth: GrafeoDb;
  /** Edges as generated (SCC). */
  grafeoDirected: GrafeoDb;
}

async function grafeoOf(n: number, edges: [number, number][], both: boolean): Promise<GrafeoDb> {
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
  return db;
}

function kuzuOf(n: number, edges: [number, number][], dir: string): KuzuConn {
  const conn = new kuzu.Connection(new kuzu.Database(':memory:', 8 * 2 ** 30));
  const nodes = join(dir, 'v.csv');
  const rels = join(dir, 'e.csv');
  writeFileSync(nodes, 'id\n' + Array.from({ length: n }, (_, i) => i).join('\n') + '\n');
  writeFileSync(rels, 'src,dst\n' + edges.map(([u, v]) => `${u},${v}`).join('\n') + '\n');
  const run = (q: string): void => void conn.querySync(q);
  run('CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))');
  run('CREATE REL TABLE E(FROM V TO V)'); // as generated
  run('CREATE REL TABLE B(FROM V TO V)'); // both ways
  run(`COPY V FROM '${nodes}' (HEADER=true)`);
  run(`COPY E FROM '${rels}' (HEADER=true)`);
  run(`COPY B FROM '${rels}' (HEADER=true)`);
  run(`COPY B FROM (LOAD FROM '${rels}' (HEADER=true) RETURN dst, src)`);
  run("CALL project_graph('D', ['V'], ['E'])");
  run("CALL project_graph('U', ['V'], ['B'])");
  return conn;
}

async function load(scale: number, dir: string): Promise<Loaded> {
  const edges = kronecker(scale, 16, 20240611);
  const n = 2 ** scale;
  const { undirected, directed } = graphologyGraphs(n, edges);
  return {
    n,
    m: edges.length,
    graphdb: loadGraphdb(n, edges),
    undirected,
    directed,
    kuzu: kuzuOf(n, edges, dir),
    grafeoBoth: await grafeoOf(n, edges, true),
    grafeoDirected: await grafeoOf(n, edges, false),
  };
}

type Run = ((g: Loaded) => unknown) | undefined;

interface Case {
  name: string;
  graph: 'large' | 'small';
  graphdb: string;
  graphology: Run;
  kuzu: Run;
  grafeo: Run;
}

/** A Kuzu query run to its last row (one statement, so one result). */
const kz = (q: string) => (g: Loaded) => {
  const r = g.kuzu.querySync(q);
  return (Array.isArray(r) ? r[0] : r).getAllSync();
};
const gf = (q: string, db: 'grafeoBoth' | 'grafeoDirected' = 'grafeoBoth') => async (g: Loaded) => (await g[db].executeCypher(q)).rows();

const CASES: Case[] = [
  {
    name: 'PageRank (200 rounds max, 1e-7)',
    graph: 'large',
    graphdb: "CALL algo.pageRank({direction: 'BOTH', maxIterations: 200, tolerance: 1e-7}) YIELD node, score AS value",
    graphology: (g) => pagerank(g.undirected, { getEdgeWeight: null, maxIterations: 200, tolerance: 1e-7 / g.n }),
    kuzu: kz("CALL page_rank('U', maxIterations := 200, tolerance := 0.0000001) RETURN node.id, rank"),
    grafeo: gf('CALL grafeo.pagerank({max_iterations: 200, tolerance: 0.0000001})'),
  },
  {
    name: 'WCC',
    graph: 'large',
    graphdb: 'CALL algo.wcc() YIELD node, componentId AS value',
    graphology: (g) => connectedComponents(g.undirected),
    kuzu: kz("CALL weakly_connected_components('D') RETURN node.id, group_id"),
    grafeo: gf('CALL grafeo.connected_components()'),
  },
  {
    name: 'SCC (edges as generated)',
    graph: 'large',
    graphdb: 'CALL algo.scc() YIELD node, componentId AS value',
    graphology: (g) => stronglyConnectedComponents(g.directed),
    kuzu: kz("CALL strongly_connected_components('D') RETURN node.id, group_id"),
    grafeo: gf('CALL grafeo.strongly_connected_components()', 'grafeoDirected'),
  },
  {
    name: 'Louvain',
    graph: 'large',
    graphdb: 'CALL algo.louvain() YIELD node, communityId AS value',
    graphology: (g) => louvain(g.undirected, { getEdgeWeight: null }),
    kuzu: kz("CALL louvain('U') RETURN node.id, louvain_id"),
    grafeo: gf('CALL grafeo.louvain()'),
  },
  {
    name: 'k-core',
    graph: 'large',
    graphdb: 'CALL algo.kCore() YIELD node, coreValue AS value',
    graphology: undefined,
    kuzu: kz("CALL k_core_decomposition('U') RETURN node.id, k_degree"),
    grafeo: gf('CALL grafeo.kcore()'),
  },
  {
    name: 'betweenness (exact)',
    graph: 'small',
    graphdb: "CALL algo.betweenness({direction: 'BOTH'}) YIELD node, score AS value",
    graphology: (g) => betweenness(g.undirected, { getEdgeWeight: null, normalized: false }),
    kuzu: undefined,
    grafeo: gf('CALL grafeo.betweenness_centrality({normalized: false})'),
  },
  {
    name: 'closeness',
    graph: 'small',
    graphdb: "CALL algo.closeness({direction: 'BOTH'}) YIELD node, score AS value",
    graphology: (g) => closeness(g.undirected),
    kuzu: undefined,
    grafeo: gf('CALL grafeo.closeness_centrality()'),
  },
];

const PEERS = ['graphology', 'kuzu', 'grafeo'] as const;

async function main(): Promise<void> {
  const scale = arg('scale', 17);
  const small = arg('small', 12);
  const runs = arg('runs', 1);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].toLowerCase().split(',') : undefined;
  const cases = CASES.filter((c) => only === undefined || only.some((w) => c.name.toLowerCase().includes(w)));
  const log = (s: string): void => void process.stderr.write(`[algo-peers] ${s}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'algo-peers-'));
  try {
    const graphs: Partial<Record<'large' | 'small', Loaded>> = {};
    for (const which of ['large', 'small'] as const) {
      if (!cases.some((c) => c.graph === which)) continue;
      log(`loading kron-${which === 'large' ? scale : small} into every engine …`);
      graphs[which] = await load(which === 'large' ? scale : small, dir);
    }
    const start = loadavg()[0];
    const lines = [
      `kron-${scale} and kron-${small} (edge factor 16), median of ${runs} run(s) after a warm-up; ${availableParallelism()} cores, load average ${start.toFixed(1)} at the start.`,
      '',
      '| algorithm | graph | graphdb ms | graphology ms | Kuzu ms | Grafeo ms | ÷ graphology | ÷ Kuzu | ÷ Grafeo |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const c of cases) {
      const g = graphs[c.graph] as Loaded;
      const ours = await medianMs(() => g.graphdb.executeSync(`${c.graphdb} RETURN id(node) AS id, value`).records, runs);
      const theirs: Record<string, number | undefined> = {};
      for (const p of PEERS) {
        const run = c[p];
        try {
          theirs[p] = run === undefined ? undefined : await medianMs(() => run(g), runs);
        } catch (err) {
          log(`${c.name} on ${p} failed: ${(err as Error).message.split('\n')[0]}`);
          theirs[p] = undefined;
        }
      }
      const ms = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(1));
      const ratio = (x: number | undefined): string => (x === undefined ? '–' : `${(ours / x).toFixed(2)}`);
      log(`${c.name}: graphdb ${ours.toFixed(1)} ms, ${PEERS.map((p) => `${p} ${ms(theirs[p])}`).join(', ')}`);
      lines.push(`| ${c.name} | kron-${c.graph === 'large' ? scale : small} | ${ours.toFixed(1)} | ${PEERS.map((p) => ms(theirs[p])).join(' | ')} | ${PEERS.map((p) => ratio(theirs[p])).join(' | ')} |`);
    }
    lines.push('', `Load average at the end: ${loadavg()[0].toFixed(1)}.`);
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
