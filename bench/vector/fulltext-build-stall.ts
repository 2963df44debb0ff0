/**
 * Event-loop stalls while `CREATE FULLTEXT INDEX` builds an index over N documents (the Zipf
 * corpus of fulltext.ts): the former way — the whole build inside the command, as an index
 * under `FulltextIndex.backgroundBuildFrom` still is (the threshold raised above N for it) —
 * against the current one — built in the background in slices until ONLINE — alternately on
 * the same graph, `--rounds` of each. Two more rows send a query part-way (at 25 %) through
 * the background build: run synchronously (`executeSync`, the in-process library) it
 * completes the build, holding the event loop for the rest of it; run as the servers run
 * queries (`Database.execute`) it waits for the build with the event loop free. A
 * 1 ms ticker records the longest gap between its ticks during each: the longest time nothing
 * else (a query, a socket, a probe) could have run. The wall times give the background
 * build's cost in throughput.
 *
 *   node --import tsx bench/vector/fulltext-build-stall.ts [--docs 200000] [--rounds 3]
 *
 * Compiled (`npm run build`): node dist/bench/vector/fulltext-build-stall.js …
 */

import { Database } from '../../src/engine/database.js';
import { FulltextIndex } from '../../src/fulltext/fulltext-index.js';
import { arg, seconds, stall, zipfCorpus } from './common.js';

const DOCS = arg('docs', 200_000);
const ROUNDS = arg('rounds', 3);
const DDL = 'CREATE FULLTEXT INDEX texts FOR (d:Doc) ON EACH [d.text]';
const QUERY = "CALL db.index.fulltext.queryNodes('texts', $q, {limit: 10}) YIELD node RETURN count(*) AS n";

const { vocabulary, texts } = zipfCorpus(DOCS, 20_000, 8, 16);
const db = Database.openInMemory();
const t = performance.now();
for (let start = 0; start < DOCS; start += 5000) {
  const docs = texts.slice(start, start + 5000).map((text, j) => ({ i: start + j, text }));
  db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, text: d.text})', { docs });
}
console.log(`${DOCS} documents of 8–16 words (Zipf vocabulary of 20 000) loaded in ${seconds(t).toFixed(1)} s; background build from ${FulltextIndex.backgroundBuildFrom} documents, ${FulltextIndex.buildSliceMs} ms slices\n`);

const threshold = FulltextIndex.backgroundBuildFrom;
const index = (): FulltextIndex => db.schema.extensionIndex('texts') as FulltextIndex;
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

async function inCommand(): Promise<void> {
  FulltextIndex.backgroundBuildFrom = Infinity;
  try {
    db.executeSync(DDL);
  } finally {
    FulltextIndex.backgroundBuildFrom = threshold;
  }
}

async function inBackground(): Promise<void> {
  db.executeSync(DDL);
  while (index().populating) await tick();
}

async function queryPartWay(): Promise<void> {
  db.executeSync(DDL);
  while (index().populationPercent < 25) await tick();
  db.executeSync(QUERY, { q: vocabulary[50] });
}

async function asyncQueryPartWay(): Promise<void> {
  db.executeSync(DDL);
  while (index().populationPercent < 25) await tick();
  await db.execute(QUERY, { q: vocabulary[50] });
}

const kinds: [string, () => Promise<void>][] = [
  ['built inside CREATE FULLTEXT INDEX (before)', inCommand],
  ['built in the background until ONLINE (now)', inBackground],
  ['now, with a query at 25 % of the build (executeSync: completes it)', queryPartWay],
  ['now, with a query at 25 % of the build (execute, as the servers: waits for it)', asyncQueryPartWay],
];
const rows: [string, { ms: number; maxGap: number; maxGc: number }][] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so that a collection left by one run does not always land in the same kind.
  for (const [name, run] of round % 2 === 0 ? kinds : [...kinds].reverse()) {
    rows.push([name, await stall(run)]);
    db.executeSync('DROP INDEX texts');
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log('| full-text index over the documents | runs | wall time to ONLINE (ms, median) | longest event-loop stall (ms, median of runs) | (ms, max) | longest GC pause in it (ms, max) |');
console.log('| --- | --- | --- | --- | --- | --- |');
const stats = new Map<string, { ms: number; gap: number }>();
for (const [name] of kinds) {
  const mine = rows.filter((r) => r[0] === name).map((r) => r[1]);
  const ms = median(mine.map((m) => m.ms));
  const gap = median(mine.map((m) => m.maxGap));
  stats.set(name, { ms, gap });
  console.log(`| ${name} | ${mine.length} | ${ms.toFixed(0)} | ${gap.toFixed(1)} | ${Math.max(...mine.map((m) => m.maxGap)).toFixed(1)} | ${Math.max(...mine.map((m) => m.maxGc)).toFixed(1)} |`);
}
const [before, now] = kinds.map(([name]) => stats.get(name)!);
console.log(
  `\nlongest stall while building: ${now.gap.toFixed(1)} ms in the background vs ${before.gap.toFixed(0)} ms inside the command (${(before.gap / now.gap).toFixed(0)}× shorter); ` +
    `time to ONLINE ${(now.ms / before.ms).toFixed(2)}× the blocking build's`,
);
db.close();
