/**
 * Micro-benchmarks of the engine's core paths, run in one process through the public
 * `Database` facade: bulk node creation, relationship creation (the quadratic
 * match-by-property path and an index-free linear path), the store's memory per created
 * node and relationship, a filtered label scan, 2-hop
 * expansion on a seeded power-law graph, grouping aggregation, and query compile time versus
 * plan-cache hits. Prints one Markdown table. See bench/README.md for what each row means.
 *
 *   npm run bench:micro [-- --scale <factor>] [--only <name>[,<name>]] [--runs <n>]
 */

import { Database } from '../src/engine/database.js';
import type { Node } from '../src/store/entities.js';
import type { Value } from '../runtime/values.js';
import {
  compact,
  formatMs,
  heapUsed,
  markdownTable,
  median,
  mulberry32,
  randInt,
  parseArgs,
  timed,
  type BenchOptions,
  type BenchResult,
} from './micro/harness.js';
import {
  chunks,
  degreeSummary,
  pairSlice,
  personRows,
  preferentialAttachment,
  twoHopCount,
  twoHopDistinct,
  type EdgeList,
  type PersonRow,
} from './micro/graphgen.js';

const opts: BenchOptions = parseArgs(process.argv.slice(2));
const S = opts.scale;
const scaled = (n: number, min = 1): number => Math.max(min, Math.round(n * S));
const runsOf = (n: number): number => opts.runs ?? n;
const selected = (name: string): boolean => opts.only.length === 0 || opts.only.some((f) => name.includes(f));

const SEED = 20240611;

/** Default sizes at scale 1. */
const N_BULK = scaled(1_000_000, 1000);
const BATCH = Math.min(10_000, N_BULK);
const N_PL_NODES = scaled(100_000, 100);
const N_PL_RELS = scaled(1_000_000, 1000);
const PL_BATCH = 100_000;
/** The match-by-property relationship path is O(nodes) per lookup: two sizes show its growth. */
const QUAD_SIZES = [scaled(2_500, 100), scaled(10_000, 200)];
const QUAD_BATCH = 1000;
const COMPILE_TEXTS = scaled(300, 30);
/** One start node in SAMPLE_EVERY is used for the count(DISTINCT c) benchmark. */
const SAMPLE_EVERY = 100;

const Q = {
  bulkCreate: 'UNWIND $batch AS x CREATE (:Person {id: x.id, name: x.name, age: x.age})',
  rangeCreate: 'UNWIND range(1, $n) AS i CREATE (:N {id: i})',
  relsByProperty: 'UNWIND $pairs AS p MATCH (a:Person {id: p[0]}), (b:Person {id: p[1]}) CREATE (a)-[:KNOWS]->(b)',
  relsByIdFunction: 'UNWIND $pairs AS p MATCH (a:Person), (b:Person) WHERE id(a) = p[0] AND id(b) = p[1] CREATE (a)-[:KNOWS]->(b)',
  relsByCollect:
    'MATCH (a:Person) WITH collect(a) AS ps UNWIND $pairs AS p WITH ps[p[0]] AS a, ps[p[1]] AS b CREATE (a)-[:KNOWS]->(b)',
  personNodes: 'UNWIND range(0, $n - 1) AS i CREATE (:Person {id: i, age: i % 80})',
  scanFilter: 'MATCH (p:Person) WHERE p.age > 30 RETURN count(*)',
  groupBy: 'MATCH (p:Person) RETURN p.age AS age, count(*) AS c, avg(p.id) AS m',
  twoHop: 'MATCH (a:Person)-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(*)',
  twoHopDistinct: 'MATCH (a:Person)-[:KNOWS]->()-[:KNOWS]->(c) WHERE a.id % $every = 0 RETURN count(DISTINCT c)',
};

const results: BenchResult[] = [];
const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};

