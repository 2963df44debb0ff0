/**
 * `DurableStore`: durability for one `Graph` in a data directory. It owns the directory's
 * files and their life cycle:
 *
 * - open: take the lock, load the store of record (or, without one, the snapshot), replay
 *   the WAL after the store's sequence number (cutting a torn tail with a warning, stopping
 *   on damage), then fold what was replayed into the store;
 * - commit: append each committed transaction's change records to the WAL (one record,
 *   or a group of records for a large one) and make them durable — at once (`commitSync`)
 *   or with group commit (`commitDeferred`); reads wait on `readBarrier` so that no
 *   answer reveals a write that is not yet durable;
 * - checkpoint (by `CheckpointPolicy` or on request): capture the entities touched since
 *   the last one, let LMDB's write thread commit them with the new sequence number, then
 *   trim the WAL records the store now holds (`checkpointAsync`; `checkpoint` does the
 *   same synchronously at start-up and close);
 * - snapshot: after a policy checkpoint, when due, rewrite `graphdb.snapshot.json` in the
 *   background from an LMDB read snapshot (store-snapshot.ts);
 * - close: cancel a background snapshot, checkpoint, write `graphdb.snapshot.json` (unless
 *   the one there already holds the last sequence number) and `graphdb.image` (open-image.ts;
 *   unless the one there is already of this store), release the lock;
 * - open image: at open, the graph is loaded from `graphdb.image` when it is of the store as
 *   it is, else (one warning for a stale or damaged one) from the store's blocks.
 *
 * See docs/STORAGE.md for the files and the fsync policy.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArgumentError, StorageError } from '../../errors.js';
import type { Graph } from '../graph.js';
import type { Schema } from '../schema.js';
import { CheckpointPolicy, DEFAULT_LIMITS, snapshotDue, type CheckpointLimits } from './checkpoint-policy.js';
import { GraphLoader } from './graph-loader.js';
import { DirtyChunks } from './dirty-chunks.js';
import { DirLock } from './lock-file.js';
import { Progress, type ProgressOutput } from './progress.js';
import { decodeRecord, EncodedCommit, type DecodedRecord } from './record-codec.js';
import { applySchemaDefinition, decodeSchemaDef, encodeSchemaDef, isEmptySchema, schemaDefinition, type SchemaChange } from './schema-def.js';
import { ChunkedCapture, metaOf, RecordStore, STORE_FILE } from './record-store.js';
import { fsyncDir } from './fsync-dir.js';
import { captureGraphImage, loadGraphImage } from './graph-image.js';
import { IMAGE_FILE, IMAGE_TMP_SUFFIX, imageDamaged, openImageStore, readOpenImage, removeOpenImage, writeOpenImage } from './open-image.js';
import { graphCounters, restoreCounters } from './graph-counters.js';
import { BACKGROUND_TMP_SUFFIX, StoreSnapshotTask } from './store-snapshot.js';
import { readSnapshot, snapshotHeaderSeq } from './snapshot-reader.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotWriter, type SnapshotHeader } from './snapshot-writer.js';
import type { Json } from './json.js';
import { storeNode, storeRel } from './stored-entity.js';
import { ValueDecodeError } from './value-codec.js';
import './temporal-codecs.js';
import './spatial-codecs.js';
import { scanWal } from './wal-reader.js';
import { WalWriter, walSyncOptions, type WalSyncOptions } from './wal-writer.js';
import { ACK_FILE, AckWriter, readAck } from './wal-ack.js';

export const WAL_FILE = 'graphdb.wal';

export interface StorageOptions {
  /** Where warnings and progress go (default: process.stderr); `null` silences them. */
  log?: ProgressOutput | null;
  /** Checkpoint policy; defaults in checkpoint-policy.ts. */
  checkpoint?: Partial<CheckpointLimits>;
  /** Start empty even when the directory's store files vanished after acknowledged writes (`--force-empty`). */
  forceEmpty?: boolean;
  /** Write graphdb.snapshot.json on close (default true). */
  snapshotOnClose?: boolean;
  /**
   * How far `graphdb.wal` is zero-filled ahead of its records (default 1 MiB; 0: the file
   * grows with each write). Ahead-taken space spares each group commit's fdatasync the
   * file's size and extents; a full disk is then refused only once that space is used up.
   */
  walPreallocBytes?: number;
  /**
   * How group commit issues the log's fsyncs: `concurrent` may be in flight at once (default 4;
   * 1 is one at a time) and one takes at most `group` waiting commits (default 16) while
   * another could still start for the rest. Acks stay in log order (wal-writer.ts).
   */
  walSync?: Partial<WalSyncOptions>;
  /**
   * Keep an open image (`graphdb.image`, open-image.ts): write one at a clean close and load
   * the graph from it at open when it matches the store (default true). False neither
   * writes nor reads one (and removes one the store has outgrown).
   */
  openImage?: boolean;
  /** Called after each policy checkpoint (the database saves its retrieval indexes); reports its own errors. */
  afterCheckpoint?: () => Promise<void>;
}

