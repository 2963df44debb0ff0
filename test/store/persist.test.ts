import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FloatBox, type ExtendedValue, type Value } from '../../runtime/values.js';
import { StorageError } from '../../src/errors.js';
import { crc32, crc32Portable, crc32Range } from '../../src/store/persist/crc32.js';
import { decodeValue, encodeValue, registerValueCodec } from '../../src/store/persist/value-codec.js';
import { decodeTransaction, encodeTransaction } from '../../src/store/persist/record-codec.js';
import { LOCK_FILE } from '../../src/store/persist/lock-file.js';
import { ACK_FILE, AckWriter, readAck } from '../../src/store/persist/wal-ack.js';
import { crashImage, openDb, removeTempDirs, rows, tempDir, walLayout } from './persist-helpers.js';

afterAll(removeTempDirs);

const roundTrip = (v: Value): Value => decodeValue(JSON.parse(JSON.stringify(encodeValue(v))));

describe('value encoding', () => {
  it('round-trips every core value type exactly', () => {
    expect(roundTrip(42)).toBe(42);
    expect(roundTrip(0.1)).toBe(0.1);
    expect(roundTrip(9223372036854775807n)).toBe(9223372036854775807n);
    expect(roundTrip(new FloatBox(1))).toEqual(new FloatBox(1));
    expect(Object.is((roundTrip(new FloatBox(-0)) as FloatBox).value, -0)).toBe(true);
    expect(roundTrip(NaN)).toBeNaN();
    expect(roundTrip(-Infinity)).toBe(-Infinity);
    expect(roundTrip(['a', null, true, [1, 2.5]])).toEqual(['a', null, true, [1, 2.5]]);
    expect(roundTrip(new Map<string, Value>([['1', 1], ['a', 'b']]))).toEqual(new Map<string, Value>([['1', 1], ['a', 'b']]));
    expect(roundTrip(Float32Array.from([1.5, -2]))).toEqual(Float32Array.from([1.5, -2]));
  });

  it('persists extended values through a registered codec and rejects unknown tags', () => {
    class Money implements ExtendedValue {
      readonly cypherType = 'MONEY_TEST';
      constructor(readonly cents: number) {}
      toCypherString(): string {
        return `money(${this.cents})`;
      }
      equalsValue(o: ExtendedValue): boolean {
        return (o as Money).cents === this.cents;
      }
      compareValue(o: ExtendedValue): number {
        return this.cents - (o as Money).cents;
      }
      hashKey(): string {
        return String(this.cents);
      }
    }
    registerValueCodec({ cypherType: 'MONEY_TEST', tag: 'money-test', encode: (v) => (v as Money).cents, decode: (j) => new Money(j as number) });
    expect(roundTrip(new Money(250))).toEqual(new Money(250));
    expect(() => decodeValue({ $: 'x:nope', v: 1 })).toThrow(/unknown value type 'nope'/);
  });

  it('round-trips change records, schema entries included', () => {
    const tx = decodeTransaction(
      encodeTransaction([
        { op: 'createNode', id: 3, labels: ['A'], props: new Map<string, Value>([['k', 1n << 60n]]) },
        { op: 'setProperty', entity: 'rel', id: 1, key: 'w', value: null },
        { op: 'schema', def: { indexes: [{ name: 'i', label: 'A', key: 'k' }], constraints: [] } },
      ]),
    );
    expect(tx[0]).toEqual({ op: 'createNode', id: 3, labels: ['A'], props: new Map([['k', 1n << 60n]]) });
    expect(tx[1]).toEqual({ op: 'setProperty', entity: 'rel', id: 1, key: 'w', value: null });
    expect(tx[2].op).toBe('schema');
  });

  it('crc32: the portable version agrees with zlib', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(crc32Portable(data)).toBe(0x414fa339);
    expect(crc32(data)).toBe(0x414fa339);
    expect(crc32Portable(data.subarray(10), crc32Portable(data.subarray(0, 10)))).toBe(0x414fa339);
    // crc32Range walks short ranges itself and hands long ones to zlib: both agree with the whole.
    const long = Buffer.concat(Array.from({ length: 10 }, () => data));
    expect(crc32Range(data, 10, data.length, crc32Range(data, 0, 10))).toBe(0x414fa339);
    expect(crc32Range(long, 5, long.length, crc32Range(long, 0, 5))).toBe(crc32(long));
    // Every length and alignment of the four-bytes-a-step loop and its tail, against zlib.
    const bytes = Uint8Array.from({ length: 600 }, (_, i) => (i * 7919 + (i >> 3) * 31) & 0xff);
    for (let start = 0; start < 5; start++) {
      for (let end = start; end <= bytes.length; end += end < 300 ? 1 : 37) {
        const want = crc32(Buffer.from(bytes.subarray(start, end)), 0x1234abcd);
        expect(crc32Range(bytes, start, end, 0x1234abcd)).toBe(want);
        expect(crc32Portable(bytes.subarray(start, end), 0x1234abcd)).toBe(want);
      }
    }
  });
});

