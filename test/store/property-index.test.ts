/**
 * Property indexes built from a column of 32-bit integers keep those entries in a frozen
 * typed base (`IntBase` in src/store/schema.ts) and file later writes in maps. Index seeks
 * (equality, ranges) and uniqueness must answer exactly as a scan does, through writes that
 * change, remove and re-add values, widen the column to floats and strings, delete nodes and
 * move them between labels, inside transactions that commit and that roll back.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/index.js';
import { seededRandom } from '../../procedures/algo/random.js';
import { openDb, removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

type Params = Record<string, unknown>;
const ids = (db: Database, q: string, p: Params) => db.executeSync(q, p).records.map((r) => Number(r[0]));

function check(db: Database, random: () => number, label = 'L'): void {
  const v = Math.floor(random() * 60) - 10;
  const seek = `MATCH (n:${label}) WHERE n.k = $v RETURN id(n) AS id ORDER BY id`;
  expect(db.explain(seek)).toContain('NodeIndexSeek');
  const scan = `MATCH (n:${label}) WITH collect(n) AS ns UNWIND ns AS n WITH n WHERE n.k = $v RETURN id(n) AS id ORDER BY id`;
  for (const value of [v, v + 0.5, `${v}`, v * 1.0]) expect(ids(db, seek, { v: value }), `${label} = ${value}`).toEqual(ids(db, scan, { v: value }));
  const lo = Math.floor(random() * 50) - 15;
  const hi = lo + Math.floor(random() * 20);
  const range = `MATCH (n:${label}) WHERE n.k >= $lo AND n.k < $hi RETURN id(n) AS id ORDER BY id`;
  const rangeScan = `MATCH (n:${label}) WITH collect(n) AS ns UNWIND ns AS n WITH n WHERE n.k >= $lo AND n.k < $hi RETURN id(n) AS id ORDER BY id`;
  expect(ids(db, range, { lo, hi }), `${label} in [${lo}, ${hi})`).toEqual(ids(db, rangeScan, { lo, hi }));
  // Every indexed value at once, compared with a scan (the index's entries, none missing or left over).
  const all = `MATCH (n:${label}) WHERE n.k >= -1000 RETURN id(n) AS id ORDER BY id`;
  const allScan = `MATCH (n:${label}) WITH collect(n) AS ns UNWIND ns AS n WITH n WHERE n.k >= -1000 RETURN id(n) AS id ORDER BY id`;
  expect(ids(db, all, {}), `every ${label}`).toEqual(ids(db, allScan, {}));
}

/** Node ids by an index range seek over every value, per label. */
const seekAll = (db: Database, labels: string[]) => labels.map((label) => ids(db, `MATCH (n:${label}) WHERE n.k >= -1000 RETURN id(n) AS id ORDER BY id`, {}));

/**
 * Runs `writes` in turn for `steps` steps with a random `$r`, every fourth rolled back (which
 * must leave the index as it was), and checks each label's index against a scan after each.
 */
async function writeAndCheck(db: Database, random: () => number, writes: string[], steps: number, labels: string[]): Promise<void> {
  for (let step = 0; step < steps; step++) {
    const q = writes[step % writes.length];
    const r = Math.floor(random() * 5);
    if (step % 4 === 3) {
      const before = seekAll(db, labels);
      await db.executeInTransaction([{ query: q, params: { r } }, { query: 'MATCH (n:L) WHERE n.k = 3 RETURN count(*)' }], { commit: false });
      expect(seekAll(db, labels)).toEqual(before);
    } else {
      db.executeSync(q, { r });
    }
    for (const label of labels) check(db, random, label);
  }
}

