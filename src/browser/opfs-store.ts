/**
 * The browser store: one graph kept in the Origin Private File System, under the directory
 * `graphdb-<name>`, as a base snapshot (`snapshot-<generation>.json`, the JSON snapshot
 * format) and an append log (`wal.jsonl`, one `[seq, payload]` line per WAL record of
 * src/store/persist/record-codec.ts). Each commit is written and flushed through a
 * synchronous access handle before it becomes visible (Database.commitSink), so a write
 * is acknowledged only once stored. A checkpoint writes the next snapshot whole, then
 * empties the log, then removes the older snapshot: a reader after a crash at any point
 * finds the newest complete snapshot and skips log lines it already holds; a line cut by
 * a killed tab was never acknowledged and is cut off. The store refuses a write that
 * would take it past `maxBytes` (StoreFullError); deletions are always let through. One
 * owner per store: a Web Lock named after it, held while open (StoreLockedError
 * otherwise). Needs a dedicated worker (synchronous access handles exist only there).
 */
import { StorageError, StoreFullError, StoreLockedError } from '../errors.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { decodeRecord, type EncodedCommit, type LoggedChange } from '../store/persist/record-codec.js';
import { applySchemaDefinition } from '../store/persist/schema-def.js';
import { loadSnapshotText } from './snapshot-load.js';
import { snapshotChunks } from './snapshot-text.js';
import type { RecoveryReport } from './types.js';

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

/** What Chromium gives a dedicated worker (not in TypeScript's DOM library). */
export interface SyncAccessHandle {
  read(buffer: Uint8Array, options?: { at?: number }): number;
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(size: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
}
export type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> };
export type ListedDirectory = FileSystemDirectoryHandle & { keys(): AsyncIterable<string> };

const WAL = 'wal.jsonl';
const SKILLS = 'skills.json';
const SNAPSHOT = /^snapshot-(\d+)\.json$/;
const encoder = new TextEncoder();

export type { RecoveryReport } from './types.js';

function isShrinking(c: LoggedChange): boolean {
  return c.op === 'deleteNode' || c.op === 'deleteRel' || c.op === 'removeLabel' || (c.op === 'setProperty' && c.value === null);
}

export class OpfsStore {
  private walBytes = 0;
  private snapshotBytes = 0;
  private checkpointing = false;
  /** skills.json (src/skills' file, kept beside the graph as in a data directory), opened with the store. */
  private skills: SyncAccessHandle | undefined;

  private constructor(
    readonly name: string,
    private readonly dir: FileSystemDirectoryHandle,
    private readonly wal: SyncAccessHandle,
    private generation: number,
    private seq: number,
    readonly maxBytes: number,
    private readonly releaseLock: () => void,
    readonly recovery: RecoveryReport,
  ) {}

  /** Sequence number of the last record in the log (what sync tags its commits with). */
  get lastSeq(): number {
    return this.seq;
  }

  /** The store's OPFS directory (the sync log lives beside the graph's files). */
  get directory(): FileSystemDirectoryHandle {
    return this.dir;
  }

  /** Bytes the store holds now (snapshot and log). */
  get size(): number {
    return this.walBytes + this.snapshotBytes;
  }