/** What start-up found and did, for logs and tests. */
export interface RecoveryReport {
  source: 'store' | 'snapshot' | 'empty';
  /** Whether the store's graph came from the open image rather than from its blocks. */
  fromImage: boolean;
  baseSeq: number;
  walRecordsReplayed: number;
  /** Time spent loading the store or snapshot, and replaying the WAL (ms). */
  loadMs: number;
  replayMs: number;
  tornTail?: { offset: number; bytes: number; reason: string };
  ms: number;
}

export class DurableStore {
  /** The store chunks changed since the last checkpoint. */
  private dirty = new DirtyChunks();
  private readonly policy: CheckpointPolicy;
  private closed = false;
  /** The policy checkpoint whose LMDB commit is running, if any. */
  private inFlight: { dirty: DirtyChunks; done: Promise<void> } | undefined;
  /** Bumped by every synchronous checkpoint: a running asynchronous one then leaves the WAL alone. */
  private epoch = 0;
  /** The background snapshot being written, if any. */
  private snapshotTask: StoreSnapshotTask | undefined;
  private recordsSinceSnapshot = 0;
  /** Keeps graphdb.wal.ack at the last durable sequence number. */
  private ack: AckWriter | undefined;
  private snapshotAt = Date.now();
  /** Whether graphdb.image may be there and of this store: the first checkpoint that writes the store removes it. */
  private imageOnDisk = false;
  /** The open image written at close, if one was (time and size; benchmarks). */
  imageWrite: { ms: number; bytes: number } | undefined;
  /** The log's last sequence number when this store opened it (walActivity counts from there). */
  private readonly walSeqAtOpen: number;

  private constructor(
    readonly dir: string,
    private readonly graph: Graph,
    private readonly schema: Schema,
    private readonly lock: DirLock,
    private store: RecordStore,
    private readonly wal: WalWriter,
    private readonly options: StorageOptions,
    readonly recovery: RecoveryReport,
  ) {
    this.policy = new CheckpointPolicy({ ...DEFAULT_LIMITS, ...options.checkpoint }, () => void this.checkpointQuietly());
    this.walSeqAtOpen = wal.writtenSeq;
  }