describe('property index over an integer column', () => {
  it('seeks like a scan through writes, widening, deletes, relabelling and rollbacks', async () => {
    const random = seededRandom(41);
    const db = Database.openInMemory();
    // Values out of order with repeats, some nodes without the key, other labels in between.
    const rows = [...Array(400).keys()].map((i) => ({ i, k: i % 9 === 0 ? null : Math.floor(random() * 50) - 5 }));
    db.executeSync('UNWIND $rows AS r CREATE (n:L {i: r.i}) SET n.k = r.k CREATE (:M {k: r.i})', { rows });
    db.executeSync('CREATE INDEX FOR (n:L) ON (n.k)');
    check(db, random);
    const writes = [
      'MATCH (n:L) WHERE n.i % 7 = $r SET n.k = n.k + 1',
      'MATCH (n:L) WHERE n.i % 11 = $r REMOVE n.k',
      'MATCH (n:L) WHERE n.i % 13 = $r SET n.k = $r',
      'MATCH (n:L) WHERE n.i % 17 = $r DETACH DELETE n',
      'MATCH (n:L) WHERE n.i % 19 = $r REMOVE n:L',
      'MATCH (n:M) WHERE n.k % 23 = $r SET n:L',
      'UNWIND range(1, 5) AS j CREATE (:L {k: j * $r, i: 1000 + j})',
      'MATCH (n:L) WHERE n.i % 29 = $r SET n.k = toFloat(n.k) + 0.5',
      'MATCH (n:L) WHERE n.i % 31 = $r SET n.k = toString(n.k)',
    ];
    await writeAndCheck(db, random, writes, 24, ['L']);
  });

  it('keeps no id arrays for a label loaded as one run of ids with ascending values, and still seeks like a scan through writes', async () => {
    const random = seededRandom(43);
    const db = Database.openInMemory();
    // Ids 0..399 in one run, values ascending with them (repeats included): entry p is node p.
    db.executeSync('UNWIND range(0, 399) AS i CREATE (:L {i: i, k: i / 3 - 5})');
    db.executeSync('UNWIND range(0, 99) AS i CREATE (:M {k: i})');
    db.executeSync('CREATE INDEX FOR (n:L) ON (n.k)');
    // 4 bytes a value and the bitset of removed entries: no id or position arrays (8 bytes more each).
    expect(db.schema.index('L', 'k')!.baseBytes()).toBeLessThan(400 * 4 + 64);
    check(db, random);
    const writes = [
      'MATCH (n:L) WHERE n.i % 7 = $r SET n.k = n.k + 1',
      'MATCH (n:L) WHERE n.i % 11 = $r REMOVE n.k',
      'MATCH (n:L) WHERE n.i % 17 = $r DETACH DELETE n',
      'MATCH (n:L) WHERE n.i % 19 = $r REMOVE n:L',
      'MATCH (n:M) WHERE n.k % 23 = $r SET n:L',
      'UNWIND range(1, 5) AS j CREATE (:L {k: j * $r, i: 1000 + j})',
    ];
    await writeAndCheck(db, random, writes, 16, ['L']);
  });

  it('keeps a uniqueness constraint over the integer base', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 100) AS i CREATE (:U {k: 101 - i})');
    db.executeSync('CREATE CONSTRAINT FOR (n:U) REQUIRE n.k IS UNIQUE');
    expect(() => db.executeSync('CREATE (:U {k: 50})')).toThrow();
    db.executeSync('MATCH (n:U {k: 50}) SET n.k = 1000');
    db.executeSync('CREATE (:U {k: 50})');
    expect(() => db.executeSync('CREATE (:U {k: 1000})')).toThrow();
    expect(db.executeSync('MATCH (n:U) WHERE n.k = 50 OR n.k = 1000 RETURN count(*) AS c').records).toEqual([[2]]);
  });

  it('a new uniqueness constraint finds exactly the duplicates a grouping finds, in the base, the maps and across them', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 12; round++) {
      const db = Database.openInMemory();
      // Integers (a frozen base), spread so that some rounds hold no duplicate at all.
      const spread = round % 3 === 0 ? 1e6 : 400;
      const rows = [...Array(300).keys()].map((i) => ({ i, k: round % 3 === 0 ? i * 7 : Math.floor(random() * spread) }));
      db.executeSync('UNWIND $rows AS r CREATE (:U {i: r.i, k: r.k})', { rows });
      db.executeSync('CREATE INDEX FOR (n:U) ON (n.k)');
      // Writes after the build: values into the maps (some equal to base values, floats equal to integers, strings), deletes and relabelling.
      const r = Math.floor(random() * 5);
      const spreadOut = round % 3 !== 0;
      if (spreadOut && round % 2 === 1) db.executeSync('MATCH (n:U) WHERE n.i % 37 = $r SET n.k = n.k + 1', { r });
      if (spreadOut && round % 4 === 1) db.executeSync('MATCH (n:U) WHERE n.i % 41 = $r SET n.k = toFloat(n.k)', { r });
      if (spreadOut && round % 4 === 2) db.executeSync("MATCH (n:U) WHERE n.i % 43 = $r SET n.k = 's' + toString(n.k % 3)", { r });
      // Unique integers at first, then a written value that a base entry holds: below the written node's id, above it, and as an equal float.
      if (round === 3) db.executeSync('MATCH (n:U) WHERE n.i % 29 = 1 SET n.k = (n.i - 1) * 7');
      if (round === 6) db.executeSync('MATCH (n:U) WHERE n.i % 29 = 1 SET n.k = (n.i + 1) * 7');
      if (round === 9) db.executeSync('MATCH (n:U) WHERE n.i % 29 = 1 SET n.k = toFloat((n.i - 1) * 7)');
      db.executeSync('MATCH (n:U) WHERE n.i % 47 = $r DETACH DELETE n', { r });
      db.executeSync('MATCH (n:U) WHERE n.i % 53 = $r REMOVE n:U', { r });
      const lowest = db.executeSync('MATCH (n:U) WHERE n.k IS NOT NULL WITH n.k AS k, collect(id(n)) AS ids WHERE size(ids) > 1 UNWIND ids AS id RETURN min(id) AS id').records[0][0];
      const create = (): unknown => db.executeSync('CREATE CONSTRAINT u_k FOR (n:U) REQUIRE n.k IS UNIQUE');
      if (lowest === null) {
        create();
        expect(() => db.executeSync('MATCH (n:U) WITH n LIMIT 1 CREATE (:U {k: n.k})'), `round ${round}`).toThrow(/already exists/);
      } else {
        expect(create, `round ${round}`).toThrow(new RegExp(`^Node\\(${String(lowest)}\\) already exists with label \`U\` and property \`k\``));
        expect(db.executeSync('SHOW CONSTRAINTS').records).toEqual([]);
      }
      db.close();
    }
  });
});

