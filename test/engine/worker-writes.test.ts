/**
 * Writes on query workers: a write runs on a worker's replica, off the main thread, and the
 * primary applies its commit as its own — same ids, same counters, durable before the answer.
 * Writes take turns; a change made around the router makes the primary refuse a worker's
 * commit and run the query itself; a write stopped by its signal, its deadline or by
 * replacing its thread leaves nothing behind, on the primary or on any replica.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { routedDatabase } from './routed-database.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Counts for minutes, checking its deadline all the while, then writes one node. */
const LONG_WRITE = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y WITH count(*) AS c CREATE (:Long {c: c})';
/** Creates nodes for a long time: stopped part-way, its replica holds many uncommitted nodes. */
const PARTIAL_WRITE = 'UNWIND range(1, 10000000) AS x CREATE (:Partial {x: x})';
/** A backtracking regular expression no deadline check interrupts, in a write. */
const STUCK_WRITE = `CREATE (:Stuck {m: '${'a'.repeat(300)}' =~ '(.*)(.*)(.*)(.*)(.*)\\\\1y'})`;

describe('writes on query workers', () => {
  const { db, pool, router, everywhere } = routedDatabase((seeded) => {
    seeded.executeSync('UNWIND range(1, 100) AS i CREATE (:P {id: i})');
    seeded.executeSync('CREATE CONSTRAINT FOR (u:U) REQUIRE u.k IS UNIQUE');
  });

  it('applies a worker\'s write on the primary with the same ids and counters, and every replica follows', async () => {
    const r = await router().execute("CREATE (a:W {k: 1})-[r:R {w: 0.5}]->(b:W {k: 2}) RETURN id(a) AS a, id(b) AS b, id(r) AS r, a AS node");
    expect(r.stats).toMatchObject({ nodesCreated: 2, relationshipsCreated: 1, propertiesSet: 3, labelsAdded: 2 });
    expect(r.mutated).toBe(true);
    const [a, b, rel, node] = r.records[0];
    expect(node).toMatchObject({ labels: ['W'] });
    expect(await everywhere('MATCH (a:W)-[r:R]->(b:W) RETURN id(a) AS a, id(b) AS b, id(r) AS r, r.w AS w')).toEqual([[a, b, rel, 0.5]]);
    // Ids go on from there on the primary too.
    const next = db.executeSync('CREATE (n:W {k: 3}) RETURN id(n) AS id').records[0][0] as number;
    expect(next).toBeGreaterThan(b as number);
  });

  it('reports a write refused on the worker exactly as the primary would, and keeps nothing of it', async () => {
    await router().execute("CREATE (:U {k: 'x'})");
    await expect(router().execute("CREATE (:U {k: 'y'}) CREATE (:U {k: 'x'})")).rejects.toMatchObject({ code: 'CONSTRAINT_ERR' });
    expect(await everywhere('MATCH (u:U) RETURN u.k AS k ORDER BY k')).toEqual([['x']]);
  });

  it('runs a long write off the main thread: the primary answers meanwhile, sees none of it, and a signal stops it', async () => {
    const stop = new AbortController();
    let done = false;
    const write = router().execute(LONG_WRITE, undefined, { signal: stop.signal }).finally(() => {
      done = true;
    });
    await sleep(300);
    expect(done).toBe(false);
    // The main thread is free: the primary answers, and a read on the other worker too.
    expect(db.executeSync('MATCH (p:P) RETURN count(p) AS c').records).toEqual([[100]]);
    expect((await pool().run('MATCH (p:P) RETURN count(p) AS c', undefined)).records).toEqual([[100]]);
    stop.abort();
    await expect(write).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await everywhere('MATCH (l:Long) RETURN count(l) AS c')).toEqual([[0]]);
  }, 30_000);

  it('while every worker is busy, runs a few CREATEs on the primary and makes any other write wait for a worker, not hold the main thread', async () => {
    const LONG_READ = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';
    const stopReads = [new AbortController(), new AbortController()];
    const reads = stopReads.map((stop) => pool().run(LONG_READ, undefined, { signal: stop.signal }).catch((err: unknown) => err));
    await sleep(100);
    expect(pool().idleWorkers).toBe(0);
    // A point write does not wait for the readers.
    expect((await router().execute("CREATE (:BusyPoint {k: 'now'})")).stats.nodesCreated).toBe(1);
    // A write of unknown length waits for a worker; the main thread stays free meanwhile.
    const stopWrite = new AbortController();
    let writeDone = false;
    // The time limit only ends the test when the write wrongly holds the main thread (it is stopped long before).
    const write = router().execute(LONG_WRITE.replace(':Long', ':LongBusy'), undefined, { signal: stopWrite.signal, timeoutMs: 15_000 }).finally(() => {
      writeDone = true;
    });
    await sleep(300);
    expect(writeDone).toBe(false);
    expect(db.executeSync('MATCH (n:BusyPoint) RETURN n.k AS k').records).toEqual([['now']]);
    // One reader stops: the write gets that worker, ahead of reads sent after it.
    stopReads[0].abort();
    await sleep(300);
    expect(pool().idleWorkers).toBe(0);
    expect(writeDone).toBe(false);
    stopWrite.abort();
    await expect(write).rejects.toMatchObject({ code: 'CANCELLED' });
    stopReads[1].abort();
    for (const r of await Promise.all(reads)) expect(r).toMatchObject({ code: 'CANCELLED' });
    expect(await everywhere('MATCH (n) WHERE n:LongBusy OR n:BusyPoint RETURN labels(n) AS l')).toEqual([[['BusyPoint']]]);
  }, 30_000);

  it('runs the write form of an algorithm and graph-only write procedures on a worker; the primary applies their commits', async () => {
    await router().execute('MATCH (a:P), (b:P) WHERE b.id = (a.id * 7) % 100 + 1 AND a <> b CREATE (a)-[:LINK]->(b)');
    const applyWorkerWrite = db.applyWorkerWrite.bind(db);
    let applied = 0;
    db.applyWorkerWrite = async (before, packed) => {
      const done = await applyWorkerWrite(before, packed);
      if (done !== undefined) applied++;
      return done;
    };
    try {
      const r = await router().execute("CALL algo.pageRank.write({nodeLabels: ['P'], relationshipTypes: ['LINK'], writeProperty: 'pr'}) YIELD nodePropertiesWritten RETURN nodePropertiesWritten AS n");
      expect(r.records).toEqual([[100]]);
      expect(r.mutated).toBe(true);
      const made = await router().execute("CALL apoc.create.node(['ViaProc'], {k: 7}) YIELD node RETURN node.k AS k");
      expect(made.records).toEqual([[7]]);
    } finally {
      db.applyWorkerWrite = applyWorkerWrite;
    }
    expect(applied).toBe(2);
    // The stored scores are the ones the algorithm streams on the primary, on the primary and on every replica.
    const streamed = db.executeSync("CALL algo.pageRank({nodeLabels: ['P'], relationshipTypes: ['LINK']}) YIELD node, score RETURN node.id AS id, score ORDER BY id").records;
    expect(await everywhere('MATCH (p:P) RETURN p.id AS id, p.pr AS score ORDER BY id')).toEqual(streamed);
    expect(await everywhere('MATCH (v:ViaProc) RETURN v.k AS k')).toEqual([[7]]);
  }, 30_000);

  it('rolls back a write stopped part-way on its replica', async () => {
    const stop = new AbortController();
    const write = router().execute(PARTIAL_WRITE, undefined, { signal: stop.signal });
    await sleep(300);
    stop.abort();
    await expect(write).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await everywhere('MATCH (p:Partial) RETURN count(p) AS c')).toEqual([[0]]);
    // The replica that ran it takes writes again.
    const again = await Promise.all([1, 2, 3].map((i) => router().execute(`CREATE (:AfterPartial {i: ${i}})`)));
    expect(again.map((r) => r.stats.nodesCreated)).toEqual([1, 1, 1]);
    expect(await everywhere('MATCH (p:AfterPartial) RETURN p.i AS i ORDER BY i')).toEqual([[1], [2], [3]]);
  }, 30_000);

  it('replaces a worker stuck in a write that never checks its deadline; nothing of the write remains', async () => {
    await expect(router().execute(STUCK_WRITE, undefined, { timeoutMs: 1500 })).rejects.toThrow(/time limit of 1500 ms.*worker thread was stopped and replaced/);
    for (let i = 0; i < 200 && pool().readyWorkers < 2; i++) await sleep(50);
    expect(pool().readyWorkers).toBe(2);
    expect(await everywhere('MATCH (s:Stuck) RETURN count(s) AS c')).toEqual([[0]]);
    expect((await router().execute('CREATE (:AfterStuck) RETURN 1 AS one')).stats.nodesCreated).toBe(1);
    expect(await everywhere('MATCH (a:AfterStuck) RETURN count(a) AS c')).toEqual([[1]]);
  }, 30_000);

  it('takes writes in turns: concurrent increments lose nothing', async () => {
    await router().execute('CREATE (:Counter {n: 0})');
    // Distinct texts, so that none has a history of short runs that would run it on the main thread.
    const increments = Array.from({ length: 24 }, (_, i) => router().execute(`MATCH (c:Counter) SET c.n = c.n + 1 RETURN c.n /* ${i} */ AS n`));
    const seen = (await Promise.all(increments)).map((r) => r.records[0][0] as number);
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(await everywhere('MATCH (c:Counter) RETURN c.n AS n')).toEqual([[24]]);
  });

  it('refuses a worker\'s commit when the graph changed around the router, and runs the write on the primary', async () => {
    const applyWorkerWrite = db.applyWorkerWrite.bind(db);
    let refused = 0;
    db.applyWorkerWrite = async (before, packed) => {
      const applied = await applyWorkerWrite(before, packed);
      if (applied === undefined) refused++;
      return applied;
    };
    try {
      const write = router().execute('UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y WITH count(*) AS c CREATE (:Slow {c: c})');
      // A direct transaction on the primary, made while the worker counts.
      await sleep(20);
      db.writeTransaction((graph) => {
        graph.createNode(['Around'], new Map([['v', 1]]));
      });
      expect((await write).stats.nodesCreated).toBe(1);
    } finally {
      db.applyWorkerWrite = applyWorkerWrite;
    }
    expect(refused).toBe(1);
    expect(await everywhere('MATCH (n) WHERE n:Slow OR n:Around RETURN labels(n) AS l, n.c AS c ORDER BY c')).toEqual([[['Slow'], 9_000_000], [['Around'], null]]);
  }, 30_000);
});

describe('writes on query workers with a data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-worker-writes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a worker\'s write durable before answering: it is there after reopening', async () => {
    const db = await Database.open({ dataDir: dir, storage: { log: null } });
    const pool = await QueryWorkerPool.start(db, 1);
    const router = new QueryRouter(db, pool);
    try {
      for (let i = 0; i < 5; i++) await router.execute(`CREATE (:Durable {i: ${i}})`);
      const r = await router.execute('MATCH (d:Durable) SET d.seen = true RETURN count(d) AS c');
      expect(r.records).toEqual([[5]]);
    } finally {
      await pool.close();
      db.close();
    }
    const reopened = await Database.open({ dataDir: dir, storage: { log: null } });
    try {
      expect(reopened.executeSync('MATCH (d:Durable) WHERE d.seen RETURN d.i AS i ORDER BY i').records).toEqual([[0], [1], [2], [3], [4]]);
    } finally {
      reopened.close();
    }
  }, 60_000);
});
