/**
 * Vector search benchmark: clustered, seeded synthetic vectors; graphdb's vector index
 * through the query language against raw hnswlib-node (same M, efConstruction and ef), against
 * Kuzu's HNSW index (`CREATE_VECTOR_INDEX` / `QUERY_VECTOR_INDEX`, same degrees and ef) and
 * against exact brute force in a typed-array loop, all in one process and one run. Prints
 * build times, recall@10 against the exact answer, queries per second and their ratios, and
 * filtered search (YIELD … WHERE) recall at 1 %, 10 % and 50 % selectivity.
 *
 *   node --expose-gc dist/bench/vector/run.js [--n 100000] [--dim 384] [--queries 200] [--clusters 100] [--ef 64[,128,…]] [--no-kuzu]
 *   node --import tsx bench/vector/run.ts …   (the same from source)
 *
 * --ef is the search ef, or a comma-separated list of them: each index is built once, then
 * the queries run at every ef in turn — raw hnswlib through `setEf`, graphdb through
 * queryNodes' per-query `{ef: …}` option (its index's `vector.hnsw.ef_search` is the first
 * ef, which the filtered queries use), Kuzu through `efs`. Larger indexes need a larger ef
 * for recall ≥ 0.95 (500k x 384 reaches 0.81 at 64; 1M x 384 reaches 0.94 at 300). With a
 * list, the last line compares QPS at recall ≥ 0.95: each engine at the smallest ef that
 * reaches it.
 *
 * --no-kuzu leaves Kuzu out (its load and build take minutes at 100k), for quick runs of the
 * graphdb-vs-hnswlib ratio. Run it compiled (`npm run build`): under `--import tsx` every
 * typed-array access pays a detach check. With --expose-gc the memory table after each stage
 * follows a full collection. A million vectors of 384 dimensions hold about 7 GB: the bench's
 * float32 copy, two HNSW graphs and the graph's packed vector properties (1.5–1.8 GB each):
 *
 *   node --expose-gc --max-old-space-size=4000 dist/bench/vector/run.js --n 1000000 --dim 384 --ef 300,450,600,800,1000 --no-kuzu
 * VECTOR_BENCH_PROFILE=/tmp/q.cpuprofile also writes a CPU profile of the query phase.
 */

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import hnswlib from 'hnswlib-node';
import kuzu from 'kuzu';
import { Database } from '../../src/engine/database.js';
import { arg, kuzuCopy, mulberry32, seconds } from './common.js';

const N = arg('n', 100_000);
const DIM = arg('dim', 384);
const QUERIES = arg('queries', 200);
const CLUSTERS = arg('clusters', 100);
const K = 10;
const M = 16;
const EF_CONSTRUCTION = 100;
/** The search efs to measure, from `--ef 300` or `--ef 300,450,600`. */
const EFS = ((): number[] => {
  const i = process.argv.indexOf('--ef');
  const list = i >= 0 ? process.argv[i + 1].split(',').map(Number) : [64];
  if (list.some((e) => !Number.isInteger(e) || e < 1)) throw new Error(`--ef takes positive integers separated by commas, got ${process.argv[i + 1]}`);
  return list;
})();
const EF = EFS[0];

function gaussian(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
}

/**
 * `count` unit vectors around `CLUSTERS` random centres, end to end in one Float32Array
 * (vector i at i * DIM): one buffer, not an object per vector, which at a million vectors
 * is a quarter of a gigabyte of headers.
 */
