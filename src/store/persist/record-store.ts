/**
 * `RecordStore`: the LMDB store of record (`graphdb.lmdb`, with LMDB's own
 * `graphdb.lmdb-lock`). Format 2 keeps the graph as checksummed binary blocks
 * (`graph-blocks.ts`, `block-format.ts`) in the sub-database `blocks`: per chunk of ids a
 * node block, a relationship block and one block per property key, plus the `meta`
 * block: the sequence number of the last WAL record the store holds, the graph's
 * counters, the schema, the property key names and a manifest (every block's key and
 * CRC). Loading reads every block in one pass, checks each against its own checksum and
 * the manifest, and hands the arrays to `Graph.bulkLoad`; counts are checked at the end.
 *
 * Checkpoints rewrite the chunks the changes since the previous one touched, and the new
 * meta, in one LMDB transaction: `applyDirtyAsync` (policy checkpoints: the chunks are
 * captured at once — typed-array copies — then encoded between turns of the event loop,
 * and LMDB's write thread commits and syncs them) or `applyDirty` (start-up, close).
 * Either way the transaction refuses to move the meta's sequence number backwards, so an
 * older checkpoint committing late can never overwrite a newer one. `overlappingSync` is
 * off: a commit is durable when it is reported.
 *
 * Before LMDB maps the file, `lmdb-guard.ts` checks its header and size (LMDB's native
 * code trusts the file). A format-1 store (one msgpack entry per entity, graphdb before
 * the block format) is still read, entity by entity, and rewritten as blocks.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database as LmdbDatabase, RootDatabase, Transaction } from 'lmdb';
import { createRequire } from 'node:module';

// lmdb (native, ~45 ms to load) is required when a durable store is first opened, not when the
// package is imported: an in-memory database never needs it. Its CommonJS entry, the one
// lmdb-guard.ts resolves too, so that one copy of the module is loaded.
let lmdbModule: typeof import('lmdb') | undefined;
const lmdb = (): typeof import('lmdb') => (lmdbModule ??= createRequire(import.meta.url)('lmdb') as typeof import('lmdb'));
import { StorageError } from '../../errors.js';
import type { Graph } from '../graph.js';
import { BlockDamage, blockCrc, BlockKind, BlockReader, BlockWriter, openBlock, sealBlock } from './block-format.js';
import {
  assembleGraph,
  blockKey,
  captureNodeChunk,
  captureRelChunk,
  CHUNK_IDS,
  chunkCount,
  decodeChunk,
  decodeProps,
  encodedValues,
  chunkBlocks,
  encodeChunk,
  type ChunkCapture,
  type EntityKind,
} from './graph-blocks.js';
import { graphCounters, restoreCounters, type GraphCounters } from './graph-counters.js';
import { GraphLoader } from './graph-loader.js';
import type { Json, JsonObject } from './json.js';
import { checkLmdbFile, markVerified } from './lmdb-guard.js';
import { crc32 } from './crc32.js';
import { Progress, type ProgressOutput } from './progress.js';
import { encodeSchemaDef, type SchemaDef } from './schema-def.js';
import { nodeChange, relChange, type StoredNode, type StoredRel } from './stored-entity.js';
import { ValueDecodeError, type EncodedProps } from './value-codec.js';
import { nextTurn } from '../../event-loop.js';

/** How long an asynchronous checkpoint's capture or encoding may hold the event loop before it yields. */
const TURN_BUDGET_MS = 8;

export const STORE_FILE = 'graphdb.lmdb';
/** 3: property blocks of TEXT columns hold UTF-8 bytes (graph-blocks.ts); format 2 stores read as before. */
const STORE_FORMAT = 3;
/** Chunks written per LMDB transaction when the whole graph is written. */
const REWRITE_CHUNKS = 8;

/**
 * Closes still finishing, by store file. LMDB closes an environment only after its write
 * thread has finished the transactions queued on it (a policy checkpoint), and that thread
 * needs the event loop to run their callbacks; opening the same file again meanwhile and
 * writing to it synchronously would block the event loop on LMDB's write lock: a deadlock.
 * `RecordStore.closed` lets an open wait for the close instead.
 */
