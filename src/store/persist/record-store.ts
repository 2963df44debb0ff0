/**
 * `RecordStore`: the LMDB store of record (`graphdb.lmdb`, with LMDB's own
 * `graphdb.lmdb-lock`). It holds every live node and relationship (sub-databases `nodes`
 * and `rels`, keyed by id as uint32, values in LMDB's msgpack encoding of the
 * `stored-entity.ts` form) and, under the key `meta` of the main database, the sequence
 * number of the last WAL record it has taken in plus the graph's counters.
 *
 * Checkpoints write the current state of the entities touched since the previous one,
 * and the new meta, in one synchronous LMDB transaction (durable when it returns:
 * `overlappingSync` is off). Start-up reads it back without parsing any JSON.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { open, type Database as LmdbDatabase, type RootDatabase } from 'lmdb';
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

function isMeta(value: unknown): value is StoreMeta {
  const m = value as Partial<StoreMeta> | undefined;
  return typeof m === 'object' && m !== null && typeof m.seq === 'number' && typeof m.nextNodeId === 'number' && typeof m.nextRelId === 'number';
}

export class RecordStore {
  private constructor(
    readonly file: string,
    private readonly root: RootDatabase,
    private readonly nodes: LmdbDatabase<StoredNode, number>,
    private readonly rels: LmdbDatabase<StoredRel, number>,
  ) {}

  static open(dir: string): RecordStore {
    const file = path.join(dir, STORE_FILE);
    try {
      const root = open({ path: file, noSubdir: true, overlappingSync: false, compression: false, maxDbs: 4 });
      const nodes = root.openDB<StoredNode, number>({ name: 'nodes', keyEncoding: 'uint32' });
      const rels = root.openDB<StoredRel, number>({ name: 'rels', keyEncoding: 'uint32' });
      return new RecordStore(file, root, nodes, rels);
    } catch (err) {
      throw new StorageError(`Could not open the store ${file}: ${err instanceof Error ? err.message : String(err)}`, 'StoreOpenFailed');
    }
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
    this.write(() => {
      for (const id of nodeIds) {
        const node = graph.nodes[id];
        if (node !== undefined && !node.deleted) this.nodes.putSync(id, storeNode(node));
        else this.nodes.removeSync(id);
      }
      for (const id of relIds) {
        const rel = graph.rels[id];
        if (rel !== undefined && !rel.deleted) this.rels.putSync(id, storeRel(rel));
        else this.rels.removeSync(id);
      }
      this.root.putSync('meta', meta);
    });
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

  /** Every stored node then every relationship, from one consistent read snapshot. */
  *entities(): Generator<{ kind: 'node'; value: StoredNode } | { kind: 'rel'; value: StoredRel }> {
    const txn = this.root.useReadTransaction();
    try {
      for (const { value } of this.nodes.getRange({ transaction: txn })) yield { kind: 'node', value };
      for (const { value } of this.rels.getRange({ transaction: txn })) yield { kind: 'rel', value };
    } finally {
      txn.done();
    }
  }

  close(): void {
    void this.root.close();
  }

  private write(fn: () => void): void {
    try {
      this.root.transactionSync(fn);
    } catch (err) {
      if (err instanceof StorageError) throw err;
      throw new StorageError(`Could not write the store ${this.file}: ${err instanceof Error ? err.message : String(err)}`, 'StoreWriteFailed');
    }
  }
}

export function restoreCounters(graph: Graph, meta: Pick<StoreMeta, 'nextNodeId' | 'nextRelId' | 'mutationSeq' | 'generation'>): void {
  graph.nextNodeId = Math.max(graph.nextNodeId, meta.nextNodeId);
  graph.nextRelId = Math.max(graph.nextRelId, meta.nextRelId);
  graph.mutationSeq = meta.mutationSeq;
  graph.generation = meta.generation;
}