function clustered(count: number, seed: number, centres: Float32Array[]): Float32Array {
  const rnd = mulberry32(seed);
  const out = new Float32Array(count * DIM);
  for (let i = 0; i < count; i++) {
    const c = centres[Math.floor(rnd() * centres.length)];
    const at = i * DIM;
    let norm = 0;
    for (let j = 0; j < DIM; j++) {
      const x = Math.fround(c[j] + 0.35 * gaussian(rnd));
      out[at + j] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    for (let j = 0; j < DIM; j++) out[at + j] /= norm;
  }
  return out;
}

/** Vector `i` of `slab` (a view, no copy). */
const vec = (slab: Float32Array, i: number): Float32Array => slab.subarray(i * DIM, (i + 1) * DIM);

/** Vector `i` of `slab` as a plain array (what a JSON client sends and what hnswlib-node reads). */
const plain = (slab: Float32Array, i: number, into: number[] = new Array<number>(DIM)): number[] => {
  for (let j = 0, at = i * DIM; j < DIM; j++) into[j] = slab[at + j];
  return into;
};

function exactTopK(data: Float32Array, q: Float32Array, accept?: (i: number) => boolean): number[] {
  const best: { i: number; s: number }[] = [];
  const n = data.length / DIM;
  for (let i = 0; i < n; i++) {
    if (accept && !accept(i)) continue;
    const at = i * DIM;
    let s = 0;
    for (let j = 0; j < DIM; j++) s += data[at + j] * q[j];
    if (best.length < K || s > best[best.length - 1].s) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > K) best.pop();
    }
  }
  return best.map((b) => b.i);
}

function recall(got: number[], want: number[]): number {
  const w = new Set(want);
  return got.filter((x) => w.has(x)).length / Math.max(1, want.length);
}

const centreRnd = mulberry32(1);
const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: DIM }, () => gaussian(centreRnd)));
const data = clustered(N, 2, centres);
const queries = clustered(QUERIES, 3, centres);
console.log(`vectors: ${N} x ${DIM}, ${CLUSTERS} clusters, ${QUERIES} queries, k = ${K}, M = ${M}, efConstruction = ${EF_CONSTRUCTION}, ef = ${EFS.join(', ')}`);

/** Progress on stderr: the large sizes run for many minutes. */
const phase = (what: string): void => void process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${what}\n`);

/**
 * Memory after each stage (after a full GC when node runs with --expose-gc, so the heap
 * figures are live data, not garbage the collector has not reached yet): RSS, V8 heap, and
 * ArrayBuffer memory (typed arrays); the peak RSS so far. hnswlib's graphs are native
 * memory: they show in RSS only.
 */
const memoryRows: string[] = [];
function memory(stage: string): void {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const gb = (x: number): string => (x / 1e9).toFixed(2);
  const peak = process.resourceUsage().maxRSS * 1024;
  memoryRows.push(`| ${stage} | ${gb(m.rss)} | ${gb(m.heapUsed)} | ${gb(m.arrayBuffers)} | ${gb(peak)} |`);
  phase(`memory after ${stage}: rss ${gb(m.rss)} GB, heap ${gb(m.heapUsed)} GB, array buffers ${gb(m.arrayBuffers)} GB, peak rss ${gb(peak)} GB`);
}
memory('generated data');

// Exact brute force: the ground truth and the baseline.
phase('exact search (ground truth)');
let t = performance.now();
const queryVectors = Array.from({ length: QUERIES }, (_, i) => vec(queries, i));
const truth = queryVectors.map((q) => exactTopK(data, q));
const exactQps = QUERIES / seconds(t);
memory('exact search');

// Raw hnswlib-node.
phase('raw hnswlib build');
t = performance.now();
const raw = new hnswlib.HierarchicalNSW('cosine', DIM);
raw.initIndex(N, M, EF_CONSTRUCTION, 100);
const scratch = new Array<number>(DIM);
for (let i = 0; i < N; i++) {
  raw.addPoint(plain(data, i, scratch), i);
  if (i % 100_000 === 99_999) phase(`raw hnswlib build: ${i + 1} of ${N}`);
}
const rawBuild = seconds(t);
memory('raw hnswlib build');
// Both paths get the same plain arrays (what a JSON client sends and what hnswlib-node reads),
// so neither pays for a conversion the other skips.
const qArrays = Array.from({ length: QUERIES }, (_, i) => plain(queries, i));
const rawResults: number[][] = new Array<number[]>(QUERIES);
const rawQuery = (i: number): void => {
  rawResults[i] = raw.searchKnn(qArrays[i], K).neighbors;
};
// graphdb: nodes first, then CREATE VECTOR INDEX builds the index from the store.
phase('graphdb node load');
const db = Database.openInMemory();
t = performance.now();
const BATCH = 5000;
for (let start = 0; start < N; start += BATCH) {
  const docs = Array.from({ length: Math.min(BATCH, N - start) }, (_, j) => ({ i: start + j, sel: (start + j) % 100, v: plain(data, start + j) }));
  db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, sel: d.sel, v: d.v})', { docs });
}
const loadSeconds = seconds(t);
memory('graphdb node load');
phase('graphdb CREATE VECTOR INDEX');
t = performance.now();
db.executeSync(`CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.v) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}, \`vector.similarity_function\`: 'cosine', \`vector.hnsw.m\`: ${M}, \`vector.hnsw.ef_construction\`: ${EF_CONSTRUCTION}, \`vector.hnsw.ef_search\`: ${EF}}}`);
// A large index is built in the background (in slices between which the server goes on): wait for all of it.
db.executeSync("CALL db.awaitIndex('docs')");
const dbBuild = seconds(t);
memory('graphdb CREATE VECTOR INDEX');
const Q = "CALL db.index.vector.queryNodes('docs', 10, $q, {ef: $ef}) YIELD node, score RETURN node.i";
const qParams = qArrays.map((q) => ({ q }));
/** The same parameters with the ef of the pass under way. */
let efParams = qParams.map((p) => ({ ...p, ef: EF }));
db.executeSync(Q, efParams[0]); // compile once
const dbResults: number[][] = new Array<number[]>(QUERIES);
const dbQuery = (i: number): void => {
  dbResults[i] = db.executeSync(Q, efParams[i]).records.map((r) => r[0] as number);
};