const closing = new Map<string, Promise<void>>();

/** What the store knows besides the entities. */
export interface StoreMeta extends GraphCounters {
  format: number;
  /** Sequence number of the last WAL record taken in. */
  seq: number;
  /** The schema definition (schema-def.ts), encoded. */
  schema: JsonObject;
}

/** The meta block: the meta, property key names by index, and every block's CRC by key. */
interface StoredMeta extends StoreMeta {
  keys: string[];
  blocks: Record<string, number>;
}

export function metaOf(graph: Graph, seq: number, schema: SchemaDef): StoreMeta {
  return {
    schema: encodeSchemaDef(schema),
    format: STORE_FORMAT,
    seq,
    ...graphCounters(graph),
  };
}

/** The chunks touched since the last checkpoint, captured at one moment, with the meta of that moment. */
export interface DirtyCapture {
  chunks: ChunkCapture[];
  keys: string[];
  meta: StoreMeta;
}

/** Distinct chunk numbers, ascending. */
const ascending = (chunks: Iterable<number>): number[] => [...new Set(chunks)].sort((a, b) => a - b);

/** Captures the given node and relationship chunks (numbers: id / CHUNK_IDS; copies only, see graph-blocks.ts). */
export function captureDirty(graph: Graph, nodeChunks: Iterable<number>, relChunks: Iterable<number>, meta: StoreMeta): DirtyCapture {
  return new ChunkedCapture(graph, nodeChunks, relChunks, meta).finish();
}

/**
 * A capture taken a few chunks at a time, so that an asynchronous checkpoint never holds
 * the event loop for the whole of it. To show one moment, the graph must not change until it
 * is complete: `inTurns` makes the graph finish it before any write (`Graph.beforeWrite`),
 * so a write that arrives meanwhile waits for the rest of the capture.
 */
export class ChunkedCapture {
  private readonly pending: (() => ChunkCapture)[];
  private readonly chunks: ChunkCapture[] = [];

  constructor(
    private readonly graph: Graph,
    nodeChunks: Iterable<number>,
    relChunks: Iterable<number>,
    private readonly meta: StoreMeta,
  ) {
    this.pending = [...ascending(nodeChunks).map((chunk) => () => captureNodeChunk(graph, chunk)), ...ascending(relChunks).map((chunk) => () => captureRelChunk(graph, chunk))];
  }

  get done(): boolean {
    return this.chunks.length === this.pending.length;
  }

  /** Captures chunks until `budgetMs` has passed (at least one, unless all are done). */
  step(budgetMs: number): void {
    const started = performance.now();
    while (!this.done) {
      this.chunks.push(this.pending[this.chunks.length]());
      if (performance.now() - started >= budgetMs) return;
    }
  }

  finish(): DirtyCapture {
    while (!this.done) this.chunks.push(this.pending[this.chunks.length]());
    return { chunks: this.chunks, keys: keyNames(this.graph), meta: this.meta };
  }

  /** The capture, taken about `TURN_BUDGET_MS` per turn of the event loop; a write meanwhile finishes it first. */
  async inTurns(): Promise<DirtyCapture> {
    const graph = this.graph;
    const finish = (): void => {
      this.finish();
      if (graph.beforeWrite === finish) graph.beforeWrite = undefined;
    };
    graph.beforeWrite = finish;
    try {
      for (this.step(TURN_BUDGET_MS); !this.done; this.step(TURN_BUDGET_MS)) await nextTurn();
    } finally {
      finish();
    }
    return this.finish();
  }
}

/** Property key names by key id: the order property blocks name keys in. */
export function keyNames(graph: Graph): string[] {
  const keys: string[] = [];
  for (let k = 0; k < Math.max(graph.nodeProps.columns.length, graph.relProps.columns.length); k++) keys.push(graph.keyName(k));
  return keys;
}

/** A consistent read-only view of the store (one LMDB read transaction), read in chunks. */
export interface StoreView {
  readonly meta: StoreMeta;
  /** Up to `max` nodes with ids above `after` (-1 for the first), in id order. */
  nodesAfter(after: number, max: number): StoredNode[];
  relsAfter(after: number, max: number): StoredRel[];
  /** Ends the read transaction; the view is unusable afterwards. */
  done(): void;
}

