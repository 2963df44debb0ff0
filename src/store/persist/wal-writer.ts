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
 * group commit: commits that wait share an fsync. An fsync starts one event-loop turn after
 * it is asked for (`setImmediate`), never at once: the clients an fsync's end has just
 * acknowledged send their next writes in the microtasks that follow, and starting the next
 * fsync right away left them out of it (64 writers in flight split in two groups that took
 * turns, each waiting for two fsyncs).
 *
 * Several fsyncs may be in flight at once (`WalSyncOptions.concurrent`, 4 by default): with
 * one at a time, the writers it acknowledges run their next queries while the disk idles,
 * and every later commit waits for the running fsync and then its own. Overlapped, an fsync
 * takes at most `group` waiting commits (16) while another could still start for the rest
 * (the last one that may start takes all that wait), and its records alone are written
 * before it starts, so the next group's fsync can start beside it. The durability rule
 * stays: a commit is acknowledged only when an fsync that started after its records were
 * written has returned and every fsync issued before that one has returned too, so acks
 * (and graphdb.wal.ack) go in log order. A failed fsync fails every commit waiting beyond
 * the durable point (the ones it covered and every later one, whatever later fsyncs
 * return); a write or fsync failure puts the writer in a failed state: every later append
 * is refused with the same StorageError (the process must restart and recover, since the
 * OS may have dropped the unsynced pages). `concurrent: 1` is the serial group commit.
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

/** How group commit issues fsyncs (`storage.walSync`). */
export interface WalSyncOptions {
  /** How many fsyncs of the log may be in flight at once (1: one at a time, serial group commit). */
  concurrent: number;
  /** The most waiting commits one fsync takes while another could still start for the rest. */
  group: number;
}

export const DEFAULT_WAL_SYNC: WalSyncOptions = { concurrent: 4, group: 16 };
/** Beyond libuv's thread pool more fsyncs only queue; the bound keeps a typo from opening thousands. */
const MAX_CONCURRENT = 64;

/** `options` completed with the defaults; throws a StorageError (`InvalidStorageOption`) for a value out of range. */
export function walSyncOptions(options: Partial<WalSyncOptions> | undefined): WalSyncOptions {
  const out = { ...DEFAULT_WAL_SYNC, ...options };
  const check = (key: keyof WalSyncOptions, max: number): void => {
    const v: unknown = out[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > max) {
      throw new StorageError(`storage.walSync.${key} must be an integer from 1 to ${max}, got ${JSON.stringify(v)}`, 'InvalidStorageOption');
    }
  };
  check('concurrent', MAX_CONCURRENT);
  check('group', Number.MAX_SAFE_INTEGER);
  return out;
}

interface Waiter {
  seq: number;
  resolve(): void;
  reject(err: StorageError): void;
}

/** One fsync issued by group commit, kept in issue order until it and every earlier one returned. */
interface Sync {
  /** Every record up to this sequence number was in the file when it started. */
  target: number;
  /** The descriptor it runs on (a trim may replace `WalWriter.fd` meanwhile). */
  fd: number;
  done: boolean;
  error: unknown;
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
  /** Per transaction gathered in `pending`: its last sequence number and where its records end (so a group's records can be written alone). */
  private pendingSeqs: number[] = [];
  private pendingEnds: number[] = [];
  /** Sequence number of the last record written to the file. */
  private fileSeq: number;
  /** Sequence number of the last record written (durable or not). */
  writtenSeq: number;
  /** Sequence number up to which every record is on disk. */
  durableSeq: number;
  /** fsyncs of the log so far (synchronous and group commits): records per fsync shows the grouping. */
  syncs = 0;
  /** fsyncs that started while another was in flight. */
  overlapped = 0;
  /** The most fsyncs in flight at once so far. */
  maxInFlight = 0;
  /** fsyncs issued and not yet retired, in issue order: acks wait for every earlier one (see the module comment). */
  private inFlight: Sync[] = [];
  /** The highest sequence number an fsync issued so far covers (waiters beyond it need another). */
  private issuedSeq: number;
  /** An fsync is due at the next turn of the event loop (`requestSync`). */
  private syncDue = false;
  /** Waiting commits in sequence order. */
  private waiters: Waiter[] = [];
  private failure: StorageError | undefined;
  private closed = false;
  /** Told the sequence number up to which records became durable (graphdb.wal.ack). */
  onDurable: ((seq: number) => void) | undefined;
  /** Descriptors replaced by a trim (or closed) while fsyncs on them were running; each is closed when its last one returns. */
  private readonly retiredFds = new Set<number>();
  /** fsyncs not yet returned, per descriptor (libuv may not have started one yet: its descriptor must stay open). */
  private readonly running = new Map<number, number>();
  private readonly sync: WalSyncOptions;

