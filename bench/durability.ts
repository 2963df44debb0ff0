/**
 * Durability benchmarks (issue 4): acknowledged mutating queries per second with
 * --data-dir (one client, many clients with group commit, and the synchronous
 * executeSync path), recovery time for a WAL of 1M records, and snapshot write/load time
 * for a graph of 1M nodes and 5M relationships, plus start-up from the LMDB store, the
 * background snapshot written from the store and a policy-sized asynchronous checkpoint
 * (with the longest event-loop stall each causes, from `monitorEventLoopDelay`).
 *
 *   npm run build && node --expose-gc --max-old-space-size=16000 dist/bench/durability.js [--scale 0.1] [--writes 2000] [--ack-secs 3] [--only open,acks,wal,snapshot] [--from <data dir>]
 *
 * `open` (not in the default set): a child process writes the store of record of a
 * 1M-node / 5M-relationship graph directly (or, with `--from`, a copy of a data directory
 * written so before is taken); this process, which never held that graph, times opening it,
 * then the event-loop stall of asynchronous checkpoints. Run it compiled: under tsx every
 * typed-array access pays a detach check (bench/README.md).
 *
 * `--scale` multiplies the WAL and graph sizes (1 = the sizes). Data goes to a
 * temporary directory under $TMPDIR, removed afterwards.
 */

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Database } from '../src/engine/database.js';
import { Graph } from '../src/store/graph.js';
import { Schema } from '../src/store/schema.js';
import type { Value } from '../runtime/values.js';
import { loadSnapshotExact, WAL_FILE, writeGraphSnapshot } from '../src/store/persist/durable-store.js';
import { encodeTransaction } from '../src/store/persist/record-codec.js';
import { WalWriter } from '../src/store/persist/wal-writer.js';
import { metaOf, RecordStore } from '../src/store/persist/record-store.js';
import { schemaDefinition } from '../src/store/persist/schema-def.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const scale = Number(arg('scale', '1'));
const writes = Number(arg('writes', '2000'));
/** Seconds each group-commit row writes for. */
const ackSecs = Number(arg('ack-secs', '3'));
const only = new Set(arg('only', 'acks,wal,snapshot').split(','));
/** `open` from a copy of this data directory instead of writing a new one. */
const from = arg('from', '');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-bench-durability-'));
const quiet = { log: null };
const rows: [string, string][] = [];

function report(what: string, value: string): void {
  rows.push([what, value]);
  console.log(`${what}: ${value}`);
}

const rate = (n: number, ms: number): string => `${Math.round((n / ms) * 1000).toLocaleString('en-US')}/s (${n} in ${ms.toFixed(0)} ms)`;

async function acks(): Promise<void> {
  for (const clients of [1, 8, 64]) {
    const db = await Database.open({ dataDir: path.join(root, `acks-${clients}`), storage: quiet });
    // For `--ack-secs` seconds (a count of writes finished in ~0.2 s with 64 clients, too
    // short to measure), with the log's records per fsync: the group commit's group size.
    let done = 0;
    const started = performance.now();
    const until = started + ackSecs * 1000;
    const before = db.storage!.walActivity;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; performance.now() < until; i++) {
          await db.mutate('CREATE (:B {c: $c, i: $i})', { c, i });
          done++;
        }
      }),
    );
    const after = db.storage!.walActivity;
    report(`acknowledged writes, ${clients} client(s), group commit`, `${rate(done, performance.now() - started)}, ${((after.records - before.records) / (after.syncs - before.syncs)).toFixed(1)} writes per fsync`);
    db.close();
  }
  const db = await Database.open({ dataDir: path.join(root, 'acks-sync'), storage: quiet });
  const started = performance.now();
  for (let i = 0; i < writes; i++) db.executeSync('CREATE (:B {i: $i})', { i });
  report('acknowledged writes, executeSync (fsync per write)', rate(writes, performance.now() - started));
  db.close();
}