  /** Opens (creating if needed) the data directory and loads it into the empty `graph`. */
  static async open(graph: Graph, schema: Schema, dir: string, options: StorageOptions = {}): Promise<DurableStore> {
    const started = performance.now();
    const out = options.log === null ? undefined : (options.log ?? process.stderr);
    const warn = (message: string): void => void out?.write(message + '\n');
    if (graph.nodeCount > 0 || graph.relCount > 0) throw new StorageError('A data directory can only be opened into an empty graph', 'GraphNotEmpty');
    const walSync = walSyncOptions(options.walSync);
    if (options.openImage !== undefined && typeof options.openImage !== 'boolean') {
      throw new ArgumentError(`storage.openImage must be true or false, not ${JSON.stringify(options.openImage)}`, 'InvalidStorageOption');
    }
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new StorageError(`Cannot create the data directory ${dir}: ${err instanceof Error ? err.message : String(err)}`, 'DataDirUnusable');
    }
    // A store of this directory closed moments ago in this process may still be committing a checkpoint.
    await RecordStore.closed(dir);
    const lock = DirLock.acquire(dir, warn);
    let store: RecordStore | undefined;
    try {
      removeLeftovers(dir);
      store = RecordStore.open(dir);
      const meta = store.meta();
      let source: RecoveryReport['source'] = 'empty';
      let baseSeq = 0;
      const snapshotFile = path.join(dir, SNAPSHOT_FILE);
      let fromImage = false;
      if (meta) {
        fromImage = options.openImage !== false && !meta.legacy && loadFromImage(graph, schema, store, dir, warn);
        if (!fromImage) {
          store.load(graph, meta, out);
          applyStoredSchema(schema, meta.schema, store.file);
        }
        baseSeq = meta.seq;
        source = 'store';
      } else if (fs.existsSync(snapshotFile)) {
        baseSeq = await loadSnapshotExact(graph, schema, snapshotFile, out);
        source = 'snapshot';
      }
      const loadMs = performance.now() - started;
      const ackFile = path.join(dir, ACK_FILE);
      let acked = readAck(ackFile);
      const touched = new DirtyChunks();
      const walFile = path.join(dir, WAL_FILE);
      const replayStarted = performance.now();
      const replay = replayWal(graph, schema, walFile, baseSeq, touched, out);
      const replayMs = performance.now() - replayStarted;
      if (source === 'empty' && acked > 0 && replay.lastSeq === undefined) {
        if (!options.forceEmpty) throw storeMissing(dir, acked);
        warn(`graphdb: ${dir} had acknowledged writes (up to sequence number ${acked}) but neither graphdb.lmdb nor ${SNAPSHOT_FILE}; starting empty as --force-empty asks.`);
        acked = 0;
      }
      const lastSeq = Math.max(baseSeq, replay.lastSeq ?? 0);
      if (acked > lastSeq) throw ackedLost(walFile, ackFile, acked, lastSeq, replay);
      // Only now is a cut tail known to be unacknowledged: a refusal above says what it is instead.
      if (replay.torn) {
        warn(
          `graphdb: cut a torn record at the end of ${walFile} (byte offset ${replay.torn.offset}, ${replay.torn.bytes} bytes: ${replay.torn.reason}). ` +
            `It was being written when the process stopped, so it was never acknowledged.`,
        );
      }
      if (replay.unfinished) {
        warn(
          `graphdb: dropped an unfinished transaction at the end of ${walFile} (byte offset ${replay.unfinished.offset}, ${replay.unfinished.records} of its records): ` +
            `the process stopped while writing it, so it was never acknowledged.`,
        );
      }
      const wal = WalWriter.open(walFile, replay.validEnd, lastSeq, options.walPreallocBytes, walSync);
      const ack = new AckWriter(ackFile, lastSeq);
      wal.onDurable = (seq) => ack.note(seq);
      const report: RecoveryReport = { source, fromImage, baseSeq, walRecordsReplayed: replay.applied, loadMs, replayMs, tornTail: replay.torn, ms: 0 };
      const durable = new DurableStore(dir, graph, schema, lock, store, wal, options, report);
      durable.ack = ack;
      durable.imageOnDisk = fromImage;
      // An image the store has outgrown (or one this process is told not to use) is of no further use.
      if (options.openImage === false || !fromImage) removeOpenImage(dir);
      // Fold what start-up read into the store of record, so the next start is quick.
      if (source !== 'store' || store.needsRewrite) {
        store.rewriteAll(graph, metaOf(graph, wal.writtenSeq, schemaDefinition(schema)), out);
        wal.reset();
      } else if (replay.applied > 0 || wal.recordBytes > 0) {
        durable.dirty.addAll(touched);
        durable.checkpoint();
      }
      if (source === 'store' && !fs.existsSync(snapshotFile)) durable.recordsSinceSnapshot = 1;
      report.ms = performance.now() - started;
      return durable;
    } catch (err) {
      store?.close();
      lock.release();
      throw err;
    }
  }

  /** Sequence number of the last committed transaction. */
  get seq(): number {
    return this.wal.writtenSeq;
  }

  /** The background snapshot being written, if any (tests, benchmarks). */
  get pendingSnapshot(): StoreSnapshotTask | undefined {
    return this.snapshotTask;
  }

  /** Logs the schema as it is now (after a schema command changed it), durably before returning (or per the promise). */
  commitSchema(deferred: boolean): Promise<void> | undefined {
    const commit = new EncodedCommit([{ op: 'schema', def: schemaDefinition(this.schema) }]);
    if (deferred) return this.commitDeferred(commit);
    this.commitSync(commit);
    return undefined;
  }

  /**
   * The log's records written and fsyncs made since it was opened here (their ratio is the
   * group commit's group size), the fsyncs that started while another was in flight, and the
   * most in flight at once.
   */
  get walActivity(): { records: number; syncs: number; overlapped: number; maxInFlight: number } {
    return { records: this.wal.writtenSeq - this.walSeqAtOpen, syncs: this.wal.syncs, overlapped: this.wal.overlapped, maxInFlight: this.wal.maxInFlight };
  }

  /** Logs a committed transaction and returns once it is on disk. */
  commitSync(commit: EncodedCommit): void {
    if (commit.changes.length === 0) return;
    this.append(commit);
    this.wal.syncNow();
  }

  /** Logs a committed transaction now; the promise resolves once it is on disk (group commit). */
  commitDeferred(commit: EncodedCommit): Promise<void> {
    if (commit.changes.length === 0) return Promise.resolve();
    return this.wal.whenDurable(this.append(commit));
  }

  /**
   * For a read: undefined when every committed write is on disk, else a promise that
   * resolves once they are (joining the group commit). A reader's answer is held back
   * until then, so nobody is told about a write that a crash could still take away.
   */
  readBarrier(): Promise<void> | undefined {
    if (this.closed || this.wal.durableSeq >= this.wal.writtenSeq) return undefined;
    return this.wal.whenDurable(this.wal.writtenSeq);
  }

  /** The synchronous form of `readBarrier` (executeSync callers): fsyncs when a write is still pending. */
  readBarrierSync(): void {
    if (!this.closed && this.wal.durableSeq < this.wal.writtenSeq) this.wal.syncNow();
  }

  /**
   * Folds the WAL into the store of record, all in the calling turn: fsync the WAL, one
   * synchronous LMDB transaction, empty the WAL. Used at start-up and close; when a
   * policy checkpoint is still committing, only the WAL is synced (it holds everything,
   * so nothing is lost; the next start replays it).
   */
  checkpoint(): void {
    this.requireOpen();
    if (this.graph.inTransaction) throw new StorageError('Cannot checkpoint while a transaction is open', 'CheckpointInTransaction');
    this.policy.reset();
    this.wal.syncNow();
    if (this.inFlight) return;
    if (this.wal.recordBytes === 0 && this.dirty.empty) return;
    this.dropImage();
    this.store.applyDirty(this.graph, this.dirty.nodes, this.dirty.rels, metaOf(this.graph, this.wal.writtenSeq, schemaDefinition(this.schema)));
    this.dirty = new DirtyChunks();
    this.epoch++;
    this.wal.reset();
  }

  /**
   * Folds the WAL into the store of record without holding up the event loop for the
   * LMDB commit: the touched entities are captured now (the graph's state at the last
   * logged sequence number), LMDB's write thread commits and syncs them, and then the WAL
   * records the store now holds are trimmed (those logged meanwhile are kept). Waits for a
   * running one first. On failure the entities stay marked, and the WAL keeps everything.
   */
  async checkpointAsync(): Promise<void> {
    while (this.inFlight) await this.inFlight.done.catch(() => undefined);
    this.requireOpen();
    if (this.graph.inTransaction) throw new StorageError('Cannot checkpoint while a transaction is open', 'CheckpointInTransaction');
    this.policy.reset();
    if (this.wal.recordBytes === 0 && this.dirty.empty) return;
    const offset = this.wal.bytes;
    this.dropImage();
    // Handed over, not copied: writes from here on mark a fresh one.
    const dirty = this.dirty;
    this.dirty = new DirtyChunks();
    // The capture is taken a few chunks per turn; a write that comes first makes it finish.
    const chunked = new ChunkedCapture(this.graph, dirty.nodes, dirty.rels, metaOf(this.graph, this.wal.writtenSeq, schemaDefinition(this.schema)));
    const epoch = this.epoch;
    const done = (async (): Promise<void> => {
      try {
        const capture = await chunked.inTurns();
        const written = await this.store.applyDirtyAsync(capture);
        if (this.closed || epoch !== this.epoch || !written) return;
        this.wal.trimBefore(offset);
      } catch (err) {
        this.dirty.addAll(dirty);
        throw err;
      } finally {
        this.inFlight = undefined;
      }
      this.maybeSnapshot();
    })();
    this.inFlight = { dirty, done };
    await done;
  }

  /** Writes graphdb.snapshot.json from the graph (streamed; blocks until durable). */
  writeSnapshot(file = path.join(this.dir, SNAPSHOT_FILE)): void {
    writeGraphSnapshot(this.graph, this.schema, file, this.wal.writtenSeq);
  }

  /**
   * Rewrites graphdb.snapshot.json from the store of record in the background (see
   * store-snapshot.ts); resolves when it is durable. A snapshot already being written is
   * waited for first. Call after a checkpoint for a snapshot of the latest state.
   */
  async snapshotFromStore(): Promise<void> {
    while (this.snapshotTask) await this.snapshotTask.done.catch(() => undefined);
    this.requireOpen();
    const task = this.startSnapshot();
    if (!task) return;
    const outcome = await task.done;
    if (outcome === 'cancelled') throw new StorageError(`The snapshot of ${this.dir} was cancelled (the data directory was closed)`, 'SnapshotCancelled');
  }

  /**
   * Brings the store of record up to the graph with nothing else running against it: waits
   * for a policy checkpoint still committing, cancels a background snapshot, then folds the
   * WAL in (`checkpoint`, which then empties the log). A bulk import calls this before it
   * writes a new store from the graph (bulk-append.ts).
   */
  async settle(): Promise<void> {
    while (this.inFlight) await this.inFlight.done.catch(() => undefined);
    const task = this.snapshotTask;
    task?.cancel();
    if (task) await task.done.catch(() => undefined);
    this.checkpoint();
  }

  /** Empties the graph and loads it again from the store of record (a bulk import that failed after emptying it). */
  reloadGraph(): void {
    this.requireOpen();
    this.graph.clear();
    const meta = this.store.meta();
    if (meta) this.store.load(this.graph, meta, undefined);
  }

  /**
   * Puts `file`, a complete store written (closed and fsynced) from the graph as it is now,
   * in place of graphdb.lmdb and reopens the store on it: the snapshot, which no longer
   * matches, is removed first, then the file is renamed over the store and the directory
   * fsynced. Called after `settle`, so the WAL is empty and the new store's meta carries the
   * log's sequence number. From here on checkpoints write into the new file.
   */
  async installStore(file: string): Promise<void> {
    this.requireOpen();
    this.dropImage();
    this.store.close();
    // LMDB shares one environment per path within a process: the old one must be gone first.
    await RecordStore.closed(this.dir);
    try {
      fs.rmSync(path.join(this.dir, SNAPSHOT_FILE), { force: true });
      fsyncDir(this.dir);
      fs.renameSync(file, path.join(this.dir, STORE_FILE));
      fsyncDir(this.dir);
    } finally {
      // The new file, or (the rename failed) the old one, which is as settle left it.
      this.store = RecordStore.openWritten(this.dir);
      this.store.meta();
    }
    this.recordsSinceSnapshot = Math.max(this.recordsSinceSnapshot, 1);
  }

  /** Checkpoint, snapshot, release. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.policy.stop();
    this.snapshotTask?.cancel();
    this.snapshotTask = undefined;
    try {
      this.checkpoint();
      // A snapshot that already holds this sequence number holds this graph (whatever changes
      // the graph without a new number, a bulk append, removes the file): rewriting it would
      // cost seconds and a file's worth of writes for a large graph opened only to be read.
      const file = path.join(this.dir, SNAPSHOT_FILE);
      if (this.options.snapshotOnClose !== false && snapshotHeaderSeq(file) !== this.wal.writtenSeq) this.writeSnapshot(file);
      if (this.options.openImage !== false) this.writeImage();
    } finally {
      this.closed = true;
      try {
        this.wal.close();
      } finally {
        this.ack?.close();
        this.store.close();
        this.lock.release();
      }
    }
  }

  /**
   * Removes graphdb.image before the store changes: it would be stale (its store identity
   * no longer the store's, so never used), and it holds a graph's worth of disk.
   */
  private dropImage(): void {
    if (!this.imageOnDisk) return;
    this.imageOnDisk = false;
    removeOpenImage(this.dir);
  }

  /**
   * At a clean close, after the final checkpoint: writes graphdb.image when the store holds
   * exactly the graph (no checkpoint still committing, nothing left in the log) and the image
   * there is not already of this store. A failure costs only the next open's speed.
   */
  private writeImage(): void {
    const identity = this.store.identity();
    if (identity === undefined || this.inFlight || this.wal.recordBytes > 0 || !this.dirty.empty) return;
    if (this.graph.inTransaction) return;
    const present = openImageStore(this.dir);
    if (present !== undefined && present.seq === identity.seq && present.hash === identity.hash) return;
    try {
      const started = performance.now();
      const bytes = writeOpenImage(this.dir, captureGraphImage(this.graph, this.schema), identity);
      this.imageWrite = { ms: performance.now() - started, bytes };
      this.imageOnDisk = true;
    } catch (err) {
      removeOpenImage(this.dir);
      fs.rmSync(path.join(this.dir, IMAGE_FILE + IMAGE_TMP_SUFFIX), { force: true });
      this.log(`graphdb: could not write the open image (the next open loads the store instead): ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private append(commit: EncodedCommit): number {
    this.requireOpen();
    const changes = commit.changes;
    const seq = this.wal.append(commit.encoded);
    this.dirty.markChanges(changes);
    this.recordsSinceSnapshot += changes.length;
    this.policy.noteCommit(changes.length, this.wal.bytes);
    return seq;
  }

  private async checkpointQuietly(): Promise<void> {
    if (this.closed || this.inFlight) return;
    if (this.graph.inTransaction) {
      // A bulk write holds the graph (cannot happen between queries); try again shortly.
      this.policy.noteCommit(0, this.wal.bytes);
      return;
    }
    try {
      await this.checkpointAsync();
      await this.options.afterCheckpoint?.();
    } catch (err) {
      if (this.closed) return;
      // The WAL still holds everything; report and let the next checkpoint retry.
      this.log(`graphdb: checkpoint failed (the write-ahead log still holds every change): ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** After a policy checkpoint: starts a background snapshot when one is due. */
  private maybeSnapshot(): void {
    if (this.closed || this.snapshotTask) return;
    if (!snapshotDue(this.policy.limits, this.recordsSinceSnapshot, Date.now() - this.snapshotAt)) return;
    this.startSnapshot();
  }

  private startSnapshot(): StoreSnapshotTask | undefined {
    const view = this.store.openView();
    if (!view) return undefined;
    const task = new StoreSnapshotTask(view, path.join(this.dir, SNAPSHOT_FILE));
    this.snapshotTask = task;
    this.recordsSinceSnapshot = 0;
    this.snapshotAt = Date.now();
    task.done.then(
      () => undefined,
      (err: unknown) => {
        if (!this.closed) this.log(`graphdb: ${err instanceof Error ? err.message : String(err)} (the store of record and the WAL are unaffected)`);
      },
    ).finally(() => {
      if (this.snapshotTask === task) this.snapshotTask = undefined;
    });
    return task;
  }

  private log(message: string): void {
    const out = this.options.log === null ? undefined : (this.options.log ?? process.stderr);
    out?.write(message + '\n');
  }

  private requireOpen(): void {
    if (this.closed) throw new StorageError(`The data directory ${this.dir} is closed`, 'StoreClosed');
  }
}

/** The refusal to start empty in a directory whose store files are gone. */
function storeMissing(dir: string, acked: number): StorageError {
  return new StorageError(
    `The data directory ${dir} held data (writes up to sequence number ${acked} were acknowledged), but its store files ` +
      `(graphdb.lmdb with its content, and ${SNAPSHOT_FILE}) are missing, so graphdb refuses to start with an empty graph. ` +
      `Put the files back (restore from a backup); or start empty on purpose with --force-empty (Database.open: storage.forceEmpty).`,
    'StoreMissing',
  );
}

/** The refusal when the log ends (or breaks) before the last acknowledged record. */
function ackedLost(walFile: string, ackFile: string, acked: number, lastSeq: number, replay: ReplayResult): StorageError {
  const where = replay.torn
    ? `is damaged at byte offset ${replay.torn.offset} (${replay.torn.reason})`
    : replay.unfinished
      ? `ends in an unfinished transaction at byte offset ${replay.unfinished.offset}`
      : 'ends there';
  return new StorageError(
    `The write-ahead log ${walFile} holds records up to sequence number ${lastSeq} and ${where}, but records up to ${acked} were acknowledged ` +
      `(${ackFile}): acknowledged changes are damaged or missing, so start-up stopped rather than cut them off. ` +
      `Restore the data directory from a backup; or, to accept the loss of the changes after ${lastSeq}, remove ${ackFile} and start again.`,
    'WalAckedLost',
  );
}

/**
 * Loads the empty `graph` and `schema` from the open image when there is one and it is of
 * this store (open-image.ts); true when it did. An image that is stale, damaged or cut short,
 * or that does not load, is refused with one warning and removed, and the graph is left
 * empty for the store's own load: the image is only ever a faster way to the same graph.
 */
function loadFromImage(graph: Graph, schema: Schema, store: RecordStore, dir: string, warn: (message: string) => void): boolean {
  const file = path.join(dir, IMAGE_FILE);
  if (!fs.existsSync(file)) return false;
  let touched = false;
  try {
    const identity = store.identity();
    if (identity === undefined) throw imageDamaged(file, 'belongs to no complete store');
    const image = readOpenImage(dir, identity);
    // The blocks name keys by index: the graph's key ids must be the store's (more may follow).
    const keys = store.keys;
    if (keys.some((key, i) => image.keys[i] !== key)) throw imageDamaged(file, 'names its property keys in another order than the store');
    touched = true;
    loadGraphImage(graph, schema, image);
    return true;
  } catch (err) {
    const damaged = err instanceof StorageError && err.detail === 'ImageDamaged' ? err : imageDamaged(file, `could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
    warn(`graphdb: ${damaged.message}; loading ${store.file} instead (the image is removed and written again at the next clean close).`);
    removeOpenImage(dir);
    if (touched) graph.clear();
    return false;
  }
}

/** Temporary files a crash can leave behind: never complete, always safe to remove. */
function removeLeftovers(dir: string): void {
  for (const name of [`${SNAPSHOT_FILE}.tmp`, `${SNAPSHOT_FILE}${BACKGROUND_TMP_SUFFIX}`, `${WAL_FILE}.tmp`, `${IMAGE_FILE}${IMAGE_TMP_SUFFIX}`]) {
    fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Loads a snapshot at its stored ids into the empty graph (start-up, benchmarks); returns its sequence number. */
function applyStoredSchema(schema: Schema, data: Json | undefined, file: string): void {
  let def;
  try {
    def = decodeSchemaDef(data);
  } catch (err) {
    throw new StorageError(`${file} holds an unreadable schema definition: ${err instanceof Error ? err.message : String(err)}`, 'StoreDamaged');
  }
  if (!isEmptySchema(def)) applySchemaDefinition(schema, def);
}

export async function loadSnapshotExact(graph: Graph, schema: Schema, file: string, out: ProgressOutput | undefined): Promise<number> {
  const loader = new GraphLoader(graph);
  let seq = 0;
  let progress: Progress | undefined;
  let header: SnapshotHeader | undefined;
  await readSnapshot(file, {
    header(h) {
      seq = h.seq;
      header = h;
      progress = new Progress(`Loading ${file}`, Math.max(0, h.nodeCount) + Math.max(0, h.relCount) || undefined, out);
    },
    node(change) {
      loader.apply(change);
      progress?.tick();
    },
    rel(change) {
      loader.apply(change);
      progress?.tick();
    },
  });
  loader.flush();
  progress?.finish();
  const miscounted = (count: number, want: number): boolean => want >= 0 && count !== want;
  if (header && (miscounted(graph.nodeCount, header.nodeCount) || miscounted(graph.relCount, header.relCount))) {
    throw new StorageError(
      `The snapshot ${file} is damaged: its header records ${header.nodeCount} nodes and ${header.relCount} relationships, but it holds ${graph.nodeCount} and ${graph.relCount}. ` +
        `Restore it from a backup (or, if graphdb.lmdb is intact, remove the snapshot: it is rewritten from the store).`,
      'SnapshotDamaged',
    );
  }
  if (header) {
    restoreCounters(graph, header);
    applyStoredSchema(schema, header.schema, file);
  }
  return seq;
}

interface ReplayResult {
  lastSeq: number | undefined;
  validEnd: number;
  applied: number;
  torn?: { offset: number; bytes: number; reason: string };
  /** A group of records (one large transaction) whose last record is missing: dropped and cut off. */
  unfinished?: { offset: number; records: number };
}

/**
 * Applies the WAL records after `baseSeq`, one transaction per record or per group of
 * records (record-codec.ts). Schema entries take effect after the transaction's graph
 * changes, as they did when it ran (a `:restore` adds data, then its constraints).
 */
function replayWal(graph: Graph, schema: Schema, file: string, baseSeq: number, touched: DirtyChunks, out: ProgressOutput | undefined): ReplayResult {
  const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  const progress = new Progress(`Replaying ${file}`, size || undefined, out);
  let applied = 0;
  let first = true;
  /** The open group: where it starts, its first sequence number, its records so far, its schema entries. */
  let group: { offset: number; firstSeq: number; records: number; schemas: SchemaChange[]; touched: DirtyChunks } | undefined;
  const scan = scanWal(file, ({ seq, offset, payload }) => {
    progress.tick(payload.length + 16);
    if (seq <= baseSeq) return;
    if (first && seq !== baseSeq + 1) {
      throw new StorageError(
        `The write-ahead log ${file} continues at sequence number ${seq} (byte offset ${offset}), but the store holds changes only up to ${baseSeq}: ` +
          `the changes in between are missing. Was graphdb.lmdb or ${SNAPSHOT_FILE} removed or replaced by an older copy? ` +
          `Put the matching files back, or move ${file} away to start from the store as it is (its changes are then lost).`,
        'WalGap',
      );
    }
    first = false;
    let record: DecodedRecord;
    try {
      record = decodeRecord(payload.toString('utf8'));
    } catch (err) {
      if (!(err instanceof ValueDecodeError)) throw err;
      throw new StorageError(`The write-ahead log ${file} has an unreadable record at byte offset ${offset} (sequence number ${seq}): ${err.message}`, 'WalDamaged');
    }
    try {
      if (!group) {
        group = { offset, firstSeq: seq, records: 0, schemas: [], touched: new DirtyChunks() };
        graph.begin();
      }
      group.records++;
      for (const change of record.changes) {
        if (change.op === 'schema') group.schemas.push(change);
        else graph.applyChange(change);
      }
      group.touched.markChanges(record.changes);
      if (record.continues) return;
      graph.commit();
      for (const change of group.schemas) applySchemaDefinition(schema, change.def);
    } catch (err) {
      if (graph.inTransaction) graph.rollback();
      const why = err instanceof Error ? err.message : String(err);
      throw new StorageError(
        `The write-ahead log ${file} does not fit the stored graph at byte offset ${offset} (sequence number ${seq}): ${why}. ` +
          `The log and the store do not belong together; restore the data directory from a backup.`,
        'WalMismatch',
      );
    }
    touched.addAll(group.touched);
    applied += group.records;
    group = undefined;
  });
  progress.finish();
  const result: ReplayResult = { lastSeq: scan.lastSeq, validEnd: scan.fresh ? 0 : scan.validEnd, applied, torn: scan.torn };
  if (group) {
    // The crash came while a large transaction was being logged: it was never acknowledged.
    graph.rollback();
    result.unfinished = { offset: group.offset, records: group.records };
    result.validEnd = group.offset;
    result.lastSeq = group.firstSeq - 1;
  }
  return result;
}

/** Streams the whole graph into a snapshot file (temp file, fsync, rename, fsync dir). */
export function writeGraphSnapshot(graph: Graph, schema: Schema, file: string, seq: number): void {
  const writer = new SnapshotWriter(file, {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    seq,
    ...graphCounters(graph),
    createdAt: new Date().toISOString(),
    schema: encodeSchemaDef(schemaDefinition(schema)),
  });
  try {
    for (const node of graph.allNodes()) writer.node(storeNode(node));
    for (const rel of graph.allRels()) writer.rel(storeRel(rel));
    writer.commit();
  } catch (err) {
    writer.abort();
    throw err instanceof StorageError ? err : new StorageError(`Could not write the snapshot ${file}: ${err instanceof Error ? err.message : String(err)}`, 'SnapshotWriteFailed');
  }
}
