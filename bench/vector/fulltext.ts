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
 * alternately, with the ratio of the two rates.
 *
 *   node --import tsx bench/vector/fulltext.ts [--docs 100000] [--vocab 20000] [--queries 200] [--writes 10000] [--no-kuzu]
 *
 * The size is a million documents (a few minutes per engine on two cores):
 *
 *   node --max-old-space-size=8000 --import tsx bench/vector/fulltext.ts --docs 1000000
 */

import kuzu from 'kuzu';
import { Database } from '../../src/engine/database.js';
import { arg, kuzuCopy, mulberry32, seconds } from './common.js';

const DOCS = arg('docs', 100_000);
const VOCAB = arg('vocab', 20_000);
const QUERIES = arg('queries', 200);
const K = 10;
const WITH_KUZU = !process.argv.includes('--no-kuzu');
const MIN_WORDS = 8;
const MAX_WORDS = 16;

/**
 * Word number `rank` spelled as consonant-vowel syllables. Every word has at least two
 * syllables and ends in a, o or u, so no stop-word list or stemmer changes it and both
 * engines see the same terms.
 */
function word(rank: number): string {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aou';
  let n = rank;
  let out = '';
  do {
    out += consonants[n % consonants.length] + vowels[Math.floor(n / consonants.length) % vowels.length];
    n = Math.floor(n / (consonants.length * vowels.length));
  } while (n > 0);
  return out.length < 4 ? out + 'ka' : out;
}

const vocabulary = Array.from({ length: VOCAB }, (_, r) => word(r));
// Zipf (s = 1): P(rank r) ∝ 1 / (r + 1); sampled by binary search in the cumulative weights.
const cumulative = new Float64Array(VOCAB);
for (let r = 0, total = 0; r < VOCAB; r++) cumulative[r] = total += 1 / (r + 1);
function zipfRank(rnd: () => number): number {
  const x = rnd() * cumulative[VOCAB - 1];
  let lo = 0;
  let hi = VOCAB - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const rnd = mulberry32(7);
const texts: string[] = [];
for (let i = 0; i < DOCS; i++) {
  const length = MIN_WORDS + Math.floor(rnd() * (MAX_WORDS - MIN_WORDS + 1));
  texts.push(Array.from({ length }, () => vocabulary[zipfRank(rnd)]).join(' '));
}
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
// :Plain (no index), in batches that alternate between the two (which goes first swaps per
// round), so that outside load and the growing heap hit both alike.
// Each document is written once per label (--writes of them; the texts repeat the corpus's
// from the start when that exceeds it). Each batch is timed twice: wall-clock, and the
// process's CPU time, which another process on the (shared) machine moves much less. The
// per-pair median ratio is the figure least moved by outside load and by a collection that
// lands in one batch of a pair.
const EXTRA = arg('writes', Math.min(50_000, Math.ceil(DOCS / 10)));
const WRITE_BATCH = 1000;
interface Cost {
  wall: number;
  cpu: number;
}
const indexedCost: Cost = { wall: 0, cpu: 0 };
const plainCost: Cost = { wall: 0, cpu: 0 };
const wallRatios: number[] = [];
const cpuRatios: number[] = [];
const createBatch = (label: 'Doc' | 'Plain', start: number): Cost => {
  const docs = Array.from({ length: Math.min(EXTRA, start + WRITE_BATCH) - start }, (_, j) => ({ i: DOCS + start + j, text: texts[(start + j) % DOCS] }));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  db.executeSync(`UNWIND $docs AS d CREATE (:${label} {i: d.i, text: d.text})`, { docs });
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
};
for (let start = 0, round = 0; start < EXTRA; start += WRITE_BATCH, round++) {
  let indexed: Cost;
  let plain: Cost;
  if (round % 2 === 0) {
    indexed = createBatch('Doc', start);
    plain = createBatch('Plain', start);
  } else {
    plain = createBatch('Plain', start);
    indexed = createBatch('Doc', start);
  }
  for (const [total, one] of [[indexedCost, indexed], [plainCost, plain]] as const) {
    total.wall += one.wall;
    total.cpu += one.cpu;
  }
  wallRatios.push(indexed.wall / plain.wall);
  // CPU time is counted in steps of the scheduler's clock: a batch measured as 0 has no ratio.
  if (plain.cpu > 0) cpuRatios.push(indexed.cpu / plain.cpu);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`\n| writes after the build (${EXTRA} documents each, batches of ${WRITE_BATCH}, alternating) | documents/s (wall) | documents/s of CPU time |`);
console.log('| --- | --- | --- |');
console.log(`| CREATE (:Plain {…}), no index | ${f(EXTRA / plainCost.wall, 0)} | ${f(EXTRA / plainCost.cpu, 0)} |`);
console.log(`| CREATE (:Doc {…}), full-text index maintained | ${f(EXTRA / indexedCost.wall, 0)} | ${f(EXTRA / indexedCost.cpu, 0)} |`);
console.log(
  `\nindexed write vs unindexed write: wall ${f(indexedCost.wall / plainCost.wall)}× (median of ${wallRatios.length} batch pairs ${f(median(wallRatios))}×), CPU time ${f(indexedCost.cpu / plainCost.cpu)}× (median ${f(median(cpuRatios))}×)`,
);
db.close();
await kzConn?.close();
await kz?.close();
