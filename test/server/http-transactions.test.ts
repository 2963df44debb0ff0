/**
 * The HTTP door's JSON routes over a real listening port with fetch (src/server/http/tx-routes.ts):
 * POST /query with a JSON body (parameters, typed cells, counters), Neo4j's transactional
 * HTTP API (its documented request and response shapes) and Query API, and concurrent
 * increments through open transactions that lose no update.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';

let db: Database;
let pool: QueryWorkerPool;
let server: RunningServer;
let base: string;

type Json = Record<string, unknown>;

const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; headers: Headers }> => {
  const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Json, headers: r.headers };
};

beforeAll(async () => {
  db = Database.openInMemory({ transactionTimeoutMs: 2000 });
  pool = await QueryWorkerPool.start(db, 2);
  server = await startHttpServer(db, { port: 0, log: () => undefined, queries: new QueryRouter(db, pool) });
  base = `http://127.0.0.1:${server.port}`;
}, 60_000);

afterAll(async () => {
  await server.close();
  await pool.close();
  db.close();
});

describe('POST /query with a JSON body', () => {
  it('takes parameters and answers typed cells and counters', async () => {
    const r = await post('/query', {
      query: 'CREATE (n:J {name: $name, n: $n}) RETURN n.name AS s, n.n AS i, 1.5 AS f, 2.0 AS g, null AS z, "null" AS zs, [1, "1"] AS l, {a: true} AS m, 9007199254740993 AS big, date("2024-02-29") AS d',
      params: { name: "O'Brien\"; MATCH (x) DETACH DELETE x //", n: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.json.columns).toEqual(['s', 'i', 'f', 'g', 'z', 'zs', 'l', 'm', 'big', 'd']);
    const row = (r.json.rows as unknown[][])[0];
    expect(row.slice(0, 8)).toEqual(["O'Brien\"; MATCH (x) DETACH DELETE x //", 1, 1.5, 2, null, 'null', [1, '1'], { a: true }]);
    expect(row[9]).toBe('2024-02-29');
    expect(r.json.stats).toMatchObject({ nodesCreated: 1, propertiesSet: 2, containsUpdates: true });
    // The exact literals: a big integer in full, an integral float with its .0.
    const text = await (await fetch(base + '/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'RETURN 9007199254740993 AS big, 2.0 AS g' }) })).text();
    expect(text).toContain('[9007199254740993,2.0]');
  });

  it('returns nodes, relationships and paths as objects', async () => {
    const r = await post('/query', { query: 'CREATE p = (a:PA {k: 1})-[r:REL {w: 2}]->(b:PB) RETURN a, r, p' });
    const [a, rel, path] = (r.json.rows as Json[][])[0];
    expect(a).toMatchObject({ labels: ['PA'], properties: { k: 1 } });
    expect(rel).toMatchObject({ type: 'REL', start: a.id, properties: { w: 2 } });
    expect((path.nodes as unknown[]).length).toBe(2);
    expect((path.relationships as unknown[]).length).toBe(1);
  });

  it('reports errors in SPEC\'s shape; a text body keeps SPEC\'s string cells', async () => {
    expect(await post('/query', '{"query": 1}')).toMatchObject({ status: 400, json: { error: true, code: 'BAD_REQUEST' } });
    expect(await post('/query', '{"query": "RETURN 1",')).toMatchObject({ status: 400, json: { code: 'BAD_REQUEST' } });
    // A JSON-typed body that is no object is query text, as SPEC has it.
    expect(await post('/query', 'RETURN 1 AS one')).toMatchObject({ status: 200, json: { rows: [{ one: '1' }] } });
    expect(await post('/query', { query: 'RETURN $x' })).toMatchObject({ status: 422, json: { code: 'PARAMETER_MISSING' } });
    const text = await fetch(base + '/query', { method: 'POST', body: 'RETURN 1 AS one' });
    expect(await text.json()).toEqual({ columns: ['one'], rows: [{ one: '1' }] });
  });

  it('a browser page without the key may only read', async () => {
    const r = await post('/query', { query: 'CREATE (:FromPage)' }, { origin: 'https://evil.example' });
    expect(r).toMatchObject({ status: 403, json: { code: 'CROSS_SITE_WRITE' } });
    const tx = await post('/db/neo4j/tx/commit', { statements: [{ statement: 'CREATE (:FromPage)' }] }, { origin: 'https://evil.example' });
    expect((tx.json.errors as Json[])[0].code).toBe('Neo.ClientError.Security.Forbidden');
    expect((await db.execute('MATCH (n:FromPage) RETURN count(n)')).records[0][0]).toBe(0);
  });
});

describe("Neo4j's transactional HTTP API", () => {
  it('tx/commit runs statements in one transaction (row, meta, graph, stats)', async () => {
    const r = await post('/db/neo4j/tx/commit', {
      statements: [
        { statement: 'CREATE (n:Movie {title: $t}) RETURN n', parameters: { t: 'Up' }, includeStats: true },
        { statement: 'MATCH (n:Movie {title: "Up"}) RETURN n.title, n', resultDataContents: ['row', 'graph'] },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json.errors).toEqual([]);
    const [first, second] = r.json.results as Json[];
    expect(first.columns).toEqual(['n']);
    const data = first.data as Json[];
    expect(data[0].row).toEqual([{ title: 'Up' }]);
    expect(data[0].meta).toEqual([{ id: expect.any(Number), elementId: expect.any(String), type: 'node', deleted: false }]);
    expect(first.stats).toMatchObject({ contains_updates: true, nodes_created: 1, properties_set: 1, labels_added: 1 });
    const g = (second.data as Json[])[0].graph as Json;
    expect(g.nodes).toEqual([{ id: expect.any(String), elementId: expect.any(String), labels: ['Movie'], properties: { title: 'Up' } }]);
    expect(g.relationships).toEqual([]);
  });

  it('an error rolls the whole transaction back and reports Neo4j\'s code', async () => {
    const r = await post('/db/neo4j/tx/commit', { statements: [{ statement: 'CREATE (:Gone)' }, { statement: 'RETURN 1/0' }] });
    expect(r.status).toBe(200);
    expect((r.json.results as unknown[]).length).toBe(1);
    expect(r.json.errors).toEqual([{ code: 'Neo.ClientError.Statement.ArithmeticError', message: expect.any(String) }]);
    expect((await db.execute('MATCH (n:Gone) RETURN count(n)')).records[0][0]).toBe(0);
    const syntax = await post('/db/neo4j/tx/commit', { statements: [{ statement: 'MATCH (' }] });
    expect((syntax.json.errors as Json[])[0].code).toBe('Neo.ClientError.Statement.SyntaxError');
  });

  it('open, continue, commit: Location, commit URL, expiry; uncommitted writes invisible meanwhile', async () => {
    const opened = await post('/db/neo4j/tx', { statements: [{ statement: 'CREATE (:Open {i: 1})' }] });
    expect(opened.status).toBe(201);
    const location = opened.headers.get('location')!;
    expect(location).toMatch(/\/db\/neo4j\/tx\/\d+$/);
    expect(opened.json.commit).toBe(`${location}/commit`);
    expect((opened.json.transaction as Json).expires).toEqual(expect.any(String));
    const path = new URL(location).pathname;
    const more = await post(path, { statements: [{ statement: 'MATCH (o:Open) RETURN count(o)' }] });
    expect(((more.json.results as Json[])[0].data as Json[])[0].row).toEqual([1]);
    expect((await db.execute('MATCH (o:Open) RETURN count(o)')).records[0][0]).toBe(0);
    const done = await post(path + '/commit', { statements: [] });
    expect(done.json.errors).toEqual([]);
    expect((await db.execute('MATCH (o:Open) RETURN count(o)')).records[0][0]).toBe(1);
    const again = await post(path, { statements: [] });
    expect(again.status).toBe(404);
    expect((again.json.errors as Json[])[0].code).toBe('Neo.ClientError.Transaction.TransactionNotFound');
  });

  it('DELETE rolls back; an idle transaction expires', async () => {
    const opened = await post('/db/neo4j/tx', { statements: [{ statement: 'CREATE (:RolledBack)' }] });
    const path = new URL(opened.headers.get('location')!).pathname;
    const del = await fetch(base + path, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await db.execute('MATCH (n:RolledBack) RETURN count(n)')).records[0][0]).toBe(0);

    const idle = await post('/db/neo4j/tx', { statements: [{ statement: 'CREATE (:Expired)' }] });
    const idlePath = new URL(idle.headers.get('location')!).pathname;
    expect(db.writerSlot.busy).toBe(true);
    await new Promise((r) => setTimeout(r, 2300));
    expect(db.writerSlot.busy).toBe(false);
    expect((await post(idlePath + '/commit', { statements: [] })).status).toBe(404);
    expect((await db.execute('MATCH (n:Expired) RETURN count(n)')).records[0][0]).toBe(0);
  });

  it('no lost update: clients increment through open transactions, retrying transient errors', async () => {
    await db.execute('MATCH (c:HttpCounter) DELETE c');
    await db.execute('CREATE (:HttpCounter {v: 0})');
    const N = 4;
    const K = 5;
    const once = async (): Promise<void> => {
      for (;;) {
        const opened = await post('/db/neo4j/tx', { statements: [{ statement: 'MATCH (c:HttpCounter) RETURN c.v' }] });
        const path = new URL(opened.headers.get('location')!).pathname;
        const v = ((opened.json.results as Json[])[0].data as Json[])[0].row as number[];
        const done = await post(path + '/commit', { statements: [{ statement: 'MATCH (c:HttpCounter) SET c.v = $v', parameters: { v: v[0] + 1 } }] });
        const errors = done.json.errors as Json[];
        if (errors.length === 0) return;
        expect(String(errors[0].code)).toMatch(/^Neo\.TransientError\.Transaction\./);
      }
    };
    await Promise.all(Array.from({ length: N }, async () => {
      for (let k = 0; k < K; k++) await once();
    }));
    expect((await db.execute('MATCH (c:HttpCounter) RETURN c.v')).records[0][0]).toBe(N * K);
  }, 60_000);

  it("answers Neo4j's documented examples (begin with no statements; CREATE (n $props) twice in one request)", async () => {
    const begun = await fetch(base + '/db/neo4j/tx', { method: 'POST' });
    expect(begun.status).toBe(201);
    const body = (await begun.json()) as Json;
    expect(body).toEqual({ results: [], errors: [], commit: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/db\/neo4j\/tx\/\d+\/commit$/), transaction: { expires: expect.stringMatching(/GMT$/) } });
    await fetch(String(body.commit).replace(/\/commit$/, ''), { method: 'DELETE' });
    const r = await post('/db/neo4j/tx/commit', {
      statements: [
        { statement: 'CREATE (n $props) RETURN n', parameters: { props: { name: 'My Node' } } },
        { statement: 'CREATE (n $props) RETURN n', parameters: { props: { name: 'Another Node' } } },
      ],
    });
    expect(r.json.errors).toEqual([]);
    expect((r.json.results as Json[]).map((x) => (x.data as Json[])[0].row)).toEqual([[{ name: 'My Node' }], [{ name: 'Another Node' }]]);
  });

  it('unknown database names are refused', async () => {
    const r = await post('/db/other/tx/commit', { statements: [] });
    expect(r.status).toBe(404);
    expect((r.json.errors as Json[])[0].code).toBe('Neo.ClientError.Database.DatabaseNotFound');
  });
});

describe('property: concurrent HTTP transactions', () => {
  it('never read dirty or changing data and lose no update', async () => {
    let run = 0;
    const rowsOf = (j: Json, i = 0): unknown[][] => ((j.results as Json[])[i].data as Json[]).map((d) => d.row as unknown[]);
    const step = fc.oneof(
      fc.record({ t: fc.constant('inc' as const), k: fc.integer({ min: 0, max: 1 }), pause: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ t: fc.constant('read' as const), pause: fc.integer({ min: 0, max: 5 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 4 }), async (programs) => {
        const label = `HProp${run++}`;
        await db.execute(`UNWIND [0, 1] AS k CREATE (:${label} {k: k, v: 0})`);
        const expected = [0, 0];
        const problems: string[] = [];
        const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
        const read = { statement: `MATCH (x:${label}) RETURN x.k, x.v ORDER BY x.k` };
        await Promise.all(programs.map(async (steps) => {
          for (const s of steps) {
            if (s.t === 'inc') {
              for (;;) {
                const opened = await post('/db/neo4j/tx', { statements: [{ statement: `MATCH (x:${label} {k: $k}) RETURN x.v`, parameters: { k: s.k } }] });
                const path = new URL(opened.headers.get('location')!).pathname;
                const v = rowsOf(opened.json)[0][0] as number;
                await pause(s.pause);
                const marked = await post(path, { statements: [{ statement: `MATCH (x:${label} {k: $k}) SET x.v = -1`, parameters: { k: s.k } }] });
                let errors = marked.json.errors as Json[];
                if (errors.length === 0) {
                  await pause(s.pause);
                  const done = await post(path + '/commit', { statements: [{ statement: `MATCH (x:${label} {k: $k}) SET x.v = $v`, parameters: { k: s.k, v: v + 1 } }] });
                  errors = done.json.errors as Json[];
                  if (errors.length === 0) {
                    expected[s.k]++;
                    break;
                  }
                }
                if (!/^Neo\.TransientError\.Transaction\./.test(String(errors[0].code))) throw new Error(JSON.stringify(errors));
              }
            } else {
              const opened = await post('/db/neo4j/tx', { statements: [read] });
              const path = new URL(opened.headers.get('location')!).pathname;
              await pause(s.pause);
              const again = await post(path + '/commit', { statements: [read] });
              const a = rowsOf(opened.json);
              const b = rowsOf(again.json);
              if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`non-repeatable read ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
              if (a.some((row) => row[1] === -1)) problems.push('dirty read');
            }
          }
        }));
        expect(problems).toEqual([]);
        const final = (await db.execute(`MATCH (x:${label}) RETURN x.v ORDER BY x.k`)).records.map((r) => r[0]);
        expect(final).toEqual(expected);
      }),
      { numRuns: Number(process.env.GRAPHDB_TX_RUNS ?? 8) },
    );
  }, 120_000);
});

describe("Neo4j's Query API", () => {
  it('answers typed values with its media type, plain JSON otherwise', async () => {
    const typed = await post('/db/neo4j/query/v2', { statement: 'RETURN $a AS a, 1.5 AS f, "x" AS s, null AS z, [1] AS l', parameters: { a: 7 } }, { accept: 'application/vnd.neo4j.query' });
    expect(typed.status).toBe(202);
    expect(typed.json.data).toEqual({
      fields: ['a', 'f', 's', 'z', 'l'],
      values: [[{ $type: 'Integer', _value: '7' }, { $type: 'Float', _value: '1.5' }, { $type: 'String', _value: 'x' }, { $type: 'Null', _value: null }, { $type: 'List', _value: [{ $type: 'Integer', _value: '1' }] }]],
    });
    const all = await post(
      '/db/neo4j/query/v2',
      { statement: "RETURN true AS b, 2.0 AS g, {k: 1} AS m, date('2024-01-02') AS d, localtime('12:00') AS lt, time('12:00+01:00') AS t, localdatetime('2024-01-02T03:04:05') AS ldt, datetime('2024-01-02T03:04:05Z') AS dt, duration('P1DT2H') AS du, point({x: 1, y: 2}) AS p, 9007199254740993 AS big" },
      { accept: 'application/vnd.neo4j.query' },
    );
    expect(((all.json.data as Json).values as unknown[][])[0]).toEqual([
      { $type: 'Boolean', _value: true },
      { $type: 'Float', _value: '2.0' },
      { $type: 'Map', _value: { k: { $type: 'Integer', _value: '1' } } },
      { $type: 'Date', _value: '2024-01-02' },
      { $type: 'LocalTime', _value: '12:00' },
      { $type: 'Time', _value: '12:00+01:00' },
      { $type: 'LocalDateTime', _value: '2024-01-02T03:04:05' },
      { $type: 'OffsetDateTime', _value: '2024-01-02T03:04:05Z' },
      { $type: 'Duration', _value: 'P1DT2H' },
      { $type: 'Point', _value: 'SRID=7203;POINT (1 2)' },
      { $type: 'Integer', _value: '9007199254740993' },
    ]);
    // Typed parameters round-trip: each comes back as the same typed value.
    const given = {
      i: { $type: 'Integer', _value: '9007199254740993' },
      f: { $type: 'Float', _value: '2.0' },
      d: { $type: 'Date', _value: '2024-02-29' },
      dt: { $type: 'OffsetDateTime', _value: '2024-01-02T03:04:05Z' },
      du: { $type: 'Duration', _value: 'P1DT2H' },
      p: { $type: 'Point', _value: 'SRID=7203;POINT (1 2)' },
      l: { $type: 'List', _value: [{ $type: 'String', _value: 'a' }, { $type: 'Null', _value: null }] },
      m: { $type: 'Map', _value: { b: { $type: 'Boolean', _value: true } } },
    };
    const back = await post('/db/neo4j/query/v2', { statement: 'RETURN $i AS i, $f AS f, $d AS d, $dt AS dt, $du AS du, $p AS p, $l AS l, $m AS m', parameters: given }, { accept: 'application/vnd.neo4j.query' });
    expect(((back.json.data as Json).values as unknown[][])[0]).toEqual(Object.values(given));
    expect((await post('/db/neo4j/query/v2', { statement: 'RETURN $x', parameters: { x: { $type: 'Integer', _value: 'x' } } })).status).toBe(400);
    const plain = await post('/db/neo4j/query/v2', { statement: 'RETURN 1 AS one', includeCounters: true });
    expect(plain.json.data).toEqual({ fields: ['one'], values: [[1]] });
    expect(plain.json.counters).toMatchObject({ contains_updates: false });
    const bad = await post('/db/neo4j/query/v2', { statement: 'RETURN (' });
    expect(bad.status).toBe(400);
    expect((bad.json.errors as Json[])[0].code).toBe('Neo.ClientError.Statement.SyntaxError');
  });

  const del = async (path: string): Promise<{ status: number; json: Json }> => {
    const r = await fetch(base + path, { method: 'DELETE' });
    return { status: r.status, json: (await r.json()) as Json };
  };

  it('transactions: open (202, id, expiry, affinity), run, commit; uncommitted writes invisible meanwhile', async () => {
    const opened = await post('/db/neo4j/query/v2/tx', { statement: 'CREATE (n:QTx {i: $i}) RETURN n.i AS i', parameters: { i: 1 } }, { accept: 'application/vnd.neo4j.query' });
    expect(opened.status).toBe(202);
    expect(opened.headers.get('neo4j-cluster-affinity')).toEqual(expect.any(String));
    expect(opened.json.data).toEqual({ fields: ['i'], values: [[{ $type: 'Integer', _value: '1' }]] });
    const tx = opened.json.transaction as { id: string; expires: string };
    expect(tx.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(tx.expires))).toBe(false);
    const more = await post(`/db/neo4j/query/v2/tx/${tx.id}`, { statement: 'CREATE (:QTx {i: 2}) WITH 1 AS x MATCH (q:QTx) RETURN count(q) AS c', includeCounters: true });
    expect(more.status).toBe(202);
    expect(more.json.data).toEqual({ fields: ['c'], values: [[2]] });
    expect(more.json.counters).toMatchObject({ contains_updates: true, nodes_created: 1 });
    expect((more.json.transaction as Json).id).toBe(tx.id);
    expect((await db.execute('MATCH (q:QTx) RETURN count(q)')).records[0][0]).toBe(0);
    // An empty body keeps it alive and runs nothing.
    const alive = await post(`/db/neo4j/query/v2/tx/${tx.id}`, '');
    expect(alive.status).toBe(202);
    expect(alive.json.data).toBeUndefined();
    const done = await post(`/db/neo4j/query/v2/tx/${tx.id}/commit`, { statement: 'MATCH (q:QTx) RETURN count(q) AS c' });
    expect(done.status).toBe(202);
    expect(done.json.data).toEqual({ fields: ['c'], values: [[2]] });
    expect(done.json.bookmarks).toEqual([]);
    expect((await db.execute('MATCH (q:QTx) RETURN count(q)')).records[0][0]).toBe(2);
    const gone = await post(`/db/neo4j/query/v2/tx/${tx.id}`, { statement: 'RETURN 1' });
    expect(gone.status).toBe(404);
    expect((gone.json.errors as Json[])[0].code).toBe('Neo.ClientError.Transaction.TransactionNotFound');
  });

  it('transactions: DELETE rolls back; an error rolls back; READ access mode refuses writes; a stale read conflicts', async () => {
    const opened = await post('/db/neo4j/query/v2/tx', { statement: 'CREATE (:QGone)' });
    const id = (opened.json.transaction as Json).id as string;
    expect(db.writerSlot.busy).toBe(true);
    expect((await del(`/db/neo4j/query/v2/tx/${id}`)).status).toBe(200);
    expect(db.writerSlot.busy).toBe(false);
    expect((await db.execute('MATCH (n:QGone) RETURN count(n)')).records[0][0]).toBe(0);
    expect((await del(`/db/neo4j/query/v2/tx/${id}`)).status).toBe(404);

    const failing = await post('/db/neo4j/query/v2/tx', {});
    const fid = (failing.json.transaction as Json).id as string;
    await post(`/db/neo4j/query/v2/tx/${fid}`, { statement: 'CREATE (:QFailed)' });
    const err = await post(`/db/neo4j/query/v2/tx/${fid}`, { statement: 'RETURN 1/0' });
    expect(err.status).toBe(400);
    expect((err.json.errors as Json[])[0].code).toBe('Neo.ClientError.Statement.ArithmeticError');
    expect((await post(`/db/neo4j/query/v2/tx/${fid}/commit`, {})).status).toBe(404);
    expect((await db.execute('MATCH (n:QFailed) RETURN count(n)')).records[0][0]).toBe(0);

    const reading = await post('/db/neo4j/query/v2/tx', { accessMode: 'READ', statement: 'RETURN 1 AS one' });
    const rid = (reading.json.transaction as Json).id as string;
    const write = await post(`/db/neo4j/query/v2/tx/${rid}`, { statement: 'CREATE (:QRead)' });
    expect((write.json.errors as Json[])[0].code).toBe('Neo.ClientError.Statement.AccessMode');
    expect((await post('/db/neo4j/query/v2/tx', { accessMode: 'sideways' })).status).toBe(400);

    await db.execute('CREATE (:QCounter {v: 0})');
    const a = await post('/db/neo4j/query/v2/tx', { statement: 'MATCH (c:QCounter) RETURN c.v AS v' });
    const aid = (a.json.transaction as Json).id as string;
    await db.execute('MATCH (c:QCounter) SET c.v = 10');
    const late = await post(`/db/neo4j/query/v2/tx/${aid}`, { statement: 'MATCH (c:QCounter) SET c.v = 1' });
    expect((late.json.errors as Json[])[0].code).toBe('Neo.TransientError.Transaction.Outdated');
    expect((await db.execute('MATCH (c:QCounter) RETURN c.v')).records[0][0]).toBe(10);
    expect((await post('/db/other/query/v2/tx', {})).status).toBe(404);
  });
});

