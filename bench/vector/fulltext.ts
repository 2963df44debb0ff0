/**
 * Full-text search benchmark: a seeded corpus of short documents drawn from a Zipf vocabulary,
 * indexed by graphdb (`CREATE FULLTEXT INDEX`, queried through `db.index.fulltext.queryNodes`
 * in Cypher) and by Kuzu's FTS extension (`CREATE_FTS_INDEX` / `QUERY_FTS_INDEX`) in one
 * process and one run. Prints node load and index build times, queries per second for 1-, 2-
 * and 3-term queries (terms optional, at least one must match, on both engines, BM25 with
 * k1 = 1.2 and b = 0.75 on both), the ratios, and the overlap of the two top-10 lists.
 *
 * Indexing throughput is printed as documents per second for both builds, and for graphdb
 * also for writes after the build: the same documents created in batches under an indexed
 * label (the index follows them in the same transaction) and under a label with no index,
 * alternately, with the ratio of the two rates (wall-clock and CPU time, totals and per-pair
 * medians) and the collector's pause time that fell within each kind of batch.
 *
 *   node --import tsx bench/vector/fulltext.ts [--docs 100000] [--vocab 20000] [--queries 200] [--writes 50000] [--no-kuzu]
 *
 * The size is a million documents (a few minutes per engine on two cores):
 *
 *   node --max-old-space-size=8000 --import tsx bench/vector/fulltext.ts --docs 1000000
 */

import kuzu from 'kuzu';
import { Database } from '../../src/engine/database.js';
import { arg, kuzuCopy, mulberry32, seconds, zipfCorpus } from './common.js';

const DOCS = arg('docs', 100_000);
const VOCAB = arg('vocab', 20_000);
const QUERIES = arg('queries', 200);
const K = 10;
const WITH_KUZU = !process.argv.includes('--no-kuzu');
const MIN_WORDS = 8;
const MAX_WORDS = 16;

const { vocabulary, texts } = zipfCorpus(DOCS, VOCAB, MIN_WORDS, MAX_WORDS);
// Query terms: uniform over ranks 10–2000, so queries mix common and rarer words but skip the
// handful that occur in most documents.
const queryRnd = mulberry32(11);
const querySets = [1, 2, 3].map((terms) =>
  Array.from({ length: QUERIES }, () => Array.from({ length: terms }, () => vocabulary[10 + Math.floor(queryRnd() * 1990)]).join(' ')),
);
console.log(`documents: ${DOCS} of ${MIN_WORDS}–${MAX_WORDS} words, Zipf vocabulary of ${VOCAB}, ${QUERIES} queries per term count, top ${K}`);

// graphdb: nodes first, then the index is built from the store.
const db = Database.openInMemory();
let t = performance.now();
const BATCH = 5000;
for (let start = 0; start < DOCS; start += BATCH) {
  const docs = texts.slice(start, start + BATCH).map((text, j) => ({ i: start + j, text }));
  db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, text: d.text})', { docs });
}
const dbLoad = seconds(t);
t = performance.now();
db.executeSync('CREATE FULLTEXT INDEX texts FOR (d:Doc) ON EACH [d.text]');
db.executeSync("CALL db.awaitIndex('texts')"); // large ones are built in the background: time the whole build
const dbBuild = seconds(t);
const Q = `CALL db.index.fulltext.queryNodes('texts', $q, {limit: ${K}}) YIELD node, score RETURN node.i`;
db.executeSync(Q, { q: querySets[0][0] }); // compile once
const dbSearch = (q: string): number[] => db.executeSync(Q, { q }).records.map((r) => r[0] as number);