function single(db: Database, query: string, params?: Record<string, unknown>): Value {
  const { records } = db.executeSync(query, params);
  return records[0]?.[0] ?? null;
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

// ------------------------------------------------------------------ 1. bulk node creation

/** Loads Person rows in batches; returns the database. */
function loadPersons(batches: readonly PersonRow[][]): Database {
  const db = Database.openInMemory();
  for (const batch of batches) db.executeSync(Q.bulkCreate, { batch });
  return db;
}

let personDb: Database | undefined;
let personRowsCache: PersonRow[] | undefined;

function persons(): PersonRow[] {
  personRowsCache ??= personRows(0, N_BULK, SEED);
  return personRowsCache;
}

/** The 1M-Person graph the read benchmarks use: the last one `create-nodes-batched` built, or a fresh load. */
function personGraph(): Database {
  personDb ??= loadPersons(chunks(persons(), BATCH));
  return personDb;
}

if (selected('create-nodes-batched')) {
  log(`create-nodes-batched: ${compact(N_BULK)} nodes`);
  const batches = chunks(persons(), BATCH);
  const warmBatches = batches.slice(0, Math.max(1, batches.length >> 3));
  results.push(
    timed({
      name: 'create-nodes-batched',
      size: `${compact(N_BULK)} nodes, ${compact(BATCH)}/query`,
      unit: 'nodes',
      work: N_BULK,
      runs: runsOf(3),
      warm: () => void loadPersons(warmBatches),
      setup: () => {
        personDb = undefined;
        return batches;
      },
      run: (bs) => {
        personDb = loadPersons(bs);
        return personDb.graph.nodeCount;
      },
      check: (n) => expectEqual('nodes created', n, N_BULK),
      note: '`UNWIND $batch AS x CREATE (:Person {…3 props})`',
    }),
  );
}

if (selected('create-nodes-range')) {
  log(`create-nodes-range: ${compact(N_BULK)} nodes in one query`);
  results.push(
    timed({
      name: 'create-nodes-range',
      size: `${compact(N_BULK)} nodes, 1 query`,
      unit: 'nodes',
      work: N_BULK,
      runs: runsOf(3),
      warm: () => void Database.openInMemory().executeSync(Q.rangeCreate, { n: Math.max(1, N_BULK >> 3) }),
      setup: () => Database.openInMemory(),
      run: (db) => db.executeSync(Q.rangeCreate, { n: N_BULK }).stats.nodesCreated,
      check: (n) => expectEqual('nodes created', n, N_BULK),
      note: '`UNWIND range(1, n) AS i CREATE (:N {id: i})`, one transaction',
    }),
  );
}

// ------------------------------------------------------------------ 2. relationship creation

/** A database holding `n` Person nodes with `id` 0..n-1 (and node ids 0..n-1). */
function personsOnly(n: number): Database {
  const db = Database.openInMemory();
  db.executeSync(Q.personNodes, { n });
  return db;
}

function relBatches(edges: EdgeList, batch: number): [number, number][][] {
  const out: [number, number][][] = [];
  for (let i = 0; i < edges.src.length; i += batch) out.push(pairSlice(edges, i, i + batch));
  return out;
}

for (const [variant, query] of [
  ['create-rels-match-prop', Q.relsByProperty],
  ['create-rels-match-id', Q.relsByIdFunction],
] as const) {
  if (!selected(variant)) continue;
  // The id() variant is only measured at the larger size: it shows the same shape.
  const sizes = variant === 'create-rels-match-prop' ? QUAD_SIZES : QUAD_SIZES.slice(-1);
  for (const n of sizes) {
    log(`${variant}: ${compact(n)} nodes, ${compact(n)} rels`);
    const edges = preferentialAttachment(n, n, SEED + 1);
    const batches = relBatches(edges, QUAD_BATCH);
    const large = n === QUAD_SIZES[QUAD_SIZES.length - 1];
    results.push(
      timed({
        name: variant,
        size: `${compact(n)} nodes, ${compact(n)} rels`,
        unit: 'rels',
        work: n,
        runs: runsOf(large ? 1 : 3),
        warm: () => {
          const db = personsOnly(Math.min(n, 500));
          db.executeSync(query, { pairs: pairSlice(preferentialAttachment(500, 500, SEED), 0, 500) });
        },
        setup: () => personsOnly(n),
        run: (db) => {
          for (const pairs of batches) db.executeSync(query, { pairs });
          return db.graph.relCount;
        },
        check: (r) => expectEqual('relationships created', r, n),
        note: 'O(nodes) scan per lookup → quadratic; an index seek fixes it',
      }),
    );
  }
}

let plDb: Database | undefined;
let plEdges: EdgeList | undefined;

function powerLawEdges(): EdgeList {
  plEdges ??= preferentialAttachment(N_PL_NODES, N_PL_RELS, SEED + 2);
  return plEdges;
}

/** Builds the power-law graph: Person nodes by one query, relationships by collect-and-index in batches. */
function buildPowerLaw(db: Database, batches: readonly [number, number][][]): void {
  for (const pairs of batches) db.executeSync(Q.relsByCollect, { pairs });
}

function powerLawGraph(): Database {
  if (!plDb) {
    const db = personsOnly(N_PL_NODES);
    buildPowerLaw(db, relBatches(powerLawEdges(), PL_BATCH));
    plDb = db;
  }
  return plDb;
}

if (selected('create-rels-collect')) {
  const edges = powerLawEdges();
  const { maxOut, maxIn } = degreeSummary(edges);
  log(`create-rels-collect: ${compact(N_PL_NODES)} nodes, ${compact(edges.src.length)} rels (max out ${maxOut}, max in ${maxIn})`);
  const batches = relBatches(edges, PL_BATCH);
  results.push(
    timed({
      name: 'create-rels-collect',
      size: `${compact(edges.src.length)} rels on ${compact(N_PL_NODES)} nodes, ${compact(PL_BATCH)}/query`,
      unit: 'rels',
      work: edges.src.length,
      runs: runsOf(3),
      warm: () => buildPowerLaw(personsOnly(N_PL_NODES), batches.slice(0, 1)),
      setup: () => {
        plDb = undefined;
        return personsOnly(N_PL_NODES);
      },
      run: (db) => {
        buildPowerLaw(db, batches);
        plDb = db;
        return db.graph.relCount;
      },
      check: (r) => expectEqual('relationships created', r, edges.src.length),
      note: '`MATCH (a:Person) WITH collect(a) AS ps UNWIND $pairs …ps[p[0]]…` — linear',
    }),
  );
}

// ------------------------------------------------------------------ 2b. store memory per entity

/**
 * Bytes per entity straight through the store API (no query engine): what a created node or
 * relationship keeps on the heap once committed, and what one costs while its transaction
 * is open (undo log and change records included) and while the records are held after the
 * commit (as the WAL's group commit does). Nodes: one label and an `id` property (the
 * caller's map is copied, as the API promises); relationships: one type, no properties,
 * uniformly random ends over the nodes, so most nodes have one or two per direction.
 */
function storeMemory(kind: 'nodes' | 'rels', n: number): BenchResult {
  const db = Database.openInMemory();
  const g = db.graph;
  const rand = mulberry32(SEED + 3);
  const ends: Node[] = [];
  if (kind === 'rels') {
    g.transact((tx) => {
      for (let i = 0; i < n; i++) ends.push(tx.createNode(['Person'], new Map<string, Value>([['id', i]])));
    });
  }
  const base = heapUsed();
  g.begin();
  const t0 = performance.now();
  if (kind === 'nodes') for (let i = 0; i < n; i++) g.createNode(['Person'], new Map<string, Value>([['id', i]]));
  else for (let i = 0; i < n; i++) g.createRel('KNOWS', ends[randInt(rand, n)], ends[randInt(rand, n)], new Map());
  const ms = performance.now() - t0;
  const inTx = heapUsed();
  const commit = (): number => {
    const records = g.commit();
    const bytes = heapUsed();
    expectEqual('records', records.length, n);
    return bytes;
  };
  const withRecords = commit();
  const kept = heapUsed();
  const per = (bytes: number): string => `${Math.round(bytes / n)} B`;
  const unit = kind === 'nodes' ? 'node' : 'rel';
  return {
    name: `store-memory-${kind}`,
    size: `${compact(n)} ${kind}, 1 transaction`,
    runs: 1,
    medianMs: ms,
    minMs: ms,
    maxMs: ms,
    work: n,
    unit: kind,
    heapBytes: kept,
    heapDeltaBytes: kept - base,
    note: `kept ${per(kept - base)}/${unit}; open transaction ${per(inTx - base)}/${unit}; committed with records held ${per(withRecords - base)}/${unit}`,
  };
}

if (selected('create-store-memory')) {
  for (const kind of ['nodes', 'rels'] as const) {
    log(`create-store-memory: ${compact(N_BULK)} ${kind}`);
    storeMemory(kind, Math.max(1000, N_BULK >> 3)); // warm-up
    results.push(storeMemory(kind, N_BULK));
  }
}

// ------------------------------------------------------------------ 3. label scan + filter

/** A read-only benchmark: warm-up plus `runs` executions of one query on a prepared graph. */
function readBench(name: string, size: string, rows: number, db: () => Database, query: string, expected: () => unknown, note: string, params?: Record<string, unknown>): void {
  if (!selected(name)) return;
  const database = db();
  log(`${name}: ${size}`);
  const want = expected();
  results.push(
    timed({
      name,
      size,
      unit: 'rows',
      work: rows,
      runs: runsOf(5),
      setup: () => database,
      run: (d) => single(d, query, params),
      check: (v) => expectEqual(name, v, want),
      note,
    }),
  );
}

readBench(
  'scan-filter-count',
  `${compact(N_BULK)} nodes`,
  N_BULK,
  personGraph,
  Q.scanFilter,
  () => persons().filter((p) => p.age > 30).length,
  '`MATCH (p:Person) WHERE p.age > 30 RETURN count(*)`',
);

// ------------------------------------------------------------------ 4. 2-hop expansion

readBench(
  'two-hop-count',
  `${compact(N_PL_NODES)} nodes, ${compact(N_PL_RELS)} rels`,
  twoHopCountIfSelected(),
  powerLawGraph,
  Q.twoHop,
  () => twoHopCount(powerLawEdges()),
  'rows = 2-hop paths counted',
);

function twoHopCountIfSelected(): number {
  return selected('two-hop-count') ? twoHopCount(powerLawEdges()) : 0;
}

readBench(
  'two-hop-distinct-sample',
  `${compact(N_PL_NODES)} nodes, ${compact(N_PL_RELS)} rels, 1/${SAMPLE_EVERY} starts`,
  N_PL_NODES,
  powerLawGraph,
  Q.twoHopDistinct,
  () => twoHopDistinct(powerLawEdges(), (v) => v % SAMPLE_EVERY === 0),
  '`… WHERE a.id % 100 = 0 RETURN count(DISTINCT c)`; rows = nodes scanned',
  { every: SAMPLE_EVERY },
);

// ------------------------------------------------------------------ 5. grouping aggregation

/** `--corrupt-check`: the first group's average off by one, to show that the check reads the values. */
function corruptGroups(rows: Value[][]): Value[][] {
  return rows.map((r, i) => (i === 0 ? [r[0], r[1], Number(r[2]) + 1] : r));
}

if (selected('group-by-age')) {
  const db = personGraph();
  log(`group-by-age: ${compact(N_BULK)} nodes`);
  // Each group's count and average computed here from the generated rows: the check compares
  // every group's values, not only how many groups came back.
  const want = new Map<number, { c: number; sum: number }>();
  for (const p of persons()) {
    const g = want.get(p.age) ?? { c: 0, sum: 0 };
    g.c++;
    g.sum += p.id;
    want.set(p.age, g);
  }
  const groups = want.size;
  const checkGroups = (rows: unknown): void => {
    const records = rows as Value[][];
    expectEqual('groups', records.length, groups);
    for (const [age, c, m] of records) {
      const g = want.get(Number(age));
      if (g === undefined) throw new Error(`group-by-age: a group for age ${String(age)}, which no person has`);
      expectEqual(`count(*) for age ${String(age)}`, Number(c), g.c);
      const avg = g.sum / g.c;
      if (Math.abs(Number(m) - avg) > 1e-9 * Math.abs(avg)) throw new Error(`group-by-age: avg(p.id) for age ${String(age)}: expected ${avg}, got ${String(m)}`);
    }
  };
  results.push(
    timed({
      name: 'group-by-age',
      size: `${compact(N_BULK)} nodes → ${groups} groups`,
      unit: 'rows',
      work: N_BULK,
      runs: runsOf(5),
      setup: () => db,
      run: (d) => d.executeSync(Q.groupBy).records,
      check: (rows) => checkGroups(opts.corruptCheck === true ? corruptGroups(rows as Value[][]) : rows),
      note: '`RETURN p.age AS age, count(*) AS c, avg(p.id) AS m`',
    }),
  );
}

// ------------------------------------------------------------------ 5b. what a property index buys

/**
 * Point lookups by a property, first by label scan (no index), then through a property
 * index on the same graph: the ratio of the two medians is what the index buys.
 */
if (selected('point-lookup')) {
  const db = personGraph();
  const rows = persons();
  const lookupQuery = 'MATCH (p:Person {id: $id}) RETURN p.age AS age';
  const lookups = (d: Database, n: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const row = rows[(i * 7919) % rows.length];
      sum += Number(single(d, lookupQuery, { id: row.id }));
    }
    return sum;
  };
  const expected = (n: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rows[(i * 7919) % rows.length].age;
    return sum;
  };
  const scanLookups = 20;
  const indexLookups = 20_000;
  log(`point-lookup: ${compact(N_BULK)} nodes, without and with an index on :Person(id)`);
  db.executeSync('DROP INDEX person_id_bench IF EXISTS');
  results.push(
    timed({
      name: 'point-lookup-scan',
      size: `${compact(N_BULK)} nodes, no index, ${scanLookups} lookups`,
      unit: 'lookups',
      work: scanLookups,
      runs: runsOf(3),
      setup: () => db,
      run: (d) => lookups(d, scanLookups),
      check: (v) => expectEqual('point-lookup-scan', v, expected(scanLookups)),
      note: '`MATCH (p:Person {id: $id}) RETURN p.age` by label scan',
    }),
  );
  db.executeSync('CREATE INDEX person_id_bench FOR (p:Person) ON (p.id)');
  results.push(
    timed({
      name: 'point-lookup-index',
      size: `${compact(N_BULK)} nodes, index on :Person(id), ${compact(indexLookups)} lookups`,
      unit: 'lookups',
      work: indexLookups,
      runs: runsOf(3),
      setup: () => db,
      run: (d) => lookups(d, indexLookups),
      check: (v) => expectEqual('point-lookup-index', v, expected(indexLookups)),
      note: 'same query through NodeIndexSeek',
    }),
  );
  db.executeSync('DROP INDEX person_id_bench');
}

