/**
 * Group commit with overlapping fsyncs (storage.walSync): on a real log file, several
 * fdatasyncs are in flight at once, commits are acknowledged in log order and only once an
 * fsync that started after their records were written has returned (with every earlier one),
 * and a failed fsync fails the commits it covered and every later waiter. The failure is
 * real: the log's descriptor number is made to name /dev/null, where fdatasync fails
 * (EINVAL) while writes still succeed, so it is the fsync that fails, not a write.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { StorageError } from '../../src/errors.js';
import { scanWal } from '../../src/store/persist/wal-reader.js';
import { WalWriter, walSyncOptions } from '../../src/store/persist/wal-writer.js';
import { removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

function payload(i: number): string {
  return JSON.stringify([{ op: 'createNode', id: i, labels: ['N'], props: [['i', i]] }]);
}

/** Opens a fresh log; `onDurable` records every durable point it reports. */
function openWriter(concurrent: number, group: number): { wal: WalWriter; durable: number[]; file: string } {
  const file = path.join(tempDir('graphdb-wal-overlap-'), 'graphdb.wal');
  const wal = WalWriter.open(file, 0, 0, undefined, { concurrent, group });
  const durable: number[] = [];
  wal.onDurable = (seq) => durable.push(seq);
  return { wal, durable, file };
}

/**
 * Appends `count` one-record transactions in one turn and waits for each; returns the
 * sequence numbers in the order their promises resolved, checking at each that the writer
 * reports it durable.
 */
async function round(wal: WalWriter, count: number): Promise<number[]> {
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, k) => {
      const seq = wal.append(payload(wal.writtenSeq + 1 + k));
      return wal.whenDurable(seq).then(() => {
        expect(wal.durableSeq).toBeGreaterThanOrEqual(seq);
        order.push(seq);
      });
    }),
  );
  return order;
}

const ascending = (xs: number[]): boolean => xs.every((x, k) => k === 0 || xs[k - 1] <= x);

/** Makes descriptor `fd` name /dev/null (fdatasync there fails with EINVAL; writes succeed). */
function pointAtDevNull(fd: number): void {
  fs.closeSync(fd);
  const extra: number[] = [];
  try {
    // open() takes the lowest free number: fill any lower gap until `fd` is taken again.
    for (;;) {
      const got = fs.openSync('/dev/null', 'r+');
      if (got === fd) return;
      extra.push(got);
      if (got > fd) throw new Error(`descriptor ${fd} was taken by someone else`);
    }
  } finally {
    for (const e of extra) fs.closeSync(e);
  }
}

/** The writer's descriptor for its log, found through /proc (the writer keeps it private). */
function descriptorOf(file: string): number {
  const target = fs.realpathSync(file);
  const fds = fs.readdirSync('/proc/self/fd').map(Number).filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === target;
    } catch {
      return false;
    }
  });
  expect(fds).toHaveLength(1);
  return fds[0];
}