function isMeta(value: unknown): value is StoreMeta {
  const m = value as Partial<StoreMeta> | undefined;
  return typeof m === 'object' && m !== null && typeof m.seq === 'number' && typeof m.nextNodeId === 'number' && typeof m.nextRelId === 'number';
}

function isStoredMeta(value: unknown): value is StoredMeta {
  const m = value as Partial<StoredMeta>;
  return (
    isMeta(value) &&
    typeof m.nodeCount === 'number' &&
    typeof m.relCount === 'number' &&
    Array.isArray(m.keys) &&
    m.keys.every((k) => typeof k === 'string') &&
    typeof m.blocks === 'object' &&
    m.blocks !== null &&
    Object.values(m.blocks).every((c) => typeof c === 'number')
  );
}

/** An LMDB environment with the sub-databases of both formats. */
interface Env {
  root: RootDatabase;
  blocks: LmdbDatabase<Buffer, string>;
  legacyNodes: LmdbDatabase<StoredNode, number>;
  legacyRels: LmdbDatabase<StoredRel, number>;
}

/** Which store state an open image was taken from (open-image.ts checks it at open). */
export interface StoreIdentity {
  seq: number;
  /** CRC-32 of the meta's counters, key names and block manifest (`RecordStore.identity`). */
  hash: number;
}

export class RecordStore {
  /** Set after a failed commit: LMDB's environment is unusable for writes until reopened. */
  private broken = false;
  /** The manifest of the last committed meta (block key → CRC). */
  private manifest = new Map<string, number>();
  /** The meta as last read or committed, undefined before the first complete write. */
  private stored: StoredMeta | undefined;
  /**
   * Set by `load` when the store should be written whole again: a format-1 store, or
   * property key ids that came out differently from the stored ones.
   */
  needsRewrite = false;

  private constructor(
    readonly file: string,
    private env: Env,
  ) {}

  static open(dir: string): RecordStore {
    const file = path.join(dir, STORE_FILE);
    checkLmdbFile(file);
    return new RecordStore(file, openEnvironment(file));
  }

  /**
   * Opens a store file this process has just written, closed and fsynced (a bulk import's
   * new file, renamed into place): the header check and the child probe are for files
   * whose history is unknown.
   */
  static openWritten(dir: string): RecordStore {
    const file = path.join(dir, STORE_FILE);
    return new RecordStore(file, openEnvironment(file));
  }

  /** After a failed commit (a full disk), a fresh environment before the next write: the file holds the last good commit. */
  private heal(): void {
    if (!this.broken) return;
    void this.env.root.close();
    this.env = openEnvironment(this.file);
    this.broken = false;
  }

  /** Resolves once a store of `dir` closed earlier in this process has finished closing (at once when none is). */
  static async closed(dir: string): Promise<void> {
    await closing.get(path.resolve(dir, STORE_FILE));
  }

  static exists(dir: string): boolean {
    return fs.existsSync(path.join(dir, STORE_FILE));
  }

  private damaged(key: string, why: string): StorageError {
    return new StorageError(
      `The store ${this.file} is damaged: its block '${key}' ${why}. Restore the data directory from a backup; ` +
        `or, if ${path.basename(this.file)} alone is damaged and graphdb.snapshot.json and graphdb.wal are intact, move ${path.basename(this.file)} aside to start from them.`,
      'StoreDamaged',
    );
  }

  /** Reads and checks one block; undefined when absent. */
  private block<T>(key: string, read: (bytes: Buffer) => T, txn?: Transaction): T | undefined {
    let bytes: Buffer | undefined;
    try {
      bytes = this.env.blocks.get(key, txn ? { transaction: txn } : undefined);
    } catch (err) {
      throw this.damaged(key, `cannot be read (${err instanceof Error ? err.message : String(err)})`);
    }
    if (bytes === undefined) return undefined;
    try {
      return read(bytes);
    } catch (err) {
      if (err instanceof BlockDamage) throw this.damaged(key, `is damaged: ${err.message}`);
      throw err;
    }
  }

