/**
 * The column store under the graph's properties: every value reads back as it was written
 * (integer vs float, FloatBox, BigInt, lists, temporal), columns widen without losing
 * anything, absent and deleted slots read as absent, buffers live on shared memory, and the
 * string dictionary compacts without changing values.
 */

import { describe, expect, it } from 'vitest';
import { BOOL, GENERIC, INT, NUMBER, PropertyColumn, STRING, TEXT } from '../../src/store/columns/property-column.js';
import { TextHeap } from '../../src/store/columns/text-heap.js';
import { PropertyStore } from '../../src/store/columns/property-store.js';
import { Interner } from '../../src/store/interner.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { Graph } from '../../src/store/graph.js';
import { Database } from '../../src/engine/database.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { importCsv } from '../../src/engine/csv-import.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function roundTrip(values: Value[]): { column: PropertyColumn; read: (Value | undefined)[] } {
  const column = new PropertyColumn();
  values.forEach((v, i) => column.set(i * 3, v));
  return { column, read: values.map((_, i) => column.get(i * 3)) };
}

describe('PropertyColumn', () => {
  it('keeps small integers in an Int32Array on shared memory', () => {
    const { column, read } = roundTrip([1, -5, 2147483647, -2147483648, 0]);
    expect(column.kind).toBe(INT);
    expect(read).toEqual([1, -5, 2147483647, -2147483648, 0]);
    expect(column.ints.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(column.present.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(column.get(1)).toBeUndefined();
    expect(column.get(1_000_000)).toBeUndefined();
  });

  it('widens integers to a float column with tags, keeping integers, floats and FloatBox apart', () => {
    const big = 2 ** 40;
    const { column, read } = roundTrip([7, 1.5, new FloatBox(2), big, new FloatBox(-0), NaN, -Infinity]);
    expect(column.kind).toBe(NUMBER);
    expect(read[0]).toBe(7);
    expect(read[1]).toBe(1.5);
    expect(read[2]).toBeInstanceOf(FloatBox);
    expect((read[2] as FloatBox).value).toBe(2);
    expect(read[3]).toBe(big);
    expect(Object.is((read[4] as FloatBox).value, -0)).toBe(true);
    expect(read[5]).toBeNaN();
    expect(read[6]).toBe(-Infinity);
    // Overwriting a boxed float by an integer clears its tag.
    column.set(6, 3);
    expect(column.get(6)).toBe(3);
  });

  it('keeps booleans as bits and strings dictionary-encoded', () => {
    const bools = roundTrip([true, false, true]);
    expect(bools.column.kind).toBe(BOOL);
    expect(bools.read).toEqual([true, false, true]);
    const strings = roundTrip(['a', 'b', 'a', '', 'é😀']);
    expect(strings.column.kind).toBe(STRING);
    expect(strings.read).toEqual(['a', 'b', 'a', '', 'é😀']);
    expect(strings.column.dict).toEqual(['a', 'b', '', 'é😀']);
  });

  it('falls back to a generic column for BigInt, lists, maps and mixed kinds, values unchanged', () => {
    const list: Value[] = [1, 'x'];
    const values: Value[] = [1, 'two', true, 2n ** 60n, list, new FloatBox(1), 2.5];
    const { column, read } = roundTrip(values);
    expect(column.kind).toBe(GENERIC);
    expect(read[0]).toBe(1);
    expect(read[1]).toBe('two');
    expect(read[2]).toBe(true);
    expect(read[3]).toBe(2n ** 60n);
    expect(read[4]).toEqual([1, 'x']);
    expect(read[5]).toBeInstanceOf(FloatBox);
    expect(read[6]).toBe(2.5);
  });

  it('converts existing entries when it widens, and grows past its capacity', () => {
    const column = new PropertyColumn();
    for (let id = 0; id < 1000; id += 7) column.set(id, id);
    column.set(5000, 0.25);
    expect(column.kind).toBe(NUMBER);
    column.set(6000, 'now generic');
    expect(column.kind).toBe(GENERIC);
    for (let id = 0; id < 1000; id++) expect(column.get(id)).toBe(id % 7 === 0 ? id : undefined);
    expect(column.get(5000)).toBe(0.25);
    expect(column.get(6000)).toBe('now generic');
    expect(column.count).toBe(column.countPresent());
  });

  it('deletes entries, and compacts a mostly dead string dictionary without changing values', () => {
    const column = new PropertyColumn();
    for (let i = 0; i < 20_000; i++) column.set(i % 10, `s${i}`);
    expect(column.count).toBe(10);
    expect(column.dict.length).toBeLessThan(10_000);
    for (let id = 0; id < 10; id++) expect(column.get(id)).toBe(`s${19_990 + id}`);
    column.delete(3);
    column.delete(3);
    expect(column.get(3)).toBeUndefined();
    expect(column.count).toBe(9);
    expect(column.countPresent()).toBe(9);
    expect(column.kind).toBe(STRING);
  });

  it('gives up the dictionary when most strings are distinct, keeping every value', () => {
    const column = new PropertyColumn();
    for (let id = 0; id < 10_000; id++) column.set(id, id < 5000 ? `same${id % 3}` : `unique${id}`);
    expect(column.kind).toBe(TEXT);
    for (let id = 0; id < 10_000; id++) expect(column.get(id)).toBe(id < 5000 ? `same${id % 3}` : `unique${id}`);
    const repeated = new PropertyColumn();
    for (let id = 0; id < 10_000; id++) repeated.set(id, `city${id % 100}`);
    expect(repeated.kind).toBe(STRING);
    expect(repeated.dict.length).toBe(100);
  });
});

describe('PropertyColumn.trim (the growth slack a load leaves)', () => {
  const kinds: [string, (id: number) => Value][] = [
    ['int', (id) => id * 3],
    ['number', (id) => (id % 2 ? id / 4 : new FloatBox(id))],
    ['bool', (id) => id % 3 === 0],
    ['string', (id) => `city${id % 50}`],
    ['text', (id) => `message ${id} ✓ ${'y'.repeat(id % 13)}`],
  ];
  for (const [name, value] of kinds) {
    it(`ends a ${name} column at its last id, keeps every value, and grows again on a write past it`, () => {
      const column = new PropertyColumn();
      // Ids from 1000 to 9999, every other one: appends leave the arrays up to half unused.
      for (let id = 1000; id < 10_000; id += 2) column.set(id, value(id));
      const kind = column.kind;
      const before = column.memoryBytes();
      column.trim();
      expect(column.kind).toBe(kind);
      expect(column.capacity).toBe(10_016);
      expect(column.memoryBytes()).toBeLessThanOrEqual(before);
      for (let id = 0; id < 10_100; id++) expect(column.get(id)).toEqual(id >= 1000 && id < 10_000 && id % 2 === 0 ? value(id) : undefined);
      column.set(20_000, value(20_000));
      column.set(1002, value(7));
      expect(column.get(20_000)).toEqual(value(20_000));
      expect(column.get(1002)).toEqual(value(7));
      expect(column.count).toBe(column.countPresent());
    });
  }

  it('leaves the columns of a CSV import into an in-memory graph no longer than the ids they hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-trim-'));
    try {
      const file = join(dir, 'n.csv');
      writeFileSync(file, ['id:ID,k:long,s', ...Array.from({ length: 5000 }, (_, i) => `${i},${i * 7},text number ${i}`)].join('\n'));
      const db = Database.openInMemory();
      await importCsv(db, [{ kind: 'nodes', defaults: ['N'], path: file }], { idType: 'integer' });
      for (const key of ['k', 's']) expect(db.graph.nodeProps.column(key)!.capacity, key).toBe(5024);
      expect(db.executeSync('MATCH (n:N) WHERE n.k = 700 RETURN n.s').records).toEqual([['text number 100']]);
      db.executeSync('CREATE (:N {k: -1, s: "after"})');
      expect(db.executeSync('MATCH (n:N {k: -1}) RETURN n.s').records).toEqual([['after']]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PropertyColumn.setTextBlock (a stored block of strings in one copy)', () => {
  it('sets the present ids of a block, empty strings and gaps included, over values already there', () => {
    const column = new PropertyColumn();
    column.beginText(64);
    column.set(40, 'old value at 40');
    const strings = new Map<number, string>([[0, 'first'], [3, ''], [4, 'ünïcödé ✓'], [31, 'x'.repeat(300)], [33, 'last']]);
    const present = new Uint32Array(2);
    const lengths = new Int32Array(40);
    const parts: Buffer[] = [];
    for (const [i, text] of strings) {
      present[i >>> 5] |= 1 << (i & 31);
      const bytes = Buffer.from(text, 'utf8');
      lengths[i] = bytes.length;
      parts.push(bytes);
    }
    column.setTextBlock(10, 40, present, lengths, Buffer.concat(parts));
    for (let id = 0; id < 60; id++) {
      const want = id === 40 ? 'old value at 40' : strings.get(id - 10);
      expect(column.get(id), `id ${id}`).toBe(want);
    }
    expect(column.count).toBe(6);
    column.setTextBlock(10, 40, present, lengths, Buffer.concat(parts));
    expect(column.count).toBe(6);
    expect(column.get(14)).toBe('ünïcödé ✓');
  });
});

describe('TEXT columns (mostly distinct strings in a UTF-8 heap)', () => {
  const distinct = (id: number): string => `message ${id} — ünïcödé ✓ 🚀 ${'x'.repeat(id % 17)}`;

  it('read back every string exactly, through rewrites, removals, heap rebuilds and odd strings', () => {
    const column = new PropertyColumn();
    for (let id = 0; id < 9000; id++) column.set(id, distinct(id));
    expect(column.kind).toBe(TEXT);
    const expected = new Map<number, string | undefined>();
    for (let id = 0; id < 9000; id++) expected.set(id, distinct(id));
    // Rewrites and removals leave garbage until a growth rebuilds the heap; lone surrogates and '' stay exact.
    for (let round = 0; round < 6; round++) {
      for (let id = round; id < 9000; id += 7) {
        const value = id % 5 === 0 ? '' : id % 11 === 0 ? `lone \uD800 ${id}` : `${distinct(id)} round ${round} ${'y'.repeat(round * 40)}`;
        column.set(id, value);
        expected.set(id, value);
      }
      for (let id = round * 3; id < 9000; id += 13) {
        column.delete(id);
        expected.set(id, undefined);
      }
    }
    column.set(20_000, 'past the end');
    expected.set(20_000, 'past the end');
    for (const [id, value] of expected) expect(column.get(id)).toBe(value);
    expect(column.count).toBe([...expected.values()].filter((v) => v !== undefined).length);
    // A non-string turns the column generic without losing a string.
    column.set(1, 42);
    expect(column.kind).toBe(GENERIC);
    expected.set(1, undefined);
    for (const [id, value] of expected) if (id !== 1) expect(column.get(id)).toBe(value);
    expect(column.get(1)).toBe(42);
  });

  it('widen from the dictionary without leaving garbage, and trim compacts only for a real share of garbage', () => {
    const column = new PropertyColumn();
    let widenedAt = -1;
    for (let id = 0; id < 9000 && widenedAt < 0; id++) {
      column.set(id, distinct(id));
      if (column.kind === TEXT) widenedAt = id;
    }
    expect(widenedAt).toBeGreaterThan(0);
    // The string being set when the column widened is written once: no bytes left behind.
    expect(column.text!.image().garbage).toBe(0);
    for (let id = 0; id <= widenedAt; id++) expect(column.get(id)).toBe(distinct(id));
    const heap = new TextHeap(1000);
    for (let id = 0; id < 1000; id++) heap.set(id, distinct(id));
    heap.set(3, 'rewritten');
    const few = heap.image();
    expect(few.garbage).toBeGreaterThan(0);
    heap.trim(1000);
    // A few rewritten strings: the strings stay where they are (no copy of every live one).
    expect(heap.image().starts[500]).toBe(few.starts[500]);
    expect(heap.image().garbage).toBe(few.garbage);
    for (let id = 0; id < 1000; id += 2) heap.set(id, `${distinct(id)} again`);
    heap.trim(1000);
    expect(heap.image().garbage).toBe(0);
    expect(heap.get(3)).toBe('rewritten');
    for (let id = 1; id < 1000; id += 2) if (id !== 3) expect(heap.get(id)).toBe(distinct(id));
    for (let id = 0; id < 1000; id += 2) expect(heap.get(id)).toBe(`${distinct(id)} again`);
  });

  it('survive a rollback as the same strings', () => {
    const g = new Graph();
    const ids: number[] = [];
    g.transact(() => {
      for (let i = 0; i < 6000; i++) ids.push(g.createNode(['M'], new Map<string, Value>([['body', distinct(i)]])).id);
    });
    expect(g.nodeProps.column('body')!.kind).toBe(TEXT);
    g.begin();
    for (let i = 0; i < 6000; i += 3) g.setProperty(g.node(ids[i])!, 'body', `changed ${i}`);
    g.rollback();
    for (let i = 0; i < 6000; i++) expect(g.nodeProps.get(ids[i], 'body')).toBe(distinct(i));
  });

  it('are written to the store and read back after a restart, checkpointed and from the WAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-text-'));
    try {
      const body = "'message ' + toString(i) + ' — ünïcödé 🚀'";
      let db = await Database.open({ dataDir: dir });
      db.executeSync(`UNWIND range(0, 5999) AS i CREATE (:M {i: i, body: ${body}})`);
      await db.checkpoint();
      db.executeSync("UNWIND range(6000, 6999) AS i CREATE (:M {i: i, body: 'late ' + toString(i)})");
      db.executeSync("MATCH (m:M) WHERE m.i % 100 = 0 SET m.body = 'rewritten ' + toString(m.i)");
      await db.close();
      db = await Database.open({ dataDir: dir });
      const rows = db.executeSync('MATCH (m:M) RETURN m.i AS i, m.body AS b ORDER BY i').records;
      expect(rows.length).toBe(7000);
      for (const [i, b] of rows) {
        const n = Number(i);
        expect(b).toBe(n % 100 === 0 ? `rewritten ${n}` : n < 6000 ? `message ${n} — ünïcödé 🚀` : `late ${n}`);
      }
      expect(db.graph.nodeProps.column('body')!.kind).toBe(TEXT);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PropertyStore', () => {
  it('lists an entity’s keys in key-id order and maps them', () => {
    const store = new PropertyStore(new Interner());
    store.set(4, 'b', 1);
    store.set(4, 'a', 'x');
    store.set(9, 'a', 2);
    expect(store.keysOf(4)).toEqual(['b', 'a']);
    expect([...store.mapOf(4)]).toEqual([['b', 1], ['a', 'x']]);
    expect([...store.mapOf(9)]).toEqual([['a', 2]]);
    store.clearEntity(4);
    expect(store.mapOf(4).size).toBe(0);
    expect(store.get(9, 'a')).toBe(2);
    expect(store.get(9, 'missing')).toBeUndefined();
  });

  it('backs the graph: rollback restores values and column kinds keep reading right', () => {
    const g = new Graph();
    const { result: n } = g.transact(() => g.createNode(['A'], new Map<string, Value>([['v', 1]])));
    g.begin();
    g.setProperty(n, 'v', 'text'); // widens the column to generic
    g.setProperty(n, 'w', true);
    g.rollback();
    expect(n.prop('v')).toBe(1);
    expect(n.hasProp('w')).toBe(false);
    expect(g.nodesWithProperty('w')).toBe(0);
    expect(g.nodeProps.column('v')!.kind).toBe(GENERIC);
    // A deleted node keeps its last properties as a value.
    g.transact(() => g.deleteNode(n));
    expect(n.prop('v')).toBe(1);
    expect(g.nodesWithProperty('v')).toBe(0);
  });
});

describe('memory in stats()', () => {
  it('reports a small store when empty and a larger one, mostly properties, when loaded', async () => {
    const { Database } = await import('../../src/engine/database.js');
    const db = Database.openInMemory();
    const empty = db.stats().memory;
    expect(empty.storeBytes).toBeGreaterThanOrEqual(0);
    expect(empty.storeBytes).toBeLessThan(64 * 1024);
    db.executeSync("UNWIND range(1, 20000) AS i CREATE (:P {id: i, name: 'n' + (i % 10), score: i / 3.0})");
    const loaded = db.stats().memory;
    // 20k ids × (4 bytes id + 4 bytes code + 8 bytes score + presence bits), plus node objects.
    expect(loaded.propertyBytes).toBeGreaterThan(20000 * 16);
    expect(loaded.propertyBytes).toBeLessThan(20000 * 40);
    expect(loaded.storeBytes).toBeGreaterThan(loaded.propertyBytes + 20000 * 40);
    expect(loaded.heapUsedBytes).toBeGreaterThan(0);
    expect(loaded.rssBytes).toBeGreaterThan(loaded.heapUsedBytes / 2);
  });
});

describe('a column filled by a load (reserveForLoad)', () => {
  it('grows past 1 MiB into a 32 MiB reservation, reads back every value, and trims to its final size', () => {
    const ints = new PropertyColumn().reserveForLoad();
    const texts = new PropertyColumn().reserveForLoad();
    const n = 300_000;
    for (let id = 0; id < n; id++) {
      ints.set(id, id * 3);
      texts.set(id, `text number ${id} of the load`);
    }
    // A reservation of its own mapping: 8M ids of 4 bytes, however few were written.
    expect(ints.capacity).toBeGreaterThanOrEqual(8 << 20);
    expect(texts.memoryBytes()).toBeGreaterThanOrEqual(32 << 20);
    ints.trim();
    texts.trim();
    expect(ints.capacity).toBeLessThan(n + 64);
    expect(ints.memoryBytes()).toBeLessThan(n * 4 + n / 8 + 1024);
    expect(texts.memoryBytes()).toBeLessThan(n * (8 + 32));
    for (let id = 0; id < n; id += 997) {
      expect(ints.get(id)).toBe(id * 3);
      expect(texts.get(id)).toBe(`text number ${id} of the load`);
    }
    // Trimmed, it grows by half again, as any column.
    ints.set(n + 10, 1);
    expect(ints.capacity).toBeLessThan(2 * n);
    expect(ints.get(n + 10)).toBe(1);
  });
});
