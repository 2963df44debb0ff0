/**
 * Query workers measured in one process, with no network in the way: what going through a
 * worker thread adds to a point lookup (beside the machine's floor: a bare round trip to a
 * thread that only answers), and the throughput of reads with `inflight` requests
 * outstanding — on the main thread, on one worker and on N — printed as ratios. Measured two
 * ways: forced onto the workers (`QueryWorkerPool.run`), and through the router as the doors
 * use it (reads proved short run on the main thread there). The 2-hop read is short; the scan
 * (a filter over every :Person) takes milliseconds, so the router always sends it to a worker.
 * The graph is the one bench/http-load.sh builds (NODES :Person, DEGREE :KNOWS each, id
 * indexed).
 *
 * Writes: how long the main thread is held (the longest gap between 1 ms timer ticks) by a
 * write that computes much and changes little, and by a bulk write (NODES nodes), on the main
 * thread alone and through the router with one worker — the worker's commit applied by the
 * primary a slice per turn (as the router does), and, as the peer, all at once (as before the
 * sliced apply) — in memory and with a data directory; and small writes per second with
 * `inflight` outstanding.
 *
 *   npx tsx bench/workers.ts
 *   npx tsx bench/workers.ts --nodes 100000 --secs 5 --inflight 8 --workers 2
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Database } from '../src/engine/database.js';
import type { QueryExecutor } from '../src/engine/types.js';
import { QueryRouter } from '../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../src/engine/workers/worker-pool.js';
import { stall } from './vector/common.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const NODES = arg('nodes', 100_000);
const DEGREE = arg('degree', 5);
const SECS = arg('secs', 5);
const INFLIGHT = arg('inflight', 8);
const WORKERS = arg('workers', availableParallelism());
const LOOKUPS = arg('lookups', 20_000);

const POINT = 'MATCH (p:Person {id: $id}) RETURN p.name AS name';
const TWO_HOP = 'MATCH (p:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f) AS c';
const SCAN = 'MATCH (p:Person) WHERE p.id % 97 = $id % 97 AND p.name ENDS WITH $end RETURN count(*) AS c';

/** Runs one query with its parameters: through the router, or forced onto a pool's workers. */
type Run = (query: string, params: Record<string, unknown>) => Promise<unknown>;

const viaRouter = (r: QueryExecutor): Run => (q, p) => r.execute(q, p);
const forced = (pool: QueryWorkerPool): Run => (q, p) => pool.run(q, p);

function seed(db: Database): void {
  db.executeSync('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  db.executeSync(`UNWIND range(0, ${NODES} - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})`);
  for (let k = 1; k <= DEGREE; k++) {
    db.executeSync(`MATCH (a:Person) WITH a, (a.id * 7919 + ${k} * 104729) % ${NODES} AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)`);
  }
}

/**
 * The machine's floor for a hand-off: mean microseconds of a bare round trip to a thread that
 * only answers — by `postMessage` (what the pool uses), and by `Atomics.wait`/`notify` on
 * shared memory with both threads blocking (the cheapest wake-up there is short of spinning).
 */
async function bareRoundTrips(n = 20_000): Promise<{ message: number; atomics: number }> {
  const echo = new Worker("require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m));", { eval: true });
  let answered = 0;
  let t = 0;
  await new Promise<void>((resolve) => {
    echo.on('message', () => {
      if (++answered === 1000) t = performance.now();
      if (answered === n + 1000) resolve();
      else echo.postMessage({ text: POINT, params: { id: answered } });
    });
    echo.postMessage({ text: POINT, params: { id: 0 } });
  });
  const message = ((performance.now() - t) * 1000) / n;
  await echo.terminate();
  // Word 0: a request is waiting; word 1: answers so far (-1 stops the thread).
  const words = new Int32Array(new SharedArrayBuffer(8));
  const waiter = new Worker(
    "const w = require('node:worker_threads').workerData; for (;;) { Atomics.wait(w, 0, 0); if (w[1] < 0) break; Atomics.store(w, 0, 0); Atomics.add(w, 1, 1); Atomics.notify(w, 1); }",
    { eval: true, workerData: words },
  );
  t = performance.now();
  for (let i = 0; i < n; i++) {
    const before = Atomics.load(words, 1);
    Atomics.store(words, 0, 1);
    Atomics.notify(words, 0);
    Atomics.wait(words, 1, before);
  }
  const atomics = ((performance.now() - t) * 1000) / n;
  Atomics.store(words, 1, -1);
  Atomics.store(words, 0, 1);
  Atomics.notify(words, 0);
  await waiter.terminate();
  return { message, atomics };
}

/** Mean microseconds per sequential point lookup. */
async function lookupMicros(run: Run): Promise<number> {
  for (let i = 0; i < 2000; i++) await run(POINT, { id: i % NODES });
  const t = performance.now();
  for (let i = 0; i < LOOKUPS; i++) await run(POINT, { id: (i * 7) % NODES });
  return ((performance.now() - t) * 1000) / LOOKUPS;
}

/** A run's wall time and how long the main thread was held at a stretch meanwhile (`stall`'s longest gap between 1 ms ticks). */
const shown = (r: { ms: number; maxGap: number }): string => `${r.ms.toFixed(0)} ms, main thread held ${r.maxGap.toFixed(0)} ms`;

/**
 * `db`'s worker commits applied all at once, as before the sliced apply (the peer of the
 * sliced apply): the same decoding and applying in one slice.
 */
function applyAtOnce(db: Database): () => void {
  const sliced = db.applyWorkerWrite.bind(db);
  db.applyWorkerWrite = (before, packed) => sliced(before, packed, Infinity);
  return () => (db.applyWorkerWrite = sliced);
}

/** The longest the main thread is held by a bulk write run three ways: on the main thread, and through the router with its commit applied at once and in slices. */
async function bulkStalls(db: Database, router: QueryRouter, label: string): Promise<void> {
  const bulk = (n: number): string => `UNWIND range(1, ${Math.max(1, NODES)}) AS i CREATE (:Bulk${n} {i: i, name: 'bulk ' + toString(i)})`;
  let n = 0;
  // Alternated, twice: the graph grows with every run.
  for (let round = 0; round < 2; round++) {
    const here = await stall(() => db.execute(bulk(n++)));
    const restore = applyAtOnce(db);
    const atOnce = await stall(() => router.execute(bulk(n++))).finally(restore);
    const sliced = await stall(() => router.execute(bulk(n++)));
    console.log(`bulk write, ${NODES} nodes, ${label}: main thread ${shown(here)}; router + 1 worker, commit applied at once ${shown(atOnce)}; in slices ${shown(sliced)} (longest stall ${(sliced.maxGap / atOnce.maxGap).toFixed(2)}× at once)`);
  }
}

/** Reads of `query` per second with INFLIGHT requests outstanding for SECS seconds. */
async function throughput(run: Run, query: string, inflight = INFLIGHT): Promise<number> {
  let done = 0;
  let seed = 1;
  const until = performance.now() + SECS * 1000;
  const params = (): Record<string, unknown> => {
    seed = (seed * 48271) % 2147483647;
    return { id: seed % NODES, end: String(seed % 10) };
  };
  const client = async (): Promise<void> => {
    while (performance.now() < until) {
      await run(query, params());
      done++;
    }
  };
  // Warm-up: every worker compiles the query, and the router learns how long it takes.
  for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: inflight }, () => run(query, params())));
  const t = performance.now();
  await Promise.all(Array.from({ length: inflight }, client));
  return done / ((performance.now() - t) / 1000);
}

