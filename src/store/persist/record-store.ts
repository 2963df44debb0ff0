/**
 * `RecordStore`: the LMDB store of record (`graphdb.lmdb`, with LMDB's own
 * `graphdb.lmdb-lock`). It holds every live node and relationship (sub-databases `nodes`
 * and `rels`, keyed by id as uint32, values in LMDB's msgpack encoding of the
 * `stored-entity.ts` form) and, under the key `meta` of the main database, the sequence
 * number of the last WAL record it has taken in plus the graph's counters.
 *
 * Checkpoints write the current state of the entities touched since the previous one,
 * and the new meta, in one LMDB transaction: `applyDirtyAsync` (policy checkpoints; the
 * values are captured at once, the commit and its fsync run on LMDB's write thread) or
 * `applyDirty` (start-up, close). Either way the transaction refuses to move the meta's
 * sequence number backwards, so an older checkpoint committing late can never overwrite
 * a newer one. `overlappingSync` is off: a commit is durable when it is reported.
 * Start-up reads the store back without parsing any JSON, and `openView` gives a
 * consistent read snapshot to stream `graphdb.snapshot.json` from.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ABORT, open, type Database as LmdbDatabase, type RootDatabase, type Transaction } from 'lmdb';
import { StorageError } from '../../errors.js';
import type { Graph } from '../graph.js';
import type { Json, JsonObject } from './json.js';
import { encodeSchemaDef, type SchemaDef } from './schema-def.js';
import { GraphLoader } from './graph-loader.js';
import { Progress, type ProgressOutput } from './progress.js';
import { nodeChange, relChange, storeNode, storeRel, type StoredNode, type StoredRel } from './stored-entity.js';
import { ValueDecodeError } from './value-codec.js';

export const STORE_FILE = 'graphdb.lmdb';
const STORE_FORMAT = 1;
/** Entities per LMDB transaction when the whole graph is written. */
const REWRITE_CHUNK = 50_000;

/** What the store knows besides the entities. */
export interface StoreMeta {
  format: number;
  /** Sequence number of the last WAL record taken in. */
  seq: number;
  nextNodeId: number;
  nextRelId: number;
  mutationSeq: number;
  generation: number;
  nodeCount: number;
  relCount: number;
  /** The schema definition (schema-def.ts), encoded. */
  schema: JsonObject;
}

export function metaOf(graph: Graph, seq: number, schema: SchemaDef): StoreMeta {
  return {
    schema: encodeSchemaDef(schema),
    format: STORE_FORMAT,
    seq,
    nextNodeId: graph.nextNodeId,
    nextRelId: graph.nextRelId,
    mutationSeq: graph.mutationSeq,
    generation: graph.generation,
    nodeCount: graph.nodeCount,
    relCount: graph.relCount,
  };
}

/** The current state of some entities, taken at one moment (undefined = gone). */
export interface DirtyCapture {
  nodes: [number, StoredNode | undefined][];
  rels: [number, StoredRel | undefined][];
  meta: StoreMeta;
}

