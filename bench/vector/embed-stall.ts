/**
 * The main thread's longest stall while `graphdb.embed.nodes` embeds N short texts: run on the
 * primary (`Database.execute`, where it ran before) against run through the QueryRouter with
 * query workers (the worker embeds and commits on its replica; the main thread applies the
 * commit), alternately, `--rounds` of each, each round writing a property of its own (a new
 * query text, so the router places each afresh). With the built-in hashing embedder, or with
 * an ONNX sentence-transformers directory (`--model <dir>`, the default embedder then). A 1 ms
 * ticker records the longest gap between its ticks: the longest time no door could answer.
 *
 *   node --import tsx bench/vector/embed-stall.ts [--docs 20000] [--rounds 3] [--workers 1] [--model <dir>]
 */

import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { arg, stall, zipfCorpus } from './common.js';

const DOCS = arg('docs', 20_000);
const ROUNDS = arg('rounds', 3);
const WORKERS = arg('workers', 1);
const at = process.argv.indexOf('--model');
const MODEL = at >= 0 ? process.argv[at + 1] : undefined;

const { texts } = zipfCorpus(DOCS, 20_000, 8, 16);
const db = Database.openInMemory({ embeddingModel: MODEL });
for (let start = 0; start < DOCS; start += 5000) {
  const docs = texts.slice(start, start + 5000).map((text, j) => ({ i: start + j, text }));
  db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, text: d.text})', { docs });
}
const pool = await QueryWorkerPool.start(db, WORKERS);
const router = new QueryRouter(db, pool);
const embedder = db.executeSync('CALL graphdb.embed.info() YIELD provider, model, dimensions RETURN provider + ":" + model + " (" + toString(dimensions) + ")"').records[0][0];
console.log(`${DOCS} documents of 8–16 words; embedder ${String(embedder)}; ${WORKERS} query worker(s)\n`);

let n = 0;
const embed = (run: (q: string) => Promise<unknown>) => (): Promise<unknown> =>
  run(`CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'v${n++}'}) YIELD nodes RETURN nodes`);
const kinds: [string, () => Promise<unknown>][] = [
  ['on the primary (Database.execute: before)', embed((q) => db.execute(q))],
  ['through the QueryRouter (a worker embeds; the primary applies the commit: now)', embed((q) => router.execute(q))],
];
const rows: [string, { ms: number; maxGap: number; maxGc: number }][] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of round % 2 === 0 ? kinds : [...kinds].reverse()) rows.push([name, await stall(run)]);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log('| graphdb.embed.nodes | runs | wall time (ms, median) | longest main-thread stall (ms, median of runs) | (ms, max) | longest GC pause in it (ms, max) |');
console.log('| --- | --- | --- | --- | --- | --- |');
const gaps: number[] = [];
for (const [name] of kinds) {
  const mine = rows.filter((r) => r[0] === name).map((r) => r[1]);
  gaps.push(median(mine.map((m) => m.maxGap)));
  console.log(`| ${name} | ${mine.length} | ${median(mine.map((m) => m.ms)).toFixed(0)} | ${gaps[gaps.length - 1].toFixed(1)} | ${Math.max(...mine.map((m) => m.maxGap)).toFixed(1)} | ${Math.max(...mine.map((m) => m.maxGc)).toFixed(1)} |`);
}
console.log(`\nlongest main-thread stall: ${gaps[1].toFixed(0)} ms through the router vs ${gaps[0].toFixed(0)} ms on the primary (${(gaps[0] / gaps[1]).toFixed(1)}× shorter)`);
await pool.close();
db.close();