  /** Opens (or creates) the store `name` and loads it into the empty `graph`. */
  static async open(name: string, graph: Graph, schema: Schema, maxBytes = DEFAULT_MAX_BYTES): Promise<OpfsStore> {
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) throw new StorageError(`A store name is 1 to 100 letters, digits, '.', '_' or '-' (got ${JSON.stringify(name)})`, 'StoreName');
    if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) {
      throw new StorageError('This browser has no Origin Private File System (navigator.storage.getDirectory); open the database in memory instead', 'NoOpfs');
    }
    const releaseLock = await takeLock(name);
    try {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle(`graphdb-${name}`, { create: true });
      const snapshots: number[] = [];
      for await (const entry of (dir as ListedDirectory).keys()) {
        const m = SNAPSHOT.exec(entry);
        if (m) snapshots.push(Number(m[1]));
      }
      snapshots.sort((a, b) => b - a);
      let generation = 0;
      let seq = 0;
      let snapshotBytes = 0;
      for (const gen of snapshots) {
        const file = await (await dir.getFileHandle(`snapshot-${gen}.json`)).getFile();
        const text = await file.text();
        try {
          seq = loadSnapshotText(graph, schema, text, `The stored snapshot snapshot-${gen}.json of ${name}`).seq;
        } catch (err) {
          // A checkpoint cut short leaves a partial newer snapshot: the older one and the whole log still hold everything.
          if (gen !== snapshots[0] || graph.nodeCount > 0) throw err;
          await dir.removeEntry(`snapshot-${gen}.json`);
          continue;
        }
        generation = gen;
        snapshotBytes = file.size;
        break;
      }
      const wal = await ((await dir.getFileHandle(WAL, { create: true })) as SyncFileHandle).createSyncAccessHandle();
      const report: RecoveryReport = { snapshotGeneration: generation, walRecordsReplayed: 0, tornBytes: 0 };
      try {
        seq = replayLog(wal, graph, schema, seq, report);
      } catch (err) {
        wal.close();
        throw err;
      }
      const store = new OpfsStore(name, dir, wal, generation, seq, maxBytes, releaseLock, report);
      store.skills = await ((await dir.getFileHandle(SKILLS, { create: true })) as SyncFileHandle).createSyncAccessHandle();
      store.walBytes = wal.getSize();
      store.snapshotBytes = snapshotBytes;
      for (const gen of snapshots) if (gen < generation) await dir.removeEntry(`snapshot-${gen}.json`).catch(() => undefined);
      return store;
    } catch (err) {
      releaseLock();
      throw err;
    }
  }

  /**
   * Writes a commit to the log and flushes it (Database.commitSink: before the commit is
   * visible). Throws StoreFullError, with nothing written, when it would take the store past
   * its limit; a commit that only deletes is always let through.
   */
  append(commit: EncodedCommit): void {
    let text = '';
    let seq = this.seq;
    for (const payload of commit.encoded) text += JSON.stringify([++seq, payload]) + '\n';
    const bytes = encoder.encode(text);
    const grows = commit.changes.some((c) => c.op !== 'schema' && !isShrinking(c));
    if (grows && this.size + bytes.length > this.maxBytes) {
      throw new StoreFullError(
        `The browser store '${this.name}' would grow to ${mb(this.size + bytes.length)} MB, past its limit of ${mb(this.maxBytes)} MB; ` +
          `the write was not made. Delete data (deletions are always accepted, and the next checkpoint gives their space back), ` +
          `or export the graph (exportSnapshot) and keep it on a server.`,
      );
    }
    try {
      let done = 0;
      while (done < bytes.length) done += this.wal.write(bytes.subarray(done), { at: this.walBytes + done });
      this.wal.flush();
    } catch (err) {
      // Nothing of a refused commit may stay in the log: a later, shorter record would leave its tail readable.
      try {
        this.wal.truncate(this.walBytes);
        this.wal.flush();
      } catch {
        // The next open cuts what does not parse; the commit is refused either way.
      }
      const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new StorageError(`The browser store '${this.name}' could not write its log (${why}); the write was not made`, 'StoreWriteFailed');
    }
    this.walBytes += bytes.length;
    this.seq = seq;
  }

  /** Whether the log has grown enough that a checkpoint pays (at least 1 MiB and the snapshot's size). */
  get wantsCheckpoint(): boolean {
    return !this.checkpointing && this.walBytes > Math.max(1024 * 1024, this.snapshotBytes);
  }

  /** Folds the log into a new snapshot of `graph` (which must be between transactions). */
  async checkpoint(graph: Graph, schema: Schema): Promise<void> {
    if (this.checkpointing || this.walBytes === 0) return;
    this.checkpointing = true;
    try {
      const next = this.generation + 1;
      const name = `snapshot-${next}.json`;
      const handle = await ((await this.dir.getFileHandle(name, { create: true })) as SyncFileHandle).createSyncAccessHandle();
      let at = 0;
      // The handle opened asynchronously: the graph may be inside a transaction by now; the next checkpoint takes over.
      if (graph.inTransaction) {
        handle.close();
        return;
      }
      try {
        handle.truncate(0);
        // Written synchronously from a graph between transactions: no commit can interleave.
        for (const chunk of snapshotChunks(graph, schema, this.seq)) {
          let done = 0;
          while (done < chunk.length) done += handle.write(chunk.subarray(done), { at: at + done });
          at += chunk.length;
        }
        handle.flush();
      } finally {
        handle.close();
      }
      this.wal.truncate(0);
      this.wal.flush();
      this.walBytes = 0;
      this.snapshotBytes = at;
      const old = this.generation;
      this.generation = next;
      if (old > 0) await this.dir.removeEntry(`snapshot-${old}.json`).catch(() => undefined);
    } finally {
      this.checkpointing = false;
    }
  }

  /** The stored skills file's text ('' when none was written). */
  readSkills(): string {
    const handle = this.skills;
    if (!handle) return '';
    const bytes = new Uint8Array(handle.getSize());
    handle.read(bytes, { at: 0 });
    return new TextDecoder().decode(bytes);
  }

  /** Replaces the skills file, flushed before it returns. */
  writeSkills(text: string): void {
    const handle = this.skills;
    if (!handle) return;
    const bytes = encoder.encode(text);
    handle.truncate(0);
    let done = 0;
    while (done < bytes.length) done += handle.write(bytes.subarray(done), { at: done });
    handle.flush();
  }

  close(): void {
    this.wal.close();
    this.skills?.close();
    this.releaseLock();
  }

  /** Removes the store `name` (it must not be open anywhere). */
  static async destroy(name: string): Promise<void> {
    const release = await takeLock(name);
    try {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry(`graphdb-${name}`, { recursive: true }).catch((err: unknown) => {
        if (!(err instanceof DOMException && err.name === 'NotFoundError')) throw err;
      });
    } finally {
      release();
    }
  }
}