  private readMeta(txn?: Transaction): StoredMeta | undefined {
    return this.block(
      'meta',
      (bytes) => {
        const r = new BlockReader(openBlock(bytes, BlockKind.Meta).payload);
        const meta = r.json();
        r.end();
        if (!isStoredMeta(meta)) throw new BlockDamage('does not hold the fields of a meta entry');
        return meta;
      },
      txn,
    );
  }

  /**
   * What identifies the store's state for the open image (open-image.ts): the last meta's
   * sequence number and a CRC-32 of its counters, key names and block manifest. Every commit
   * that writes a block or the counters changes it. Undefined before the first complete write.
   */
  /** The property key names the stored blocks are indexed by (empty before the first complete write). */
  get keys(): readonly string[] {
    return this.stored?.keys ?? [];
  }

  identity(): StoreIdentity | undefined {
    const m = this.stored;
    if (m === undefined) return undefined;
    const blocks = Object.entries(m.blocks).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const text = JSON.stringify([m.format, m.seq, m.nextNodeId, m.nextRelId, m.mutationSeq, m.generation, m.nodeCount, m.relCount, m.keys, m.schema, blocks]);
    return { seq: m.seq, hash: crc32(Buffer.from(text, 'utf8')) };
  }

  /** The meta of a complete store, or undefined when the store was never completely written. */
  meta(): (StoreMeta & { legacy?: boolean }) | undefined {
    const meta = this.readMeta();
    if (meta === undefined) {
      const legacy: unknown = this.env.root.get('meta');
      if (legacy === undefined) return undefined;
      if (!isMeta(legacy)) throw new StorageError(`The store ${this.file} has an unreadable 'meta' entry`, 'StoreDamaged');
      return { ...legacy, legacy: true };
    }
    if (meta.format > STORE_FORMAT) {
      throw new StorageError(`The store ${this.file} was written by a newer graphdb (format ${meta.format}); upgrade graphdb to open it`, 'StoreFormat');
    }
    this.stored = meta;
    this.manifest = new Map(Object.entries(meta.blocks));
    return meta;
  }

  /**
   * Loads the whole store into an empty graph and restores its counters: every block is
   * read once, checked (its own CRC, the manifest's CRC, its place), and the graph built
   * in bulk. A missing, extra or damaged block, or counts that do not add up, stop the
   * load with a StorageError naming the block.
   */
  load(graph: Graph, meta: StoreMeta & { legacy?: boolean }, out: ProgressOutput | undefined): void {
    if (meta.legacy) {
      this.loadLegacy(graph, meta, out);
      this.needsRewrite = true;
      return;
    }
    const stored = this.stored!;
    const progress = new Progress(`Loading ${this.file}`, Object.keys(stored.blocks).length, out);
    const seen = new Set<string>(['meta']);
    const check = (key: string, bytes: Buffer): void => {
      const want = this.manifest.get(key);
      if (want === undefined) throw this.damaged(key, 'is not listed in the meta block (a stray or renamed block)');
      if (bytes.length < 24 || blockCrc(bytes) !== want) throw this.damaged(key, 'does not match the checksum the meta block records for it');
      seen.add(key);
    };
    let range;
    try {
      range = [...this.env.blocks.getRange({ snapshot: true })];
    } catch (err) {
      throw this.damaged('(all)', `cannot be read (${err instanceof Error ? err.message : String(err)})`);
    }
    const damaged = (key: string, why: string): StorageError => this.damaged(key, why);
    const manifest = this.manifest;
    const blocks = function* (): Generator<[string, Uint8Array]> {
      for (const { key, value } of range) {
        if (key === 'meta') continue;
        if (typeof key !== 'string' || !Buffer.isBuffer(value)) throw damaged(String(key), 'has a key or value of the wrong type');
        check(key, value);
        yield [key, value];
        progress.tick();
      }
      for (const key of manifest.keys()) if (!seen.has(key)) throw damaged(key, 'is listed in the meta block but missing');
    };
    if (!assembleGraph(graph, stored.keys, blocks(), meta, damaged)) this.needsRewrite = true;
    progress.finish();
    if (graph.nodeCount !== meta.nodeCount || graph.relCount !== meta.relCount) {
      throw this.damaged('meta', `records ${meta.nodeCount} nodes and ${meta.relCount} relationships, but the blocks hold ${graph.nodeCount} and ${graph.relCount}`);
    }
    restoreCounters(graph, meta);
  }

