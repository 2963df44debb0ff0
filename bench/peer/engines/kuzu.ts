/**
 * Kuzu adapter: an in-memory Kuzu database with one typed node table per label (primary key
 * `id`) and one relationship table per type (several FROM/TO pairs where a type joins several
 * label pairs). Loading is Kuzu's documented bulk path, `COPY … FROM 'file.csv'`; the
 * undirected Kronecker edges are copied a second time reversed through `COPY … FROM (LOAD FROM
 * …)`. Queries run as prepared statements, prepared on first use and reused afterwards (Kuzu's
 * equivalent of a cached plan), through the synchronous API. Algorithms: PageRank and WCC from
 * Kuzu's bundled algo extension on a projected graph; BFS and SSSP as Kuzu's `SHORTEST` and
 * `WSHORTEST` recursive patterns; no CDLP or LCC.
 */

import { join } from 'node:path';
import kuzu from 'kuzu';
import type { Column, DatasetMeta, RelFile } from '../data.js';
import { plain, type AlgoRun, type Engine, type Row } from '../engine.js';
import type { AlgoName, Params, QueryWorkload } from '../workloads.js';

type Conn = InstanceType<typeof kuzu.Connection>;
type Prepared = ReturnType<Conn['prepareSync']>;
type Result = ReturnType<Conn['querySync']>;

const TYPE: Record<Column['type'], string> = { int: 'INT64', float: 'DOUBLE', string: 'STRING' };

/** A CSV path as a Cypher string literal. */
const lit = (s: string): string => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

export class KuzuEngine implements Engine {
  private readonly db = new kuzu.Database(':memory:', 4 * 2 ** 30);
  private readonly conn: Conn = new kuzu.Connection(this.db);
  private readonly prepared = new Map<string, Prepared>();
  private undirected = false;

  private run(q: string): void {
    const res = this.conn.querySync(q);
    for (const r of Array.isArray(res) ? res : [res]) r.close();
  }

  async load(meta: DatasetMeta, dir: string): Promise<void> {
    for (const n of meta.nodes) {
      const cols = n.columns.map((c) => `${c.name} ${TYPE[c.type]}`).join(', ');
      this.run(`CREATE NODE TABLE ${n.label}(${cols}, PRIMARY KEY(id))`);
    }
    const byType = new Map<string, RelFile[]>();
    for (const r of meta.rels) byType.set(r.type, [...(byType.get(r.type) ?? []), r]);
    for (const [type, files] of byType) {
      const pairs = files.map((f) => `FROM ${f.from} TO ${f.to}`).join(', ');
      const props = files[0].columns.slice(2).map((c) => `, ${c.name} ${TYPE[c.type]}`).join('');
      this.run(`CREATE REL TABLE ${type}(${pairs}${props})`);
    }
    for (const n of meta.nodes) this.run(`COPY ${n.label} FROM ${lit(join(dir, n.file))} (HEADER=true)`);
    for (const [type, files] of byType) {
      for (const f of files) {
        const opts = files.length > 1 ? `, from='${f.from}', to='${f.to}'` : '';
        this.run(`COPY ${type} FROM ${lit(join(dir, f.file))} (HEADER=true${opts})`);
      }
    }
    if (meta.kind === 'graph') {
      this.undirected = true;
      const f = meta.rels[0];
      const rest = f.columns.slice(2).map((c) => `, ${c.name}`).join('');
      this.run(`COPY ${f.type} FROM (LOAD FROM ${lit(join(dir, f.file))} (HEADER=true) RETURN dst, src${rest})`);
      this.run(`CALL project_graph('G', ['${meta.nodes[0].label}'], ['${f.type}'])`);
    }
  }

  /** The last result's rows; every result is closed, or Kuzu keeps its buffers pinned and its pool fills after some thousands of queries. */
  private rows(res: Result): Row[] {
    const all = Array.isArray(res) ? res : [res];
    try {
      return all[all.length - 1].getAllSync().map((o) => Object.values(o).map(plain));
    } finally {
      for (const r of all) r.close();
    }
  }

  private exec(text: string, params: Params): Row[] {
    let p = this.prepared.get(text);
    if (!p) {
      p = this.conn.prepareSync(text);
      if (!p.isSuccess()) throw new Error(p.getErrorMessage());
      this.prepared.set(text, p);
    }
    return this.rows(this.conn.executeSync(p, params));
  }

  async query(w: QueryWorkload, params: Params): Promise<Row[]> {
    return this.exec(w.kuzu ?? w.cypher, params);
  }

  algorithm(algo: AlgoName, source: number): AlgoRun | null {
    if (!this.undirected) return null;
    const pairs = (q: string, params: Params = {}, seed?: [number, number]): AlgoRun => ({
      run: () => this.exec(q, params),
      values: (raw) => {
        const m = new Map<number, number>();
        if (seed) m.set(seed[0], seed[1]);
        for (const [k, v] of raw as [number, number][]) m.set(k, v);
        return m;
      },
    });
    switch (algo) {
      case 'PageRank':
        return pairs(`CALL page_rank('G') RETURN node.id AS id, rank`);
      case 'WCC':
        return pairs(`CALL weakly_connected_components('G') RETURN node.id AS id, group_id`);
      case 'BFS':
        return pairs('MATCH (a:V {id: $s})-[e:E* SHORTEST 1..30]->(b:V) RETURN b.id AS id, length(e) AS d', { s: source }, [source, 0]);
      case 'SSSP':
        return pairs('MATCH (a:V {id: $s})-[e:E* WSHORTEST(w)]->(b:V) RETURN b.id AS id, cost(e) AS d', { s: source }, [source, 0]);
      default:
        return null;
    }
  }

  async close(): Promise<void> {
    this.conn.closeSync();
    this.db.closeSync();
  }
}