const mb = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1);

/** Takes the store's Web Lock without waiting; resolves to its release. */
async function takeLock(name: string): Promise<() => void> {
  if (!navigator.locks) return () => undefined;
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(`graphdb-store:${name}`, { ifAvailable: true }, (lock) => {
        if (lock === null) {
          reject(new StoreLockedError(`The browser store '${name}' is open in another tab or worker of this origin; close it there (one tab owns a store at a time)`));
          return undefined;
        }
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}

/** Applies the log's records after `baseSeq`; cuts off a torn or unfinished tail. Returns the last sequence number. */
function replayLog(wal: SyncAccessHandle, graph: Graph, schema: Schema, baseSeq: number, report: RecoveryReport): number {
  const size = wal.getSize();
  const bytes = new Uint8Array(size);
  let read = 0;
  while (read < size) {
    const n = wal.read(bytes.subarray(read), { at: read });
    if (n <= 0) break;
    read += n;
  }
  const decoder = new TextDecoder();
  let seq = baseSeq;
  let committedSeq = baseSeq;
  let offset = 0;
  let validEnd = 0;
  let group: { schemas: LoggedChange[] } | undefined;
  while (offset < size) {
    const nl = bytes.indexOf(10, offset);
    if (nl < 0) break;
    let entry: unknown;
    try {
      entry = JSON.parse(decoder.decode(bytes.subarray(offset, nl)));
    } catch {
      break;
    }
    if (!Array.isArray(entry) || typeof entry[0] !== 'number' || typeof entry[1] !== 'string') break;
    const [lineSeq, payload] = entry as [number, string];
    offset = nl + 1;
    if (lineSeq <= baseSeq) {
      validEnd = offset;
      continue;
    }
    if (lineSeq !== seq + 1) throw new StorageError(`The browser store's log continues at record ${lineSeq} after ${seq}: records are missing`, 'WalGap');
    const record = decodeRecord(payload);
    if (!group) {
      group = { schemas: [] };
      graph.begin();
    }
    for (const change of record.changes) {
      if (change.op === 'schema') group.schemas.push(change);
      else graph.applyChange(change);
    }
    seq = lineSeq;
    if (record.continues) continue;
    graph.commit();
    for (const change of group.schemas) if (change.op === 'schema') applySchemaDefinition(schema, change.def);
    group = undefined;
    committedSeq = seq;
    report.walRecordsReplayed++;
    validEnd = offset;
  }
  // A transaction whose last record is missing was never acknowledged.
  if (group) graph.rollback();
  if (validEnd < size) {
    report.tornBytes = size - validEnd;
    wal.truncate(validEnd);
    wal.flush();
  }
  return committedSeq;
}