  private constructor(
    readonly file: string,
    fd: number,
    size: number,
    lastSeq: number,
    private readonly preallocBytes: number,
    sync: WalSyncOptions,
  ) {
    this.fd = fd;
    this.size = size;
    this.allocated = size;
    this.writtenSeq = lastSeq;
    this.durableSeq = lastSeq;
    this.fileSeq = lastSeq;
    this.issuedSeq = lastSeq;
    this.sync = sync;
  }

  /**
   * Opens the log for appending after recovery: cuts it at `validEnd` (a torn tail) and
   * continues numbering after `lastSeq`. A missing or header-less file is (re)created.
   * `preallocBytes` is how far to zero-fill ahead (0: the file grows with each write);
   * `sync` how group commit issues fsyncs (defaults `DEFAULT_WAL_SYNC`, checked by `walSyncOptions`).
   */
  static open(file: string, validEnd: number, lastSeq: number, preallocBytes = PREALLOC_BYTES, sync?: Partial<WalSyncOptions>): WalWriter {
    const syncOptions = walSyncOptions(sync);
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
    return new WalWriter(file, fd, validEnd, lastSeq, Math.max(0, preallocBytes), syncOptions);
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
    const last = first + payloads.length - 1;
    if (payloads.length === 0) return this.writtenSeq;
    if (bytes > DIRECT_BYTES || this.preallocBytes === 0) {
      this.flush();
      this.writeDirect(payloads.map((text, k) => encodeRecord(first + k, text)));
      this.fileSeq = last;
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
      this.pendingSeqs.push(last);
      this.pendingEnds.push(at);
      if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    }
    this.writtenSeq = last;
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
    this.flushThrough(Infinity);
  }

  /**
   * Writes the gathered transactions up to the first one whose last sequence number is
   * `seq` or more (all of them when none is) and keeps the rest gathered; the file stays an
   * ordered prefix of the history.
   */
  private flushThrough(seq: number): void {
    const count = this.pendingSeqs.length;
    if (count === 0 || this.fileSeq >= seq) return;
    let k = 0;
    while (k < count - 1 && this.pendingSeqs[k] < seq) k++;
    const bytes = this.pendingEnds[k];
    try {
      let done = 0;
      while (done < bytes) done += fs.writeSync(this.fd, this.pending, done, bytes - done, this.size + done);
    } catch (err) {
      throw this.fail(err, 'write');
    }
    this.size += bytes;
    this.fileSeq = this.pendingSeqs[k];
    if (k === count - 1) {
      this.pendingBytes = 0;
      this.pendingSeqs.length = 0;
      this.pendingEnds.length = 0;
      return;
    }
    this.pending.copyWithin(0, bytes, this.pendingBytes);
    this.pendingBytes -= bytes;
    this.pendingSeqs.splice(0, k + 1);
    this.pendingEnds.splice(0, k + 1);
    for (let j = 0; j < this.pendingEnds.length; j++) this.pendingEnds[j] -= bytes;
  }

  /** Forgets the gathered records (a checkpoint's store of record holds them). */
  private dropPending(): void {
    this.pendingBytes = 0;
    this.pendingSeqs.length = 0;
    this.pendingEnds.length = 0;
    this.fileSeq = this.writtenSeq;
  }

  /**
   * Makes every written record durable before returning. With group-commit fsyncs still in
   * flight, the records this fsync covers are durable for the caller, but waiting commits are
   * still acknowledged only once those earlier fsyncs return (acks in log order).
   */
  syncNow(): void {
    this.check();
    if (this.issuedSeq === this.writtenSeq && this.inFlight.every((s) => s.done)) return;
    const target = this.writtenSeq;
    this.flush();
    try {
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      throw this.fail(err, 'fsync');
    }
    this.syncs++;
    this.issuedSeq = target;
    if (this.inFlight.length === 0) this.settle(target);
    else this.inFlight.push({ target, fd: this.fd, done: true, error: undefined });
  }

