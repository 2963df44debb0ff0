/**
 * Explicit transaction benchmarks (issue 27; report, do not gate): durable (--data-dir)
 * commits per second of small write transactions of 1, 3 and 10 statements with 1 and 64
 * concurrent clients, against the same statements as single writes; and the cost of a read
 * transaction's snapshot (the frozen copy made when a write begins while it is open) for
 * graphs of a few sizes.
 *
 * And the cost of the graph-wide conflict check: clients that each increment a counter of their
 * own (disjoint keys) in read-then-write transactions, retried on conflict — every conflict
 * there is spurious, since no two transactions touch the same data.
 *
 *   npx tsx bench/transactions.ts [--txs 300] [--sizes 10000,100000] [--only writes|snapshots|conflicts]
 *
 * Data goes to a temporary directory, removed afterwards.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from '../src/engine/database.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const TXS = Number(arg('txs', '300'));
const SIZES = arg('sizes', '10000,100000').split(',').map(Number);

async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-bench-tx-'));
  const db = await Database.open({ dataDir: dir, storage: { log: null } });
  try {
    return await fn(db);
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `total` units of `unit` spread over `clients` concurrent loops; units per second. */
async function rate(clients: number, total: number, unit: (client: number, i: number) => Promise<void>): Promise<number> {
  const per = Math.ceil(total / clients);
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; i < per; i++) await unit(c, i);
  }));
  return (per * clients) / ((performance.now() - start) / 1000);
}

async function writes(): Promise<void> {
  console.log('durable write throughput (commits per second)');
  for (const statements of [1, 3, 10]) {
    for (const clients of [1, 64]) {
      const single = await withDb((db) =>
        rate(clients, TXS, async (c, i) => {
          for (let s = 0; s < statements; s++) await db.execute('CREATE (:B {c: $c, i: $i, s: $s})', { c, i, s });
        }),
      );
      const tx = await withDb((db) =>
        rate(clients, TXS, async (c, i) => {
          await db.transaction(async (t) => {
            for (let s = 0; s < statements; s++) await t.run('CREATE (:B {c: $c, i: $i, s: $s})', { c, i, s });
          });
        }),
      );
      console.log(`  ${statements} statement(s), ${String(clients).padStart(2)} client(s): single writes ${(single).toFixed(0).padStart(6)} groups/s   one transaction ${tx.toFixed(0).padStart(6)} tx/s`);
    }
  }
}

async function snapshots(): Promise<void> {
  console.log('read transaction snapshot: a write beginning while one is open makes the frozen copy');
  for (const size of SIZES) {
    const db = Database.openInMemory();
    try {
      db.executeSync(`UNWIND range(1, ${size / 2}) AS i CREATE (:N {i: 2 * i, name: 'n' + toString(i)})-[:R]->(:N {i: 2 * i - 1, name: 'm' + toString(i)})`);
      const plain = performance.now();
      db.executeSync('CREATE (:W)');
      const plainMs = performance.now() - plain;
      const r = await db.beginTransaction({ mode: 'read' });
      await r.run('MATCH (n:N) RETURN count(n)');
      const t0 = performance.now();
      db.executeSync('CREATE (:W)');
      const withCopy = performance.now() - t0;
      const q0 = performance.now();
      await r.run('MATCH (n:N) WHERE n.i > 10 RETURN count(n)');
      const readOnCopy = performance.now() - q0;
      const q1 = performance.now();
      await db.execute('MATCH (n:N) WHERE n.i > 10 RETURN count(n)');
      const readLive = performance.now() - q1;
      await r.commit();
      console.log(`  ${size} nodes: a write ${plainMs.toFixed(2)} ms alone, ${withCopy.toFixed(1)} ms with the copy; a scan ${readLive.toFixed(1)} ms live, ${readOnCopy.toFixed(1)} ms on the copy`);
    } finally {
      db.close();
    }
  }
}

async function conflicts(): Promise<void> {
  console.log('spurious conflicts: read-then-write increments of disjoint counters, durable, retried on conflict');
  for (const clients of [1, 8, 64]) {
    await withDb(async (db) => {
      await db.execute('CREATE INDEX k_index FOR (k:K) ON (k.k)');
      await db.execute('UNWIND range(0, $n - 1) AS k CREATE (:K {k: k, v: 0})', { n: clients });
      let attempts = 0;
      let failed = 0;
      const perSecond = await rate(clients, Math.max(TXS, clients * 5), async (c) => {
        await db.transaction(async (t) => {
          attempts++;
          try {
            const v = (await t.run('MATCH (k:K {k: $c}) RETURN k.v', { c })).records[0][0] as number;
            await t.run('MATCH (k:K {k: $c}) SET k.v = $v', { c, v: v + 1 });
          } catch (err) {
            failed++;
            throw err;
          }
        });
      });
      const committed = attempts - failed;
      console.log(`  ${String(clients).padStart(2)} client(s): ${committed} committed, ${failed} conflicts (${((100 * failed) / attempts).toFixed(1)}% of ${attempts} attempts), ${perSecond.toFixed(0)} committed tx/s`);
    });
  }
}

const only = arg('only', '');
if (only === '' || only === 'writes') await writes();
if (only === '' || only === 'snapshots') await snapshots();
if (only === '' || only === 'conflicts') await conflicts();