/**
 * Nodes filed after the build: their keys sit in a run of ids appended after the build's
 * (or its frozen base's) span, ids outside both runs (an old node that joins the label, a
 * base node filed again, a node created far past the run's end) in a map, and nothing is
 * taken out for a node above every filed id. Each of those paths must seek and range like a
 * scan through deletes and rollbacks, and the index must come back the same after a
 * checkpoint and a reopen.
 */
describe('property index: writes after the build', () => {
  it('files new nodes after a frozen base and after an index made before its data like a scan, through a checkpoint and a reopen', async () => {
    const random = seededRandom(7);
    const dir = tempDir('graphdb-index-');
    const db = await openDb(dir);
    // L: a frozen base (an index built over an integer column); M: the base's neighbours in
    // id order; N: an index made before its first node (only the appended run).
    db.executeSync('UNWIND range(0, 299) AS i CREATE (:L {i: i, k: i % 40}) CREATE (:M {k: i})');
    db.executeSync('CREATE INDEX FOR (n:L) ON (n.k)');
    db.executeSync('CREATE INDEX FOR (n:N) ON (n.k)');
    db.executeSync('UNWIND range(1, 100) AS j CREATE (:N {k: j % 30, i: j})');
    check(db, random);
    check(db, random, 'N');
    const writes = [
      'UNWIND range(1, 40) AS j CREATE (:L {i: 1000 + j, k: j % 25 - $r}) CREATE (:M {k: -j})',
      'UNWIND range(1, 30) AS j CREATE (:N {k: j % 12 * $r, i: j})',
      'MATCH (n:L) WHERE n.i % 13 = $r DETACH DELETE n',
      'MATCH (n:L) WHERE n.i % 7 = $r SET n.k = n.k + 3',
      // Far past the appended run: the next new L and N nodes land outside it.
      'UNWIND range(1, 1100) AS j CREATE (:Gap)',
      'MATCH (n:M) WHERE n.k % 17 = $r SET n:L, n.i = n.k',
      'MATCH (n:L) WHERE n.i % 11 = $r REMOVE n:L',
      'MATCH (n:Gap) WITH n LIMIT 5 SET n:N, n.k = $r + 1',
      'MATCH (n:N) WHERE n.i % 5 = $r DELETE n',
      'MATCH (n:L) WHERE n.i > 1000 AND n.i % 3 = $r SET n.k = toFloat(n.k) + 0.5',
      // Writes that leave the key as it is (another property; the same number as a float).
      'MATCH (n:L) WHERE n.i % 3 = $r SET n.other = $r, n.k = n.k',
      'MATCH (n:L) WHERE n.i % 4 = $r SET n.k = toFloat(n.k)',
    ];
    await writeAndCheck(db, random, writes, 36, ['L', 'N']);
    const before = seekAll(db, ['L', 'N']);
    await db.checkpoint();
    db.close();
    const again = await openDb(dir);
    expect(seekAll(again, ['L', 'N'])).toEqual(before);
    for (let i = 0; i < 5; i++) {
      check(again, random);
      check(again, random, 'N');
    }
    again.close();
  });
});