async function main(): Promise<void> {
  const db = Database.openInMemory();
  let t = performance.now();
  seed(db);
  console.log(`graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  const mainOnly = viaRouter(new QueryRouter(db, undefined));

  t = performance.now();
  const one = await QueryWorkerPool.start(db, 1);
  console.log(`1 worker ready in ${(performance.now() - t).toFixed(0)} ms (graph image + load)`);
  const many = await QueryWorkerPool.start(db, WORKERS);
  const routedOne = viaRouter(new QueryRouter(db, one));
  const routedMany = viaRouter(new QueryRouter(db, many));

  const lookupMain = await lookupMicros(mainOnly);
  const lookupWorker = await lookupMicros(forced(one));
  const lookupRouted = await lookupMicros(routedOne);
  console.log(`\npoint lookup, sequential (${LOOKUPS}): main thread ${lookupMain.toFixed(1)} µs; forced onto a worker ${lookupWorker.toFixed(1)} µs (+${(lookupWorker - lookupMain).toFixed(1)}); through the router ${lookupRouted.toFixed(1)} µs (+${(lookupRouted - lookupMain).toFixed(1)})`);
  const floor = await bareRoundTrips();
  console.log(`bare round trip to a thread (the floor of a hand-off here): postMessage ${floor.message.toFixed(1)} µs; Atomics.wait/notify ${floor.atomics.toFixed(1)} µs`);
  for (const [name, query] of [['2-hop', TWO_HOP], ['scan', SCAN]] as const) {
    const main = await throughput(mainOnly, query);
    const f1 = await throughput(forced(one), query);
    const fN = await throughput(forced(many), query);
    const r1 = await throughput(routedOne, query);
    const rN = await throughput(routedMany, query);
    console.log(`${name} reads/s, ${INFLIGHT} in flight, ${SECS} s: main thread ${main.toFixed(0)}; forced: 1 worker ${f1.toFixed(0)}, ${WORKERS} workers ${fN.toFixed(0)} (${(fN / f1).toFixed(2)}×); routed: 1 worker ${r1.toFixed(0)}, ${WORKERS} workers ${rN.toFixed(0)} (${(rN / r1).toFixed(2)}×; ${(rN / main).toFixed(2)}× the main thread alone)`);
  }

  const compute = 'MATCH (p:Person)-[:KNOWS]->()-[:KNOWS]->(f) WITH count(*) AS c CREATE (:Tally {c: c})';
  const here = await stall(() => mainOnly(compute, {}));
  const routed = await stall(() => routedOne(compute, {}));
  console.log(`compute-heavy write: main thread ${shown(here)}; router + 1 worker ${shown(routed)}`);
  await bulkStalls(db, new QueryRouter(db, one), 'in memory');
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-bench-workers-'));
  try {
    const durable = await Database.open({ dataDir: dir, storage: { log: null } });
    const durablePool = await QueryWorkerPool.start(durable, 1);
    await bulkStalls(durable, new QueryRouter(durable, durablePool), 'with a data directory');
    await durablePool.close();
    durable.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const small = 'CREATE (:Event {at: timestamp(), n: $id})';
  // Alternated, best of three each: the graph grows with every run, and so does the cost of a write.
  let smallMain = 0;
  let smallRouted = 0;
  for (let round = 0; round < 3; round++) {
    smallMain = Math.max(smallMain, await throughput(mainOnly, small, INFLIGHT));
    smallRouted = Math.max(smallRouted, await throughput(routedMany, small, INFLIGHT));
  }
  console.log(`small writes/s, ${INFLIGHT} in flight (best of 3, alternated): main thread ${smallMain.toFixed(0)}; router + ${WORKERS} workers ${smallRouted.toFixed(0)} (${(smallRouted / smallMain).toFixed(2)}×)`);
  await one.close();
  await many.close();
  db.close();
}

await main();
