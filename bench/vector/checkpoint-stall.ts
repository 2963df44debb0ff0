/**
 * Event-loop stalls while a checkpoint saves the retrieval indexes: a data directory with
 * N documents holding a vector (clustered, seeded) and a short text, a vector index and a
 * full-text index over them. After each small write, the vector index is saved the former
 * way (hnswlib's synchronous writer, checksum and fsyncs on the event loop) and the current
 * way (`saveAsync`: writer on a libuv thread, the rest asynchronous), alternately, and a
 * whole `Database.checkpoint()` (store, vector and full-text saves) and the store's own
 * checkpoint alone are timed too (`--rounds` of each, interleaved). A 1 ms
 * ticker records the longest gap between its ticks during each: the longest time nothing
 * else (a query, a socket) could have run.
 *
 * A third vector row re-creates what the background save did on the event loop before its
 * state went binary (the live ids and fingerprints spread into arrays and put in the JSON
 * header in one go), on the same index, as the peer of the current background save.
 *
 *   node --import tsx bench/vector/checkpoint-stall.ts [--n 100000] [--dim 128] [--rounds 3] [--vector-only] [--ef-construction 100]
 *
 * --vector-only leaves out the full-text index and the store checkpoints (which take most of
 * the time at large sizes), for the vector save's stall at a million elements:
 *
 *   node --max-old-space-size=8000 --import tsx bench/vector/checkpoint-stall.ts --n 1000000 --dim 16 --vector-only --ef-construction 20
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { VectorIndex } from '../../src/vector/hnsw-index.js';
import { encodeVectorStateAsync } from '../../src/vector/persistence.js';
import { FulltextIndex } from '../../src/fulltext/fulltext-index.js';
import { arg, mulberry32, seconds, stall } from './common.js';

const N = arg('n', 100_000);
const DIM = arg('dim', 128);
const ROUNDS = arg('rounds', 3);
const VECTOR_ONLY = process.argv.includes('--vector-only');
/** efConstruction of the vector index: the save does not depend on it, a low one builds a large index sooner. */
const EF_CONSTRUCTION = arg('ef-construction', 100);

const WORDS = ['graph', 'vector', 'store', 'index', 'query', 'node', 'edge', 'label', 'search', 'rank', 'path', 'match'];

const dir = mkdtempSync(join(tmpdir(), 'graphdb-stall-'));
const db = await Database.open({ dataDir: dir, storage: { log: null, checkpoint: { records: 1e9, walBytes: 1e12, intervalMs: 1e9 } } });
const rnd = mulberry32(7);
let t = performance.now();
const centres = Array.from({ length: 100 }, () => Array.from({ length: DIM }, () => rnd() * 2 - 1));
for (let start = 0; start < N; start += 5000) {
  const docs = Array.from({ length: Math.min(5000, N - start) }, (_, j) => {
    const c = centres[Math.floor(rnd() * centres.length)];
    const text = Array.from({ length: 8 }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ') + ` w${start + j}`;
    return { i: start + j, v: c.map((x) => x + 0.3 * (rnd() - 0.5)), text };
  });
  db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, v: d.v, text: d.text})', { docs });
}
const loadS = seconds(t);
t = performance.now();
db.executeSync(`CREATE VECTOR INDEX emb FOR (d:Doc) ON (d.v) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}, \`vector.hnsw.ef_construction\`: ${EF_CONSTRUCTION}}}`);
db.executeSync("CALL db.awaitIndex('emb')"); // built in the background when large: time the whole build
const vectorBuildS = seconds(t);
t = performance.now();
if (!VECTOR_ONLY) {
  db.executeSync('CREATE FULLTEXT INDEX texts FOR (d:Doc) ON EACH [d.text]');
  db.executeSync("CALL db.awaitIndex('texts')"); // likewise
}
const fulltextBuildS = seconds(t);
await db.checkpoint();
console.log(`${N} documents x ${DIM} dimensions: load ${loadS.toFixed(1)} s, vector index ${vectorBuildS.toFixed(1)} s, full-text index ${fulltextBuildS.toFixed(1)} s; first checkpoint done\n`);

