/**
 * `WalWriter`: appends committed transactions to `graphdb.wal` and makes them durable.
 *
 * Appends are encoded at once and gathered in memory; they reach the file (one `write` into
 * the OS page cache for the whole group, in commit order, so the file is always an ordered
 * prefix of the history) when an fsync is about to cover them, or when enough are waiting.
 * Nothing is acknowledged before its fsync, so a record lost from memory by a crash was
 * never promised to anyone.
 *
 * The file is kept ahead of its records with zeros (`PREALLOC_BYTES` at a time): the
 * records then overwrite blocks the file already has, and `fdatasync` writes only data,
 * not the size and extents a growing file changes (a journal commit on ext4). A zeroed
 * record header is where the log ends (wal-format.ts). Space is taken in `append`, before
 * the transaction becomes visible: a full disk is refused there, as before, and the
 * gathered records never need space the file does not already have. Durability is an fsync
 * (`fdatasync`): `syncNow()` does it synchronously; `whenDurable(seq)` waits for it with
 * group commit: while one fsync is running, later commits queue, and the next fsync
 * covers all of them at once. An fsync starts one event-loop turn after it is asked for
 * (`setImmediate`), never at once: the clients an fsync's end has just acknowledged send
 * their next writes in the microtasks that follow, and starting the next fsync right away
 * (as before) left them out of it. With 64 writers in flight the groups then split in two
 * that took turns, each waiting for two fsyncs; gathered, one fsync takes them all. A write or fsync failure puts the writer in a failed state:
 * every later append is refused with the same StorageError (the process must restart and
 * recover, since the OS may have dropped the unsynced pages).
 *
 * After a checkpoint the records the store of record now holds are trimmed off: when
 * nothing was appended since the checkpoint began, the file is truncated to its header;
 * otherwise the records written meanwhile are copied into `graphdb.wal.tmp`, which is
 * fsynced and renamed over the log (directory fsynced), so a crash leaves either the old
 * log or the new one.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../../errors.js';
import { fsyncDir } from './fsync-dir.js';
import { encodeRecord, encodeRecordInto, RECORD_HEADER_SIZE, WAL_MAGIC } from './wal-format.js';

/** How far the file is zero-filled ahead of its records at a time, unless told otherwise (`open`). */
export const PREALLOC_BYTES = 1024 * 1024;
/** Gathered records are written once this many bytes wait, fsync or not (bounds the memory they hold). */
const FLUSH_BYTES = 256 * 1024;
/** A transaction larger than this is written as it comes instead of into zero-filled space (no double write of a bulk load). */
const DIRECT_BYTES = 1024 * 1024;
let zeros: Buffer | undefined;

interface Waiter {
  seq: number;
  resolve(): void;
  reject(err: StorageError): void;
}

export class WalWriter {
  private fd: number;
  /** Where the records written to the file end. */
  private size: number;
  /** Where the file ends: `size` plus zeros taken ahead (PREALLOC_BYTES). */
  private allocated: number;
  /** Records appended and not yet written to the file: the first `pendingBytes` bytes, framed in order (`flush`). */
  private pending = Buffer.allocUnsafe(FLUSH_BYTES);
  private pendingBytes = 0;
  /** Sequence number of the last record written (durable or not). */
  writtenSeq: number;
  /** Sequence number up to which every record is on disk. */
  durableSeq: number;
  /** fsyncs of the log so far (synchronous and group commits): records per fsync shows the grouping. */
  syncs = 0;
  private syncing = false;
  /** An fsync is due at the next turn of the event loop (`requestSync`). */
  private syncDue = false;
  private waiters: Waiter[] = [];
  private failure: StorageError | undefined;
  private closed = false;
  /** Told the sequence number up to which records became durable (graphdb.wal.ack). */
  onDurable: ((seq: number) => void) | undefined;
  /** A descriptor replaced by a trim while an fsync on it was running; closed when it ends. */
  private retiredFd: number | undefined;

  private constructor(
    readonly file: string,
    fd: number,
    size: number,
    lastSeq: number,
    private readonly preallocBytes: number,
  ) {
    this.fd = fd;
    this.size = size;
    this.allocated = size;
    this.writtenSeq = lastSeq;
    this.durableSeq = lastSeq;
  }

