/**
 * Numeric list properties packed in typed memory (src/store/columns/float-lists.ts) read back
 * exactly as the JS arrays the column used to keep: the same element values (Object.is, so
 * -0 and NaN count), integers still integers, floats still floats (FloatBox for integral
 * ones), through the column, through Cypher, after rewrites, removals, compaction, a
 * checkpoint and a restart; and vector indexes over packed lists find what an exact search
 * finds.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { GENERIC, PropertyColumn } from '../../src/store/columns/property-column.js';
import { FloatLists, isPackableList, MIN_PACKED } from '../../src/store/columns/float-lists.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { Database } from '../../src/engine/database.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { rows, seeded } from './helpers.js';

afterAll(removeTempDirs);

/** Whether `a` and `b` are the same value in the value model: FloatBox vs number kept apart, numbers by Object.is. */
function same(a: Value | undefined, b: Value | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a instanceof FloatBox || b instanceof FloatBox) return a instanceof FloatBox && b instanceof FloatBox && Object.is(a.value, b.value);
  return Object.is(a, b);
}

/** Lists of every shape the packing distinguishes, each with a copy kept aside as the column used to keep it. */
function sampleLists(rnd: () => number): Value[][] {
  const n = (length: number, f: (i: number) => Value): Value[] => Array.from({ length }, (_, i) => f(i));
  return [
    n(384, () => Math.fround(rnd() - 0.5)), // float32-exact floats: an embedder's output
    n(16, () => rnd() * 1e-3 + 1e-9), // floats float32 cannot hold: float64 rows
    n(MIN_PACKED, (i) => (i % 2 === 0 ? new FloatBox(i - 3) : 0.5)), // integral floats (FloatBox), -0.0 among them
    [new FloatBox(-0), -0, 0, new FloatBox(0), 1, 1.5, NaN, Infinity, -Infinity, 2 ** 53 - 1, -(2 ** 31)], // integers and floats mixed
    n(40, (i) => i * 3 - 7), // integers only
    n(33, (i) => (i === 32 ? 16777217 : i / 4)), // past float32's exact integers: float64 with tags
    n(MIN_PACKED, (i) => (i === 3 ? new FloatBox(1e300) : rnd())), // a huge integral float
  ];
}