// Kuzu: bulk COPY from a CSV file (the load time includes writing it), then the FTS index
// with no stemmer and no stop words that touch this vocabulary, as graphdb's standard analyzer.
const kz = WITH_KUZU ? new kuzu.Database(':memory:') : undefined;
const kzConn = kz ? new kuzu.Connection(kz) : undefined;
let kzLoad = NaN;
let kzBuild = NaN;
let kzSearch = async (_q: string): Promise<number[]> => [];
if (kzConn) {
  await kzConn.query('CREATE NODE TABLE Doc(i INT64, text STRING, PRIMARY KEY(i))');
  t = performance.now();
  await kuzuCopy(kzConn, 'Doc', texts.map((text, i) => `${i},"${text}"`));
  kzLoad = seconds(t);
  t = performance.now();
  await kzConn.query("CALL CREATE_FTS_INDEX('Doc', 'texts', ['text'], stemmer := 'none')");
  kzBuild = seconds(t);
  const kzPrepared = await kzConn.prepare(`CALL QUERY_FTS_INDEX('Doc', 'texts', $q, top := ${K}) RETURN node.i, score ORDER BY score DESC`);
  kzSearch = async (q: string): Promise<number[]> => {
    const result = await kzConn.execute(kzPrepared, { q });
    const rows = await (Array.isArray(result) ? result[0] : result).getAll();
    return rows.map((r) => Number(r['node.i']));
  };
  await kzSearch(querySets[0][0]);
}

const f = (x: number, d = 2): string => x.toFixed(d);
console.log('\n| engine | node load (s) | index build (s) | index build (documents/s) |');
console.log('| --- | --- | --- | --- |');
console.log(`| graphdb CREATE FULLTEXT INDEX | ${f(dbLoad, 1)} | ${f(dbBuild, 1)} | ${f(DOCS / dbBuild, 0)} |`);
if (WITH_KUZU) console.log(`| Kuzu CREATE_FTS_INDEX | ${f(kzLoad, 1)} (COPY from CSV) | ${f(kzBuild, 1)} | ${f(DOCS / kzBuild, 0)} |`);
if (WITH_KUZU) console.log(`\nindex build: graphdb takes ${f(dbBuild / kzBuild)}× Kuzu's time`);

/**
 * Throughput, measured interleaved in blocks of BLOCK queries so that load from elsewhere on
 * the shared machine hits both engines alike. Overlap is |graphdb top-10 ∩ Kuzu top-10| / 10,
 * averaged; documents with equal scores may be cut at the tenth place differently.
 */
const BLOCK = 20;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
console.log('\n| query terms | graphdb QPS | Kuzu QPS | graphdb vs Kuzu | top-10 overlap | mean hits returned (graphdb / Kuzu) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [index, queries] of querySets.entries()) {
  const dbTimes: number[] = [];
  const kzTimes: number[] = [];
  const dbResults: number[][] = [];
  const kzResults: number[][] = queries.map(() => []);
  for (let start = 0; start < queries.length; start += BLOCK) {
    const end = Math.min(queries.length, start + BLOCK);
    for (let i = start; i < end; i++) {
      const t0 = performance.now();
      dbResults[i] = dbSearch(queries[i]);
      dbTimes.push(performance.now() - t0);
    }
    for (let i = start; i < end; i++) {
      const t0 = performance.now();
      if (!WITH_KUZU) continue;
      kzResults[i] = await kzSearch(queries[i]);
      kzTimes.push(performance.now() - t0);
    }
  }
  const dbQps = (dbTimes.length * 1000) / sum(dbTimes);
  const kzQps = (kzTimes.length * 1000) / sum(kzTimes);
  const overlap =
    dbResults.reduce((s, got, i) => {
      const other = new Set(kzResults[i]);
      return s + got.filter((x) => other.has(x)).length / Math.max(1, Math.min(K, Math.max(got.length, kzResults[i].length)));
    }, 0) / queries.length;
  const meanHits = (rs: number[][]): string => f(sum(rs.map((r) => r.length)) / rs.length, 1);
  console.log(`| ${index + 1} | ${f(dbQps, 0)} | ${f(kzQps, 0)} | ${f(dbQps / kzQps)}× | ${f(overlap, 3)} | ${meanHits(dbResults)} / ${meanHits(kzResults)} |`);
}

