/**
 * Test setup shared by the query worker tests: an in-memory Database seeded by the caller,
 * with a pool of query workers and a router over it, started before a describe block's tests
 * and closed after them.
 */

import { afterAll, beforeAll, expect } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';

export interface RoutedDatabase {
  db: Database;
  pool: () => QueryWorkerPool;
  router: () => QueryRouter;
  /** What every replica and the primary answer to `query` (asked of the workers six times): all must agree. */
  everywhere: (query: string) => Promise<Value[][]>;
}

export function routedDatabase(seed: (db: Database) => void, workers = 2): RoutedDatabase {
  const db = Database.openInMemory();
  let pool: QueryWorkerPool | undefined;
  let router: QueryRouter | undefined;
  beforeAll(async () => {
    seed(db);
    pool = await QueryWorkerPool.start(db, workers);
    router = new QueryRouter(db, pool);
  }, 60_000);
  afterAll(async () => {
    await pool?.close();
    db.close();
  });
  const everywhere = async (query: string): Promise<Value[][]> => {
    const primary = db.executeSync(query).records;
    const replicas = await Promise.all(Array.from({ length: 6 }, () => pool!.run(query, undefined)));
    for (const r of replicas) expect(r.records, query).toEqual(primary);
    return primary;
  };
  return { db, pool: () => pool!, router: () => router!, everywhere };
}
