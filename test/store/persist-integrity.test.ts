/**
 * Damaged data directories (issue 9, findings 6 and 7): whatever happens to graphdb.lmdb
 * (single bit flips at many offsets, truncation, random bytes), opening it either fails
 * with a StorageError that names the file and says what to do, or loads exactly the data
 * that was written — never a native crash (this test process would die) and never wrong
 * data. Also: zeroing the WAL from an offset is refused (acknowledged records are not cut
 * as a torn tail), a snapshot missing a line is refused, and a used directory whose store
 * files vanished is refused unless forceEmpty.
 *
 * The bit-flip loop visits 24 offsets here; GRAPHDB_LONG_INTEGRITY=1 visits 400.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { StorageError } from '../../src/errors.js';
import { unchangedSinceClose } from '../../src/store/persist/lmdb-guard.js';
import { RecordStore } from '../../src/store/persist/record-store.js';
import { crashImage, openDb, quiet, removeTempDirs, rows, tempDir, walLayout } from './persist-helpers.js';

afterAll(removeTempDirs);

const DUMP =
  'MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN id(n), labels(n), properties(n), type(r), properties(r), id(m) ORDER BY id(n), id(r)';
const LONG = process.env.GRAPHDB_LONG_INTEGRITY === '1';

/** A closed data directory with a little of every kind of value, and its dump. */
async function sample(): Promise<{ dir: string; expected: unknown[][] }> {
  const dir = tempDir('graphdb-integrity-');
  const db = await Database.open({ dataDir: dir, storage: quiet });
  db.executeSync(
    "UNWIND range(0, 299) AS i CREATE (:P {i: i, f: i / 7.0, b: i % 2 = 0, s: 'name ' + toString(i % 13), u: 'unique ' + toString(i), l: [i, i + 1]})",
  );
  db.executeSync("MATCH (a:P), (b:P) WHERE b.i = (a.i * 7 + 3) % 300 CREATE (a)-[:R {w: a.i, since: date('2024-01-02')}]->(b)");
  db.executeSync('MATCH (n:P) WHERE n.i % 5 = 0 SET n:Q');
  const expected = rows(db, DUMP);
  db.close();
  fs.rmSync(path.join(dir, 'graphdb.snapshot.json'));
  // The open image would spare the open from reading the damaged blocks these tests are about.
  fs.rmSync(path.join(dir, 'graphdb.image'));
  return { dir, expected };
}

/** Opens `dir`: 'refused' on a StorageError that names graphdb.lmdb, else the dump. */
async function outcome(dir: string): Promise<'refused' | unknown[][]> {
  let db: Database;
  try {
    db = await Database.open({ dataDir: dir, storage: { ...quiet, snapshotOnClose: false } });
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).message).toMatch(/graphdb\.lmdb/);
    expect((err as StorageError).message).toMatch(/backup/);
    return 'refused';
  }
  try {
    return rows(db, DUMP);
  } finally {
    db.storage!.close();
  }
}

describe('a damaged graphdb.lmdb', () => {
  it('is probed again after any write since graphdb last closed it cleanly', async () => {
    const { dir, expected } = await sample();
    const file = path.join(dir, 'graphdb.lmdb');
    await RecordStore.closed(dir);
    expect(unchangedSinceClose(file)).toBe(true);
    expect(await outcome(dir)).toEqual(expected);
    await RecordStore.closed(dir);
    expect(unchangedSinceClose(file)).toBe(true);
    // The same byte written back in place: the content is unchanged, but the file was written.
    const fd = fs.openSync(file, 'r+');
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, 5000);
    fs.writeSync(fd, byte, 0, 1, 5000);
    fs.closeSync(fd);
    expect(unchangedSinceClose(file)).toBe(false);
  });

  it('never crashes and never loads wrong data, whichever bit flips', async () => {
    const { dir, expected } = await sample();
    const file = path.join(dir, 'graphdb.lmdb');
    const size = fs.statSync(file).size;
    const flips = LONG ? 400 : 24;
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const counts = { refused: 0, same: 0 };
    for (let k = 0; k < flips; k++) {
      // Half the flips land in the first pages (meta pages, B-tree roots), half anywhere.
      const offset = k % 2 === 0 ? rand(Math.min(size, 6 * 4096)) : rand(size);
      const image = crashImage(dir);
      const bytes = fs.readFileSync(path.join(image, 'graphdb.lmdb'));
      bytes[offset] ^= 1 << rand(8);
      fs.writeFileSync(path.join(image, 'graphdb.lmdb'), bytes);
      const got = await outcome(image);
      if (got === 'refused') counts.refused++;
      else {
        expect(got, `bit flip at offset ${offset}`).toEqual(expected);
        counts.same++;
      }
      fs.rmSync(image, { recursive: true, force: true });
    }
    expect(counts.refused + counts.same).toBe(flips);
    // Most of the file is checksummed blocks: some flips must have been caught.
    expect(counts.refused).toBeGreaterThan(0);
  }, 600_000);

  it('refuses a truncated file and one overwritten with random bytes', async () => {
    const { dir } = await sample();
    const size = fs.statSync(path.join(dir, 'graphdb.lmdb')).size;
    for (const keep of [0.5, 0.9, 8191 / size, 100 / size]) {
      const image = crashImage(dir);
      fs.truncateSync(path.join(image, 'graphdb.lmdb'), Math.floor(size * keep));
      expect(await outcome(image)).toBe('refused');
    }
    const image = crashImage(dir);
    let seed = 3;
    const noise = Buffer.alloc(size);
    for (let i = 0; i < size; i++) noise[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 16;
    fs.writeFileSync(path.join(image, 'graphdb.lmdb'), noise);
    expect(await outcome(image)).toBe('refused');
  }, 300_000);
});

