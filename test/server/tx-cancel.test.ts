/**
 * Cancelling a statement inside an explicit transaction, through the real `graphdb` binary
 * with one query worker and a long query time limit (a statement not stopped would hold that
 * worker, or the writer slot, far past these tests' own limits): a PG CancelRequest (sent on
 * its own connection with the session's process id and secret key, as libpq does) stops the
 * statement with 57014 and fails the block, which rolls back and frees the writer slot; a
 * write waiting for the slot stops waiting; Neo4j's DELETE of an HTTP transaction stops its
 * running statement and answers at once; a TCP client that disconnects mid-statement stops it.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, stopSpawned, type SpawnedServers } from './helpers.js';

/** Counts for minutes, checking its deadline and cancel word all along. */
const LONG = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';
/** PostgreSQL's CancelRequest code. */
const CANCEL_REQUEST_CODE = 80877102;

type Json = Record<string, unknown>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let s: SpawnedServers | undefined;

beforeAll(async () => {
  s = await spawnGraphdb(['--http', '0', '--pg', '0', '--serve', '0', '--workers', '1', '--query-timeout', '120000']);
}, 30_000);

afterAll(() => stopSpawned(s), 20_000);

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port: s!.ports.pg!, user: 'test', database: 'graphdb' });
  await c.connect();
  return c;
}

/** Sends a CancelRequest for `target`'s session on a connection of its own. */
function cancel(target: pg.Client): Promise<void> {
  const { processID, secretKey } = target as unknown as { processID: number; secretKey: number };
  return new Promise((resolve, reject) => {
    const socket = connect(s!.ports.pg!, '127.0.0.1', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
      packet.writeInt32BE(processID, 8);
      packet.writeInt32BE(secretKey, 12);
      socket.end(packet);
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

/** The SQLSTATE `work` fails with, and how long it took to fail. */
async function failure(work: Promise<unknown>): Promise<{ code: string | undefined; ms: number }> {
  const started = performance.now();
  try {
    await work;
  } catch (err) {
    return { code: (err as { code?: string }).code, ms: performance.now() - started };
  }
  throw new Error('expected the statement to fail');
}

async function httpQuery(text: string): Promise<unknown[][]> {
  const r = await fetch(`http://127.0.0.1:${s!.ports.http!}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
  const body = (await r.json()) as { rows: unknown[][] };
  return body.rows;
}

/** A short read answers within two seconds: the only worker is free again. */
async function workerIsFree(): Promise<void> {
  const started = performance.now();
  expect(await httpQuery('RETURN 1 AS one')).toEqual([[1]]);
  expect(performance.now() - started).toBeLessThan(2000);
}

describe('cancelling a statement inside a transaction', () => {
  it('PG CancelRequest stops a read statement of a READ ONLY block on its worker: 57014, then 25P02 until ROLLBACK', async () => {
    const c = await client();
    try {
      await c.query('BEGIN READ ONLY');
      const long = failure(c.query(LONG));
      await sleep(500);
      await cancel(c);
      const { code, ms } = await long;
      expect(code).toBe('57014');
      expect(ms).toBeLessThan(3000);
      await expect(c.query('RETURN 1')).rejects.toMatchObject({ code: '25P02' });
      await c.query('ROLLBACK');
      expect((await c.query('RETURN 1 AS one')).rows).toEqual([{ one: '1' }]);
      await workerIsFree();
    } finally {
      await c.end();
    }
  }, 30_000);

  it('PG CancelRequest of a write waiting for the writer slot: it stops waiting (57014), its block rolls back, the holder commits', async () => {
    const holder = await client();
    const waiter = await client();
    try {
      await holder.query('BEGIN');
      await holder.query('CREATE (:Held {by: "holder"})');
      await waiter.query('BEGIN');
      const waiting = failure(waiter.query('CREATE (:Held {by: "waiter"})'));
      await sleep(500);
      await cancel(waiter);
      const { code, ms } = await waiting;
      expect(code).toBe('57014');
      // Long before the holder lets go of the slot (it still holds it, idle, for the transaction time limit).
      expect(ms).toBeLessThan(3000);
      expect((await waiter.query('COMMIT')).command).toBe('ROLLBACK');
      await holder.query('COMMIT');
      // The slot is free: a single write goes through at once.
      expect(await httpQuery('CREATE (n:Held {by: "single"}) RETURN n.by')).toEqual([['single']]);
      expect(await httpQuery('MATCH (n:Held) RETURN n.by ORDER BY n.by')).toEqual([['holder'], ['single']]);
    } finally {
      await Promise.all([holder.end(), waiter.end()]);
    }
  }, 30_000);

  it('PG CancelRequest of a write transaction reading before its first write: 57014, and COMMIT rolls back', async () => {
    const c = await client();
    try {
      await c.query('BEGIN');
      const long = failure(c.query(LONG));
      await sleep(500);
      await cancel(c);
      expect((await long).code).toBe('57014');
      expect((await c.query('COMMIT')).command).toBe('ROLLBACK');
      await workerIsFree();
    } finally {
      await c.end();
    }
  }, 30_000);

  it("Neo4j's DELETE while a statement runs stops it and rolls back at once", async () => {
    const base = `http://127.0.0.1:${s!.ports.http!}`;
    const post = async (path: string, body: unknown): Promise<{ status: number; json: Json; location: string | null }> => {
      const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as Json, location: r.headers.get('location') };
    };
    const opened = await post('/db/neo4j/tx', { statements: [] });
    const path = new URL(opened.location!).pathname;
    const long = post(path, { statements: [{ statement: LONG }] });
    await sleep(500);
    const started = performance.now();
    const del = await fetch(base + path, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    const stopped = await long;
    expect((stopped.json.errors as Json[])[0].code).toBe('Neo.TransientError.Transaction.Terminated');
    await workerIsFree();
    expect((await post(path, { statements: [] })).status).toBe(404);
  }, 30_000);

  it('a TCP client that disconnects during a statement of its transaction stops it', async () => {
    const socket = connect(s!.ports.tcp!, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answered = '';
    socket.on('data', (d: Buffer) => (answered += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.write('BEGIN READ ONLY\n');
    for (let i = 0; i < 100 && !answered.includes('\n'); i++) await sleep(10);
    expect(JSON.parse(answered.trim())).toEqual({ transaction: 'open', mode: 'read' });
    socket.write(LONG + '\n');
    await sleep(500);
    socket.destroy();
    await sleep(200);
    await workerIsFree();
  }, 30_000);
});

