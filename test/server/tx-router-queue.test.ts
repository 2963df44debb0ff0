/**
 * A single write that waits for the writer slot (held by an open PG transaction) holds up only
 * the writes after it, through the real `graphdb` binary with two query workers: reads, the
 * primary's own listings (SHOW, dbms.* procedures) and reads calling procedures the primary
 * serves (db.info) answer at once meanwhile, and the write commits once the transaction ends.
 * Before, every query the router ran on the primary that was not marked read-only queued behind
 * that write, so for as long as the transaction held the slot (up to its idle limit).
 * Assumes `npm run build` has run (as `npm test` does).
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, stopSpawned, type SpawnedServers } from './helpers.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let s: SpawnedServers | undefined;

async function query(text: string): Promise<{ status: number; body: { rows?: unknown[][]; code?: string } }> {
  const r = await fetch(`http://127.0.0.1:${s!.ports.http!}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
  return { status: r.status, body: (await r.json()) as { rows?: unknown[][]; code?: string } };
}

/** How long `text` takes to answer over HTTP, and its rows. */
async function timed(text: string): Promise<{ ms: number; rows: unknown[][] | undefined }> {
  const started = performance.now();
  const r = await query(text);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { ms: performance.now() - started, rows: r.body.rows };
}

beforeAll(async () => {
  s = await spawnGraphdb(['--http', '0', '--pg', '0', '--workers', '2', '--tx-timeout', '30000']);
  await query('CREATE (:Counter {v: 0})');
}, 30_000);

afterAll(() => stopSpawned(s), 20_000);

describe('a single write waiting for the writer slot', () => {
  it('does not hold up reads, SHOW, dbms.* or primary-served procedures; it commits after the transaction', async () => {
    const holder = new pg.Client({ host: '127.0.0.1', port: s!.ports.pg!, user: 'test', database: 'graphdb' });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('CREATE (:Held)');
      // Runs on a worker (it reads), then waits on the primary for the slot the block holds.
      let written = false;
      const write = query('MATCH (c:Counter) SET c.v = c.v + 1 RETURN c.v').then((r) => {
        written = true;
        return r;
      });
      await sleep(500);
      expect(written).toBe(false);
      for (const text of ['MATCH (c:Counter) RETURN c.v', 'SHOW INDEXES YIELD name RETURN count(*) AS n', 'CALL dbms.components() YIELD name RETURN name', 'CALL db.info() YIELD name RETURN name']) {
        const { ms } = await timed(text);
        expect(ms, text).toBeLessThan(1000);
      }
      expect(written).toBe(false);
      await holder.query('COMMIT');
      const done = await write;
      expect(done.body.rows).toEqual([[1]]);
      expect((await timed('MATCH (h:Held) RETURN count(h)')).rows).toEqual([[1]]);
    } finally {
      await holder.end();
    }
  }, 30_000);
});