describe('acknowledged records and vanished files', () => {
  it('refuses a WAL zeroed from an offset instead of cutting acknowledged records', async () => {
    const dir = tempDir('graphdb-integrity-');
    const db = await openDb(dir);
    for (let i = 0; i < 6; i++) db.executeSync(`CREATE (:N {i: ${i}})`);
    const image = crashImage(dir);
    db.close();
    const wal = path.join(image, 'graphdb.wal');
    const buf = fs.readFileSync(wal);
    buf.fill(0, Math.floor(walLayout(wal).end / 2));
    fs.writeFileSync(wal, buf);
    const err = await openDb(image).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).message).toMatch(/acknowledged/);
    expect((err as StorageError).message).toContain('graphdb.wal.ack');
    // The log was left as it was: nothing cut.
    expect(fs.readFileSync(wal)).toEqual(buf);
  });

  it('refuses a snapshot with a node line deleted', async () => {
    const dir = tempDir('graphdb-integrity-');
    const db = await openDb(dir);
    db.executeSync('UNWIND range(1, 5) AS i CREATE (:N {i: i})');
    db.close();
    fs.rmSync(path.join(dir, 'graphdb.lmdb'));
    const snapshot = path.join(dir, 'graphdb.snapshot.json');
    const lines = fs.readFileSync(snapshot, 'utf8').split('\n');
    const victim = lines.findIndex((l) => l.includes('"i"'));
    lines.splice(victim, 1);
    fs.writeFileSync(snapshot, lines.join('\n'));
    await expect(openDb(dir)).rejects.toThrow(/header records 5 nodes .* holds 4|does not match its checksum/);
  });

  it('refuses a snapshot with a value changed in place, and still reads one without a checksum', async () => {
    const dir = tempDir('graphdb-integrity-');
    const db = await openDb(dir);
    db.executeSync('UNWIND range(1, 5) AS i CREATE (:N {i: i})');
    db.close();
    fs.rmSync(path.join(dir, 'graphdb.lmdb'));
    const snapshot = path.join(dir, 'graphdb.snapshot.json');
    const sound = fs.readFileSync(snapshot, 'utf8');
    expect(sound.trimEnd().split('\n').pop()).toMatch(/^\],"crc32":"[0-9a-f]{8}"\}$/);
    fs.writeFileSync(snapshot, sound.replace('"i",3]', '"i",7]'));
    await expect(openDb(dir)).rejects.toThrow(/does not match its checksum/);
    // A file written by hand (or before checksums) ends with a plain `]}`: still read.
    fs.writeFileSync(snapshot, sound.replace(/\],"crc32":"[0-9a-f]{8}"\}/, ']}'));
    const again = await openDb(dir);
    expect(rows(again, 'MATCH (n:N) RETURN sum(n.i)')).toEqual([[15]]);
    again.close();
  });

  it('refuses a used directory whose store files vanished, unless forceEmpty', async () => {
    const dir = tempDir('graphdb-integrity-');
    const db = await openDb(dir);
    db.executeSync('CREATE (:N)');
    db.close();
    for (const name of ['graphdb.lmdb', 'graphdb.lmdb-lock', 'graphdb.snapshot.json']) fs.rmSync(path.join(dir, name), { force: true });
    const err = await openDb(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).message).toMatch(/--force-empty/);
    const lines: string[] = [];
    const empty = await Database.open({ dataDir: dir, forceEmpty: true, storage: { log: { write: (t: string) => lines.push(t) } } });
    expect(rows(empty, 'MATCH (n) RETURN count(n)')[0][0]).toBe(0);
    expect(lines.join('')).toMatch(/force-empty/);
    empty.executeSync('CREATE (:M)');
    empty.close();
    const again = await openDb(dir);
    expect(rows(again, 'MATCH (n:M) RETURN count(n)')[0][0]).toBe(1);
    again.close();
  });

  it('opens a fresh directory and a used one whose files are all there', async () => {
    const dir = tempDir('graphdb-integrity-');
    const db = await openDb(dir);
    db.close();
    const again = await openDb(dir);
    again.executeSync('CREATE (:N)');
    again.close();
    const third = await openDb(dir);
    expect(rows(third, 'MATCH (n) RETURN count(n)')[0][0]).toBe(1);
    third.close();
  });
});
