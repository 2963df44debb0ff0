/**
 * The default number of query workers: as many as asked while the graph's replicas fit in half
 * of the available memory, fewer (down to none) when they do not, with a line saying so.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { availableMemory, defaultWorkers, workersThatFit } from '../../src/engine/workers/worker-budget.js';

const MB = 1024 * 1024;

describe('worker budget', () => {
  it('gives every wanted worker while the replicas fit, fewer and then none as the graph grows', () => {
    expect(workersThatFit(4, 10 * MB, 16_000 * MB).workers).toBe(4);
    // A replica of a 2000 MB graph takes about 3 GB: two fit in half of 16 GB.
    const big = workersThatFit(4, 2000 * MB, 16_000 * MB);
    expect(big.workers).toBe(2);
    expect(big.replicaBytes).toBeGreaterThan(2000 * MB);
    expect(workersThatFit(4, 20_000 * MB, 16_000 * MB).workers).toBe(0);
    expect(workersThatFit(0, 1, 16_000 * MB).workers).toBe(0);
  });

  it('reads the memory this process may still use', () => {
    const free = availableMemory();
    expect(free).toBeGreaterThan(0);
    expect(Number.isFinite(free)).toBe(true);
  });

  it('says why a database got fewer workers than the default', () => {
    const db = Database.openInMemory();
    try {
      db.executeSync("UNWIND range(1, 20000) AS i CREATE (:P {i: i, s: 'text ' + toString(i)})");
      expect(defaultWorkers(db, 2, 64_000 * MB)).toEqual({ workers: 2 });
      const tight = defaultWorkers(db, 2, 150 * MB);
      expect(tight.workers).toBe(1);
      expect(tight.note).toMatch(/^graphdb: 1 query worker thread instead of 2: each holds a replica of the graph \(about \d+ MB\) and 150 MB of memory is available; --workers N chooses the number$/);
      expect(defaultWorkers(db, 2, 10 * MB).workers).toBe(0);
    } finally {
      db.close();
    }
  });
});