const vector = db.schema.extensionIndex('emb') as VectorIndex;
const fulltext = db.schema.extensionIndex('texts') as FulltextIndex | undefined;
/** The former header: the state spread into arrays and stringified on the event loop (the index's private maps, read for this comparison only). */
const { live: liveMap, printOfLabel } = vector as unknown as { live: Map<number, number>; printOfLabel: Float64Array };
const formerJsonHeader = (): string =>
  JSON.stringify({ def: vector.def, seq: seq(), state: { live: [...liveMap.keys()], labels: [...liveMap.values()], prints: [...liveMap.values()].map((l) => printOfLabel[l]) } });
/** The longest step of the binary state encoding between two turns of the event loop (what the save's own work holds it for). */
let longestSlice = 0;
const binaryState = async (): Promise<void> => {
  let last = performance.now();
  const pause = async (): Promise<void> => {
    longestSlice = Math.max(longestSlice, performance.now() - last);
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
  await encodeVectorStateAsync(liveMap, printOfLabel, liveMap.size, pause);
};
const seq = (): number => db.storage!.seq;
let w = 0;
/** One small write, so every index has something to save. */
const touch = (): void => void db.executeSync('MATCH (d:Doc {i: $i}) SET d.v = [x IN d.v | x * 1.01], d.text = d.text + " touched"', { i: w++ % N });

const rows: [string, { ms: number; maxGap: number; maxGc: number }][] = [];
for (let round = 0; round < ROUNDS; round++) {
  touch();
  rows.push(['vector save, blocking (index.save: the former checkpoint path)', await stall(() => vector.save(seq()))]);
  touch();
  rows.push(['vector save, background (index.saveAsync: every checkpoint now, binary state in slices)', await stall(() => vector.saveAsync(seq()))]);
  rows.push(['former JSON state header alone (what saveAsync held the event loop for before)', await stall(formerJsonHeader)]);
  rows.push(['binary state alone (encodeVectorStateAsync, as saveAsync runs it now)', await stall(binaryState)]);
  if (VECTOR_ONLY || !fulltext) continue;
  touch();
  rows.push(['full-text save (fulltext.saveAsync: encoded in slices of 2000 documents)', await stall(() => fulltext.saveAsync(seq()))]);
  touch();
  rows.push(['store checkpoint alone (DurableStore.checkpointAsync, no index saves)', await stall(() => db.storage!.checkpointAsync())]);
  touch();
  rows.push(['whole Database.checkpoint() (store + both saves)', await stall(() => db.checkpoint())]);
}

console.log('| operation | runs | wall time (ms, median) | longest event-loop stall (ms, median of runs) | (ms, max) | longest GC pause in it (ms, max) |');
console.log('| --- | --- | --- | --- | --- | --- |');
const names = [...new Set(rows.map((r) => r[0]))];
const stats = new Map<string, { ms: number; gap: number }>();
for (const name of names) {
  const mine = rows.filter((r) => r[0] === name).map((r) => r[1]);
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const ms = median(mine.map((m) => m.ms));
  const gap = Math.max(...mine.map((m) => m.maxGap));
  stats.set(name, { ms, gap });
  console.log(`| ${name} | ${mine.length} | ${ms.toFixed(0)} | ${median(mine.map((m) => m.maxGap)).toFixed(0)} | ${gap.toFixed(0)} | ${Math.max(...mine.map((m) => m.maxGc)).toFixed(0)} |`);
}
console.log(`\nlongest step of the binary state encoding between turns of the event loop: ${longestSlice.toFixed(1)} ms`);
const [blocking, background, former] = names.map((n) => stats.get(n)!);
console.log(`\nlongest stall of a vector save: background ${background.gap.toFixed(0)} ms vs blocking ${blocking.gap.toFixed(0)} ms (${(blocking.gap / background.gap).toFixed(1)}× shorter); the former JSON header alone stalled ${former.gap.toFixed(0)} ms (${(former.gap / background.gap).toFixed(1)}× the whole background save now)`);
db.close();
rmSync(dir, { recursive: true, force: true });
