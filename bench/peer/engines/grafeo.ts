/**
 * Grafeo adapter: an in-memory `GrafeoDB`. Its README lists `importCsv` (which makes every
 * value a string and creates no relationships) and typed batch calls; loading uses the typed
 * batch path: `batchCreateNodesWithProps` per label, then `batchCreateEdges` with the node ids
 * it returned, then `CREATE INDEX` on `id` for every label. Queries go through
 * `executeCypher` (Grafeo caches plans itself). Algorithms are Grafeo's built-in procedures
 * (`CALL grafeo.pagerank()`, `connected_components`, `bfs`, `label_propagation`,
 * `clustering_coefficient`, `dijkstra`); the undirected Kronecker edges are stored in both
 * directions.
 */

import { join } from 'node:path';
import grafeo from '@grafeo-db/js';
import { readCsv, type DatasetMeta } from '../data.js';
import { plain, type AlgoRun, type Engine, type Row } from '../engine.js';
import type { AlgoName, Params, QueryWorkload } from '../workloads.js';

type Db = InstanceType<typeof grafeo.GrafeoDB>;
type EdgeInput = Parameters<Db['batchCreateEdges']>[0][number];

const BATCH = 50_000;

export class GrafeoEngine implements Engine {
  private readonly db: Db = grafeo.GrafeoDB.create();
  /** Per label: the dataset's id → Grafeo's node id. */
  private readonly ids = new Map<string, Map<number, number>>();
  /** Grafeo node id → the dataset's id (only for the algorithm graph). */
  private back: number[] = [];
  private undirected = false;

  async load(meta: DatasetMeta, dir: string): Promise<void> {
    for (const n of meta.nodes) {
      const rows = readCsv(join(dir, n.file), n.columns);
      const map = new Map<number, number>();
      for (let i = 0; i < rows.length; i += BATCH) {
        const chunk = rows.slice(i, i + BATCH);
        const got = await this.db.batchCreateNodesWithProps(n.label, chunk);
        for (let k = 0; k < chunk.length; k++) map.set(chunk[k].id as number, got[k]);
      }
      this.ids.set(n.label, map);
    }
    this.undirected = meta.kind === 'graph';
    for (const r of meta.rels) {
      const rows = readCsv(join(dir, r.file), r.columns);
      const from = this.ids.get(r.from) as Map<number, number>;
      const to = this.ids.get(r.to) as Map<number, number>;
      const propCols = r.columns.slice(2);
      let edges: EdgeInput[] = [];
      const flush = async (): Promise<void> => {
        if (edges.length) await this.db.batchCreateEdges(edges);
        edges = [];
      };
      for (const row of rows) {
        const properties = propCols.length ? Object.fromEntries(propCols.map((c) => [c.name, row[c.name]])) : undefined;
        const src = from.get(row.src as number) as number;
        const dst = to.get(row.dst as number) as number;
        edges.push({ src, dst, type: r.type, properties });
        if (this.undirected) edges.push({ src: dst, dst: src, type: r.type, properties });
        if (edges.length >= BATCH) await flush();
      }
      await flush();
    }
    for (const n of meta.nodes) await this.db.executeCypher(`CREATE INDEX FOR (n:${n.label}) ON (n.id)`);
    if (this.undirected) {
      const map = this.ids.get(meta.nodes[0].label) as Map<number, number>;
      for (const [ours, theirs] of map) this.back[theirs] = ours;
    }
  }

  async query(w: QueryWorkload, params: Params): Promise<Row[]> {
    const res = await this.db.executeCypher(w.cypher, params);
    return res.rows().map((r) => r.map(plain));
  }

  algorithm(algo: AlgoName, source: number): AlgoRun | null {
    if (!this.undirected) return null;
    const internal = this.ids.get('V')?.get(source) as number;
    const procs: Partial<Record<AlgoName, [string, Params]>> = {
      PageRank: ['CALL grafeo.pagerank()', {}],
      WCC: ['CALL grafeo.connected_components()', {}],
      BFS: ['CALL grafeo.bfs($s)', { s: internal }],
      CDLP: ['CALL grafeo.label_propagation()', {}],
      LCC: ['CALL grafeo.clustering_coefficient()', {}],
      SSSP: ["CALL grafeo.dijkstra($s, null, 'w')", { s: internal }],
    };
    const p = procs[algo];
    if (!p) return null;
    return {
      run: async () => (await this.db.executeCypher(p[0], p[1])).rows(),
      values: (raw) => {
        const m = new Map<number, number>();
        for (const r of raw as unknown[][]) m.set(this.back[Number(r[0])], Number(r[1]));
        return m;
      },
    };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
