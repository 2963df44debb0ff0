/**
 * The column kernels of label scans (runtime/graph/column-scan.ts): range predicates on one
 * key (`scanRange`) and the candidates of ORDER BY … LIMIT on a column (`topKCandidates`)
 * must give exactly the rows the per-row code gives. Each query is compared with the same
 * query over `collect` + `UNWIND` (or a list comprehension), which no kernel can serve, on
 * columns of every kind: integers, floats with integral floats, NaN, -0 and infinities,
 * absent values, mixed kinds; on label sets that are one run of ids and sets that are not;
 * with ties, nulls, SKIP, LIMIT 0 and limits beyond the set.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database, importCsv } from '../../src/index.js';
import { seededRandom } from '../../procedures/algo/random.js';

type Params = Record<string, unknown>;
const rows = (db: Database, q: string, p: Params = {}) => db.executeSync(q, p).records;

/** Values of key `x` by kind; `undefined` leaves the key out. */
const KINDS: Record<string, (r: () => number, i: number) => unknown> = {
  ints: (r) => Math.floor(r() * 20) - 5,
  floats: (r, i) => [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY][i % 23] ?? Math.floor(r() * 40) / 4 - 3,
  sparse: (r) => (r() < 0.3 ? undefined : Math.floor(r() * 10)),
  mixed: (r, i) => (i % 7 === 0 ? `s${Math.floor(r() * 5)}` : i % 11 === 0 ? [1, 2] : Math.floor(r() * 10)),
};

/** A database whose `T` nodes carry `i` (their number) and `x` of one kind, made by Cypher, interleaved with `U` nodes when `interleave`. */
function cypherGraph(kind: string, n: number, interleave: boolean, seed: number): Database {
  const db = Database.openInMemory();
  const random = seededRandom(seed);
  const props = [...Array(n).keys()].map((i) => {
    const x = KINDS[kind](random, i);
    return x === undefined ? { i } : { i, x };
  });
  db.executeSync(`UNWIND $props AS p CREATE (t:T {i: p.i}) SET t.x = p.x ${interleave ? 'CREATE (:U {x: p.x})' : ''}`, { props });
  // Floats written as floats even when integral (1.0): a float column with integral values.
  if (kind === 'floats') db.executeSync('MATCH (t:T) WHERE t.i % 5 = 0 SET t.x = toFloat(t.i % 3)');
  return db;
}

const KERNEL_RANGE = 'rt.scanRange(';
const KERNEL_TOP = 'rt.topKCandidates(';

function checkRange(db: Database, where: string, p: Params): void {
  const q = `MATCH (t:T) WHERE ${where} RETURN t.i AS i`;
  expect(db.generatedSource(q)).toContain(KERNEL_RANGE);
  const reference = `MATCH (t:T) WITH collect(t) AS ts RETURN [t IN ts WHERE ${where} | t.i] AS ids`;
  expect(db.generatedSource(reference)).not.toContain(KERNEL_RANGE);
  const expected = rows(db, reference, p)[0][0] as unknown[];
  expect(rows(db, q, p).map((r) => r[0]), `${where} ${String(Object.values(p))}`).toEqual(expected);
  expect(Number(rows(db, `MATCH (t:T) WHERE ${where} RETURN count(*) AS n`, p)[0][0])).toBe(expected.length);
}

function checkTopK(db: Database, order: string, skip: number, limit: number, returned = 't.i AS i, t.x AS x'): void {
  const tail = `ORDER BY ${order}${skip ? ` SKIP ${skip}` : ''} LIMIT ${limit}`;
  const q = `MATCH (t:T) RETURN ${returned} ${tail}`;
  expect(db.generatedSource(q)).toContain(KERNEL_TOP);
  const reference = `MATCH (t:T) WITH collect(t) AS ts UNWIND ts AS t RETURN ${returned} ${tail}`;
  expect(db.generatedSource(reference)).not.toContain(KERNEL_TOP);
  expect(rows(db, q), q).toEqual(rows(db, reference));
}