async function walReplay(): Promise<void> {
  const n = Math.round(1_000_000 * scale);
  const dir = path.join(root, 'wal');
  fs.mkdirSync(dir);
  const wal = WalWriter.open(path.join(dir, WAL_FILE), 0, 0);
  for (let i = 0; i < n; i++) {
    wal.append(encodeTransaction([{ op: 'createNode', id: i, labels: ['P'], props: new Map<string, Value>([['i', i], ['name', `p${i}`]]) }]));
  }
  wal.close();
  const bytes = fs.statSync(path.join(dir, WAL_FILE)).size;
  const started = performance.now();
  const db = await Database.open({ dataDir: dir, storage: quiet });
  const total = performance.now() - started;
  const r = db.storage!.recovery;
  report(`WAL replay, ${n.toLocaleString('en-US')} records (${(bytes / 1e6).toFixed(0)} MB)`, `${r.replayMs.toFixed(0)} ms replay; ${total.toFixed(0)} ms whole start-up incl. writing the LMDB store`);
  db.storage!.close();
  const again = performance.now();
  const db2 = await Database.open({ dataDir: dir, storage: quiet });
  report(`start-up from the LMDB store, ${n.toLocaleString('en-US')} nodes`, `${(performance.now() - again).toFixed(0)} ms`);
  db2.storage!.close();
}

function buildGraph(nodes: number, rels: number): Graph {
  const g = new Graph();
  let seed = 42;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const ids = [];
  for (let base = 0; base < nodes; base += 50_000) {
    g.begin();
    for (let i = base; i < Math.min(nodes, base + 50_000); i++) ids.push(g.createNode(['Person'], new Map<string, Value>([['id', i], ['name', `person ${i}`]])));
    g.commit();
  }
  for (let base = 0; base < rels; base += 50_000) {
    g.begin();
    for (let i = base; i < Math.min(rels, base + 50_000); i++) {
      g.createRel('KNOWS', ids[Math.floor(rand() * nodes)], ids[Math.floor(rand() * nodes)], new Map<string, Value>([['w', i % 100]]));
    }
    g.commit();
  }
  return g;
}

async function snapshot(): Promise<void> {
  const nodes = Math.round(1_000_000 * scale);
  const rels = Math.round(5_000_000 * scale);
  const built = performance.now();
  const g = buildGraph(nodes, rels);
  console.log(`(graph of ${nodes} nodes, ${rels} relationships built in ${(performance.now() - built).toFixed(0)} ms)`);
  const dir = path.join(root, 'snap');
  fs.mkdirSync(dir);
  const file = path.join(dir, 'graphdb.snapshot.json');
  let started = performance.now();
  writeGraphSnapshot(g, new Schema(g), file, 0);
  const size = fs.statSync(file).size;
  report(`snapshot write, ${nodes.toLocaleString('en-US')} nodes + ${rels.toLocaleString('en-US')} rels (${(size / 1e6).toFixed(0)} MB)`, `${(performance.now() - started).toFixed(0)} ms`);
  const target = new Graph();
  started = performance.now();
  await loadSnapshotExact(target, new Schema(target), file, undefined);
  report('snapshot load (streamed JSON)', `${(performance.now() - started).toFixed(0)} ms`);
  started = performance.now();
  const db = await Database.open({ dataDir: dir, storage: quiet });
  report('first start-up on the snapshot (load + write LMDB store)', `${(performance.now() - started).toFixed(0)} ms`);
  db.storage!.close();
  started = performance.now();
  const db2 = await Database.open({ dataDir: dir, storage: quiet });
  report('start-up from the LMDB store (no JSON parsed)', `${(performance.now() - started).toFixed(0)} ms, ${db2.graph.nodeCount} nodes, ${db2.graph.relCount} rels`);
  const storage = db2.storage!;
  let stall = monitorEventLoopDelay({ resolution: 5 });
  stall.enable();
  started = performance.now();
  await storage.snapshotFromStore();
  stall.disable();
  report(
    'background snapshot from the LMDB store (policy/`:checkpoint`)',
    `${(performance.now() - started).toFixed(0)} ms, longest event-loop stall ${(stall.max / 1e6).toFixed(0)} ms`,
  );
  const touched = Math.min(100_000, nodes);
  db2.executeSync(`MATCH (p:Person) WHERE p.id < ${touched} SET p.seen = true`);
  stall = monitorEventLoopDelay({ resolution: 5 });
  stall.enable();
  started = performance.now();
  await db2.checkpoint();
  stall.disable();
  report(`asynchronous checkpoint of ${touched.toLocaleString('en-US')} changed nodes`, `${(performance.now() - started).toFixed(0)} ms, longest event-loop stall ${(stall.max / 1e6).toFixed(0)} ms`);
  storage.close();
}

/** The length (ms) of every turn of the event loop while `work` runs: each is a stall for whoever waits. */
async function turnsDuring(work: () => Promise<void>): Promise<number[]> {
  const gaps: number[] = [];
  let last = performance.now();
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return gaps;
}

/**
 * Start-up from the store of record for a graph of `scale` × (1M nodes, 5M rels): the
 * store is written directly from a built graph (no JSON), then the directory is opened.
 */