// Kuzu: a typed node table loaded in batches through a prepared UNWIND, then its own HNSW
// index. Kuzu names the degrees per layer: ml (bottom layer) = 2·M, mu (upper layers) = M,
// which is what hnswlib uses for the same M.
const WITH_KUZU = !process.argv.includes('--no-kuzu');
const kz = WITH_KUZU ? new kuzu.Database(':memory:') : undefined;
const kzConn = kz ? new kuzu.Connection(kz) : undefined;
let kzLoadSeconds = NaN;
let kzBuild = NaN;
const kzResults: number[][] = new Array<number[]>(QUERIES).fill([]);
let kzQuery = async (_i: number): Promise<void> => undefined;
let kzSetEf = async (_ef: number): Promise<void> => undefined;
if (kzConn) {
  await kzConn.query(`CREATE NODE TABLE Doc(i INT64, v FLOAT[${DIM}], PRIMARY KEY(i))`);
  // Bulk load through COPY from a CSV file; the load time includes writing the file.
  t = performance.now();
  await kuzuCopy(kzConn, 'Doc', Array.from({ length: N }, (_, i) => `${i},"[${plain(data, i).join(',')}]"`));
  kzLoadSeconds = seconds(t);
  t = performance.now();
  await kzConn.query(`CALL CREATE_VECTOR_INDEX('Doc', 'docs', 'v', metric := 'cosine', mu := ${M}, ml := ${2 * M}, efc := ${EF_CONSTRUCTION})`);
  kzBuild = seconds(t);
  kzSetEf = async (ef: number): Promise<void> => {
    const kzSearch = await kzConn.prepare(`CALL QUERY_VECTOR_INDEX('Doc', 'docs', $q, ${K}, efs := ${ef}) RETURN node.i`);
    const kzRows = async (params: Record<string, kuzu.KuzuValue>): Promise<Record<string, kuzu.KuzuValue>[]> => {
      const result = await kzConn.execute(kzSearch, params);
      return (Array.isArray(result) ? result[0] : result).getAll();
    };
    kzQuery = async (i: number): Promise<void> => {
      kzResults[i] = (await kzRows(qParams[i])).map((r) => Number(r['node.i']));
    };
    await kzQuery(0);
  };
}