describe('overlapping group-commit fsyncs', () => {
  it('issues several fsyncs at once, a group each, and acknowledges in log order', async () => {
    const { wal, durable, file } = openWriter(4, 8);
    const orders: number[][] = [];
    for (let r = 0; r < 20; r++) orders.push(await round(wal, 64));
    // 64 commits waiting, 8 a group, 4 slots: three groups of 8 and the last slot takes the rest.
    expect(wal.maxInFlight).toBe(4);
    expect(wal.overlapped).toBeGreaterThanOrEqual(20 * 3);
    for (const order of orders) expect(ascending(order), order.join(' ')).toBe(true);
    expect(orders.flat()).toEqual(Array.from({ length: 20 * 64 }, (_, k) => k + 1));
    // The durable point (graphdb.wal.ack's source) only moves forward, through every fsync's end.
    expect(ascending(durable)).toBe(true);
    expect(durable.at(-1)).toBe(20 * 64);
    expect(wal.syncs).toBeGreaterThanOrEqual(20 * 4);
    wal.close();
    const seqs: number[] = [];
    scanWal(file, (record) => seqs.push(record.seq));
    expect(seqs).toEqual(Array.from({ length: 20 * 64 }, (_, k) => k + 1));
  });

  it('commits that arrive while fsyncs run are acknowledged after the earlier ones, each by an fsync started after it', async () => {
    const { wal, durable } = openWriter(4, 4);
    const acked: number[] = [];
    let stop = false;
    // 32 writers, each writing its next commit as soon as the last one is acknowledged.
    const writer = async (): Promise<void> => {
      while (!stop) {
        const seq = wal.append(payload(wal.writtenSeq + 1));
        const syncsBefore = wal.syncs;
        await wal.whenDurable(seq);
        // An fsync issued after this append (syncs only counts up) has returned.
        expect(wal.syncs).toBeGreaterThan(syncsBefore);
        acked.push(seq);
      }
    };
    const done = Promise.all(Array.from({ length: 32 }, writer));
    const timer = setTimeout(() => (stop = true), 400);
    await done;
    clearTimeout(timer);
    expect(acked.length).toBeGreaterThan(100);
    expect(ascending(acked)).toBe(true);
    expect(ascending(durable)).toBe(true);
    expect(wal.overlapped).toBeGreaterThan(0);
    wal.close();
  });

  it('concurrent: 1 is the serial group commit: one fsync at a time taking every waiter', async () => {
    const { wal } = openWriter(1, 4);
    for (let r = 0; r < 10; r++) expect(ascending(await round(wal, 64))).toBe(true);
    expect(wal.maxInFlight).toBe(1);
    expect(wal.overlapped).toBe(0);
    expect(wal.syncs).toBe(10);
    wal.close();
  });

  it('a synchronous fsync while group-commit fsyncs run: its caller is durable at once, the waiters still acknowledged in order', async () => {
    const { wal, durable } = openWriter(4, 4);
    const order: number[] = [];
    const waits = Array.from({ length: 32 }, () => {
      const seq = wal.append(payload(wal.writtenSeq + 1));
      return wal.whenDurable(seq).then(() => void order.push(seq));
    });
    await new Promise((r) => setImmediate(r));
    expect(wal.overlapped).toBeGreaterThan(0);
    const mine = wal.append(payload(33));
    wal.syncNow(); // executeSync's path: returns once an fsync of everything has returned
    const barrier = wal.whenDurable(mine).then(() => void order.push(mine));
    await Promise.all([...waits, barrier]);
    expect(order).toEqual(Array.from({ length: 33 }, (_, k) => k + 1));
    expect(ascending(durable)).toBe(true);
    expect(wal.durableSeq).toBe(33);
    wal.close();
  });

  it('a checkpoint trim while fsyncs run on the old file: every waiter resolves and the old descriptor is closed once they return', async () => {
    const { wal, file } = openWriter(4, 4);
    const target = fs.realpathSync(file);
    const open = (): number => fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(target);
      } catch {
        return false;
      }
    }).length;
    await round(wal, 8);
    const half = wal.bytes;
    const waits = Array.from({ length: 32 }, () => wal.whenDurable(wal.append(payload(wal.writtenSeq + 1))));
    await new Promise((r) => setImmediate(r));
    wal.trimBefore(half); // the store of record took the first 8; the rest is copied to a new file
    await Promise.all(waits);
    await new Promise((r) => setTimeout(r, 50));
    // The new log and nothing else (the replaced one, " (deleted)", closed when its fsyncs returned).
    expect(open()).toBe(1);
    const seqs: number[] = [];
    wal.close();
    scanWal(file, (record) => seqs.push(record.seq));
    expect(seqs).toEqual(Array.from({ length: 32 }, (_, k) => k + 9));
  });

  it('a failed fsync fails the commits it covered and every later waiter; what was durable stays acknowledged', async () => {
    // Space is taken ahead at the first append (on the real file); later records are written
    // just before their fsync, to /dev/null, which takes them: only the fsync can fail.
    const { wal, durable, file } = openWriter(2, 2);
    expect(await round(wal, 4)).toEqual([1, 2, 3, 4]);
    expect(wal.durableSeq).toBe(4);
    const fd = descriptorOf(file);
    const results: Array<{ seq: number; error?: unknown }> = [];
    const wait = (seq: number): Promise<void> =>
      wal.whenDurable(seq).then(
        () => void results.push({ seq }),
        (error: unknown) => void results.push({ seq, error }),
      );
    const before = { syncs: wal.syncs, overlapped: wal.overlapped };
    const first = Array.from({ length: 6 }, (_, k) => wait(wal.append(payload(5 + k))));
    pointAtDevNull(fd);
    // Issued next turn: two fsyncs (groups of two and the rest), both on /dev/null.
    await new Promise((r) => setImmediate(r));
    expect(wal.syncs - before.syncs).toBe(2);
    expect(wal.overlapped - before.overlapped).toBe(1);
    // A commit written while they run waits behind them (both slots are taken).
    const later = wait(wal.append(payload(11)));
    await Promise.all([...first, later]);
    expect(results.map((r) => r.seq).sort((a, b) => a - b)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    for (const r of results) {
      expect(r.error, `commit ${r.seq}`).toBeInstanceOf(StorageError);
      expect((r.error as StorageError).detail).toBe('WalWriteFailed');
      expect((r.error as StorageError).message).toMatch(/Could not fsync the write-ahead log/);
    }
    expect(wal.durableSeq).toBe(4);
    expect(durable.at(-1)).toBe(4);
    // The log refuses from now on.
    expect(() => wal.append(payload(12))).toThrow(/Writes are refused from now on/);
    await expect(wal.whenDurable(12)).rejects.toBeInstanceOf(StorageError);
    wal.close();
  });

  it('storage.walSync is checked: integers from 1 (concurrent at most 64)', async () => {
    expect(walSyncOptions(undefined)).toEqual({ concurrent: 4, group: 16 });
    expect(walSyncOptions({ concurrent: 1 })).toEqual({ concurrent: 1, group: 16 });
    for (const bad of [{ concurrent: 0 }, { concurrent: 65 }, { group: 0 }, { group: 2.5 }, { concurrent: '4' as unknown as number }]) {
      expect(() => walSyncOptions(bad)).toThrow(/storage\.walSync\.(concurrent|group) must be an integer/);
    }
    const dir = tempDir('graphdb-wal-overlap-db-');
    const error = await Database.open({ dataDir: dir, storage: { log: null, walSync: { concurrent: 0 } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).detail).toBe('InvalidStorageOption');
    // Refused before anything was created in the directory.
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
