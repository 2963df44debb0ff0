/**
 * graphdb adapter: an in-memory `Database`. Loading is graphdb's bulk path, the CSV import
 * (`importCsv`, what `graphdb import` runs): every file is streamed into arrays and property
 * columns and the empty graph bulk-loaded from them; the files' plain headers are replaced by
 * admin-import column specs (`id:ID(Label)`, `:START_ID(From)`, `creationDate:long`, …) with
 * integer ids. Then an index on `id` is created for every label. (`GRAPHDB_BENCH_LOAD=cypher`
 * loads through `UNWIND $batch … CREATE` batches of 10k rows instead, the path before the
 * import existed.) The Kronecker graph's undirected edges are stored once, as
 * directed relationships, and the algorithms (graphdb's `algo.*` procedures) project them with
 * `direction: 'BOTH'`; each timed run is the whole query, from the `CALL` to the returned rows
 * (dataset id and value per vertex). PageRank runs to convergence (damping 0.85, stop when the
 * scores' total change is below 1e-7, at most 200 rounds; graphology is asked for the same),
 * because the top-10 check needs converged scores (see ALGO_CHECKS); CDLP runs 10 rounds.
 */

import { join } from 'node:path';
import { importCsv, type ImportInput } from '../../../src/engine/csv-import.js';
import { Database } from '../../../src/engine/database.js';
import { toJs } from '../../../runtime/format.js';
import type { Value } from '../../../runtime/values.js';
import { readCsv, type Column, type DatasetMeta } from '../data.js';
import type { AlgoRun, Engine, Row } from '../engine.js';
import type { AlgoName, Params, QueryWorkload } from '../workloads.js';

const BATCH = 10_000;

/** The bulk import's inputs for a dataset: its files with admin-import headers and integer ids. */
export function importInputs(meta: DatasetMeta, dir: string): ImportInput[] {
  const spec = (c: Column): string => `${c.name}:${c.type === 'int' ? 'long' : c.type === 'float' ? 'double' : 'string'}`;
  return [
    ...meta.nodes.map((n) => ({ kind: 'nodes' as const, defaults: [n.label], path: join(dir, n.file), header: [`${n.columns[0].name}:ID(${n.label})`, ...n.columns.slice(1).map(spec)] })),
    ...meta.rels.map((r) => ({ kind: 'relationships' as const, defaults: [r.type], path: join(dir, r.file), header: [`:START_ID(${r.from})`, `:END_ID(${r.to})`, ...r.columns.slice(2).map(spec)] })),
  ];
}

/** graphdb's load of a dataset into `db`: the bulk import, then an index on `id` per label. */
export async function loadDataset(db: Database, meta: DatasetMeta, dir: string): Promise<void> {
  await importCsv(db, importInputs(meta, dir), { idType: 'integer' });
  for (const n of meta.nodes) db.executeSync(`CREATE INDEX FOR (n:${n.label}) ON (n.id)`);
}

export class GraphdbEngine implements Engine {
  private readonly db = Database.openInMemory();

  async load(meta: DatasetMeta, dir: string): Promise<void> {
    if (process.env.GRAPHDB_BENCH_LOAD === 'cypher') return this.loadThroughCypher(meta, dir);
    await loadDataset(this.db, meta, dir);
  }

  private loadThroughCypher(meta: DatasetMeta, dir: string): void {
    for (const n of meta.nodes) this.db.executeSync(`CREATE INDEX FOR (n:${n.label}) ON (n.id)`);
    for (const n of meta.nodes) {
      const rows = readCsv(join(dir, n.file), n.columns);
      const props = n.columns.map((c) => `${c.name}: r.${c.name}`).join(', ');
      const q = `UNWIND $batch AS r CREATE (:${n.label} {${props}})`;
      for (let i = 0; i < rows.length; i += BATCH) this.db.executeSync(q, { batch: rows.slice(i, i + BATCH) });
    }
    for (const r of meta.rels) {
      const rows = readCsv(join(dir, r.file), r.columns);
      const extra = r.columns.slice(2).map((c) => `${c.name}: r.${c.name}`);
      const props = extra.length ? ` {${extra.join(', ')}}` : '';
      const q = `UNWIND $batch AS r MATCH (a:${r.from} {id: r.src}), (b:${r.to} {id: r.dst}) CREATE (a)-[:${r.type}${props}]->(b)`;
      for (let i = 0; i < rows.length; i += BATCH) this.db.executeSync(q, { batch: rows.slice(i, i + BATCH) });
    }
  }

  async query(w: QueryWorkload, params: Params): Promise<Row[]> {
    const { records } = this.db.executeSync(w.cypher, params);
    return records.map((r: Value[]) => r.map((v) => toJs(v)));
  }

  algorithm(algo: AlgoName, source: number): AlgoRun | null {
    const proj = "relationshipType: 'E', direction: 'BOTH'";
    const calls: Record<AlgoName, string> = {
      PageRank: `CALL algo.pageRank({${proj}, dampingFactor: 0.85, maxIterations: 200, tolerance: 1e-7}) YIELD node, score AS value`,
      WCC: "CALL algo.wcc({relationshipType: 'E'}) YIELD node, componentId AS value",
      BFS: `MATCH (s:V {id: $s}) CALL algo.bfs({${proj}, source: s}) YIELD node, depth AS value`,
      CDLP: `CALL algo.cdlp({${proj}, maxIterations: 10}) YIELD node, communityId AS value`,
      LCC: "CALL algo.lcc({relationshipType: 'E'}) YIELD node, coefficient AS value",
      SSSP: `MATCH (s:V {id: $s}) CALL algo.sssp({${proj}, source: s, weightProperty: 'w'}) YIELD node, distance AS value`,
    };
    const text = `${calls[algo]} RETURN node.id AS id, value`;
    return {
      run: () => this.db.executeSync(text, { s: source }).records,
      values: (raw) => {
        const m = new Map<number, number>();
        for (const [id, v] of raw as Value[][]) m.set(Number(toJs(id)), Number(toJs(v)));
        return m;
      },
    };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