  /**
   * Opens the log for appending after recovery: cuts it at `validEnd` (a torn tail) and
   * continues numbering after `lastSeq`. A missing or header-less file is (re)created.
   * `preallocBytes` is how far to zero-fill ahead (0: the file grows with each write).
   */
  static open(file: string, validEnd: number, lastSeq: number, preallocBytes = PREALLOC_BYTES): WalWriter {
    const exists = fs.existsSync(file) && validEnd >= WAL_MAGIC.length;
    const fd = fs.openSync(file, exists ? 'r+' : 'w+');
    try {
      if (!exists) {
        fs.writeSync(fd, WAL_MAGIC, 0, WAL_MAGIC.length, 0);
        fs.ftruncateSync(fd, WAL_MAGIC.length);
        fs.fsyncSync(fd);
        fsyncDir(path.dirname(file));
        validEnd = WAL_MAGIC.length;
      } else if (fs.fstatSync(fd).size !== validEnd) {
        fs.ftruncateSync(fd, validEnd);
        fs.fsyncSync(fd);
      }
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    return new WalWriter(file, fd, validEnd, lastSeq, Math.max(0, preallocBytes));
  }

  /** Bytes in the log, header included (records still gathered in memory count: they come next). */
  get bytes(): number {
    return this.size + this.pendingBytes;
  }

  /** Bytes of records (0 right after a reset). */
  get recordBytes(): number {
    return this.bytes - WAL_MAGIC.length;
  }

  /**
   * Appends one transaction — one payload, or the payloads of a group (record-codec.ts) —
   * and returns the sequence number of its last record (not yet durable). The space it
   * needs is taken now: a full disk throws here, with nothing appended.
   */
  append(payload: string | readonly string[]): number {
    this.check();
    const payloads = typeof payload === 'string' ? [payload] : payload;
    const first = this.writtenSeq + 1;
    const lengths = payloads.map((text) => Buffer.byteLength(text, 'utf8'));
    let bytes = 0;
    for (const length of lengths) bytes += RECORD_HEADER_SIZE + length;
    if (bytes > DIRECT_BYTES || this.preallocBytes === 0) {
      this.flush();
      this.writeDirect(payloads.map((text, k) => encodeRecord(first + k, text)));
    } else {
      const end = this.size + this.pendingBytes + bytes;
      if (end > this.allocated) this.reserve(end);
      if (this.pendingBytes + bytes > this.pending.length) {
        this.flush();
        if (bytes > this.pending.length) this.pending = Buffer.allocUnsafe(bytes);
      }
      let at = this.pendingBytes;
      for (let k = 0; k < payloads.length; k++) at = encodeRecordInto(this.pending, at, first + k, payloads[k], lengths[k]);
      this.pendingBytes = at;
      if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    }
    this.writtenSeq = first + payloads.length - 1;
    return this.writtenSeq;
  }

  /** Writes a large transaction's records at the end of the written ones (the file grows as needed). */
  private writeDirect(records: readonly Buffer[]): void {
    let size = this.size;
    try {
      for (const record of records) {
        let done = 0;
        while (done < record.length) done += fs.writeSync(this.fd, record, done, record.length - done, size + done);
        size += record.length;
      }
    } catch (err) {
      throw this.spaceFull(err, this.size) ?? this.fail(err, 'write');
    }
    this.size = size;
    this.allocated = Math.max(this.allocated, size);
  }

  /** Zero-fills the file up to `end` and a stretch beyond it; only up to `end` when the disk has no room for the stretch. */
  private reserve(end: number): void {
    const before = this.allocated;
    try {
      this.zeroFill(before, end + this.preallocBytes);
    } catch (err) {
      if (!isSpaceError(err)) throw this.fail(err, 'write');
      try {
        fs.ftruncateSync(this.fd, before);
        this.zeroFill(before, end);
      } catch (again) {
        throw this.spaceFull(again, before) ?? this.fail(again, 'write');
      }
    }
  }

  private zeroFill(from: number, to: number): void {
    zeros ??= Buffer.alloc(1024 * 1024);
    let at = from;
    while (at < to) at += fs.writeSync(this.fd, zeros, 0, Math.min(zeros.length, to - at), at);
    this.allocated = to;
  }

  /** Writes the gathered records to the file (into space `append` took for them). */
  private flush(): void {
    const bytes = this.pendingBytes;
    if (bytes === 0) return;
    this.pendingBytes = 0;
    try {
      let done = 0;
      while (done < bytes) done += fs.writeSync(this.fd, this.pending, done, bytes - done, this.size + done);
    } catch (err) {
      throw this.fail(err, 'write');
    }
    this.size += bytes;
  }

  /** Makes every written record durable before returning. */
  syncNow(): void {
    this.check();
    if (this.durableSeq === this.writtenSeq) return;
    const target = this.writtenSeq;
    this.flush();
    try {
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      throw this.fail(err, 'fsync');
    }
    this.syncs++;
    this.settle(target);
  }

  /** Resolves once the record `seq` (and every one before it) is durable; group commit. */
  whenDurable(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.durableSeq) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.requestSync();
    });
  }

  /**
   * Empties the log (keeps the header), after the store of record has durably taken in
   * every record written so far. The numbering continues.
   */
  reset(): void {
    this.check();
    // Gathered records are in the store of record too (they were appended before the checkpoint's capture).
    this.pendingBytes = 0;
    try {
      fs.ftruncateSync(this.fd, WAL_MAGIC.length);
      fs.fsyncSync(this.fd);
    } catch (err) {
      throw this.fail(err, 'truncate');
    }
    this.size = WAL_MAGIC.length;
    this.allocated = this.size;
    this.settle(this.writtenSeq);
  }

  /**
   * Drops the records before byte `offset` (the store of record holds them now) and keeps
   * the ones from `offset` on, which were appended while the checkpoint ran. Every record
   * kept is durable when this returns.
   */
  trimBefore(offset: number): void {
    this.check();
    this.flush();
    if (offset >= this.size) {
      this.reset();
      return;
    }
    if (offset <= WAL_MAGIC.length) return;
    const tmp = `${this.file}.tmp`;
    let fresh: number | undefined;
    try {
      const tail = Buffer.alloc(this.size - offset);
      let read = 0;
      while (read < tail.length) {
        const n = fs.readSync(this.fd, tail, read, tail.length - read, offset + read);
        if (n === 0) throw new Error(`the log ends early at ${offset + read}`);
        read += n;
      }
      fresh = fs.openSync(tmp, 'w+');
      const body = Buffer.concat([WAL_MAGIC, tail]);
      let done = 0;
      while (done < body.length) done += fs.writeSync(fresh, body, done, body.length - done, done);
      fs.fsyncSync(fresh);
      fs.renameSync(tmp, this.file);
      fsyncDir(path.dirname(this.file));
    } catch (err) {
      if (fresh !== undefined) fs.closeSync(fresh);
      fs.rmSync(tmp, { force: true });
      throw this.fail(err, 'trim');
    }
    const old = this.fd;
    this.fd = fresh;
    this.size = WAL_MAGIC.length + (this.size - offset);
    this.allocated = this.size;
    if (this.syncing) this.retiredFd = old;
    else fs.closeSync(old);
    this.settle(this.writtenSeq);
  }

  /** Syncs what is written and closes the file. */
  close(): void {
    if (this.closed) return;
    try {
      if (!this.failure) this.syncNow();
    } finally {
      this.closed = true;
      fs.closeSync(this.fd);
      if (this.retiredFd !== undefined && !this.syncing) fs.closeSync(this.retiredFd);
      const err = this.failure ?? new StorageError('The write-ahead log was closed', 'WalClosed');
      for (const w of this.waiters.splice(0)) if (w.seq <= this.durableSeq) w.resolve(); else w.reject(err);
    }
  }

  /** Starts an fsync at the next turn of the event loop, after the writes this turn makes (see the module comment). */
  private requestSync(): void {
    if (this.syncing || this.syncDue || this.closed) return;
    this.syncDue = true;
    setImmediate(() => {
      this.syncDue = false;
      this.startSync();
    });
  }

  private startSync(): void {
    if (this.syncing || this.closed) return;
    if (this.failure) {
      // A synchronous write or fsync failed since the request: nothing more becomes durable.
      for (const w of this.waiters.splice(0)) w.reject(this.failure);
      return;
    }
    // A synchronous fsync (syncNow, a checkpoint) may have covered every waiter meanwhile.
    if (this.waiters.length === 0) return;
    try {
      this.flush();
    } catch (err) {
      for (const w of this.waiters.splice(0)) w.reject(err as StorageError);
      return;
    }
    this.syncing = true;
    const target = this.writtenSeq;
    this.syncs++;
    fs.fdatasync(this.fd, (err) => {
      this.syncing = false;
      if (this.retiredFd !== undefined) {
        fs.closeSync(this.retiredFd);
        this.retiredFd = undefined;
      }
      if (this.closed) return;
      if (err) {
        const failure = this.fail(err, 'fsync');
        for (const w of this.waiters.splice(0)) w.reject(failure);
        return;
      }
      this.settle(target);
      if (this.waiters.length > 0) this.requestSync();
    });
  }

  private settle(target: number): void {
    if (target > this.durableSeq) {
      this.durableSeq = target;
      this.onDurable?.(target);
    }
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) if (w.seq <= this.durableSeq) w.resolve(); else still.push(w);
    this.waiters = still;
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw new StorageError('The write-ahead log is closed', 'WalClosed');
  }

  /**
   * A write that failed for lack of space (ENOSPC, EDQUOT, EFBIG) is undone by cutting the
   * file back to `cutAt` (its last complete record, or the end of the space already taken); the writer stays usable, so writing resumes
   * once space is freed. Undefined when the error is another one or the cut fails.
   */
  private spaceFull(err: unknown, cutAt: number): StorageError | undefined {
    if (!isSpaceError(err)) return undefined;
    const code = (err as NodeJS.ErrnoException).code;
    try {
      fs.ftruncateSync(this.fd, cutAt);
    } catch {
      return undefined;
    }
    this.allocated = cutAt;
    return new StorageError(
      `No space left to write the write-ahead log ${this.file} (${code}): the write was not made. ` +
        `Reads go on; writes succeed again once space is freed.`,
      'NoSpace',
    );
  }

  private fail(err: unknown, what: string): StorageError {
    const message = err instanceof Error ? err.message : String(err);
    this.failure ??= new StorageError(
      `Could not ${what} the write-ahead log ${this.file} at offset ${this.size}: ${message}. ` +
        `Writes are refused from now on; restart graphdb to recover from the log.`,
      'WalWriteFailed',
    );
    return this.failure;
  }
}

function isSpaceError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}
