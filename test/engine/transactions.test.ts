/**
 * Explicit transactions through the library (src/engine/transaction.ts): isolation, the
 * writer slot, conflicts, timeouts, limits, durability, and property-based histories of
 * concurrent transactions checked against what a serial execution allows.
 */

import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import type { Transaction } from '../../src/engine/transaction.js';
import { isTransientError } from '../../src/errors.js';

const open: Database[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function memoryDb(options: ConstructorParameters<typeof Database>[0] = {}): Database {
  const db = Database.openInMemory(options);
  open.push(db);
  return db;
}

async function one(db: Database | Transaction, query: string, params?: Record<string, unknown>): Promise<unknown> {
  const r = db instanceof Database ? await db.execute(query, params) : await db.run(query, params);
  return r.records[0]?.[0];
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('write transactions', () => {
  test('see their own writes; nobody else does before COMMIT (no dirty read), every reader does after', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:C {v: 0})');
    const observed: number[] = [];
    db.observeCommits((c) => observed.push(c.changes.length));
    const tx = await db.beginTransaction();
    await tx.run('MATCH (c:C) SET c.v = 41');
    await tx.run('CREATE (:D {name: "new"})');
    expect(await one(tx, 'MATCH (c:C) RETURN c.v')).toBe(41);
    expect(await one(tx, 'MATCH (d:D) RETURN d.name')).toBe('new');
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(0);
    expect(await one(db, 'MATCH (d:D) RETURN count(d)')).toBe(0);
    expect(db.executeSync('MATCH (n) RETURN count(n)').records[0][0]).toBe(1);
    expect(observed).toEqual([]);
    await tx.commit();
    expect(observed).toEqual([2]);
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(41);
    expect(await one(db, 'MATCH (d:D) RETURN d.name')).toBe('new');
  });

  test('a statement result holds nodes it created, readable after the statement', async () => {
    const db = memoryDb();
    const tx = await db.beginTransaction();
    const r = await tx.run('CREATE (n:P {name: "Ann", age: 3}) RETURN n');
    const node = r.records[0][0] as { labels: string[]; propertyMap(): Map<string, unknown> };
    expect(node.labels).toEqual(['P']);
    expect(Object.fromEntries(node.propertyMap())).toEqual({ name: 'Ann', age: 3 });
    expect(r.stats.nodesCreated).toBe(1);
    await tx.commit();
  });

  test('rollback leaves no trace: same fingerprint, no commit observed', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:C {v: 0})');
    const before = db.fingerprint();
    let commits = 0;
    db.observeCommits(() => commits++);
    const tx = await db.beginTransaction();
    await tx.run('MATCH (c:C) SET c.v = 1 CREATE (:X)-[:R]->(:Y)');
    await tx.rollback();
    expect(db.fingerprint()).toBe(before);
    expect(commits).toBe(0);
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(1);
    await expect(tx.run('RETURN 1')).rejects.toMatchObject({ code: 'TX_STATE' });
  });

  test('an error inside fails the transaction: nothing applied, later statements refused, COMMIT reports it', async () => {
    const db = memoryDb();
    const tx = await db.beginTransaction();
    await tx.run('CREATE (:A)');
    await expect(tx.run('RETURN 1/0')).rejects.toMatchObject({ code: 'ARITHMETIC_ERR' });
    expect(tx.isFailed).toBe(true);
    await expect(tx.run('RETURN 1')).rejects.toMatchObject({ code: 'TX_STATE', detail: 'TransactionFailed' });
    await expect(tx.commit()).rejects.toMatchObject({ code: 'TX_STATE', detail: 'TransactionFailed' });
    await tx.rollback();
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(0);
    expect(db.writerSlot.busy).toBe(false);
  });

  test('a second writer waits for the slot and then sees the first one\'s commit', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:C {v: 0})');
    const a = await db.beginTransaction();
    await a.run('MATCH (c:C) SET c.v = c.v + 1');
    const b = await db.beginTransaction();
    let bWrote = false;
    const bDone = b.run('MATCH (c:C) SET c.v = c.v + 10 RETURN c.v').then((r) => {
      bWrote = true;
      return r;
    });
    await turns(5);
    expect(bWrote).toBe(false);
    await a.commit();
    // b read nothing before taking the slot: it starts from a's commit.
    expect((await bDone).records[0][0]).toBe(11);
    await b.commit();
    // One that read before waiting conflicts: what it read is gone.
    const c = await db.beginTransaction();
    const d = await db.beginTransaction();
    expect(await one(d, 'MATCH (c:C) RETURN c.v')).toBe(11);
    await c.run('MATCH (c:C) SET c.v = 0');
    const dWrite = d.run('MATCH (c:C) SET c.v = c.v + 1');
    await c.commit();
    await expect(dWrite).rejects.toMatchObject({ code: 'TX_CONFLICT' });
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(0);
  });

  test('a single async write waits while a transaction holds the slot; a synchronous one overtakes it and the transaction conflicts', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:C {v: 0})');
    const tx = await db.beginTransaction();
    await tx.run('MATCH (c:C) SET c.v = 5');
    let written = false;
    const single = db.execute('MATCH (c:C) SET c.v = c.v * 2').then(() => (written = true));
    await turns(5);
    expect(written).toBe(false);
    await tx.commit();
    await single;
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(10);

    const tx2 = await db.beginTransaction();
    await tx2.run('MATCH (c:C) SET c.v = 0');
    db.executeSync('CREATE (:Other)');
    await expect(tx2.commit()).rejects.toMatchObject({ code: 'TX_CONFLICT', transient: true, neo4jCode: 'Neo.TransientError.Transaction.Outdated' });
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(10);
    expect(db.writerSlot.busy).toBe(false);
  });

  test('waiting for the slot is bounded by the transaction timeout (retryable)', async () => {
    const db = memoryDb();
    const a = await db.beginTransaction({ timeoutMs: 5000 });
    await a.run('CREATE (:A)');
    const b = await db.beginTransaction({ timeoutMs: 50 });
    const err = await b.run('CREATE (:B)').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TX_LOCK_TIMEOUT' });
    expect(isTransientError(err)).toBe(true);
    await a.commit();
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(1);
  });

  test('idle past its timeout a transaction rolls back and frees the writer slot', async () => {
    const db = memoryDb();
    const tx = await db.beginTransaction({ timeoutMs: 60 });
    await tx.run('CREATE (:Gone)');
    expect(db.writerSlot.busy).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(db.writerSlot.busy).toBe(false);
    expect(db.openTransactionCount).toBe(0);
    await expect(tx.run('RETURN 1')).rejects.toMatchObject({ code: 'TX_TIMEOUT' });
    await expect(tx.commit()).rejects.toMatchObject({ code: 'TX_TIMEOUT' });
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(0);
  });

  test('limits: open transactions and changes per transaction', async () => {
    const db = memoryDb({ maxOpenTransactions: 2, maxTransactionChanges: 5 });
    const a = await db.beginTransaction();
    const b = await db.beginTransaction({ mode: 'read' });
    await expect(db.beginTransaction()).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    await b.commit();
    await expect(a.run('UNWIND range(1, 6) AS i CREATE ()')).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(db.openTransactionCount).toBe(0);
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(0);
    for (const timeoutMs of [-1, Number.NaN, 2 ** 40]) await expect(db.beginTransaction({ timeoutMs })).rejects.toMatchObject({ code: 'ARGUMENT_ERR' });
    await expect(db.beginTransaction({ mode: 'both' as 'read' })).rejects.toMatchObject({ detail: 'InvalidTransactionMode' });
  });

  test('schema changes are refused inside; a constraint broken by the whole transaction fails COMMIT', async () => {
    const db = memoryDb();
    await db.execute('CREATE CONSTRAINT u FOR (p:P) REQUIRE p.k IS UNIQUE');
    const tx = await db.beginTransaction();
    await expect(tx.run('CREATE INDEX FOR (n:Q) ON (n.x)')).rejects.toMatchObject({ detail: 'SchemaChangeInTransaction' });
    const tx2 = await db.beginTransaction();
    await tx2.run('CREATE (:P {k: 1})');
    await tx2.run('CREATE (:P {k: 1})');
    await expect(tx2.commit()).rejects.toMatchObject({ code: 'CONSTRAINT_ERR' });
    expect(await one(db, 'MATCH (p:P) RETURN count(p)')).toBe(0);
  });

  test('deleting inside a transaction: later statements no longer see it; the commit removes it', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:A {n: 1})-[:R]->(:B)');
    const tx = await db.beginTransaction();
    await tx.run('MATCH (a:A) DETACH DELETE a');
    expect(await one(tx, 'MATCH (a:A) RETURN count(a)')).toBe(0);
    expect(await one(tx, 'MATCH ()-[r:R]->() RETURN count(r)')).toBe(0);
    expect(await one(db, 'MATCH (a:A) RETURN count(a)')).toBe(1);
    await tx.commit();
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(1);
  });

  test('single queries are still each their own transaction', async () => {
    const db = memoryDb();
    db.executeSync('CREATE (:A)');
    await db.mutate('CREATE (:A)');
    await expect(db.query('CREATE (:A)')).rejects.toMatchObject({ detail: 'WriteInReadOnlyCall' });
    await expect(db.execute('CREATE (:A) WITH 1 AS x RETURN 1/0')).rejects.toMatchObject({ code: 'ARITHMETIC_ERR' });
    expect(await one(db, 'MATCH (n:A) RETURN count(n)')).toBe(2);
  });
});

