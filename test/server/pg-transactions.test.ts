/**
 * PG transaction blocks on the engine's transactions (src/server/pg/transaction-block.ts),
 * through the `pg` and `postgres` drivers and psql over real sockets, with statements outside
 * blocks going through a query router and its worker threads as on the real server.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fc from 'fast-check';
import pg from 'pg';
import postgres from 'postgres';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';

let db: Database;
let pool: QueryWorkerPool;
let server: PgServer;
let idle: PgServer;
let idleDb: Database;

const connect = async (port = server.port): Promise<pg.Client> => {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'tester', database: 'graphdb' });
  c.on('error', () => undefined);
  await c.connect();
  return c;
};

const value = async (c: pg.Client, q: string, params?: unknown[]): Promise<unknown> => {
  const r = await c.query(q, params);
  return Object.values(r.rows[0] ?? {})[0];
};

const sqlState = (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e: { code?: string }) => e.code);

beforeAll(async () => {
  db = Database.openInMemory();
  pool = await QueryWorkerPool.start(db, 2);
  server = await startPgServer(db, { port: 0, log: null, queries: new QueryRouter(db, pool) });
  idleDb = Database.openInMemory({ transactionTimeoutMs: 150 });
  idle = await startPgServer(idleDb, { port: 0, log: null });
}, 60_000);

afterAll(async () => {
  await Promise.all([server.close(), idle.close()]);
  await pool.close();
  db.close();
  idleDb.close();
});

describe('PG transaction blocks', () => {
  it('reads inside see the block\'s own writes; other sessions see nothing until COMMIT', async () => {
    await db.execute('MATCH (n:T1) DETACH DELETE n');
    const a = await connect();
    const b = await connect();
    try {
      await a.query('BEGIN');
      await a.query("CREATE (:T1 {name: 'x'})");
      await a.query('MATCH (t:T1) SET t.n = 5');
      expect(await value(a, 'MATCH (t:T1) RETURN t.n')).toBe('5');
      expect(await value(b, 'MATCH (t:T1) RETURN count(t)')).toBe('0');
      await a.query('COMMIT');
      expect(await value(b, 'MATCH (t:T1) RETURN t.n')).toBe('5');
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('a block\'s reads keep one snapshot while another session commits', async () => {
    await db.execute('MATCH (n:T2) DETACH DELETE n');
    await db.execute('CREATE (:T2 {v: 1})');
    const a = await connect();
    const b = await connect();
    try {
      await a.query('BEGIN READ ONLY');
      expect(await value(a, 'MATCH (t:T2) RETURN t.v')).toBe('1');
      await b.query('MATCH (t:T2) SET t.v = 2');
      expect(await value(a, 'MATCH (t:T2) RETURN t.v')).toBe('1');
      await a.query('COMMIT');
      expect(await value(a, 'MATCH (t:T2) RETURN t.v')).toBe('2');
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('BEGIN READ ONLY refuses writes with 25006, then 25P02 until ROLLBACK', async () => {
    const c = await connect();
    try {
      await c.query('BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE READ ONLY');
      expect(await sqlState(c.query('CREATE (:Nope)'))).toBe('25006');
      expect(await sqlState(c.query('RETURN 1'))).toBe('25P02');
      const r = await c.query('COMMIT');
      expect(r.command).toBe('ROLLBACK');
      expect(await value(c, 'MATCH (n:Nope) RETURN count(n)')).toBe('0');
    } finally {
      await c.end();
    }
  });

  it('a conflict is 40001, and nothing of the block remains', async () => {
    await db.execute('MATCH (n:T3) DETACH DELETE n');
    await db.execute('CREATE (:T3 {v: 0})');
    const a = await connect();
    const b = await connect();
    try {
      await a.query('BEGIN');
      expect(await value(a, 'MATCH (t:T3) RETURN t.v')).toBe('0');
      await b.query('MATCH (t:T3) SET t.v = 10');
      expect(await sqlState(a.query('MATCH (t:T3) SET t.v = 1'))).toBe('40001');
      expect(await sqlState(a.query('RETURN 1'))).toBe('25P02');
      await a.query('ROLLBACK');
      expect(await value(a, 'MATCH (t:T3) RETURN t.v')).toBe('10');
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('no lost update: clients increment a counter in blocks (read, then write), retrying on 40001', async () => {
    await db.execute('MATCH (n:Counter) DETACH DELETE n');
    await db.execute('CREATE (:Counter {v: 0})');
    const N = 5;
    const K = 6;
    const client = async (): Promise<void> => {
      const c = await connect();
      try {
        for (let k = 0; k < K; k++) {
          for (;;) {
            try {
              await c.query('BEGIN');
              const v = Number(await value(c, 'MATCH (c:Counter) RETURN c.v'));
              await c.query('MATCH (c:Counter) SET c.v = $1', [v + 1]);
              await c.query('COMMIT');
              break;
            } catch (err) {
              await c.query('ROLLBACK');
              if ((err as { code?: string }).code !== '40001' && (err as { code?: string }).code !== '55P03') throw err;
            }
          }
        }
      } finally {
        await c.end();
      }
    };
    await Promise.all(Array.from({ length: N }, client));
    expect(await db.execute('MATCH (c:Counter) RETURN c.v').then((r) => r.records[0][0])).toBe(N * K);
  }, 60_000);

  it('no lost update with the postgres driver\'s sql.begin and its own retry', async () => {
    await db.execute('MATCH (n:Counter2) DETACH DELETE n');
    await db.execute('CREATE (:Counter2 {v: 0})');
    const sql = postgres({ host: '127.0.0.1', port: server.port, user: 'tester', database: 'graphdb', max: 4, onnotice: () => undefined });
    try {
      const N = 4;
      const K = 5;
      const once = async (): Promise<void> => {
        for (;;) {
          try {
            await sql.begin(async (tx) => {
              const [row] = await tx.unsafe('MATCH (c:Counter2) RETURN c.v AS v');
              await tx.unsafe('MATCH (c:Counter2) SET c.v = $1', [Number(row.v) + 1]);
            });
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== '40001') throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: N }, async () => {
        for (let k = 0; k < K; k++) await once();
      }));
      expect(await db.execute('MATCH (c:Counter2) RETURN c.v').then((r) => r.records[0][0])).toBe(N * K);
    } finally {
      await sql.end();
    }
  }, 60_000);

  it('a closed connection rolls its block back and frees the writer slot', async () => {
    await db.execute('MATCH (n:T4) DETACH DELETE n');
    const a = await connect();
    await a.query('BEGIN');
    await a.query('CREATE (:T4)');
    expect(db.writerSlot.busy).toBe(true);
    await a.end();
    for (let i = 0; i < 100 && db.writerSlot.busy; i++) await new Promise((r) => setTimeout(r, 10));
    expect(db.writerSlot.busy).toBe(false);
    const b = await connect();
    try {
      await b.query('CREATE (:T5)');
      expect(await value(b, 'MATCH (n:T4) RETURN count(n)')).toBe('0');
    } finally {
      await b.end();
    }
  });

  it('idle in a block past the transaction timeout: FATAL 25P03, rolled back', async () => {
    const a = await connect(idle.port);
    const codes: (string | undefined)[] = [];
    a.on('error', (e) => codes.push((e as { code?: string }).code));
    await a.query('BEGIN');
    await a.query('CREATE (:Idle)');
    await new Promise((r) => setTimeout(r, 400));
    expect(codes[0]).toBe('25P03');
    expect(idleDb.writerSlot.busy).toBe(false);
    expect(idleDb.executeSync('MATCH (n:Idle) RETURN count(n)').records[0][0]).toBe(0);
    await a.end().catch(() => undefined);
  });

  it('psql: a block with its own reads, COMMIT and ROLLBACK', async () => {
    await db.execute('MATCH (n:P1) DETACH DELETE n');
    const out = await new Promise<string>((resolve) => {
      execFile(
        'psql',
        ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'x', '-d', 'graphdb', '-X', '-w', '-A', '-t', '-c',
          'BEGIN; CREATE (:P1 {i: 1}); MATCH (p:P1) RETURN count(p); COMMIT; BEGIN; CREATE (:P1 {i: 2}); ROLLBACK; MATCH (p:P1) RETURN count(p);'],
        { timeout: 20_000 },
        (_err, stdout) => resolve(String(stdout)),
      );
    });
    expect(out.trim().split('\n')).toEqual(['BEGIN', 'INSERT 0 1', '1', 'COMMIT', 'BEGIN', 'INSERT 0 1', 'ROLLBACK', '1']);
  });

  it('property: concurrent blocks never read dirty or changing data and lose no update', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => connect()));
    let run = 0;
    const step = fc.oneof(
      fc.record({ t: fc.constant('inc' as const), k: fc.integer({ min: 0, max: 1 }), pause: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ t: fc.constant('read' as const), pause: fc.integer({ min: 0, max: 5 }) }),
    );
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 4 }), async (programs) => {
          const label = `Prop${run++}`;
          await db.execute(`UNWIND [0, 1] AS k CREATE (:${label} {k: k, v: 0})`);
          const expected = [0, 0];
          const problems: string[] = [];
          const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
          await Promise.all(programs.map(async (steps, i) => {
            const c = clients[i];
            for (const s of steps) {
              if (s.t === 'inc') {
                for (;;) {
                  try {
                    await c.query('BEGIN');
                    const v = Number(await value(c, `MATCH (x:${label} {k: $1}) RETURN x.v`, [s.k]));
                    await pause(s.pause);
                    await c.query(`MATCH (x:${label} {k: $1}) SET x.v = -1`, [s.k]);
                    await pause(s.pause);
                    await c.query(`MATCH (x:${label} {k: $1}) SET x.v = $2`, [s.k, v + 1]);
                    await c.query('COMMIT');
                    expected[s.k]++;
                    break;
                  } catch (err) {
                    await c.query('ROLLBACK');
                    if ((err as { code?: string }).code !== '40001') throw err;
                  }
                }
              } else {
                await c.query('BEGIN READ ONLY');
                const q = `MATCH (x:${label}) RETURN x.k AS k, x.v AS v ORDER BY k`;
                const a = (await c.query(q)).rows;
                await pause(s.pause);
                const b = (await c.query(q)).rows;
                await c.query('COMMIT');
                if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`non-repeatable read ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
                if (a.some((row: { v: string }) => row.v === '-1')) problems.push('dirty read');
              }
            }
          }));
          expect(problems).toEqual([]);
          const final = (await db.execute(`MATCH (x:${label}) RETURN x.v ORDER BY x.k`)).records.map((r) => r[0]);
          expect(final).toEqual(expected);
        }),
        { numRuns: Number(process.env.GRAPHDB_TX_RUNS ?? 8) },
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  }, 120_000);
});