// ------------------------------------------------------------------ 6. compile vs cache hit

/** A mid-size query; `k` makes each text distinct without changing its shape. */
function compileText(k: number, shape: string): string {
  return (
    `MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.age > ${k} AND f.name STARTS WITH '${shape}' ` +
    `WITH p, count(f) AS friends, collect(f.age) AS ages WHERE friends > 1 ` +
    `RETURN p.name AS name, friends, reduce(s = 0, a IN ages | s + a) / friends AS meanAge ` +
    `ORDER BY friends DESC, name LIMIT 10`
  );
}

if (selected('compile')) {
  log(`compile: ${COMPILE_TEXTS} distinct query texts`);
  const db = Database.openInMemory();
  db.executeSync(
    'UNWIND range(0, 199) AS i CREATE (:Person {id: i, name: "p" + i, age: i % 80})-[:KNOWS]->(:Person {id: 1000 + i, name: "q" + i, age: i % 50})',
  );
  const heapBefore = heapUsed();
  // Warm the compiler itself (parser, planner, code generator) on texts that are never reused.
  for (let k = 0; k < 30; k++) db.executeSync(compileText(k, 'warm'));
  const first: number[] = [];
  const hit: number[] = [];
  for (let k = 0; k < COMPILE_TEXTS; k++) {
    const text = compileText(k, 'p');
    const t0 = performance.now();
    db.executeSync(text);
    const t1 = performance.now();
    db.executeSync(text);
    const t2 = performance.now();
    first.push(t1 - t0);
    hit.push(t2 - t1);
  }
  // The graph is tiny (400 nodes), so execution is a small, equal part of both numbers.
  const heap = heapUsed();
  const heapDelta = heap - heapBefore;
  const row = (name: string, times: number[], note: string): BenchResult => ({
    name,
    size: `${COMPILE_TEXTS} texts`,
    runs: times.length,
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    work: 1,
    unit: 'queries',
    heapBytes: heap,
    heapDeltaBytes: heapDelta,
    note,
  });
  results.push(row('compile-first-run', first, 'parse + check + plan + codegen + new Function + run; 3-clause query'));
  results.push(row('compile-cache-hit', hit, 'same text again: cache lookup + run'));
  log(`compile: median first run ${formatMs(median(first))}, cache hit ${formatMs(median(hit))}`);
}

// ------------------------------------------------------------------ report

console.log(`\n## graphdb micro-benchmarks (scale ${S}, node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`);
console.log(markdownTable(results));