  /** Resolves once the record `seq` (and every one before it) is durable; group commit. */
  whenDurable(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.durableSeq) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = { seq, resolve, reject };
      // Kept in sequence order (appends come in order; a barrier for an earlier seq is rare).
      let at = this.waiters.length;
      while (at > 0 && this.waiters[at - 1].seq > seq) at--;
      this.waiters.splice(at, 0, waiter);
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
    this.dropPending();
    try {
      fs.ftruncateSync(this.fd, WAL_MAGIC.length);
      fs.fsyncSync(this.fd);
    } catch (err) {
      throw this.fail(err, 'truncate');
    }
    this.size = WAL_MAGIC.length;
    this.allocated = this.size;
    this.settleAll();
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
    if (this.running.has(old)) this.retiredFds.add(old);
    else fs.closeSync(old);
    this.settleAll();
  }

  /** Syncs what is written and closes the file. */
  close(): void {
    if (this.closed) return;
    try {
      if (!this.failure) {
        this.syncNow();
        // The fsync just made covers every record; no later completion will be looked at.
        this.settleAll();
      }
    } finally {
      this.closed = true;
      if (this.running.has(this.fd)) this.retiredFds.add(this.fd);
      else fs.closeSync(this.fd);
      const err = this.failure ?? new StorageError('The write-ahead log was closed', 'WalClosed');
      for (const w of this.waiters.splice(0)) if (w.seq <= this.durableSeq) w.resolve(); else w.reject(err);
    }
  }

  /** Starts fsyncs at the next turn of the event loop, after the writes this turn makes (see the module comment). */
  private requestSync(): void {
    if (this.syncDue || this.closed || this.inFlight.length >= this.sync.concurrent) return;
    if (this.waiters.length === 0 || this.waiters[this.waiters.length - 1].seq <= this.issuedSeq) return;
    this.syncDue = true;
    setImmediate(() => {
      this.syncDue = false;
      this.startSyncs();
    });
  }

  /** Issues fsyncs for the waiting commits no fsync covers yet, a group each, while slots are free. */
  private startSyncs(): void {
    if (this.closed) return;
    if (this.failure) {
      // A synchronous write or fsync failed since the request: nothing more becomes durable
      // beyond what the fsyncs in flight cover.
      if (this.inFlight.length === 0) this.rejectWaiting(this.failure);
      return;
    }
    while (this.inFlight.length < this.sync.concurrent) {
      // A synchronous fsync (syncNow, a checkpoint) may have covered every waiter meanwhile.
      let first = this.waiters.length;
      while (first > 0 && this.waiters[first - 1].seq > this.issuedSeq) first--;
      const waiting = this.waiters.length - first;
      if (waiting === 0) return;
      const last = this.inFlight.length === this.sync.concurrent - 1 || waiting <= this.sync.group;
      const upTo = last ? Infinity : this.waiters[first + this.sync.group - 1].seq;
      try {
        this.flushThrough(upTo);
      } catch (err) {
        if (this.inFlight.length === 0) this.rejectWaiting(err as StorageError);
        return;
      }
      // Every record in the file is covered by an fsync issued already (a waiter for a record not yet appended).
      if (this.fileSeq <= this.issuedSeq) return;
      const sync: Sync = { target: this.fileSeq, fd: this.fd, done: false, error: undefined };
      let running = 0;
      for (const n of this.running.values()) running += n;
      if (running > 0) this.overlapped++;
      this.maxInFlight = Math.max(this.maxInFlight, running + 1);
      this.running.set(sync.fd, (this.running.get(sync.fd) ?? 0) + 1);
      this.inFlight.push(sync);
      this.issuedSeq = sync.target;
      this.syncs++;
      fs.fdatasync(sync.fd, (err) => this.synced(sync, err));
    }
  }

  /** An fsync returned: retire it and every fsync before it that has returned, in issue order. */
  private synced(sync: Sync, err: NodeJS.ErrnoException | null): void {
    sync.done = true;
    sync.error = err ?? undefined;
    const left = this.running.get(sync.fd)! - 1;
    if (left > 0) this.running.set(sync.fd, left);
    else {
      this.running.delete(sync.fd);
      if (this.retiredFds.delete(sync.fd)) fs.closeSync(sync.fd);
    }
    // Dropped by an earlier failure, a checkpoint's settleAll or close: nothing to acknowledge.
    if (this.closed || !this.inFlight.includes(sync)) return;
    // The durable point moves once per return, to the last fsync retired (one write of graphdb.wal.ack).
    let reached = this.durableSeq;
    while (this.inFlight.length > 0 && this.inFlight[0].done) {
      const head = this.inFlight.shift()!;
      if (head.error !== undefined) {
        // Its commits and every later one fail, whatever the fsyncs after it return.
        this.inFlight.length = 0;
        this.settle(reached);
        this.rejectWaiting(this.fail(head.error, 'fsync'));
        return;
      }
      reached = Math.max(reached, head.target);
    }
    this.settle(reached);
    if (this.failure) {
      if (this.inFlight.length === 0) this.rejectWaiting(this.failure);
      return;
    }
    this.requestSync();
  }

  private rejectWaiting(err: StorageError): void {
    const still: Waiter[] = [];
    for (const w of this.waiters.splice(0)) if (w.seq <= this.durableSeq) still.push(w); else w.reject(err);
    for (const w of still) w.resolve();
  }

  /**
   * Every written record is durable by other means (a checkpoint's store of record, or an
   * fsync that covered them all): fsyncs in flight are no longer waited for.
   */
  private settleAll(): void {
    this.inFlight.length = 0; // their outcomes are not looked at
    this.issuedSeq = Math.max(this.issuedSeq, this.writtenSeq);
    this.settle(this.writtenSeq);
  }

  private settle(target: number): void {
    if (target > this.durableSeq) {
      this.durableSeq = target;
      this.onDurable?.(target);
    }
    let k = 0;
    while (k < this.waiters.length && this.waiters[k].seq <= this.durableSeq) k++;
    if (k === 0) return;
    for (const w of this.waiters.splice(0, k)) w.resolve();
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
