/**
 * Explicit transactions' snapshots held on query workers (worker-pool.ts `pinSnapshot`,
 * query-worker.ts `pin`): a read transaction keeps one state on its worker while writes
 * commit through the router, and a snapshot lost with its worker (replaced after a statement
 * that would not stop) fails the transaction's next read with a retryable conflict, which
 * `db.transaction()` retries.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { isTransientError } from '../../src/errors.js';

/** Polynomial backtracking that never reaches a deadline check: its worker has to be replaced. */
const BACKTRACKING = `RETURN '${'a'.repeat(60)}' =~ '${'(.*)'.repeat(10)}\\\\1x' AS m`;

let db: Database;
let pool: QueryWorkerPool;
let router: QueryRouter;

beforeAll(async () => {
  db = Database.openInMemory();
  pool = await QueryWorkerPool.start(db, 1);
  router = new QueryRouter(db, pool);
  await router.execute('UNWIND range(1, 3) AS k CREATE (:S {k: k, v: 0})');
}, 60_000);

afterAll(async () => {
  await pool.close();
  db.close();
});

describe('snapshots on query workers', () => {
  test('a read transaction reads one state on its worker while writes commit', async () => {
    const tx = await db.beginTransaction({ mode: 'read' });
    const q = 'MATCH (s:S) RETURN s.k, s.v ORDER BY s.k';
    const before = (await tx.run(q)).records;
    for (let i = 0; i < 5; i++) await router.execute('MATCH (s:S) SET s.v = s.v + 1');
    await router.execute('UNWIND range(1, 2000) AS i CREATE (:Later {i: i})');
    expect((await tx.run(q)).records).toEqual(before);
    expect((await tx.run('MATCH (l:Later) RETURN count(l)')).records).toEqual([[0]]);
    await tx.commit();
    expect((await router.execute('MATCH (s:S) RETURN min(s.v)')).records).toEqual([[5]]);
  });

  test('a snapshot lost with its worker is a retryable conflict; db.transaction() runs the work again', async () => {
    const kept = await db.beginTransaction({ mode: 'read' });
    await kept.run('MATCH (s:S) RETURN count(s)');
    const stuck = await db.beginTransaction({ mode: 'read' });
    // Same worker (there is one): it runs until its time limit and past the grace, and is replaced.
    await expect(stuck.run(BACKTRACKING, undefined, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const lost = await kept.run('MATCH (s:S) RETURN count(s)').catch((err: unknown) => err);
    expect(lost).toMatchObject({ code: 'TX_CONFLICT' });
    expect(isTransientError(lost)).toBe(true);
    // A new transaction pins on the replacement worker once it is ready.
    let attempts = 0;
    const count = await db.transaction(async (tx) => {
      attempts++;
      return (await tx.run('MATCH (s:S) RETURN count(s)')).records[0][0];
    }, { mode: 'read' });
    expect(count).toBe(3);
    expect(attempts).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test('a BEGIN while the only worker is being replaced waits for the replacement: its reads do not hold the main thread', async () => {
    const stuck = await db.beginTransaction({ mode: 'read' });
    await expect(stuck.run(BACKTRACKING, undefined, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    // The stuck worker is gone and its replacement is still loading the graph.
    expect(pool.readyWorkers).toBe(0);
    const tx = await db.beginTransaction({ mode: 'read' });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      await expect(tx.run('UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*)', undefined, { timeoutMs: 1000 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    } finally {
      clearInterval(ticker);
    }
    // On the main thread the second of counting would have held every timer; on a worker they ran.
    expect(ticks).toBeGreaterThan(20);
    await tx.rollback();
  }, 30_000);
});