describe('read transactions', () => {
  test('read one snapshot for their whole life while writes commit', async () => {
    const db = memoryDb();
    await db.execute('UNWIND range(1, 5) AS i CREATE (:N {i: i})-[:NEXT]->(:M {i: i})');
    const r = await db.beginTransaction({ mode: 'read' });
    const q = 'MATCH (n:N)-[:NEXT]->(m) RETURN count(*) AS c, sum(n.i) AS s';
    const first = (await r.run(q)).records;
    await db.execute('MATCH (n:N {i: 1}) DETACH DELETE n');
    await db.execute('MATCH (n:N) SET n.i = n.i * 100');
    await db.execute('CREATE (:N {i: 7})-[:NEXT]->(:M)');
    expect((await r.run(q)).records).toEqual(first);
    expect((await db.execute(q)).records).not.toEqual(first);
    // Two read transactions begun at different states each keep their own.
    const r2 = await db.beginTransaction({ mode: 'read' });
    const second = (await r2.run(q)).records;
    await db.execute('MATCH (n) DETACH DELETE n');
    expect((await r.run(q)).records).toEqual(first);
    expect((await r2.run(q)).records).toEqual(second);
    await r.commit();
    await r2.commit();
  });

  test('refuse writes', async () => {
    const db = memoryDb();
    const r = await db.beginTransaction({ mode: 'read' });
    await expect(r.run('CREATE ()')).rejects.toMatchObject({ detail: 'WriteInReadOnlyCall' });
    expect(await one(db, 'MATCH (n) RETURN count(n)')).toBe(0);
  });

  test('a write transaction reads its pinned snapshot before its first write, and conflicts if it moved', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:C {v: 1})');
    const tx = await db.beginTransaction();
    expect(await one(tx, 'MATCH (c:C) RETURN c.v')).toBe(1);
    await db.execute('MATCH (c:C) SET c.v = 2');
    expect(await one(tx, 'MATCH (c:C) RETURN c.v')).toBe(1);
    await expect(tx.run('MATCH (c:C) SET c.v = 100')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
    expect(await one(db, 'MATCH (c:C) RETURN c.v')).toBe(2);
    expect(db.writerSlot.busy).toBe(false);
  });
});