/** Encodes the current state of the given entities, for a checkpoint that commits later. */
export function captureDirty(graph: Graph, nodeIds: Iterable<number>, relIds: Iterable<number>, meta: StoreMeta): DirtyCapture {
  const nodes: DirtyCapture['nodes'] = [];
  const rels: DirtyCapture['rels'] = [];
  for (const id of nodeIds) {
    const node = graph.nodes[id];
    nodes.push([id, node !== undefined && !node.deleted ? storeNode(node) : undefined]);
  }
  for (const id of relIds) {
    const rel = graph.rels[id];
    rels.push([id, rel !== undefined && !rel.deleted ? storeRel(rel) : undefined]);
  }
  return { nodes, rels, meta };
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

export class RecordStore {
  /** Set after a failed commit: LMDB's environment is unusable for writes until reopened. */
  private broken = false;

  private constructor(
    readonly file: string,
    private root: RootDatabase,
    private nodes: LmdbDatabase<StoredNode, number>,
    private rels: LmdbDatabase<StoredRel, number>,
  ) {}

  static open(dir: string): RecordStore {
    const file = path.join(dir, STORE_FILE);
    const { root, nodes, rels } = openEnvironment(file);
    return new RecordStore(file, root, nodes, rels);
  }

  /** After a failed commit (a full disk), a fresh environment before the next write: the file holds the last good commit. */
  private heal(): void {
    if (!this.broken) return;
    void this.root.close();
    const { root, nodes, rels } = openEnvironment(this.file);
    this.root = root;
    this.nodes = nodes;
    this.rels = rels;
    this.broken = false;
  }

  static exists(dir: string): boolean {
    return fs.existsSync(path.join(dir, STORE_FILE));
  }

  /** The meta of a complete store, or undefined when the store was never completely written. */
  meta(): StoreMeta | undefined {
    const value: unknown = this.root.get('meta');
    if (value === undefined) return undefined;
    if (!isMeta(value)) throw new StorageError(`The store ${this.file} has an unreadable 'meta' entry`, 'StoreDamaged');
    if (value.format > STORE_FORMAT) {
      throw new StorageError(`The store ${this.file} was written by a newer graphdb (format ${value.format}); upgrade graphdb to open it`, 'StoreFormat');
    }
    return value;
  }

  /** Loads every entity into an empty graph and restores its counters. */
  load(graph: Graph, meta: StoreMeta, out: ProgressOutput | undefined): void {
    const loader = new GraphLoader(graph);
    const progress = new Progress(`Loading ${this.file}`, meta.nodeCount + meta.relCount, out);
    const bad = (kind: string, key: number, err: unknown): StorageError =>
      new StorageError(`The store ${this.file} has a damaged ${kind} entry (key ${key}): ${err instanceof Error ? err.message : String(err)}`, 'StoreDamaged');
    for (const { key, value } of this.nodes.getRange({ snapshot: true })) {
      try {
        loader.apply(nodeChange(value as unknown as Json));
      } catch (err) {
        throw err instanceof ValueDecodeError ? bad('node', key, err) : err;
      }
      progress.tick();
    }
    for (const { key, value } of this.rels.getRange({ snapshot: true })) {
      try {
        loader.apply(relChange(value as unknown as Json));
      } catch (err) {
        throw err instanceof ValueDecodeError ? bad('relationship', key, err) : err;
      }
      progress.tick();
    }
    loader.flush();
    progress.finish();
    restoreCounters(graph, meta);
  }

  /** Writes the current state of the given entities (removing those gone) and the meta, atomically. */
  applyDirty(graph: Graph, nodeIds: Iterable<number>, relIds: Iterable<number>, meta: StoreMeta): void {
    const capture = captureDirty(graph, nodeIds, relIds, meta);
    this.write(() => {
      if (!this.putCapture(capture)) throw new StorageError(`The store ${this.file} already holds changes after sequence number ${meta.seq}`, 'StoreAhead');
    });
  }

  /**
   * Commits a capture in one LMDB transaction run by LMDB's write thread; resolves once it
   * is durable: true when written, false when the store already held a later checkpoint
   * (nothing written then).
   */
  async applyDirtyAsync(capture: DirtyCapture): Promise<boolean> {
    this.heal();
    let result: unknown;
    try {
      // A child transaction, so that an exception halfway aborts every write of it.
      result = await this.root.childTransaction(() => (this.putCapture(capture) ? true : ABORT));
      await this.root.flushed;
    } catch (err) {
      // On a failed commit (a full disk) LMDB also rejects its batch promise and a
      // `commitError` promise that nobody holds; the failure is reported here, so those are
      // marked handled (still within the turn that rejected them) instead of killing the process.
      this.root.committed.then(undefined, ignoreRejection);
      (err as { commitError?: PromiseLike<unknown> } | undefined)?.commitError?.then(undefined, ignoreRejection);
      this.broken = true;
      throw new StorageError(`Could not write the store ${this.file}: ${describeLmdbError(err)}`, 'StoreWriteFailed');
    }
    return result === true;
  }

  /** Inside a write transaction: puts a capture, unless the store is already past it. */
  private putCapture(capture: DirtyCapture): boolean {
    const current: unknown = this.root.get('meta');
    if (isMeta(current) && current.seq > capture.meta.seq) return false;
    for (const [id, value] of capture.nodes) {
      if (value) this.nodes.putSync(id, value);
      else this.nodes.removeSync(id);
    }
    for (const [id, value] of capture.rels) {
      if (value) this.rels.putSync(id, value);
      else this.rels.removeSync(id);
    }
    this.root.putSync('meta', capture.meta);
    return true;
  }

  /**
   * Replaces the whole content with `graph`. Written in several transactions; the meta
   * goes last, so a crash midway leaves a store without meta, which start-up ignores.
   */
  rewriteAll(graph: Graph, meta: StoreMeta, out: ProgressOutput | undefined): void {
    const progress = new Progress(`Writing ${this.file}`, graph.nodeCount + graph.relCount, out);
    this.write(() => {
      this.root.removeSync('meta');
      this.nodes.clearSync();
      this.rels.clearSync();
    });
    const chunks = function* <T>(items: Iterable<T>): Generator<T[]> {
      let chunk: T[] = [];
      for (const item of items) {
        chunk.push(item);
        if (chunk.length >= REWRITE_CHUNK) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    };
    for (const chunk of chunks(graph.allNodes())) {
      this.write(() => {
        for (const node of chunk) this.nodes.putSync(node.id, storeNode(node));
      });
      progress.tick(chunk.length);
    }
    for (const chunk of chunks(graph.allRels())) {
      this.write(() => {
        for (const rel of chunk) this.rels.putSync(rel.id, storeRel(rel));
      });
      progress.tick(chunk.length);
    }
    this.write(() => this.root.putSync('meta', meta));
    progress.finish();
  }

  /**
   * A read snapshot of the store as last committed, or undefined when it has no meta. No
   * cursor stays open between calls, so the caller may await between chunks and end the
   * view at any time.
   */
  openView(): StoreView | undefined {
    this.root.resetReadTxn();
    const txn: Transaction = this.root.useReadTransaction();
    const value: unknown = this.root.get('meta', { transaction: txn });
    if (!isMeta(value)) {
      txn.done();
      return undefined;
    }
    let open = true;
    const chunk = <T>(db: LmdbDatabase<T, number>, after: number, max: number): T[] => {
      if (!open) throw new StorageError(`The read view of ${this.file} is closed`, 'StoreViewClosed');
      const out: T[] = [];
      for (const { value: v } of db.getRange({ transaction: txn, start: after + 1, limit: max })) out.push(v);
      return out;
    };
    return {
      meta: value,
      nodesAfter: (after, max) => chunk(this.nodes, after, max),
      relsAfter: (after, max) => chunk(this.rels, after, max),
      done: () => {
        if (!open) return;
        open = false;
        txn.done();
      },
    };
  }

  close(): void {
    void this.root.close();
  }

  private write(fn: () => void): void {
    this.heal();
    try {
      this.root.transactionSync(fn);
    } catch (err) {
      if (err instanceof StorageError) throw err;
      this.broken = true;
      throw new StorageError(`Could not write the store ${this.file}: ${describeLmdbError(err)}`, 'StoreWriteFailed');
    }
  }
}

function openEnvironment(file: string): { root: RootDatabase; nodes: LmdbDatabase<StoredNode, number>; rels: LmdbDatabase<StoredRel, number> } {
  try {
    const root = open({ path: file, noSubdir: true, overlappingSync: false, compression: false, maxDbs: 4 });
    const nodes = root.openDB<StoredNode, number>({ name: 'nodes', keyEncoding: 'uint32' });
    const rels = root.openDB<StoredRel, number>({ name: 'rels', keyEncoding: 'uint32' });
    return { root, nodes, rels };
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

export function restoreCounters(graph: Graph, meta: Pick<StoreMeta, 'nextNodeId' | 'nextRelId' | 'mutationSeq' | 'generation'>): void {
  graph.nextNodeId = Math.max(graph.nextNodeId, meta.nextNodeId);
  graph.nextRelId = Math.max(graph.nextRelId, meta.nextRelId);
  graph.mutationSeq = meta.mutationSeq;
  graph.generation = meta.generation;
}