const CREATE = "CREATE (a:Person {name: 'Ann', x: 1.0, big: 9223372036854775807, tags: ['a', 'b']})-[:KNOWS {since: 2020}]->(b:Person {name: 'Bob', r: rand()})";
const DUMP = 'MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN id(n), labels(n), properties(n), type(r), properties(r), id(m) ORDER BY id(n), id(r)';

describe('durable database', () => {
  it('keeps everything across a clean restart, fingerprint included', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync(CREATE);
    await db.mutate("MATCH (p:Person {name: 'Bob'}) SET p.age = 41 REMOVE p:Person SET p:Robot");
    db.executeSync("MATCH (p {name: 'Ann'}) DETACH DELETE p");
    db.executeSync('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
    const before = rows(db, DUMP);
    const fingerprint = db.fingerprint();
    db.close();
    expect(fs.existsSync(path.join(dir, 'graphdb.snapshot.json'))).toBe(true);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = await openDb(dir);
    expect(again.storage?.recovery.source).toBe('store');
    expect(rows(again, DUMP)).toEqual(before);
    expect(again.fingerprint()).toBe(fingerprint);
    expect(rows(again, 'SHOW INDEXES YIELD name').map((r) => r[0])).toEqual(['person_name']);
    again.executeSync("CREATE (:Person {name: 'Cid'})");
    expect(rows(again, 'MATCH (n) RETURN max(id(n))')[0][0]).toBe(2);
    again.close();
  });

  it('recovers acknowledged writes from the WAL after a crash', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync(CREATE);
    await Promise.all([1, 2, 3, 4, 5].map((i) => db.mutate(`CREATE (:N {i: ${i}})`)));
    const expected = rows(db, DUMP);
    const image = crashImage(dir);
    db.close();
    const lines: string[] = [];
    const rec = await openDb(image, lines);
    expect(rec.storage?.recovery.walRecordsReplayed).toBe(6);
    expect(rows(rec, DUMP)).toEqual(expected);
    rec.close();
  });

  it('loads the snapshot when there is no store, then rebuilds the store', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync(CREATE);
    db.executeSync('CREATE CONSTRAINT uniq_name FOR (p:Person) REQUIRE p.name IS UNIQUE');
    const expected = rows(db, DUMP);
    db.close();
    fs.rmSync(path.join(dir, 'graphdb.lmdb'));
    fs.rmSync(path.join(dir, 'graphdb.lmdb-lock'), { force: true });
    const again = await openDb(dir);
    expect(again.storage?.recovery.source).toBe('snapshot');
    expect(rows(again, DUMP)).toEqual(expected);
    expect(() => again.executeSync("CREATE (:Person {name: 'Ann'})")).toThrow(/already exists/);
    again.close();
    expect(fs.existsSync(path.join(dir, 'graphdb.lmdb'))).toBe(true);
  });
});

