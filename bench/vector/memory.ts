/**
 * Where the memory of a vector workload goes, stage by stage, in one process: the graph's
 * nodes with their vector properties (loaded through Cypher in batches, as a client would),
 * the vector index over them, and — as the peer in the same run — the same vectors held as
 * JS arrays of numbers (what the property column kept per node before numeric lists were
 * packed, `src/store/columns/float-lists.ts`) and as raw float32. With `--data-dir` the load
 * goes through the WAL and a checkpoint (commit encoding, block capture) into a temporary
 * data directory. Prints bytes per vector for each part. Run with --expose-gc so each
 * reading follows a full collection:
 *
 *   node --expose-gc dist/bench/vector/memory.js [--n 100000] [--dim 384] [--data-dir] [--no-index]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { arg, mulberry32 } from './common.js';

const N = arg('n', 100_000);
const DIM = arg('dim', 384);
const DURABLE = process.argv.includes('--data-dir');
const WITH_INDEX = !process.argv.includes('--no-index');
const BATCH = 5000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
interface Reading {
  rss: number;
  heap: number;
  buffers: number;
}
function read(): Reading {
  gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, buffers: m.arrayBuffers };
}
const peak = (): number => process.resourceUsage().maxRSS * 1024;
const rows: string[] = [];
const perVector = (bytes: number): string => (bytes / N).toFixed(0);
function row(what: string, before: Reading, after: Reading, peakDuring: number): void {
  const heap = after.heap - before.heap;
  const buffers = after.buffers - before.buffers;
  const rss = after.rss - before.rss;
  rows.push(`| ${what} | ${perVector(heap)} | ${perVector(buffers)} | ${perVector(rss)} | ${(peakDuring / 1e9).toFixed(2)} |`);
}

/** Vector i: deterministic float32 values (what an embedder produces), as a plain array. */
const rnd = mulberry32(2);
const vector = (): number[] => {
  const v = new Array<number>(DIM);
  for (let j = 0; j < DIM; j++) v[j] = Math.fround(rnd() - 0.5);
  return v;
};

console.log(`vectors: ${N} x ${DIM}${DURABLE ? ', durable (WAL and checkpoint)' : ', in memory'}`);
const dir = DURABLE ? mkdtempSync(join(tmpdir(), 'vector-memory-')) : undefined;
try {
  const db = dir ? await Database.open({ dataDir: dir, storage: { log: null } }) : Database.openInMemory();
  const start = read();
  for (let s = 0; s < N; s += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, N - s) }, (_, j) => ({ i: s + j, v: vector() }));
    db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, v: d.v})', { docs });
  }
  const loaded = read();
  row('graph: nodes with their vector properties', start, loaded, peak());
  let last = loaded;
  if (dir) {
    await db.checkpoint();
    const checkpointed = read();
    row('checkpoint (WAL to the store)', last, checkpointed, peak());
    last = checkpointed;
  }
  if (WITH_INDEX) {
    db.executeSync(`CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.v) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}}}`);
    db.executeSync("CALL db.awaitIndex('docs')"); // built in the background when large: measure the whole index
    const indexed = read();
    row('vector index (HNSW, M 16, native memory: RSS only)', last, indexed, peak());
    last = indexed;
  }
  // The peers: the same vectors as the JS arrays a query makes of the parameters (what the
  // generic column kept per node before packing) and as one float32 slab.
  const arrays: number[][] = [];
  for (let s = 0; s < N; s += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, N - s) }, () => ({ v: vector() }));
    for (const r of db.executeSync('UNWIND $docs AS d RETURN d.v', { docs }).records) arrays.push(r[0] as number[]);
  }
  const asArrays = read();
  row('peer: the vectors as JS arrays (from parameters)', last, asArrays, peak());
  const slab = new Float32Array(N * DIM);
  for (let i = 0; i < N; i++) slab.set(arrays[i], i * DIM);
  const asSlab = read();
  row('peer: the vectors as one Float32Array', asArrays, asSlab, peak());
  console.log(`\n| part | V8 heap (B/vector) | array buffers (B/vector) | RSS (B/vector) | peak RSS so far (GB) |`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  console.log(`\nraw float32: ${DIM * 4} B/vector; arrays and slab kept alive until here: ${arrays.length + slab.length > 0}`);
  db.close();
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
