/**
 * graphdb adapter: an in-memory `Database`. Loading creates an index on `id` for every label,
 * then sends each CSV in batches of 10k rows through `UNWIND $batch … CREATE` (nodes) and
 * `UNWIND $batch … MATCH … CREATE` (relationships, endpoints found by index seek), since the
 * engine has no LOAD CSV yet. Graph algorithms are not built yet: every one reports null.
 */

import { join } from 'node:path';
import { Database } from '../../../src/engine/database.js';
import { toJs } from '../../../runtime/format.js';
import type { Value } from '../../../runtime/values.js';
import { readCsv, type DatasetMeta } from '../data.js';
import type { AlgoRun, Engine, Row } from '../engine.js';
import type { Params, QueryWorkload } from '../workloads.js';

const BATCH = 10_000;

export class GraphdbEngine implements Engine {
  private readonly db = Database.openInMemory();

  async load(meta: DatasetMeta, dir: string): Promise<void> {
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

  algorithm(): AlgoRun | null {
    return null;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