/**
 * Throughput of the three paths at one ef, measured interleaved in blocks of BLOCK queries
 * over ROUNDS passes, so that load from elsewhere on the (shared) machine hits both alike:
 * each path's QPS is its query count over the time spent in its own blocks. The per-query
 * median ratio is printed too; it is the figure least moved by a burst of outside load.
 */
const BLOCK = 20;
const ROUNDS = 3;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const meanRecall = (results: number[][]): number => results.reduce((s, r, i) => s + recall(r, truth[i]), 0) / QUERIES;
const f = (x: number, d = 2): string => x.toFixed(d);

interface EfPass {
  ef: number;
  rawRecall: number;
  dbRecall: number;
  kzRecall: number;
  rawQps: number;
  dbQps: number;
  kzQps: number;
  rawTimes: number[];
  dbTimes: number[];
  kzTimes: number[];
}

async function measure(ef: number): Promise<EfPass> {
  raw.setEf(ef);
  efParams = qParams.map((p) => ({ ...p, ef }));
  await kzSetEf(ef);
  const rawTimes: number[] = [];
  const dbTimes: number[] = [];
  const kzTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let start = 0; start < QUERIES; start += BLOCK) {
      const end = Math.min(QUERIES, start + BLOCK);
      // The engine that searches a block second finds part of the graph in the CPU caches (the
      // same queries just ran), so the order alternates from block to block.
      const pair = [[rawQuery, rawTimes], [dbQuery, dbTimes]] as const;
      for (const [run, times] of (start / BLOCK + round) % 2 === 0 ? pair : [pair[1], pair[0]]) {
        for (let i = start; i < end; i++) {
          const t0 = performance.now();
          run(i);
          times.push(performance.now() - t0);
        }
      }
      for (let i = start; i < end && WITH_KUZU; i++) {
        const t0 = performance.now();
        await kzQuery(i);
        kzTimes.push(performance.now() - t0);
      }
    }
  }
  return {
    ef,
    rawRecall: meanRecall(rawResults),
    dbRecall: meanRecall(dbResults),
    kzRecall: meanRecall(kzResults),
    rawQps: (rawTimes.length * 1000) / sum(rawTimes),
    dbQps: (dbTimes.length * 1000) / sum(dbTimes),
    kzQps: (kzTimes.length * 1000) / sum(kzTimes),
    rawTimes,
    dbTimes,
    kzTimes,
  };
}

// VECTOR_BENCH_PROFILE=<file.cpuprofile> records a CPU profile of the query phase only (the builds would swamp it).
const profileFile = process.env.VECTOR_BENCH_PROFILE;
const profiler = profileFile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
phase('warm-up pass (not counted)');
await measure(EF);
const passes: EfPass[] = [];
for (const ef of EFS) {
  phase(`queries at ef ${ef}`);
  const pass = await measure(ef);
  passes.push(pass);
  phase(`ef ${ef}: recall raw ${f(pass.rawRecall, 3)}, graphdb ${f(pass.dbRecall, 3)}; QPS raw ${f(pass.rawQps, 0)}, graphdb ${f(pass.dbQps, 0)}`);
}
if (profiler && profileFile) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
}

