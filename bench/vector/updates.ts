/**
 * Vector updates: single-row writes that change an indexed vector, and what they leave
 * behind for searches. Loads N random vectors, then times U single-row `SET n.e = $e`
 * updates, Q top-10 searches, and the searches' recall@10 against an exact scan.
 *
 *   node dist/bench/vector/updates.js [--n 20000] [--dim 128] [--updates 5000] [--queries 300]
 */

import { Database } from '../../src/engine/database.js';
import { arg, mulberry32 } from './common.js';

const N = arg('n', 20_000);
const DIM = arg('dim', 128);
const UPDATES = arg('updates', 5_000);
const QUERIES = arg('queries', 300);
const rnd = mulberry32(7);
const vec = (): number[] => Array.from({ length: DIM }, rnd);

const db = Database.openInMemory();
db.executeSync(`CREATE VECTOR INDEX v FOR (n:V) ON (n.e) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}, \`vector.similarity_function\`: 'cosine'}}`);
let t = performance.now();
for (let b = 0; b < N; b += 1000) {
  const vs = Array.from({ length: Math.min(1000, N - b) }, (_, j) => ({ i: b + j, e: vec() }));
  db.executeSync('UNWIND $vs AS v CREATE (:V {i: v.i, e: v.e})', { vs });
}
const load = performance.now() - t;
db.executeSync('CREATE INDEX FOR (n:V) ON (n.i)');
t = performance.now();
for (let u = 0; u < UPDATES; u++) db.executeSync('MATCH (n:V {i: $i}) SET n.e = $e', { i: Math.floor(rnd() * N), e: vec() });
const update = (performance.now() - t) / UPDATES;
const queries = Array.from({ length: QUERIES }, vec);
const search = (q: number[]): number[] => db.executeSync("CALL db.index.vector.queryNodes('v', 10, $q) YIELD node RETURN id(node)", { q }).records.map((r) => r[0] as number);
t = performance.now();
for (const q of queries) search(q);
const query = (performance.now() - t) / QUERIES;
let found = 0;
const checked = queries.slice(0, 50);
for (const q of checked) {
  const exact = db.executeSync('MATCH (n:V) RETURN id(n) ORDER BY vector.similarity.cosine(n.e, $q) DESC LIMIT 10', { q }).records.map((r) => r[0] as number);
  found += search(q).filter((id) => exact.includes(id)).length;
}
console.log(
  `${N} x ${DIM}: load ${load.toFixed(0)} ms; ${UPDATES} single-row updates ${(update * 1000).toFixed(0)} µs each; ` +
    `top-10 search ${(query * 1000).toFixed(0)} µs; recall@10 ${(found / (10 * checked.length)).toFixed(3)}`,
);
db.close();