/** Builds the open benchmark's graph and writes it as the store of record in `dir` (run in a child process). */
function writeStore(dir: string, nodes: number, rels: number): void {
  const built = performance.now();
  const g = buildGraph(nodes, rels);
  console.log(`(graph of ${nodes} nodes, ${rels} relationships built in ${(performance.now() - built).toFixed(0)} ms)`);
  const started = performance.now();
  const store = RecordStore.open(dir);
  store.rewriteAll(g, metaOf(g, 0, schemaDefinition(new Schema(g))), undefined);
  store.close();
  console.log(`store-write-ms ${(performance.now() - started).toFixed(0)}`);
}

async function openTime(): Promise<void> {
  const nodes = Math.round(1_000_000 * scale);
  const rels = Math.round(5_000_000 * scale);
  const dir = path.join(root, 'open');
  if (from !== '') {
    // A data directory written before (by this benchmark): a copy, so the original stays as it was.
    fs.cpSync(from, dir, { recursive: true, filter: (src) => !src.endsWith('-lock') });
    report(`store copied from ${from}`, `${(fs.statSync(path.join(dir, 'graphdb.lmdb')).size / 1e6).toFixed(0)} MB`);
  } else {
    fs.mkdirSync(dir);
    // The graph is built and written by a child process, so that the opens below run in a
    // process that never held it (as a restart does).
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--write-store', dir, '--scale', String(scale)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (child.status !== 0) throw new Error(`the store-writing child failed with status ${child.status}`);
    const written = /store-write-ms (\d+)/.exec(child.stdout)?.[1] ?? '?';
    console.log(child.stdout.split('\n')[0]);
    report(`store write, ${nodes.toLocaleString('en-US')} nodes + ${rels.toLocaleString('en-US')} rels`, `${written} ms, ${(fs.statSync(path.join(dir, 'graphdb.lmdb')).size / 1e6).toFixed(0)} MB`);
  }
  const storage = { ...quiet, snapshotOnClose: false };
  let started = performance.now();
  {
    const probed = await Database.open({ dataDir: dir, storage });
    report(from !== '' ? 'open time, first start-up of the copy' : 'open time, first start-up (store checked by the child probe)', `${(performance.now() - started).toFixed(0)} ms, ${probed.graph.nodeCount} nodes, ${probed.graph.relCount} rels`);
    await probed.close();
  }
  // The first database is garbage now: collect it, so the heap and the stalls below are the second one's.
  (globalThis as { gc?: () => void }).gc?.();
  started = performance.now();
  const db = await Database.open({ dataDir: dir, storage });
  const heap = process.memoryUsage().heapUsed;
  report('open time, start-up after a clean close (no probe)', `${(performance.now() - started).toFixed(0)} ms, heap ${(heap / 1e6).toFixed(0)} MB`);
  // Checkpoint stalls: five rounds of changes spread over the whole id range, each folded by an asynchronous checkpoint.
  const rounds = 5;
  const gaps: number[] = [];
  for (let round = 0; round < rounds; round++) {
    db.executeSync(`MATCH (p:Person) WHERE p.id % 50 = ${round} SET p.seen = ${round}`);
    db.executeSync(`MATCH (:Person {id: ${round}})-[r:KNOWS]->() SET r.seen = ${round}`);
    gaps.push(...(await turnsDuring(() => db.checkpoint())));
  }
  gaps.sort((a, b) => a - b);
  const longest = gaps[gaps.length - 1] ?? 0;
  const p99 = gaps[Math.floor(gaps.length * 0.99)] ?? 0;
  report(
    `checkpoint stall, ${rounds} asynchronous checkpoints of ${Math.round(nodes / 50).toLocaleString('en-US')} changed nodes each (event-loop delay)`,
    `p99 ${p99.toFixed(1)} ms, longest ${longest.toFixed(1)} ms (${gaps.length} turns)`,
  );
  db.storage!.close();
}

const writeStoreDir = arg('write-store', '');
if (writeStoreDir !== '') {
  writeStore(writeStoreDir, Math.round(1_000_000 * scale), Math.round(5_000_000 * scale));
  fs.rmSync(root, { recursive: true, force: true });
  process.exit(0);
}

try {
  if (only.has('open')) await openTime();
  if (only.has('acks')) await acks();
  if (only.has('wal')) await walReplay();
  if (only.has('snapshot')) await snapshot();
  console.log('\n| measurement | result |\n|---|---|');
  for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
