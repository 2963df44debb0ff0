/**
 * The PG server driven by the two common Node drivers over real sockets: `pg` (Simple
 * Query for plain queries, Extended Query with an unnamed or named statement for
 * parameterised ones) and `postgres` (Extended Query with named prepared statements,
 * Describe of statements, cursors with Execute row limits).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import postgres from 'postgres';
import { Database } from '../../src/engine/database.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';

let db: Database;
let server: PgServer;
let secured: PgServer;
let slow: PgServer;

const connect = async (port: number, password?: string): Promise<pg.Client> => {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'tester', database: 'graphdb', password });
  await c.connect();
  return c;
};

beforeAll(async () => {
  db = Database.openInMemory();
  await db.execute("UNWIND range(1, 50) AS i CREATE (:Person {id: i, name: 'p' + toString(i), score: i * 0.5, even: i % 2 = 0})");
  await db.execute('MATCH (a:Person), (b:Person) WHERE b.id = a.id + 1 OR b.id = a.id + 10 CREATE (a)-[:KNOWS]->(b)');
  server = await startPgServer(db, { port: 0, log: null });
  secured = await startPgServer(db, { port: 0, password: 's3cret', log: null });
  slow = await startPgServer(db, { port: 0, queryTimeoutMs: 50, log: null });
});

afterAll(async () => {
  await Promise.all([server.close(), secured.close(), slow.close()]);
});

describe('pg driver', () => {
  it('runs a plain query (Simple Query) with typed columns', async () => {
    const c = await connect(server.port);
    try {
      const r = await c.query('MATCH (n:Person) WHERE n.id <= 2 RETURN n.id AS id, n.name AS name, n.score AS score, n.even AS even ORDER BY id');
      expect(r.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
        ['id', 20],
        ['name', 25],
        ['score', 701],
        ['even', 16],
      ]);
      expect(r.rows).toEqual([
        { id: '1', name: 'p1', score: 0.5, even: false },
        { id: '2', name: 'p2', score: 1, even: true },
      ]);
      expect(r.command).toBe('SELECT');
      expect(r.rowCount).toBe(2);
    } finally {
      await c.end();
    }
  });

  it('binds parameters as $1, $2 (Extended Query)', async () => {
    const c = await connect(server.port);
    try {
      const r = await c.query('MATCH (n:Person)-[:KNOWS]->(m) WHERE n.id = $1 AND m.id > $2 RETURN m.id AS id ORDER BY id', [1, 1]);
      expect(r.rows).toEqual([{ id: '2' }, { id: '11' }]);
      const s = await c.query('RETURN $1 AS s, $2 AS b, $3 AS f, $4 AS n', ['text', true, 2.5, null]);
      expect(s.rows).toEqual([{ s: 'text', b: true, f: 2.5, n: null }]);
    } finally {
      await c.end();
    }
  });

  it('reuses a named prepared statement', async () => {
    const c = await connect(server.port);
    try {
      const q = { name: 'two-hop', text: 'MATCH (a:Person {id: $1})-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(DISTINCT c) AS n' };
      expect((await c.query({ ...q, values: [1] })).rows).toEqual([{ n: '3' }]);
      expect((await c.query({ ...q, values: [50] })).rows).toEqual([{ n: '0' }]);
    } finally {
      await c.end();
    }
  });

  it('reports writes with a command tag', async () => {
    const c = await connect(server.port);
    try {
      const r = await c.query('CREATE (:Temp {v: $1}), (:Temp {v: $1})', [3]);
      expect(r.command).toBe('INSERT');
      expect(r.rowCount).toBe(2);
      const d = await c.query('MATCH (t:Temp) DELETE t');
      expect([d.command, d.rowCount]).toEqual(['DELETE', 2]);
    } finally {
      await c.end();
    }
  });

  it('reports a syntax error as 42000 and keeps the connection usable', async () => {
    const c = await connect(server.port);
    try {
      await expect(c.query('MATCH (n RETURN n')).rejects.toMatchObject({ code: '42000' });
      await expect(c.query('MATCH (n RETURN $1', [1])).rejects.toMatchObject({ code: '42000' });
      await expect(c.query('RETURN 1/0 AS x')).rejects.toMatchObject({ code: '22012' });
      await expect(c.query('RETURN $1 + $2 AS x', [1])).rejects.toMatchObject({ code: '42P02' });
      expect((await c.query('RETURN 1 AS one')).rows).toEqual([{ one: '1' }]);
    } finally {
      await c.end();
    }
  });

  it('stops a query past its time limit with 57014', async () => {
    const c = await connect(slow.port);
    try {
      await expect(c.query('UNWIND range(1, 5000) AS a UNWIND range(1, 5000) AS b WITH a WHERE a < 0 RETURN count(a) AS n')).rejects.toMatchObject({ code: '57014' });
      expect((await c.query('RETURN 2 AS two')).rows).toEqual([{ two: '2' }]);
    } finally {
      await c.end();
    }
  });

  it('accepts the right password and refuses a wrong or empty one with 28P01', async () => {
    const ok = await connect(secured.port, 's3cret');
    expect((await ok.query('RETURN 1 AS x')).rows).toEqual([{ x: '1' }]);
    await ok.end();
    await expect(connect(secured.port, 'wrong')).rejects.toMatchObject({ code: '28P01' });
    await expect(connect(secured.port, '')).rejects.toMatchObject({ code: '28P01' });
  });

  it('serves many clients at once', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => connect(server.port)));
    try {
      const results = await Promise.all(clients.map((c, i) => c.query('MATCH (n:Person {id: $1}) RETURN n.name AS name', [i + 1])));
      expect(results.map((r) => r.rows[0].name)).toEqual(clients.map((_, i) => `p${i + 1}`));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});

describe('postgres driver', () => {
  const open = (port = server.port, password?: string): postgres.Sql =>
    postgres({ host: '127.0.0.1', port, user: 'tester', database: 'graphdb', password, max: 1, onnotice: () => undefined });

  it('runs tagged queries through named prepared statements', async () => {
    const sql = open();
    try {
      const rows = await sql`MATCH (n:Person) WHERE n.id = ${5} RETURN n.name AS name`;
      expect([...rows]).toEqual([{ name: 'p5' }]);
      const again = await sql`MATCH (n:Person) WHERE n.id = ${6} RETURN n.name AS name`;
      expect([...again]).toEqual([{ name: 'p6' }]);
      const typed = await sql`MATCH (n:Person) RETURN count(n) AS c, avg(n.score) AS s, true AS t`;
      expect([...typed]).toEqual([{ c: '50', s: 12.75, t: true }]);
      const text = await sql`RETURN ${'abc'} AS s, ${7} AS n`;
      expect([...text]).toEqual([{ s: 'abc', n: '7' }]);
    } finally {
      await sql.end();
    }
  });

  it('runs unsafe (unprepared) queries, shims and transactions', async () => {
    const sql = open();
    try {
      expect([...(await sql.unsafe('SHOW SERVER_VERSION'))]).toEqual([{ server_version: expect.any(String) }]);
      expect([...(await sql.unsafe('MATCH (n:Person) RETURN max(n.id) AS m'))]).toEqual([{ m: '50' }]);
      await sql.begin(async (tx) => {
        await tx`CREATE (:InTx {v: ${1}})`;
      });
      expect([...(await sql`MATCH (n:InTx) RETURN count(n) AS c`)]).toEqual([{ c: '1' }]);
    } finally {
      await sql.end();
    }
  });

  it('reads a result in batches with a cursor (Execute row limit, PortalSuspended)', async () => {
    const sql = open();
    try {
      const batches: number[] = [];
      for await (const rows of sql`MATCH (n:Person) RETURN n.id AS id ORDER BY id`.cursor(15)) batches.push(rows.length);
      expect(batches).toEqual([15, 15, 15, 5]);
    } finally {
      await sql.end();
    }
  });

  it('reports errors with their SQLSTATE', async () => {
    const sql = open();
    try {
      await expect(sql`MATCH (n RETURN ${1}`).rejects.toMatchObject({ code: '42000' });
      expect([...(await sql`RETURN ${2} AS x`)]).toEqual([{ x: '2' }]);
    } finally {
      await sql.end();
    }
  });

  it('authenticates with a cleartext password', async () => {
    const ok = open(secured.port, 's3cret');
    expect([...(await ok`RETURN 1 AS x`)]).toEqual([{ x: '1' }]);
    await ok.end();
    const bad = open(secured.port, 'nope');
    await expect(bad`RETURN 1 AS x`).rejects.toMatchObject({ code: '28P01' });
    await bad.end();
  });
});