describe('packed numeric lists in a property column', () => {
  it('read back the same values, element types and all, as the JS arrays the column keeps', () => {
    const rnd = seeded(11);
    const lists = sampleLists(rnd);
    const column = new PropertyColumn();
    lists.forEach((list, i) => column.set(i * 5, list));
    expect(column.kind).toBe(GENERIC);
    expect(column.lists?.count).toBe(lists.length);
    lists.forEach((list, i) => {
      const read = column.get(i * 5);
      expect(read).not.toBe(list); // a fresh array: packed, not kept
      expect(same(read, list)).toBe(true);
      expect(same(column.get(i * 5), read)).toBe(true);
    });
    // The floats of the embedding are packed as float32, the others as float64: both exact.
    expect(column.memoryBytes()).toBeLessThan(384 * 4 + 4 * 200 * 8 + 4096 * 4 * 8 + 12 * column.capacity + (1 << 20) * 12 + 1);
  });

  it('leave short lists, lists with other values and Float32Array vectors as they were', () => {
    const short = [0.5, 1.5, 2.5];
    const withString: Value[] = [...Array<number>(10).fill(0.5), 'x'];
    const withBigInt: Value[] = [...Array<number>(10).fill(0.5), 2n ** 60n];
    const nested: Value[] = [...Array<number>(10).fill(0.5), [1]];
    const boxedFraction: Value[] = [...Array<number>(10).fill(0.5), new FloatBox(0.25)];
    const vector = Float32Array.from({ length: 16 }, (_, i) => i / 3);
    for (const v of [short, withString, withBigInt, nested, boxedFraction, vector]) expect(isPackableList(v)).toBe(false);
    const column = new PropertyColumn();
    [short, withString, withBigInt, nested, boxedFraction, vector].forEach((v, i) => column.set(i, v));
    [short, withString, withBigInt, nested, boxedFraction, vector].forEach((v, i) => expect(column.get(i)).toBe(v));
    expect(column.lists).toBeUndefined();
  });

  it('follow rewrites, removals, other values in their place and widening, through compaction', () => {
    const rnd = seeded(5);
    const column = new PropertyColumn();
    const model = new Map<number, Value>();
    const put = (id: number, v: Value | null): void => {
      if (v === null) {
        column.delete(id);
        model.delete(id);
      } else {
        column.set(id, v);
        model.set(id, v);
      }
    };
    // Enough rewrites of 384-element rows that dead rows pass a segment and compaction runs.
    for (let step = 0; step < 9000; step++) {
      const id = Math.floor(rnd() * 300);
      const r = rnd();
      if (r < 0.05) put(id, null);
      else if (r < 0.1) put(id, 'not a list');
      else if (r < 0.2) put(id, Array.from({ length: 20 }, () => rnd() / 7)); // float64
      else put(id, Array.from({ length: 384 }, () => Math.fround(rnd())));
    }
    for (let id = 0; id < 300; id++) expect(same(column.get(id), model.get(id))).toBe(true);
    column.set(1000, new Map([['a', 1]]));
    column.set(1001, 7);
    for (let id = 0; id < 300; id++) expect(same(column.get(id), model.get(id))).toBe(true);
    expect(column.get(1001)).toBe(7);
  });

  it('reclaim rewritten rows, and take little room for a few lists', () => {
    const lists = new FloatLists(4);
    lists.set(1, Array.from({ length: MIN_PACKED }, () => 0.5));
    expect(lists.memoryBytes()).toBeLessThan(64 * 1024);
    // 3000 rewrites of one 384-float row write 4.6 MB; compaction keeps the live row and what followed it.
    for (let round = 0; round < 3000; round++) lists.set(0, Array.from({ length: 384 }, (_, j) => Math.fround(round + j / 512)));
    expect(lists.memoryBytes()).toBeLessThan(2 * 1024 * 1024);
    expect(same(lists.get(0), Array.from({ length: 384 }, (_, j) => Math.fround(2999 + j / 512)))).toBe(true);
    expect(same(lists.get(1), Array.from({ length: MIN_PACKED }, () => 0.5))).toBe(true);
  });

  it('a snapshot keeps reading the rows of its moment while they are rewritten and compacted', () => {
    const lists = new FloatLists(64);
    const first = Array.from({ length: 64 }, (_, id) => Array.from({ length: 384 }, (__, j) => Math.fround((id * 384 + j) / 1e5)));
    first.forEach((v, id) => lists.set(id, v));
    const snapshot = lists.snapshot(16, 32);
    for (let round = 0; round < 50; round++) for (let id = 0; id < 64; id++) lists.set(id, Array.from({ length: 384 }, () => Math.fround(round + 0.5)));
    lists.delete(20);
    for (let i = 0; i < 32; i++) expect(same(snapshot.get(i), first[16 + i])).toBe(true);
    expect(snapshot.get(40)).toBeUndefined();
    expect(same(lists.get(21), Array.from({ length: 384 }, () => 49.5))).toBe(true);
    expect(lists.has(20)).toBe(false);
  });
});