/** A crash image of a store whose WAL holds `n` single-node transactions; returns it and the WAL path. */
async function walImage(n: number): Promise<{ dir: string; wal: string; offsets: number[]; end: number }> {
  const dir = tempDir();
  const db = await openDb(dir);
  for (let i = 0; i < n; i++) db.executeSync(`CREATE (:N {i: ${i}, pad: '${'x'.repeat(20)}'})`);
  const image = crashImage(dir);
  db.close();
  const wal = path.join(image, 'graphdb.wal');
  const { offsets, end } = walLayout(wal);
  return { dir: image, wal, offsets, end };
}

describe('record of acknowledgements', () => {
  it('holds the last sequence number noted, past 32 bits too, and never moves back', () => {
    const file = path.join(tempDir(), ACK_FILE);
    const ack = new AckWriter(file, 7);
    expect(readAck(file)).toBe(7);
    ack.note(2 ** 33 + 5);
    expect(readAck(file)).toBe(2 ** 33 + 5);
    ack.note(2 ** 33 + 6);
    ack.note(9);
    expect(readAck(file)).toBe(2 ** 33 + 6);
    ack.close();
    expect(fs.statSync(file).size).toBe(24);
  });
});

describe('WAL damage', () => {
  it('cuts a torn last record with a warning and keeps every complete one', async () => {
    const { dir, wal, offsets, end } = await walImage(4);
    // The last record loses its end: its last bytes were never written over the zeros taken ahead.
    const buf = fs.readFileSync(wal);
    buf.fill(0, end - 5, end);
    fs.writeFileSync(wal, buf);
    // A torn record was never acknowledged: the record of acknowledgements stops before it.
    new AckWriter(path.join(dir, ACK_FILE), 3).close();
    const lines: string[] = [];
    const db = await openDb(dir, lines);
    expect(rows(db, 'MATCH (n:N) RETURN n.i ORDER BY n.i').map((r) => r[0])).toEqual([0, 1, 2]);
    expect(lines.join('')).toMatch(new RegExp(`cut a torn record at the end of .*graphdb.wal \\(byte offset ${offsets[3]}`));
    db.executeSync('CREATE (:N {i: 99})');
    db.close();
    const again = await openDb(dir);
    expect(rows(again, 'MATCH (n:N) RETURN count(n)')[0][0]).toBe(4);
    again.close();
  });

  it('ends the log where only the zeros taken ahead remain, without a warning', async () => {
    const { dir, wal, offsets, end } = await walImage(3);
    expect(offsets).toHaveLength(3);
    // The writer zero-filled the file ahead of its records: those bytes are no torn record.
    expect(fs.statSync(wal).size).toBeGreaterThan(end);
    expect(fs.readFileSync(wal).subarray(end).every((b) => b === 0)).toBe(true);
    const lines: string[] = [];
    const db = await openDb(dir, lines);
    expect(rows(db, 'MATCH (n:N) RETURN n.i ORDER BY n.i').map((r) => r[0])).toEqual([0, 1, 2]);
    expect(db.storage?.recovery.tornTail).toBeUndefined();
    expect(lines.join('')).not.toMatch(/torn/);
    db.close();
  });

  it('treats garbage appended after the last record as a torn tail', async () => {
    const { dir, wal } = await walImage(2);
    fs.appendFileSync(wal, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]));
    const lines: string[] = [];
    const db = await openDb(dir, lines);
    expect(rows(db, 'MATCH (n:N) RETURN count(n)')[0][0]).toBe(2);
    expect(lines.join('')).toMatch(/torn record/);
    db.close();
  });

  it('stops start-up at a flipped bit in the middle, naming the file and the offset', async () => {
    const { dir, wal, offsets } = await walImage(4);
    const buf = fs.readFileSync(wal);
    buf[offsets[1] + 30] ^= 0x04;
    fs.writeFileSync(wal, buf);
    const err = await openDb(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    const message = (err as StorageError).message;
    expect(message).toContain(wal);
    expect(message).toContain(`byte offset ${offsets[1]}`);
    expect(message).toMatch(/checksum/);
    expect(message).toMatch(/truncate -s/);
    // The failed start-up released the directory.
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('stops at a damaged length field in the middle too', async () => {
    const { dir, wal, offsets } = await walImage(3);
    const buf = fs.readFileSync(wal);
    buf.writeUInt32LE(7, offsets[0]);
    fs.writeFileSync(wal, buf);
    await expect(openDb(dir)).rejects.toThrow(new RegExp(`damaged at byte offset ${offsets[0]}`));
  });

  it('rejects a file that is not a WAL', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'graphdb.wal'), 'hello');
    fs.writeFileSync(path.join(dir, 'graphdb.wal'), 'hello world, not a log');
    await expect(openDb(dir)).rejects.toThrow(/is not a graphdb write-ahead log/);
  });
});

