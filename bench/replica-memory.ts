/**
 * What a query worker costs in memory. Opens a data directory (a copy of `--from`, or one it
 * builds: NODES :Person nodes with an id and a name, DEGREE :KNOWS each), starts a pool of
 * WORKERS query workers over it and prints the process's resident size before and after, per
 * worker, beside the store's own estimate of the graph (`stats().memory.storeBytes`) — the
 * ratio is what a worker adds against what a full copy of the graph would be. Then one small
 * write, timed: the first write to a column after the workers' images copies that column in
 * every thread (copy-on-write), and the resident size after it.
 *
 * Only the main isolate can be asked to collect garbage, so figures after the write include
 * the workers' uncollected garbage; the figure after the start is the one to compare.
 *
 *   npm run build && node --expose-gc dist/bench/replica-memory.js
 *   node --expose-gc --max-old-space-size=6000 dist/bench/replica-memory.js --from <data dir> --workers 2
 */

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/engine/database.js';
import { QueryWorkerPool } from '../src/engine/workers/worker-pool.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const NODES = Number(arg('nodes') ?? 200_000);
const DEGREE = Number(arg('degree') ?? 5);
const WORKERS = Number(arg('workers') ?? 2);
const FROM = arg('from');

const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
const rss = (): number => process.memoryUsage.rss();
const gc = (globalThis as { gc?: () => void }).gc;

async function settled(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return rss();
}

async function build(dir: string): Promise<void> {
  const db = await Database.open({ dataDir: dir });
  db.executeSync('CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)');
  db.executeSync("UNWIND range(0, $n - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})", { n: NODES });
  for (let k = 1; k <= DEGREE; k++) {
    db.executeSync('MATCH (a:Person) WITH a, (a.id * 7919 + $k * 104729) % $n AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)', { k, n: NODES });
  }
  await db.close();
}

async function main(): Promise<void> {
  if (gc === undefined) console.error('run with node --expose-gc for settled figures');
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-replica-memory-'));
  try {
    if (FROM !== undefined) cpSync(FROM, dir, { recursive: true });
    else await build(dir);
    const db = await Database.open({ dataDir: dir });
    const store = db.stats().memory.storeBytes;
    const alone = await settled();
    const t0 = performance.now();
    const pool = await QueryWorkerPool.start(db, WORKERS);
    const startMs = performance.now() - t0;
    const withWorkers = await settled();
    const perWorker = (withWorkers - alone) / WORKERS;
    console.log(`graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships; store estimate ${mb(store)}`);
    console.log(`resident: primary alone ${mb(alone)}, with ${WORKERS} workers ${mb(withWorkers)}; pool started in ${startMs.toFixed(0)} ms`);
    console.log(`per worker: ${mb(perWorker)} = ${(perWorker / store).toFixed(2)}x the store estimate (a worker holding a full copy measured 1.8-2.0x at 1M nodes)`);
    const w0 = performance.now();
    db.executeSync("CREATE (:Person {id: -1, name: 'first write'})");
    const first = performance.now() - w0;
    const w1 = performance.now();
    db.executeSync("CREATE (:Person {id: -2, name: 'second write'})");
    const second = performance.now() - w1;
    await pool.run('MATCH (p:Person {id: -2}) RETURN p.name', undefined);
    console.log(`first write after the images ${first.toFixed(1)} ms (copies the columns it writes), second ${second.toFixed(1)} ms; resident after ${mb(await settled())}`);
    await pool.close();
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
