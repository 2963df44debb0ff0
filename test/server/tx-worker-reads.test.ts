/**
 * Explicit transactions' reads run on the query workers, through the real `graphdb` binary
 * (default workers) and real clients: a long statement inside an open transaction — Neo4j's
 * HTTP transaction API, a PG `BEGIN READ ONLY` block — no longer holds the main thread until
 * its time limit (the freeze probe polls /health meanwhile), and the snapshot it reads there
 * stays one state while other clients commit.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutFreeze } from './freeze-probe.js';
import { spawnGraphdb, stopSpawned, type SpawnedServers } from './helpers.js';

/** The servers' query time limit: a statement not moved off the main thread would freeze the doors this long. */
const TIME_LIMIT_MS = 3000;
/** Counts until its time limit, checking its deadline all along. */
const LONG = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';

type Json = Record<string, unknown>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let s: SpawnedServers | undefined;
const http = (): number => s!.ports.http!;

async function post(path: string, body: unknown): Promise<{ status: number; json: Json; headers: Headers }> {
  const r = await fetch(`http://127.0.0.1:${http()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Json, headers: r.headers };
}

/** One query on its own over POST /query (JSON): its rows. */
async function query(text: string): Promise<unknown[][]> {
  const r = await post('/query', { query: text });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.rows as unknown[][];
}

/**
 * A short read over HTTP answers long before the long statement's time limit. Queued behind it
 * (started 300 ms earlier) the read would wait at least 2.7 s; the bound leaves a loaded runner
 * room (1.1 s was seen with eight other processes busy), and the freeze probe checks /health
 * meanwhile at its own threshold.
 */
async function shortReadAnswers(): Promise<void> {
  const started = performance.now();
  expect(await query('MATCH (c:Counter) RETURN count(c)')).toEqual([[1]]);
  expect(performance.now() - started).toBeLessThan(TIME_LIMIT_MS * 0.6);
}

function pgClient(): pg.Client {
  return new pg.Client({ host: '127.0.0.1', port: s!.ports.pg!, user: 'test', database: 'graphdb' });
}

beforeAll(async () => {
  s = await spawnGraphdb(['--http', '0', '--pg', '0', '--query-timeout', String(TIME_LIMIT_MS)], [], { defaultWorkers: true });
  await query('CREATE (:Counter {v: 0})');
}, 30_000);

afterAll(() => stopSpawned(s), 20_000);

describe('read statements of open transactions run on the query workers', () => {
  it('Neo4j HTTP transaction: a long read statement does not hold /health; it ends at its time limit and rolls the transaction back', async () => {
    const opened = await post('/db/neo4j/tx', { statements: [{ statement: 'MATCH (c:Counter) RETURN c.v' }] });
    expect(opened.status).toBe(201);
    const path = new URL(opened.headers.get('location')!).pathname;
    const { value } = await withoutFreeze(http(), async () => {
      const long = post(path, { statements: [{ statement: LONG }] });
      await sleep(300);
      await shortReadAnswers();
      return long;
    });
    expect((value.json.errors as Json[])[0].code).toBe('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration');
    // As in Neo4j, an error rolls the transaction back.
    expect((await post(path, { statements: [] })).status).toBe(404);
  }, 30_000);

  it('PG BEGIN READ ONLY: one snapshot while others commit, and a long statement does not hold /health', async () => {
    const reader = pgClient();
    await reader.connect();
    try {
      await reader.query('BEGIN READ ONLY');
      const before = Number((await reader.query('MATCH (c:Counter) RETURN c.v AS v')).rows[0].v);
      // Commits made meanwhile, small and large, through another door.
      await query('MATCH (c:Counter) SET c.v = c.v + 1');
      await query('UNWIND range(1, 5000) AS i CREATE (:Later {i: i})');
      await query('MATCH (c:Counter) SET c.v = c.v + 1');
      const inside = await reader.query('MATCH (c:Counter) OPTIONAL MATCH (l:Later) RETURN c.v AS v, count(l) AS later');
      expect(inside.rows).toEqual([{ v: String(before), later: '0' }]);
      expect(await query('MATCH (c:Counter) OPTIONAL MATCH (l:Later) RETURN c.v, count(l)')).toEqual([[before + 2, 5000]]);

      const { value } = await withoutFreeze(http(), async () => {
        const long = reader.query(LONG).then(
          () => undefined,
          (err: unknown) => err as { code?: string },
        );
        await sleep(300);
        await shortReadAnswers();
        return long;
      });
      // query_canceled (the statement's time limit); the block is failed until it ends.
      expect(value?.code).toBe('57014');
      await expect(reader.query('MATCH (c:Counter) RETURN c.v')).rejects.toMatchObject({ code: '25P02' });
      await reader.query('ROLLBACK');
      // A new block reads the state as it is now.
      await reader.query('BEGIN READ ONLY');
      expect((await reader.query('MATCH (c:Counter) RETURN c.v AS v')).rows).toEqual([{ v: String(before + 2) }]);
      await reader.query('COMMIT');
    } finally {
      await reader.end();
    }
  }, 30_000);

  it('a write transaction reads its snapshot on a worker, then conflicts (40001) when others changed what it read before its first write, not when they changed other data', async () => {
    const writer = pgClient();
    await writer.connect();
    try {
      await writer.query('BEGIN');
      const v = Number((await writer.query('MATCH (c:Counter) RETURN c.v AS v')).rows[0].v);
      await query('MATCH (c:Counter) SET c.v = c.v + 1');
      expect((await writer.query('MATCH (c:Counter) RETURN c.v AS v')).rows).toEqual([{ v: String(v) }]);
      await expect(writer.query('MATCH (c:Counter) SET c.v = ' + String(v + 1))).rejects.toMatchObject({ code: '40001' });
      await writer.query('ROLLBACK');
      expect(await query('MATCH (c:Counter) RETURN c.v')).toEqual([[v + 1]]);
      // A commit to other data meanwhile is no conflict: its reads (a node among them), run again on the primary, answer the same.
      await writer.query('BEGIN');
      const node = (await writer.query('MATCH (c:Counter) RETURN c, c.v AS v')).rows[0] as { v: string };
      await query('CREATE (:Elsewhere {at: 1})');
      await writer.query('MATCH (c:Counter) SET c.v = ' + String(Number(node.v) + 1));
      await writer.query('COMMIT');
      expect(await query('MATCH (c:Counter) RETURN c.v')).toEqual([[v + 2]]);
    } finally {
      await writer.end();
    }
  }, 30_000);

  it("a procedure the primary serves to workers (full-text search) answers from the snapshot while nothing has committed since BEGIN, and is refused after, never reading a later commit", async () => {
    await query('CREATE FULLTEXT INDEX tx_docs FOR (d:TxDoc) ON EACH [d.text]');
    await query("CREATE (:TxDoc {text: 'alpha'})");
    const search = "CALL db.index.fulltext.queryNodes('tx_docs', 'alpha') YIELD node RETURN count(node) AS n";
    // The index fills in the background: wait until it answers.
    for (let i = 0; i < 100 && (await query(search))[0][0] !== 1; i++) await sleep(50);
    const reader = pgClient();
    await reader.connect();
    try {
      await reader.query('BEGIN READ ONLY');
      expect((await reader.query(search)).rows).toEqual([{ n: '1' }]);
      // The primary's index now holds the new state (no 'alpha' left): the transaction must be refused, never answered 0.
      await query("MATCH (d:TxDoc) SET d.text = 'beta'");
      await expect(reader.query(search)).rejects.toThrow(/once other writes have committed/);
      await reader.query('ROLLBACK');
    } finally {
      await reader.end();
    }
  }, 30_000);

  it('a procedure only the primary runs reads there while nothing has committed since BEGIN, and is refused after', async () => {
    const reader = pgClient();
    await reader.connect();
    try {
      await reader.query('BEGIN READ ONLY');
      expect((await reader.query('CALL dbms.components() YIELD name RETURN name')).rows).toContainEqual({ name: 'Neo4j Kernel' });
      await query('MATCH (c:Counter) SET c.v = c.v + 1');
      await expect(reader.query('CALL dbms.components() YIELD name RETURN name')).rejects.toThrow(/once other writes have committed/);
      await reader.query('ROLLBACK');
    } finally {
      await reader.end();
    }
  }, 30_000);
});