const RANGES: [string, (r: () => number) => Params][] = [
  ['t.x >= $lo AND t.x < $hi', (r) => ({ lo: Math.floor(r() * 10) - 3, hi: Math.floor(r() * 12) })],
  ['t.x > $lo AND t.x <= $hi', (r) => ({ lo: r() * 8 - 3, hi: r() * 10 })],
  ['$lo < t.x AND $hi >= t.x', (r) => ({ lo: Math.floor(r() * 8) - 3, hi: Math.floor(r() * 10) })],
  ['t.x > $lo', (r) => ({ lo: Math.floor(r() * 10) - 3 })],
  ['t.x <= 2.5 AND t.x > -1 AND t.x >= $lo', (r) => ({ lo: Math.floor(r() * 4) - 2 })],
  ['t.x < 3.0', () => ({})],
  ['t.x >= $lo AND t.i % 2 = 0', (r) => ({ lo: Math.floor(r() * 10) - 3 })],
];

describe('column kernels of label scans', () => {
  it('select ranges exactly as the per-row predicates do, on every kind of column', () => {
    const random = seededRandom(7);
    for (const kind of Object.keys(KINDS)) {
      for (const interleave of [false, true]) {
        const db = cypherGraph(kind, 300, interleave, 11);
        for (const [where, params] of RANGES) for (let t = 0; t < 3; t++) checkRange(db, where, params(random));
        // Bounds that are not plain numbers: NaN, null, a string, a big integer, infinities.
        checkRange(db, 't.x >= $lo', { lo: Number.NaN });
        checkRange(db, 't.x < $hi', { hi: null });
        checkRange(db, 't.x >= $lo', { lo: 's2' });
        checkRange(db, 't.x > $lo', { lo: 2n ** 60n });
        checkRange(db, 't.x > $lo AND t.x < $hi', { lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY });
        checkRange(db, 't.x >= $lo AND t.x <= $hi', { lo: Number.NEGATIVE_INFINITY, hi: Number.NEGATIVE_INFINITY });
        checkRange(db, 't.x > $lo', { lo: Number.POSITIVE_INFINITY });
        checkRange(db, 't.x < $hi AND t.x > $lo', { lo: 3, hi: 3 });
        checkRange(db, 't.x <= 0 AND t.x >= 0', {});
      }
    }
  });

  it('pass on every row that can make ORDER BY … LIMIT, with ties, nulls and mixed kinds in place', () => {
    for (const kind of Object.keys(KINDS)) {
      for (const interleave of [false, true]) {
        const db = cypherGraph(kind, 300, interleave, 23);
        for (const order of ['x DESC', 'x', 'x DESC, i', 't.x, i DESC', 'x DESC, t.i DESC']) {
          for (const [skip, limit] of [[0, 0], [0, 1], [0, 5], [3, 10], [0, 40], [250, 100], [0, 400]]) checkTopK(db, order, skip, limit);
        }
        checkTopK(db, 'x', 0, 7, 't.x AS x');
        checkTopK(db, 'x DESC', 2, 7, 't AS node, t.x AS x, $p AS p, 1 AS one'.replace('$p', "'p'"));
      }
    }
  });

  it('stay exact after writes: removed members, new ids past a column, a widened column', () => {
    const db = cypherGraph('ints', 200, false, 5);
    db.executeSync('MATCH (t:T) WHERE t.i % 13 = 0 REMOVE t:T');
    db.executeSync('UNWIND range(1, 40) AS k CREATE (:T {i: 1000 + k})');
    db.executeSync('UNWIND range(1, 10) AS k CREATE (:T {i: 2000 + k, x: k * 1.5})');
    checkRange(db, 't.x >= $lo AND t.x < $hi', { lo: 1, hi: 9 });
    checkTopK(db, 'x DESC, i', 0, 15);
    checkTopK(db, 'x, i', 5, 15);
  });

  it('make zone maps that bound NaN and blocks of low values', () => {
    for (const order of ['x DESC, i', 'x, i']) {
      const db = Database.openInMemory();
      db.executeSync('UNWIND range(0, 4999) AS i CREATE (:T {i: i, x: toFloat((i * 7919) % 1000)})');
      // A block of middling values holding one NaN, made before any kernel ran.
      db.executeSync('MATCH (t:T) WHERE t.i >= 3072 AND t.i < 4096 SET t.x = 500.0');
      db.executeSync('MATCH (t:T {i: 3500}) SET t.x = 0.0 / 0.0');
      checkTopK(db, order, 0, 5);
      checkRange(db, 't.x >= $lo', { lo: 998 });
    }
  });

  it('read one run of ids on a bulk-loaded label, and keep away from writing queries and other plan shapes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-column-kernels-'));
    const random = seededRandom(3);
    let csv = 'id:ID(T),i:long,x:long\n';
    for (let i = 0; i < 5000; i++) csv += `${i},${i},${random() < 0.05 ? '' : Math.floor(random() * 1000)}\n`;
    writeFileSync(join(dir, 't.csv'), csv);
    const db = Database.openInMemory();
    await importCsv(db, [{ kind: 'nodes', defaults: ['T'], path: join(dir, 't.csv') }], { idType: 'integer' });
    checkRange(db, 't.x >= $lo AND t.x < $hi', { lo: 100, hi: 250 });
    checkRange(db, 't.x > $lo', { lo: 998 });
    for (const order of ['x DESC, i', 'x, i DESC', 'x']) checkTopK(db, order, 0, 20);
    // A range is selected a block at a time: LIMIT and EXISTS stop in the first block and see the same rows.
    const all = rows(db, 'MATCH (t:T) WITH collect(t) AS ts RETURN [t IN ts WHERE t.x > 500 | t.i] AS ids')[0][0] as unknown[];
    expect(rows(db, 'MATCH (t:T) WHERE t.x > 500 RETURN t.i AS i LIMIT 7').map((r) => r[0])).toEqual(all.slice(0, 7));
    expect(rows(db, 'MATCH (t:T) WHERE t.x > 500 RETURN t.i AS i SKIP 2030 LIMIT 40').map((r) => r[0])).toEqual(all.slice(2030, 2070));
    expect(rows(db, 'RETURN EXISTS { MATCH (t:T) WHERE t.x >= 999 } AS a, EXISTS { MATCH (t:T) WHERE t.x > 999 } AS b')).toEqual([[all.length > 0 && rows(db, 'MATCH (t:T) WHERE t.x = 999 RETURN count(*)')[0][0] !== 0, false]]);
    checkTopK(db, 'x DESC', 4990, 20);
    // The zone maps the first queries made stay bounds through later writes: a new maximum,
    // a new minimum, NaN, a removed value and a float, each in a block the queries skipped.
    for (const write of [
      'MATCH (t:T {i: 2500}) SET t.x = 5000',
      'MATCH (t:T {i: 1200}) SET t.x = -5',
      'MATCH (t:T {i: 3900}) SET t.x = 0.0 / 0.0',
      'MATCH (t:T {i: 4100}) REMOVE t.x',
      'MATCH (t:T {i: 700}) SET t.x = 2000.5',
      'CREATE (:T {i: 9999, x: 7000})',
    ]) {
      db.executeSync(write);
      for (const order of ['x DESC, i', 'x, i']) checkTopK(db, order, 0, 3);
      checkRange(db, 't.x > $lo', { lo: 1500 });
      checkRange(db, 't.x < $hi', { hi: 0 });
    }
    // Shapes the kernels must not serve: a write, DISTINCT, a filter or a projection that can fail below the sort.
    expect(db.generatedSource('MATCH (t:T) WHERE t.x > 5 SET t.y = 1')).not.toContain(KERNEL_RANGE);
    for (const q of [
      'MATCH (t:T) RETURN DISTINCT t.x AS x ORDER BY x LIMIT 3',
      'MATCH (t:T) WHERE t.i > 3 RETURN t.x AS x ORDER BY x LIMIT 3',
      'MATCH (t:T) RETURN t.x AS x, 10 / t.i AS q ORDER BY x LIMIT 3',
      'MATCH (t:T) RETURN t.x AS x ORDER BY x, 10 / t.i LIMIT 3',
      'MATCH (t:T) RETURN t.i AS i ORDER BY t.x + 1 LIMIT 3',
    ]) {
      expect(db.generatedSource(q), q).not.toContain(KERNEL_TOP);
    }
    // A projection that fails on a row outside the top k still fails.
    expect(() => rows(db, 'MATCH (t:T) RETURN t.x AS x, 10 / t.i AS q ORDER BY x LIMIT 3')).toThrow();
  });
});