describe('packed numeric lists through Cypher', () => {
  const LISTS = sampleLists(seeded(3));

  /** Every observable reading of each stored list next to the same reading of the list as a parameter. */
  function observations(db: Database): { stored: unknown[][]; given: unknown[][] } {
    const q = (expr: string): string =>
      `RETURN valueType(${expr}), size(${expr}), [x IN ${expr} | valueType(x)], [x IN ${expr} | toString(x)], ${expr}[0], ${expr}[-1], ${expr}[1..3], reduce(s = 0.0, x IN ${expr} | s + x)`;
    const stored: unknown[][] = [];
    const given: unknown[][] = [];
    LISTS.forEach((list, i) => {
      stored.push(db.executeSync(`MATCH (n:P {i: $i}) ${q('n.v')}`, { i }).records[0]);
      given.push(db.executeSync(q('$v'), { v: list }).records[0]);
      expect(db.executeSync('MATCH (n:P {i: $i}) RETURN n.v = $v, n.v <> $v, $v IN collect(n.v)', { i, v: list }).records[0]).toEqual([!list.some((x) => Number.isNaN(x)), list.some((x) => Number.isNaN(x)), !list.some((x) => Number.isNaN(x))]);
    });
    return { stored, given };
  }

  function check(db: Database): void {
    LISTS.forEach((list, i) => {
      // What the list is as a value (parameters read -0 as the integer 0), and what the node holds.
      const [read, given] = db.executeSync('MATCH (n:P {i: $i}) RETURN n.v, $v', { i, v: list }).records[0];
      expect(same(read, given)).toBe(true);
    });
    const { stored, given } = observations(db);
    stored.forEach((row, i) => expect(row.map((x) => (typeof x === 'number' && Number.isNaN(x) ? 'NaN' : x))).toEqual(given[i].map((x) => (typeof x === 'number' && Number.isNaN(x) ? 'NaN' : x))));
  }

  it('answer every reading as the list itself does, in memory', () => {
    const db = Database.openInMemory();
    LISTS.forEach((v, i) => db.executeSync('CREATE (:P {i: $i, v: $v})', { i, v }));
    check(db);
    // SET with a list built in the query, and through a map
    db.executeSync('MATCH (n:P {i: 0}) SET n.w = [x IN range(1, 10) | x / 4.0]');
    expect(same(db.executeSync('MATCH (n:P {i: 0}) RETURN n.w').records[0][0], [0.25, 0.5, 0.75, new FloatBox(1), 1.25, 1.5, 1.75, new FloatBox(2), 2.25, 2.5])).toBe(true);
    db.close();
  });

  it('survive a checkpoint, a restart from the store, and a restart from the log', async () => {
    const dir = tempDir('graphdb-packed-');
    let db = await Database.open({ dataDir: dir, storage: { log: null } });
    LISTS.forEach((v, i) => db.executeSync('CREATE (:P {i: $i, v: $v})', { i, v: i % 2 === 0 ? v : [0.5] }));
    await db.checkpoint();
    // After the checkpoint: odd ones rewritten (only in the log), one removed and put back.
    LISTS.forEach((v, i) => {
      if (i % 2 === 1) db.executeSync('MATCH (n:P {i: $i}) SET n.v = $v', { i, v });
    });
    db.executeSync('MATCH (n:P {i: 0}) REMOVE n.v');
    db.executeSync('MATCH (n:P {i: 0}) SET n.v = $v', { v: LISTS[0] });
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    check(db);
    await db.checkpoint();
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    check(db);
    db.close();
  });
});

describe('vector indexes over packed lists', () => {
  it('find what an exact search finds, for float32, float64 and integer-tagged rows, and follow rewrites', () => {
    const rnd = seeded(9);
    const DIM = 24;
    const db = Database.openInMemory();
    const vectors: Value[][] = [];
    for (let i = 0; i < 300; i++) {
      const kind = i % 3;
      const v: Value[] = Array.from({ length: DIM }, (_, j) => (kind === 0 ? Math.fround(rnd() - 0.5) : kind === 1 ? rnd() - 0.5 : j === 0 ? 1 : rnd() - 0.5));
      vectors.push(v);
    }
    db.executeSync('UNWIND range(0, size($vs) - 1) AS i CREATE (:Doc {i: i, v: $vs[i]})', { vs: vectors });
    db.executeSync(`CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.v) OPTIONS {indexConfig: {\`vector.dimensions\`: ${DIM}, \`vector.similarity_function\`: 'euclidean', \`vector.hnsw.ef_search\`: 400}}`);
    const exact = (q: number[], k: number): number[] =>
      rows(db, 'MATCH (d:Doc) RETURN d.i ORDER BY vector.similarity.euclidean(d.v, $q) DESC, d.i LIMIT $k', { q, k }).map((r) => r[0] as number);
    const indexed = (q: number[], k: number): number[] => rows(db, "CALL db.index.vector.queryNodes('docs', $k, $q) YIELD node RETURN node.i", { q, k }).map((r) => r[0] as number);
    for (let t = 0; t < 20; t++) {
      const q = Array.from({ length: DIM }, () => rnd() - 0.5);
      expect(indexed(q, 5)).toEqual(exact(q, 5));
    }
    // Each stored vector finds itself first.
    for (const i of [0, 1, 2, 150, 299]) expect(indexed(vectors[i].map((x) => (x instanceof FloatBox ? x.value : (x as number))), 1)).toEqual([i]);
    // Rewrites move entities in the index; a wrong length or a string takes them out.
    db.executeSync('MATCH (d:Doc {i: 7}) SET d.v = $v', { v: Array.from({ length: DIM }, () => 9.5) });
    db.executeSync('MATCH (d:Doc {i: 8}) SET d.v = $v', { v: Array.from({ length: DIM + 1 }, () => 0.25) });
    db.executeSync("MATCH (d:Doc {i: 9}) SET d.v = 'gone'");
    expect(indexed(Array.from({ length: DIM }, () => 9.5), 1)).toEqual([7]);
    expect((rows(db, 'SHOW VECTOR INDEXES')[0][7] as { size: number }).size).toBe(298);
    db.close();
  });
});