// Writes after the build, with and without the index in the same run: the same documents
// created under :Doc (indexed: the index follows each one in its transaction) and under
// :Plain (no index), in pairs of batches, so that outside load and the growing heap hit both
// alike. Each document is written once per label (--writes of them; the texts repeat the
// corpus's from the start when that exceeds it).
//
// Which batch of a pair goes first is a seeded coin toss, not a strict alternation: the
// allocation per pair is the same every time, so with a fixed order the young-generation
// collections lock onto one kind of batch (which one flips with a few bytes more or less
// allocated per document) and skew the totals either way. Each batch is timed wall-clock and
// in the process's CPU time (which another process on the shared machine moves much less);
// the collector's pauses are attributed to the batch they fell in. The cleanest figure of the
// index's own cost is the CPU ratio over the pairs in which no pause fell; the totals include
// the collections, which the whole write path's allocation causes.
const EXTRA = arg('writes', 50_000);
const WRITE_BATCH = 1000;
type Label = 'Doc' | 'Plain';
interface Batch {
  label: Label;
  pair: number;
  start: number;
  end: number;
  cpu: number;
  gc: number;
  pauses: number;
}
const batches: Batch[] = [];
const gcPauses: { start: number; duration: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push({ start: e.startTime, duration: e.duration });
});
gcObserver.observe({ entryTypes: ['gc'] });
const createBatch = (label: Label, pair: number, start: number): void => {
  const docs = Array.from({ length: Math.min(EXTRA, start + WRITE_BATCH) - start }, (_, j) => ({ i: DOCS + start + j, text: texts[(start + j) % DOCS] }));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  db.executeSync(`UNWIND $docs AS d CREATE (:${label} {i: d.i, text: d.text})`, { docs });
  const c = process.cpuUsage(c0);
  batches.push({ label, pair, start: t0, end: performance.now(), cpu: (c.user + c.system) / 1e6, gc: 0, pauses: 0 });
};
const coin = mulberry32(5);
for (let start = 0, pair = 0; start < EXTRA; start += WRITE_BATCH, pair++) {
  const order: Label[] = coin() < 0.5 ? ['Doc', 'Plain'] : ['Plain', 'Doc'];
  for (const label of order) createBatch(label, pair, start);
}
// The collector's entries arrive on a later turn of the event loop (after a timer, not an immediate).
await new Promise((resolve) => setTimeout(resolve, 100));
gcObserver.disconnect();
for (const pause of gcPauses) {
  const batch = batches.find((b) => pause.start >= b.start && pause.start < b.end);
  if (batch) {
    batch.gc += pause.duration / 1000;
    batch.pauses++;
  }
}
const pairs = EXTRA / WRITE_BATCH;
const of = (label: Label, pick: (b: Batch) => number, pairOk: (pair: number) => boolean = () => true): number =>
  batches.filter((b) => b.label === label && pairOk(b.pair)).reduce((s, b) => s + pick(b), 0);
const wall = (b: Batch): number => (b.end - b.start) / 1000;
const cpu = (b: Batch): number => b.cpu;
const gcFree = new Set(Array.from({ length: Math.ceil(pairs) }, (_, i) => i).filter((i) => batches.every((b) => b.pair !== i || b.pauses === 0)));
const inGcFree = (pair: number): boolean => gcFree.has(pair);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const pairCpuRatios = [...gcFree].map((i) => {
  const [doc, plain] = (['Doc', 'Plain'] as const).map((l) => batches.find((b) => b.pair === i && b.label === l)!.cpu);
  return doc / plain;
}).filter((r) => Number.isFinite(r));
console.log(`\n| writes after the build (${EXTRA} documents each, batches of ${WRITE_BATCH}) | documents/s (wall) | documents/s of CPU time | collector pauses in these batches |`);
console.log('| --- | --- | --- | --- |');
for (const [label, name] of [['Plain', 'CREATE (:Plain {…}), no index'], ['Doc', 'CREATE (:Doc {…}), full-text index maintained']] as const) {
  console.log(`| ${name} | ${f(EXTRA / of(label, wall), 0)} | ${f(EXTRA / of(label, cpu), 0)} | ${of(label, (b) => b.pauses)}, ${f(of(label, (b) => b.gc), 3)} s |`);
}
console.log(
  `\nindexed write vs unindexed write: CPU time ${f(of('Doc', cpu, inGcFree) / of('Plain', cpu, inGcFree))}× over the ${gcFree.size} of ${Math.ceil(pairs)} batch pairs with no collector pause (median pair ${f(median(pairCpuRatios))}×); all pairs: CPU time ${f(of('Doc', cpu) / of('Plain', cpu))}×, wall ${f(of('Doc', wall) / of('Plain', wall))}×`,
);
db.close();
await kzConn?.close();
await kz?.close();