console.log(`\nexact brute force (Float32Array loop): recall 1.000, ${f(exactQps, 0)} QPS`);
console.log(`build: raw hnswlib ${f(rawBuild, 1)} s; graphdb ${f(dbBuild, 1)} s (+ ${f(loadSeconds, 1)} s node load)${WITH_KUZU ? `; Kuzu ${f(kzBuild, 1)} s (+ ${f(kzLoadSeconds, 1)} s node load)` : ''}`);
console.log(`\n| ef | raw recall@10 | raw QPS | graphdb recall@10 | graphdb QPS | graphdb vs raw QPS | median latency raw / graphdb (µs) | graphdb QPS vs exact |${WITH_KUZU ? ' Kuzu recall@10 | Kuzu QPS |' : ''}`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |${WITH_KUZU ? ' --- | --- |' : ''}`);
for (const p of passes) {
  const kz = WITH_KUZU ? ` ${f(p.kzRecall, 3)} | ${f(p.kzQps, 0)} |` : '';
  console.log(
    `| ${p.ef} | ${f(p.rawRecall, 3)} | ${f(p.rawQps, 0)} | ${f(p.dbRecall, 3)} | ${f(p.dbQps, 0)} | ${f(p.dbQps / p.rawQps)}× | ${f(median(p.rawTimes) * 1000, 0)} / ${f(median(p.dbTimes) * 1000, 0)} | ${f(p.dbQps / exactQps)}× |${kz}`,
  );
}
/** Each engine at the smallest ef whose recall reaches the target, if any does. */
const TARGET = 0.95;
const atTarget = (recallOf: (p: EfPass) => number): EfPass | undefined => passes.filter((p) => recallOf(p) >= TARGET).sort((a, b) => a.ef - b.ef)[0];
const rawAt = atTarget((p) => p.rawRecall);
const dbAt = atTarget((p) => p.dbRecall);
const show = (p: EfPass | undefined, qps: (p: EfPass) => number): string => (p ? `${f(qps(p), 0)} (ef ${p.ef})` : `not reached (ef ≤ ${Math.max(...EFS)})`);
console.log(
  `\nQPS at recall ≥ ${TARGET}: graphdb ${show(dbAt, (p) => p.dbQps)}, raw ${show(rawAt, (p) => p.rawQps)}, ratio ${dbAt && rawAt ? `${f(dbAt.dbQps / rawAt.rawQps)}×` : 'n/a'}`,
);
if (WITH_KUZU) {
  const kzAt = atTarget((p) => p.kzRecall);
  console.log(`Kuzu QPS at recall ≥ ${TARGET}: ${show(kzAt, (p) => p.kzQps)}`);
}

phase('filtered queries');
console.log('\n| filter (YIELD … WHERE node.sel < p) | selectivity | rows returned (of 10) | recall@10 vs exact filtered | QPS | strategy shown by EXPLAIN |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const pct of [1, 10, 50]) {
  const FQ = `CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score WHERE node.sel < ${pct} RETURN node.i`;
  db.executeSync(FQ, qParams[0]);
  const subset = qParams.slice(0, Math.min(QUERIES, 50));
  t = performance.now();
  const got = subset.map((p) => db.executeSync(FQ, p).records.map((r) => r[0] as number));
  const qps = subset.length / seconds(t);
  const want = subset.map((_, i) => exactTopK(data, queryVectors[i], (j) => j % 100 < pct));
  const rec = got.reduce((s, r, i) => s + recall(r, want[i]), 0) / subset.length;
  const rowsReturned = got.reduce((s, r) => s + r.length, 0) / subset.length;
  const plan = String(db.executeSync(`EXPLAIN ${FQ}`, qParams[0]).records[0][0]).match(/ProcedureCall[^\n]*/)?.[0] ?? '';
  console.log(`| sel < ${pct} | ${pct} % | ${f(rowsReturned, 1)} | ${f(rec, 3)} | ${f(qps, 0)} | ${plan.replace('ProcedureCall db.index.vector.queryNodes ', '')} |`);
}
memory('filtered queries');
console.log('\n| memory after stage | RSS (GB) | V8 heap (GB) | array buffers (GB) | peak RSS so far (GB) |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of memoryRows) console.log(row);
db.close();
await kzConn?.close();
await kz?.close();