  /** Format 1: one msgpack entry per entity, re-created one by one (then rewritten as blocks by the caller). */
  private loadLegacy(graph: Graph, meta: StoreMeta, out: ProgressOutput | undefined): void {
    const loader = new GraphLoader(graph);
    const progress = new Progress(`Loading ${this.file}`, meta.nodeCount + meta.relCount, out);
    const bad = (kind: string, key: number, err: unknown): StorageError =>
      new StorageError(`The store ${this.file} has a damaged ${kind} entry (key ${key}): ${err instanceof Error ? err.message : String(err)}`, 'StoreDamaged');
    for (const [db, change, kind] of [
      [this.env.legacyNodes, nodeChange, 'node'],
      [this.env.legacyRels, relChange, 'relationship'],
    ] as const) {
      for (const { key, value } of (db as LmdbDatabase<unknown, number>).getRange({ snapshot: true })) {
        try {
          loader.apply(change(value as Json));
        } catch (err) {
          throw err instanceof ValueDecodeError ? bad(kind, key, err) : err;
        }
        progress.tick();
      }
    }
    loader.flush();
    progress.finish();
    restoreCounters(graph, meta);
  }

  /** Writes the given node and relationship chunks (numbers: id / CHUNK_IDS) and the meta, atomically, now. */
  applyDirty(graph: Graph, nodeChunks: Iterable<number>, relChunks: Iterable<number>, meta: StoreMeta): void {
    const capture = captureDirty(graph, nodeChunks, relChunks, meta);
    const blocks = new Map<string, Uint8Array | null>();
    for (const chunk of capture.chunks) for (const [key, value] of encodeChunk(chunk)) blocks.set(key, value);
    this.write(() => {
      if (!this.putBlocks(blocks, capture)) throw new StorageError(`The store ${this.file} already holds changes after sequence number ${meta.seq}`, 'StoreAhead');
    });
  }

  /**
   * Encodes a capture's blocks, yielding to the event loop whenever a turn has taken
   * `TURN_BUDGET_MS` (a block at a time, so a turn is at most one block long), then commits them in one
   * LMDB transaction run by LMDB's write thread; resolves once it is durable: true when
   * written, false when the store already held a later checkpoint (nothing written then).
   */
  async applyDirtyAsync(capture: DirtyCapture): Promise<boolean> {
    const blocks = new Map<string, Uint8Array | null>();
    let started = performance.now();
    for (const chunk of capture.chunks) {
      for (const [key, value] of chunkBlocks(chunk)) {
        blocks.set(key, value);
        if (performance.now() - started < TURN_BUDGET_MS) continue;
        await nextTurn();
        started = performance.now();
      }
    }
    this.heal();
    let result: unknown;
    try {
      // A child transaction, so that an exception halfway aborts every write of it.
      result = await this.env.root.childTransaction(() => (this.putBlocks(blocks, capture) ? true : lmdb().ABORT));
      await this.env.root.flushed;
    } catch (err) {
      // On a failed commit (a full disk) LMDB also rejects its batch promise and a
      // `commitError` promise that nobody holds; the failure is reported here, so those are
      // marked handled (still within the turn that rejected them) instead of killing the process.
      this.env.root.committed.then(undefined, ignoreRejection);
      (err as { commitError?: PromiseLike<unknown> } | undefined)?.commitError?.then(undefined, ignoreRejection);
      this.broken = true;
      this.reloadManifest();
      throw new StorageError(`Could not write the store ${this.file}: ${describeLmdbError(err)}`, 'StoreWriteFailed');
    }
    if (result !== true) this.reloadManifest();
    return result === true;
  }

  /** After a transaction that did not commit: the manifest is the one on disk. */
  private reloadManifest(): void {
    try {
      this.heal();
      const meta = this.readMeta();
      this.stored = meta;
      this.manifest = new Map(Object.entries(meta?.blocks ?? {}));
    } catch {
      // Still unreadable (the disk is still full): the next write heals and reloads.
    }
  }