describe('data directory lock', () => {
  it('refuses a directory held by a live process and names it', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: '', since: 'now' }));
    await expect(openDb(dir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`));
  });

  it('takes over the lock of a process that is gone', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, host: '', since: 'then' }));
    const lines: string[] = [];
    const db = await openDb(dir, lines);
    expect(lines.join('')).toMatch(/took over the lock/);
    db.close();
  });

  it('refuses to open the same directory twice in one process', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    await expect(openDb(dir)).rejects.toThrow(/already open in this process/);
    db.close();
  });
});

describe('checkpoints', () => {
  it('folds the WAL into the store by record count and trims it', async () => {
    const dir = tempDir();
    const db = await openDb(dir, [], { records: 10, walBytes: 1e12, intervalMs: 1e9 });
    for (let i = 0; i < 12; i++) await db.mutate(`CREATE (:N {i: ${i}})`);
    // The policy checkpoint commits on LMDB's write thread; wait until it has trimmed the log.
    for (let t = 0; t < 200 && walLayout(path.join(dir, 'graphdb.wal')).end >= 200; t++) await new Promise((r) => setTimeout(r, 10));
    expect(walLayout(path.join(dir, 'graphdb.wal')).end).toBeLessThan(200);
    const image = crashImage(dir);
    db.close();
    const rec = await openDb(image);
    expect(rows(rec, 'MATCH (n:N) RETURN count(n)')[0][0]).toBe(12);
    rec.close();
  });
});

/** Writes with `create`, then checks that `read` answers the same after a clean restart and after a crash. */
async function survivesRestartAndCrash(create: string, read: string): Promise<void> {
  const dir = tempDir();
  const db = await openDb(dir);
  db.executeSync(create);
  const text = (d: typeof db) => d.executeSync(read).records[0].map((v) => String(v));
  const before = text(db);
  const image = crashImage(dir);
  db.close();
  const again = await openDb(dir);
  expect(text(again)).toEqual(before);
  again.close();
  const recovered = await openDb(image);
  expect(text(recovered)).toEqual(before);
  recovered.close();
}

describe('temporal values', () => {
  it('survive a restart exactly', async () => {
    await survivesRestartAndCrash(
      "CREATE (:T {d: date('2024-02-29'), lt: localtime('12:34:56.789'), ldt: localdatetime('2024-01-01T00:00:01'), " +
        "t: time('10:00+02:00'), dt: datetime('2024-03-31T02:30[Europe/Berlin]'), dto: datetime('2024-01-01T10:00-05:00'), du: duration('P1Y2M3DT4H5M6.000000007S')})",
      'MATCH (n:T) RETURN n.d, n.lt, n.ldt, n.t, n.dt, n.dto, n.du, n.dt.timezone, n.dt.offset',
    );
  });
});

describe('spatial values', () => {
  it('survive a restart and a crash exactly, in every coordinate system', async () => {
    await survivesRestartAndCrash(
      'CREATE (:S {c: point({x: 1.5, y: -2}), c3: point({x: 1, y: 2, z: 3}), g: point({longitude: 12.5, latitude: 55.25}), g3: point({longitude: 1, latitude: 2, height: 3}), l: [point({x: 0, y: 0})]})',
      'MATCH (n:S) RETURN n.c, n.c3, n.g, n.g3, n.l, n.g.srid, n.c3.z',
    );
  });
});