describe('db.transaction()', () => {
  test('commits on return, rolls back on throw', async () => {
    const db = memoryDb();
    expect(await db.transaction(async (tx) => one(tx, 'CREATE (n:A) RETURN 7'))).toBe(7);
    await expect(
      db.transaction(async (tx) => {
        await tx.run('CREATE (:B)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await one(db, 'MATCH (n:A) RETURN count(n)')).toBe(1);
    expect(await one(db, 'MATCH (n:B) RETURN count(n)')).toBe(0);
    expect(db.openTransactionCount).toBe(0);
  });

  test('no lost update: N clients each increment a counter K times, reading then writing in separate statements', async () => {
    const db = memoryDb();
    await db.execute('CREATE (:Counter {v: 0})');
    const N = 8;
    const K = 10;
    let attempts = 0;
    const client = async (): Promise<void> => {
      for (let k = 0; k < K; k++) {
        await db.transaction(async (tx) => {
          attempts++;
          const v = (await tx.run('MATCH (c:Counter) RETURN c.v')).records[0][0] as number;
          await turns(1);
          await tx.run('MATCH (c:Counter) SET c.v = $v', { v: v + 1 });
        });
      }
    };
    await Promise.all(Array.from({ length: N }, client));
    expect(await one(db, 'MATCH (c:Counter) RETURN c.v')).toBe(N * K);
    expect(attempts).toBeGreaterThanOrEqual(N * K);
  });
});

describe('property-based histories', () => {
  /**
   * Each client runs a list of steps concurrently with the others, yielding a random number of
   * turns between statements:
   * - `inc`: a write transaction reads counter `k`, writes a marker -1 to it, then value+1
   *   (retried on conflict): the final counters must equal the increments made, and nobody
   *   outside may ever read -1 (a dirty read);
   * - `read`: a read transaction reads all counters twice with turns between: both reads equal
   *   (no non-repeatable read) and no -1;
   * - `skew`: doctors on call: reads how many are on call and, when two or more, takes its own
   *   doctor off call: at least one stays on call (no write skew).
   */
  const step = fc.oneof(
    fc.record({ t: fc.constant('inc' as const), k: fc.integer({ min: 0, max: 2 }), pause: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ t: fc.constant('read' as const), pause: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ t: fc.constant('skew' as const), doctor: fc.integer({ min: 0, max: 2 }), pause: fc.integer({ min: 0, max: 3 }) }),
  );

  test('no dirty read, no non-repeatable read, no lost update, no write skew', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 5 }), async (clients) => {
        const db = Database.openInMemory();
        try {
          await db.execute('UNWIND range(0, 2) AS k CREATE (:Counter {k: k, v: 0}) CREATE (:Doctor {d: k, onCall: true})');
          const expected = [0, 0, 0];
          const problems: string[] = [];
          const run = async (steps: typeof clients[number]): Promise<void> => {
            for (const s of steps) {
              if (s.t === 'inc') {
                await db.transaction(async (tx) => {
                  const v = (await tx.run('MATCH (c:Counter {k: $k}) RETURN c.v', { k: s.k })).records[0][0] as number;
                  await turns(s.pause);
                  await tx.run('MATCH (c:Counter {k: $k}) SET c.v = -1', { k: s.k });
                  await turns(s.pause);
                  await tx.run('MATCH (c:Counter {k: $k}) SET c.v = $v', { k: s.k, v: v + 1 });
                });
                expected[s.k]++;
              } else if (s.t === 'read') {
                const tx = await db.beginTransaction({ mode: 'read' });
                const q = 'MATCH (c:Counter) RETURN c.k, c.v ORDER BY c.k';
                const a = (await tx.run(q)).records;
                await turns(s.pause);
                const b = (await tx.run(q)).records;
                await tx.commit();
                if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`non-repeatable read ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
                if (a.some((row) => row[1] === -1)) problems.push('dirty read');
                const outside = (await db.query('MATCH (c:Counter) WHERE c.v = -1 RETURN count(c)')).records[0][0];
                if (outside !== 0) problems.push('dirty read outside a transaction');
              } else {
                await db.transaction(async (tx) => {
                  const onCall = (await tx.run('MATCH (d:Doctor {onCall: true}) RETURN count(d)')).records[0][0] as number;
                  await turns(s.pause);
                  if (onCall >= 2) await tx.run('MATCH (d:Doctor {d: $d}) SET d.onCall = false', { d: s.doctor });
                });
              }
            }
          };
          await Promise.all(clients.map(run));
          expect(problems).toEqual([]);
          const counters = (await db.query('MATCH (c:Counter) RETURN c.v ORDER BY c.k')).records.map((r) => r[0]);
          expect(counters).toEqual(expected);
          expect((await db.query('MATCH (d:Doctor {onCall: true}) RETURN count(d)')).records[0][0]).toBeGreaterThanOrEqual(1);
          expect(db.openTransactionCount).toBe(0);
          expect(db.writerSlot.busy).toBe(false);
        } finally {
          db.close();
        }
      }),
      { numRuns: Number(process.env.GRAPHDB_TX_RUNS ?? 40) },
    );
  }, 120_000);
});

describe('durability', () => {
  test('a committed transaction is one WAL record, there after reopening; a rolled-back one is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-tx-'));
    dirs.push(dir);
    const db = await Database.open({ dataDir: dir, storage: { log: null } });
    const before = db.storage!.seq;
    const tx = await db.beginTransaction();
    await tx.run('CREATE (:A {i: 1})');
    await tx.run('CREATE (:A {i: 2})');
    await tx.run('MATCH (a:A {i: 1}) SET a.x = true');
    await tx.commit();
    expect(db.storage!.seq).toBe(before + 1);
    const gone = await db.beginTransaction();
    await gone.run('CREATE (:B)');
    await gone.rollback();
    db.close();
    const again = await Database.open({ dataDir: dir, storage: { log: null } });
    try {
      expect((await again.query('MATCH (a:A) RETURN a.i, a.x ORDER BY a.i')).records).toEqual([
        [1, true],
        [2, null],
      ]);
      expect((await again.query('MATCH (b:B) RETURN count(b)')).records[0][0]).toBe(0);
    } finally {
      again.close();
    }
  });
});

describe('db.transaction() and work that ends the transaction itself', () => {
  test('a failed statement caught inside is still reported; an explicit rollback is respected', async () => {
    const db = memoryDb();
    await expect(
      db.transaction(async (tx) => {
        await tx.run('CREATE (:A)');
        await tx.run('RETURN 1/0').catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: 'TX_STATE', detail: 'TransactionFailed' });
    await db.transaction(async (tx) => {
      await tx.run('CREATE (:B)');
      await tx.rollback();
    });
    await db.transaction(async (tx) => {
      await tx.run('CREATE (:C)');
      await tx.commit();
    });
    expect(await one(db, 'MATCH (n) RETURN collect(labels(n)[0])')).toEqual(['C']);
  });
});

describe('the conflict check runs the reads again (read-validation.ts)', () => {
  test('a commit to other data since the snapshot is no conflict; one to what was read is', async () => {
    const db = memoryDb();
    await db.execute('UNWIND range(0, 1) AS k CREATE (:K {k: k, v: 0})');
    const a = await db.beginTransaction();
    expect(await one(a, 'MATCH (c:K {k: 0}) RETURN c.v')).toBe(0);
    await db.execute('MATCH (c:K {k: 1}) SET c.v = 5');
    // What `a` read still holds: it goes on from the graph as it is now.
    await a.run('MATCH (c:K {k: 0}) SET c.v = 1');
    await a.commit();
    expect((await db.execute('MATCH (c:K) RETURN c.v ORDER BY c.k')).records).toEqual([[1], [5]]);

    const b = await db.beginTransaction();
    expect(await one(b, 'MATCH (c:K {k: 0}) RETURN c.v')).toBe(1);
    await db.execute('MATCH (c:K {k: 0}) SET c.v = 7');
    await expect(b.run('MATCH (c:K {k: 0}) SET c.v = 2')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
    expect(await one(db, 'MATCH (c:K {k: 0}) RETURN c.v')).toBe(7);
  });

  test('write skew, a phantom, a changed property of a returned node and a random read all conflict', async () => {
    const db = memoryDb();
    await db.execute('UNWIND range(0, 1) AS d CREATE (:Doc {d: d, onCall: true})');
    const t1 = await db.beginTransaction();
    const t2 = await db.beginTransaction();
    expect(await one(t1, 'MATCH (d:Doc {onCall: true}) RETURN count(d)')).toBe(2);
    expect(await one(t2, 'MATCH (d:Doc {onCall: true}) RETURN count(d)')).toBe(2);
    await t1.run('MATCH (d:Doc {d: 0}) SET d.onCall = false');
    await t1.commit();
    await expect(t2.run('MATCH (d:Doc {d: 1}) SET d.onCall = false')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
    expect(await one(db, 'MATCH (d:Doc {onCall: true}) RETURN count(d)')).toBe(1);

    const phantom = await db.beginTransaction();
    expect(await one(phantom, 'MATCH (p:P) WHERE p.v > 5 RETURN count(p)')).toBe(0);
    await db.execute('CREATE (:P {v: 10})');
    await expect(phantom.run('CREATE (:P {v: 1})')).rejects.toMatchObject({ code: 'TX_CONFLICT' });

    const node = await db.beginTransaction();
    await node.run('MATCH (d:Doc {d: 0}) RETURN d');
    await db.execute('MATCH (d:Doc {d: 0}) SET d.note = "changed"');
    await expect(node.run('CREATE (:Other)')).rejects.toMatchObject({ code: 'TX_CONFLICT' });

    const random = await db.beginTransaction();
    await random.run('RETURN rand() AS r');
    await db.execute('CREATE (:Elsewhere)');
    await expect(random.run('CREATE (:Other)')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
  });

  test('reads too large to keep fall back to "any commit since the snapshot conflicts"', async () => {
    const db = memoryDb();
    await db.execute('UNWIND range(1, 10001) AS i CREATE (:Big {i: i})');
    const tx = await db.beginTransaction();
    await tx.run('MATCH (b:Big) RETURN b.i');
    await db.execute('CREATE (:Unrelated)');
    await expect(tx.run('CREATE (:Other)')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
  });

  test('property: transfers between accounts, read then written in separate statements, keep the total and never overdraw', async () => {
    const transfer = fc.record({ from: fc.integer({ min: 0, max: 3 }), to: fc.integer({ min: 0, max: 3 }), amount: fc.integer({ min: 1, max: 80 }), pause: fc.integer({ min: 0, max: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(transfer, { minLength: 1, maxLength: 5 }), { minLength: 2, maxLength: 6 }), async (clients) => {
        const db = Database.openInMemory();
        try {
          await db.execute('UNWIND range(0, 3) AS a CREATE (:Account {a: a, balance: 100})');
          let committed = 0;
          await Promise.all(
            clients.map(async (steps) => {
              for (const s of steps) {
                if (s.from === s.to) continue;
                const moved = await db.transaction(async (tx) => {
                  const from = (await tx.run('MATCH (x:Account {a: $a}) RETURN x.balance', { a: s.from })).records[0][0] as number;
                  await turns(s.pause);
                  const to = (await tx.run('MATCH (x:Account {a: $a}) RETURN x.balance', { a: s.to })).records[0][0] as number;
                  await turns(s.pause);
                  if (from < s.amount) return false;
                  await tx.run('MATCH (x:Account {a: $a}) SET x.balance = $b', { a: s.from, b: from - s.amount });
                  await turns(s.pause);
                  await tx.run('MATCH (x:Account {a: $a}) SET x.balance = $b', { a: s.to, b: to + s.amount });
                  return true;
                });
                if (moved) committed++;
              }
            }),
          );
          const balances = (await db.query('MATCH (x:Account) RETURN x.balance ORDER BY x.a')).records.map((r) => r[0] as number);
          expect(balances.reduce((a, b) => a + b, 0)).toBe(400);
          expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
          expect(committed).toBeGreaterThanOrEqual(0);
          expect(db.writerSlot.busy).toBe(false);
        } finally {
          db.close();
        }
      }),
      { numRuns: Number(process.env.GRAPHDB_TX_RUNS ?? 40) },
    );
  }, 120_000);
});

test('the rerun asks what was asked, even when the caller changed its parameter object since', async () => {
  const db = memoryDb();
  await db.execute('UNWIND range(0, 1) AS k CREATE (:M {k: k, v: 5})');
  const tx = await db.beginTransaction();
  const params = { k: 0 };
  expect(await one(tx, 'MATCH (m:M {k: $k}) RETURN m.v', params)).toBe(5);
  params.k = 1;
  await db.execute('MATCH (m:M {k: 0}) SET m.v = 6');
  await expect(tx.run('MATCH (m:M {k: 0}) SET m.v = 6')).rejects.toMatchObject({ code: 'TX_CONFLICT' });
});