  /** Inside a write transaction: puts blocks and the meta, unless the store is already past them. */
  private putBlocks(blocks: Map<string, Uint8Array | null>, capture: Pick<DirtyCapture, 'keys' | 'meta'>): boolean {
    const current = this.readMeta();
    if (current && current.seq > capture.meta.seq) return false;
    for (const [key, value] of blocks) {
      if (value) {
        // Sealed blocks are Buffers (block-format.ts); their declared type is Uint8Array only so
        // that the package's declarations name no Node type.
        this.env.blocks.putSync(key, value as Buffer);
        this.manifest.set(key, blockCrc(value));
      } else if (this.manifest.has(key)) {
        this.env.blocks.removeSync(key);
        this.manifest.delete(key);
      }
    }
    const stored: StoredMeta = { ...capture.meta, keys: capture.keys, blocks: Object.fromEntries(this.manifest) };
    const w = new BlockWriter();
    w.json(stored);
    this.env.blocks.putSync('meta', sealBlock({ kind: BlockKind.Meta, count: 0, firstId: 0 }, w.finish()));
    this.stored = stored;
    return true;
  }

  /**
   * Replaces the whole content with `graph`. Written in several transactions; the meta
   * goes last, so a crash midway leaves a store without meta, which start-up ignores.
   */
  rewriteAll(graph: Graph, meta: StoreMeta, out: ProgressOutput | undefined): void {
    const nodeChunks = chunkCount(graph.nextNodeId);
    const relChunks = chunkCount(graph.nextRelId);
    const progress = new Progress(`Writing ${this.file}`, nodeChunks + relChunks, out);
    this.write(() => {
      this.env.blocks.removeSync('meta');
      this.env.root.removeSync('meta');
      this.env.blocks.clearSync();
      this.env.legacyNodes.clearSync();
      this.env.legacyRels.clearSync();
    });
    this.manifest = new Map();
    const all: [EntityKind, number][] = [];
    for (let c = 0; c < nodeChunks; c++) all.push(['node', c]);
    for (let c = 0; c < relChunks; c++) all.push(['rel', c]);
    for (let i = 0; i < all.length; i += REWRITE_CHUNKS) {
      const blocks = new Map<string, Uint8Array | null>();
      for (const [kind, chunk] of all.slice(i, i + REWRITE_CHUNKS)) {
        for (const [key, value] of encodeChunk(kind === 'node' ? captureNodeChunk(graph, chunk) : captureRelChunk(graph, chunk))) if (value) blocks.set(key, value);
      }
      this.write(() => {
        for (const [key, value] of blocks) {
          this.env.blocks.putSync(key, value as Buffer);
          this.manifest.set(key, blockCrc(value!));
        }
      });
      progress.tick(Math.min(REWRITE_CHUNKS, all.length - i));
    }
    this.write(() => void this.putBlocks(new Map(), { keys: keyNames(graph), meta }));
    progress.finish();
  }

  /**
   * A read snapshot of the store as last committed, or undefined when it has no meta. No
   * cursor stays open between calls, so the caller may await between chunks and end the
   * view at any time.
   */
  openView(): StoreView | undefined {
    this.env.root.resetReadTxn();
    const txn: Transaction = this.env.root.useReadTransaction();
    let meta: StoredMeta | undefined;
    try {
      meta = this.readMeta(txn);
    } catch (err) {
      txn.done();
      throw err;
    }
    if (!meta) {
      txn.done();
      return undefined;
    }
    const stored = meta;
    let open = true;
    /** The chunk last decoded, per kind (a view reads a chunk in several calls). */
    const cache: Partial<Record<EntityKind, { chunk: number; entities: (StoredNode | StoredRel)[] }>> = {};
    const chunkEntities = (kind: EntityKind, chunk: number): (StoredNode | StoredRel)[] => {
      const hit = cache[kind];
      if (hit?.chunk === chunk) return hit.entities;
      const entities = this.readChunk(kind, chunk, stored, txn);
      cache[kind] = { chunk, entities };
      return entities;
    };
    const after = <T extends StoredNode | StoredRel>(kind: EntityKind, from: number, max: number): T[] => {
      if (!open) throw new StorageError(`The read view of ${this.file} is closed`, 'StoreViewClosed');
      const limit = kind === 'node' ? stored.nextNodeId : stored.nextRelId;
      const out: T[] = [];
      for (let chunk = Math.floor((from + 1) / CHUNK_IDS); chunk < chunkCount(limit) && out.length < max; chunk++) {
        for (const entity of chunkEntities(kind, chunk)) {
          if (entity.id > from && out.length < max) out.push(entity as T);
        }
      }
      return out;
    };
    return {
      meta: stored,
      nodesAfter: (from, max) => after<StoredNode>('node', from, max),
      relsAfter: (from, max) => after<StoredRel>('rel', from, max),
      done: () => {
        if (!open) return;
        open = false;
        txn.done();
      },
    };
  }

