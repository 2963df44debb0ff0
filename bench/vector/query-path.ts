/**
 * Where the time of one `db.index.vector.queryNodes` call through the query language goes,
 * layer by layer, against raw hnswlib-node on the same vectors (same M, efConstruction, ef):
 * raw `searchKnn`, the vector index's own `search`, the whole Cypher call, and the fixed cost
 * of a Cypher call that only receives the same query vector as a parameter. Every layer runs
 * on every query, interleaved (so outside load hits all alike); prints mean and
 * median microseconds per query and each layer's cost above raw hnswlib.
 *
 *   node --import tsx bench/vector/query-path.ts [--n 5000] [--dim 384] [--queries 200] [--rounds 10]
 */

import hnswlib from 'hnswlib-node';
import { Database } from '../../src/engine/database.js';
import type { VectorIndex } from '../../src/vector/hnsw-index.js';
import { arg, mulberry32 } from './common.js';

const N = arg('n', 5000);
const DIM = arg('dim', 384);
const QUERIES = arg('queries', 200);
const ROUNDS = arg('rounds', 10);
const rnd = mulberry32(5);
const unit = (): number[] => {
  const v = Array.from({ length: DIM }, () => rnd() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const data = Array.from({ length: N }, unit);
const queries = Array.from({ length: QUERIES }, unit);

const raw = new hnswlib.HierarchicalNSW('cosine', DIM);
raw.initIndex(N, 16, 100, 100);
data.forEach((v, i) => raw.addPoint(v, i));
raw.setEf(64);
const db = Database.openInMemory();
for (let s = 0; s < N; s += 2000) db.executeSync('UNWIND $d AS d CREATE (:Doc {i: d.i, v: d.v})', { d: data.slice(s, s + 2000).map((v, j) => ({ i: s + j, v })) });
db.executeSync(`CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.v) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}, \`vector.hnsw.m\`: 16, \`vector.hnsw.ef_construction\`: 100}}`);
db.executeSync("CALL db.awaitIndex('docs')"); // a large index is built in the background: measure the finished one
const index = db.schema.extensionIndex('docs') as VectorIndex;

const layers: [string, (q: number[]) => unknown][] = [
  ['raw hnswlib searchKnn', (q) => raw.searchKnn(q, 10)],
  ['VectorIndex.search', (q) => index.search(q, 10, 10)],
  ["Cypher CALL queryNodes … RETURN node.i", (q) => db.executeSync("CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score RETURN node.i", { q })],
  ['Cypher RETURN size($q) (fixed cost)', (q) => db.executeSync('RETURN size($q) AS n', { q })],
];
const times = layers.map(() => [] as number[]);
for (const [, run] of layers) for (const q of queries.slice(0, 20)) run(q);
// At step i, layer l searches query (i + l·stride): no layer searches a vector another has just
// searched (that one would find the graph's nodes in the CPU caches, favouring whichever
// layer comes second); over a round every layer searches every query once.
const stride = Math.floor(QUERIES / layers.length);
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < QUERIES; i++) {
    for (let l = 0; l < layers.length; l++) {
      const q = queries[(i + l * stride) % QUERIES];
      const t = performance.now();
      layers[l][1](q);
      times[l].push(performance.now() - t);
    }
  }
}
const mean = (xs: number[]): number => (xs.reduce((a, b) => a + b, 0) / xs.length) * 1000;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] * 1000;
console.log(`${N} x ${DIM} vectors, ${QUERIES} queries x ${ROUNDS} rounds, k = 10, ef = 64\n`);
console.log('| layer | mean µs | median µs | mean above raw µs | raw QPS / this QPS |');
console.log('| --- | --- | --- | --- | --- |');
const rawMean = mean(times[0]);
for (let l = 0; l < layers.length; l++) {
  const m = mean(times[l]);
  console.log(`| ${layers[l][0]} | ${m.toFixed(1)} | ${median(times[l]).toFixed(1)} | ${l === 3 ? '–' : (m - rawMean).toFixed(1)} | ${l === 3 ? '–' : (rawMean / m).toFixed(2)} |`);
}
db.close();
