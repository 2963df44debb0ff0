/**
 * Query workers measured in one process, with no network in the way: what going through a
 * worker thread adds to a point lookup, and the throughput of 2-hop reads with `inflight`
 * requests outstanding — on the main thread, on one worker and on N — printed as ratios.
 * The graph is the one bench/http-load.sh builds (NODES :Person, DEGREE :KNOWS each, id
 * indexed).
 *
 *   npx tsx bench/workers.ts
 *   npx tsx bench/workers.ts --nodes 100000 --secs 5 --inflight 8 --workers 2
 */

import { availableParallelism } from 'node:os';
import { Database } from '../src/engine/database.js';
import type { QueryExecutor } from '../src/engine/types.js';
import { QueryRouter } from '../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../src/engine/workers/worker-pool.js';

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

function seed(db: Database): void {
  db.executeSync('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  db.executeSync(`UNWIND range(0, ${NODES} - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})`);
  for (let k = 1; k <= DEGREE; k++) {
    db.executeSync(`MATCH (a:Person) WITH a, (a.id * 7919 + ${k} * 104729) % ${NODES} AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)`);
  }
}

/** Mean microseconds per sequential point lookup. */
async function lookupMicros(queries: QueryExecutor): Promise<number> {
  for (let i = 0; i < 2000; i++) await queries.execute(POINT, { id: i % NODES });
  const t = performance.now();
  for (let i = 0; i < LOOKUPS; i++) await queries.execute(POINT, { id: (i * 7) % NODES });
  return ((performance.now() - t) * 1000) / LOOKUPS;
}

/** 2-hop reads per second with INFLIGHT requests outstanding for SECS seconds. */
async function throughput(queries: QueryExecutor): Promise<number> {
  let done = 0;
  let seed = 1;
  const until = performance.now() + SECS * 1000;
  const client = async (): Promise<void> => {
    while (performance.now() < until) {
      seed = (seed * 48271) % 2147483647;
      await queries.execute(TWO_HOP, { id: seed % NODES });
      done++;
    }
  };
  // Warm-up: every worker compiles the query once.
  await Promise.all(Array.from({ length: INFLIGHT }, () => queries.execute(TWO_HOP, { id: 1 })));
  const t = performance.now();
  await Promise.all(Array.from({ length: INFLIGHT }, client));
  return done / ((performance.now() - t) / 1000);
}

async function main(): Promise<void> {
  const db = Database.openInMemory();
  let t = performance.now();
  seed(db);
  console.log(`graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  const inline = new QueryRouter(db, undefined);

  t = performance.now();
  const one = await QueryWorkerPool.start(db, 1);
  console.log(`1 worker ready in ${(performance.now() - t).toFixed(0)} ms (graph image + load)`);
  const viaOne = new QueryRouter(db, one);
  const lookupInline = await lookupMicros(inline);
  const lookupWorker = await lookupMicros(viaOne);
  const tpInline = await throughput(inline);
  const tpOne = await throughput(viaOne);
  await one.close();

  const many = await QueryWorkerPool.start(db, WORKERS);
  const tpMany = await throughput(new QueryRouter(db, many));
  await many.close();
  db.close();

  console.log(`\npoint lookup, sequential (${LOOKUPS}): main thread ${lookupInline.toFixed(1)} µs, through a worker ${lookupWorker.toFixed(1)} µs: +${(lookupWorker - lookupInline).toFixed(1)} µs added`);
  console.log(`2-hop reads/s with ${INFLIGHT} in flight for ${SECS} s: main thread ${tpInline.toFixed(0)}, 1 worker ${tpOne.toFixed(0)}, ${WORKERS} workers ${tpMany.toFixed(0)}`);
  console.log(`ratio ${WORKERS} workers / 1 worker: ${(tpMany / tpOne).toFixed(2)}×; ${WORKERS} workers / main thread: ${(tpMany / tpInline).toFixed(2)}×`);
}

await main();