  /** One chunk as stored entities (for the snapshot written from the store). */
  private readChunk(kind: EntityKind, chunk: number, meta: StoredMeta, txn: Transaction): (StoredNode | StoredRel)[] {
    const key = kind === 'node' ? blockKey.nodes(chunk) : blockKey.rels(chunk);
    const limit = kind === 'node' ? meta.nextNodeId : meta.nextRelId;
    const decoded = this.block(key, (bytes) => decodeChunk(kind, bytes, chunk, limit), txn);
    if (decoded === undefined) return [];
    const props = new Map<number, EncodedProps>();
    for (let keyIndex = 0; keyIndex < meta.keys.length; keyIndex++) {
      const pkey = blockKey.props(kind, chunk, keyIndex);
      if (!(pkey in meta.blocks)) continue;
      const values = this.block(pkey, (bytes) => [...encodedValues(decodeProps(kind, bytes, decoded, true))], txn) ?? [];
      for (const [i, value] of values) {
        let list = props.get(i);
        if (list === undefined) props.set(i, (list = []));
        list.push([meta.keys[keyIndex], value]);
      }
    }
    const out: (StoredNode | StoredRel)[] = [];
    for (let i = 0; i < decoded.count; i++) {
      const at = decoded.index[i];
      if (at < 0) continue;
      const id = decoded.firstId + i;
      const p = props.get(i) ?? [];
      if (kind === 'node') out.push({ id, labels: (decoded.names as string[][])[at], props: p });
      else out.push({ id, type: (decoded.names as string[])[at], start: decoded.start![i], end: decoded.end![i], props: p });
    }
    return out;
  }

  close(): void {
    const file = path.resolve(this.file);
    const done: Promise<void> = Promise.resolve(this.env.root.close()).then(
      () => markVerified(file),
      () => undefined,
    );
    closing.set(file, done);
    void done.then(() => {
      if (closing.get(file) === done) closing.delete(file);
    });
  }

  private write(fn: () => void): void {
    this.heal();
    try {
      this.env.root.transactionSync(fn);
    } catch (err) {
      if (err instanceof StorageError) {
        this.reloadManifest();
        throw err;
      }
      this.broken = true;
      this.reloadManifest();
      throw new StorageError(`Could not write the store ${this.file}: ${describeLmdbError(err)}`, 'StoreWriteFailed');
    }
  }
}

function openEnvironment(file: string): Env {
  try {
    const root = lmdb().open({ path: file, noSubdir: true, overlappingSync: false, compression: false, maxDbs: 4 });
    const blocks = root.openDB<Buffer, string>({ name: 'blocks', encoding: 'binary' });
    const legacyNodes = root.openDB<StoredNode, number>({ name: 'nodes', keyEncoding: 'uint32' });
    const legacyRels = root.openDB<StoredRel, number>({ name: 'rels', keyEncoding: 'uint32' });
    return { root, blocks, legacyNodes, legacyRels };
  } catch (err) {
    throw new StorageError(`Could not open the store ${file}: ${err instanceof Error ? err.message : String(err)}`, 'StoreOpenFailed');
  }
}

function ignoreRejection(): void {}

function describeLmdbError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 28 || /No space left/i.test(message) ? `no space left on the device (${message})` : message;
}

