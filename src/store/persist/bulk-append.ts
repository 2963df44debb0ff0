/**
 * Bulk import into a data directory (`graphdb import`): new nodes and relationships are
 * gathered as arrays and property columns (`BulkAppender`), never as entity objects or change
 * records, and `commitAppended` then writes the store of record once, whole:
 *
 * 1. with the directory open (and locked), the WAL is folded into the store, so the store
 *    holds the graph as it is;
 * 2. the graph's entities and the new ones become one `BulkGraph`, loaded into the
 *    database's own graph (emptied first), which is written as a new LMDB file in
 *    `import.tmp/` beside the store;
 * 3. the now stale `graphdb.snapshot.json` is removed, then the new file is renamed over
 *    `graphdb.lmdb` (and the directory fsynced): the import is one atomic step. Killed
 *    before it, the directory holds exactly what it held before; after it, everything;
 * 4. the data directory's store reopens on the new file. The database's graph and its store
 *    now agree, so a later write is checkpointed into the new file and the snapshot written
 *    at close is the imported graph. (Before, the graph stayed as it was before the import
 *    and the store kept writing to the replaced file: a close wrote a snapshot of the old
 *    graph, and a write after the import was lost.) If writing the new file fails, the
 *    graph is reloaded from the unchanged store.
 *
 * The WAL is not involved: its records are all in the store before the swap, and the new
 * store's meta carries the same sequence number. `commitAppended` also serves in-memory
 * databases, and sends a database with indexes or constraints down the transactional path.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from '../../engine/database.js';
import { ConstraintError } from '../../errors.js';
import { loadLength } from '../columns/buffers.js';
import { PropertyColumn } from '../columns/property-column.js';
import type { Value } from '../entities.js';
import type { BulkGraph, Graph } from '../graph.js';
import type { IndexArray } from '../bulk-entities.js';
import { liveEntityArrays } from './graph-blocks.js';
import { Interner, LabelListInterner } from '../interner.js';
import type { ProgressOutput } from './progress.js';
import { metaOf, RecordStore, STORE_FILE } from './record-store.js';
import type { DurableStore } from './durable-store.js';
import { schemaDefinition, type SchemaDef } from './schema-def.js';

const TMP_DIR = 'import.tmp';

/**
 * A growable `Int32Array`, a load's temporary: past 1 MiB it grows into reservations of 32 MiB
 * or more (`loadLength`), each a mapping of its own whose untouched pages are never resident,
 * which growth below that size does not copy and which freeing unmaps; doubled from glibc's
 * heap instead, its outgrown copies stayed resident after the load (tens of MB on snb-50k).
 */
class IntList {
  array = new Int32Array(1024);
  length = 0;

  /** Gives the entries' memory back (a spent appender's lists); `length` still says how many there were. */
  release(): void {
    this.array = new Int32Array(0);
  }

  push(value: number): void {
    if (this.length === this.array.length) this.grow(this.length + 1);
    this.array[this.length++] = value;
  }

  /** Appends `values` as they are (a block copy). */
  pushAll(values: Int32Array): void {
    if (this.length + values.length > this.array.length) this.grow(this.length + values.length);
    this.array.set(values, this.length);
    this.length += values.length;
  }

  /** Appends `count` copies of `value`. */
  pushRepeated(value: number, count: number): void {
    if (this.length + count > this.array.length) this.grow(this.length + count);
    this.array.fill(value, this.length, this.length + count);
    this.length += count;
  }

  private grow(least: number): void {
    const grown = new Int32Array(loadLength(Math.max(least, this.array.length * 2), 4));
    grown.set(this.array.subarray(0, this.length));
    this.array = grown;
  }
}

/**
 * Copies `list`'s indexes into `into` from `at` on, each through `map` (appended index →
 * index in the union), as one block copy where the map is the identity (always so into an
 * empty graph).
 */
function copyMapped(list: IntList, map: readonly number[], into: Int32Array, at: number): void {
  if (map.every((to, from) => to === from)) {
    into.set(list.array.subarray(0, list.length), at);
    return;
  }
  for (let i = 0; i < list.length; i++) into[at + i] = map[list.array[i]];
}

/** New entities appended after a graph's ids, as arrays and property columns. */
export class BulkAppender {
  readonly nodeBase: number;
  readonly relBase: number;
  private readonly labelLists = new LabelListInterner();
  private readonly typeNames = new Interner();
  private readonly nodeLabels = new IntList();
  private readonly relType = new IntList();
  private readonly relStart = new IntList();
  private readonly relEnd = new IntList();
  private readonly nodeColumns = new Map<string, PropertyColumn>();
  private readonly relColumns = new Map<string, PropertyColumn>();
  private lastLabels: string[] | undefined;
  private lastList = 0;
  private lastType: string | undefined;
  private lastTypeIndex = 0;
  /** Property values set through the columns (counted by the caller). */
  properties = 0;

  constructor(private readonly graph: Graph) {
    this.nodeBase = graph.nextNodeId;
    this.relBase = graph.nextRelId;
  }

  get nodeCount(): number {
    return this.nodeLabels.length;
  }

  get relCount(): number {
    return this.relType.length;
  }

  /**
   * Appends a node (`labels` without duplicates; properties are set through `nodeColumn`);
   * returns its id. A caller that passes the same array for many nodes saves a lookup per node.
   */
  appendNode(labels: string[]): number {
    const id = this.nodeBase + this.nodeLabels.length;
    this.nodeLabels.push(this.labelListOf(labels));
    return id;
  }

  /** Appends `count` nodes with the same labels (as `appendNode` does); returns the first one's id. */
  appendNodes(labels: string[], count: number): number {
    const id = this.nodeBase + this.nodeLabels.length;
    this.nodeLabels.pushRepeated(this.labelListOf(labels), count);
    return id;
  }

  /** Appends a relationship between two node ids (of the graph or appended); returns its id. */
  appendRel(type: string, start: number, end: number): number {
    const id = this.relBase + this.relType.length;
    this.relType.push(this.typeIndexOf(type));
    this.relStart.push(start);
    this.relEnd.push(end);
    return id;
  }

  /** Appends relationships of one type between the node ids `starts[i]` and `ends[i]` (equal lengths); returns the first one's id. */
  appendRels(type: string, starts: Int32Array, ends: Int32Array): number {
    const id = this.relBase + this.relType.length;
    this.relType.pushRepeated(this.typeIndexOf(type), starts.length);
    this.relStart.pushAll(starts);
    this.relEnd.pushAll(ends);
    return id;
  }

  /** The interned index of a label list, looked up only when the array is not the last one's. */
  private labelListOf(labels: string[]): number {
    if (labels !== this.lastLabels) {
      this.lastLabels = labels;
      this.lastList = this.labelLists.intern(labels);
    }
    return this.lastList;
  }

  /** The interned index of a type, looked up only when it is not the last one's. */
  private typeIndexOf(type: string): number {
    if (type !== this.lastType) {
      this.lastType = type;
      this.lastTypeIndex = this.typeNames.intern(type);
    }
    return this.lastTypeIndex;
  }

  /** The column of appended node property `key` (set values at appended ids only, never null). */
  nodeColumn(key: string): PropertyColumn {
    return this.columnOf(this.nodeColumns, key);
  }

  relColumn(key: string): PropertyColumn {
    return this.columnOf(this.relColumns, key);
  }

  private columnOf(columns: Map<string, PropertyColumn>, key: string): PropertyColumn {
    let column = columns.get(key);
    if (column === undefined) columns.set(key, (column = new PropertyColumn().reserveForLoad()));
    return column;
  }

  /** The appended node `i` (0-based) as labels and properties, for the transactional path. */
  nodeAt(i: number): { labels: string[]; props: Map<string, Value> } {
    return { labels: this.labelLists.lists[this.nodeLabels.array[i]], props: this.propsAt(this.nodeColumns, this.nodeBase + i) };
  }

  relAt(i: number): { type: string; start: number; end: number; props: Map<string, Value> } {
    return {
      type: this.typeNames.all[this.relType.array[i]],
      start: this.relStart.array[i],
      end: this.relEnd.array[i],
      props: this.propsAt(this.relColumns, this.relBase + i),
    };
  }

  /**
   * The graph's live entities and the appended ones as one `BulkGraph` (fresh arrays and
   * columns; the graph's entities are read without making their objects). The appender's own
   * columns go into it as they are, so the appender is spent afterwards.
   */
  union(): BulkGraph {
    const g = this.graph;
    const rels = this.relBase + this.relCount;
    const { arrays, labelLists, typeNames } = liveEntityArrays(g, this.nodeBase + this.nodeCount, rels);
    const { nodeLabels, relType, relStart, relEnd } = arrays;
    const appendedLists = this.labelLists.lists.map((labels) => labelLists.intern(labels));
    copyMapped(this.nodeLabels, appendedLists, nodeLabels, this.nodeBase);

    const appendedTypes = this.typeNames.all.map((type) => typeNames.intern(type));
    copyMapped(this.relType, appendedTypes, relType, this.relBase);
    relStart.set(this.relStart.array.subarray(0, this.relCount), this.relBase);
    relEnd.set(this.relEnd.array.subarray(0, this.relCount), this.relBase);
    // Spent now: let go of the lists (up to twice the entities' size) before the graph is built from the copies.
    for (const list of [this.nodeLabels, this.relType, this.relStart, this.relEnd]) list.release();
    return {
      labelLists: labelLists.lists,
      nodeLabels,
      typeNames: typeNames.all,
      relType,
      relStart,
      relEnd,
      nodeColumns: this.mergedColumns(g.nodeProps.columns, this.nodeColumns, nodeLabels),
      relColumns: this.mergedColumns(g.relProps.columns, this.relColumns, relType),
    };
  }

  /**
   * The graph's columns with the appended values added, by key name. Values the graph keeps
   * for deleted entities (they stay readable as values) are dropped: a bulk graph holds values
   * of live entities only.
   */
  private mergedColumns(existing: readonly (PropertyColumn | undefined)[], appended: Map<string, PropertyColumn>, liveIndex: IndexArray): Map<string, PropertyColumn> {
    const out = new Map<string, PropertyColumn>();
    existing.forEach((column, keyId) => {
      if (column === undefined || column.count === 0) return;
      const fresh = new PropertyColumn();
      for (let id = 0, end = Math.min(column.capacity, liveIndex.length); id < end; id++) {
        if (liveIndex[id] < 0) continue;
        const value = column.get(id);
        if (value !== undefined) fresh.set(id, value);
      }
      if (fresh.count > 0) out.set(this.graph.keyName(keyId), fresh);
    });
    for (const [key, column] of appended) {
      if (column.count === 0) continue;
      const into = out.get(key);
      if (into === undefined) {
        out.set(key, column);
        continue;
      }
      for (let id = 0; id < column.capacity; id++) {
        const value = column.get(id);
        if (value !== undefined) into.set(id, value);
      }
    }
    return out;
  }

  private propsAt(columns: Map<string, PropertyColumn>, id: number): Map<string, Value> {
    const props = new Map<string, Value>();
    for (const [key, column] of columns) {
      const value = column.get(id);
      if (value !== undefined) props.set(key, value);
    }
    return props;
  }
}

/** How `commitAppended` wrote the appended entities (see the module comment). */
export type BulkPath = 'store' | 'memory' | 'transaction';

/**
 * Writes what `appender` gathered into `db`, the database it was made on, and returns the
 * path it took:
 * - a database with indexes or constraints takes one write transaction, so that their checks
 *   and contents follow the write path;
 * - a data directory gets a new store of record swapped in (see the module comment), and
 *   `db`'s graph becomes the imported graph, so the database can go on being used;
 * - an empty in-memory graph is bulk-loaded; one that holds data takes the transaction.
 */
export async function commitAppended(db: Database, appender: BulkAppender, out: ProgressOutput | undefined, placeOf?: (nodeIndex: number) => string | undefined): Promise<BulkPath> {
  const schema = schemaDefinition(db.schema);
  const plain = schema.indexes.length === 0 && schema.constraints.length === 0 && (schema.extensions?.length ?? 0) === 0;
  const durable = db.storage;
  const graph = db.graph;
  if (plain && durable !== undefined) {
    await swapInStore(db, durable, appender, schema, out);
    return 'store';
  }
  if (plain && graph.nodeCount === 0 && graph.relCount === 0 && !graph.inTransaction) {
    graph.bulkLoad(appender.union());
    return 'memory';
  }
  commitInTransaction(db, appender, placeOf);
  return 'transaction';
}

/** Steps 1–4 of the module comment. */
async function swapInStore(db: Database, durable: DurableStore, appender: BulkAppender, schema: SchemaDef, out: ProgressOutput | undefined): Promise<void> {
  const dir = durable.dir;
  await durable.settle();
  const graph = db.graph;
  const mutationSeq = graph.mutationSeq + appender.nodeCount + appender.relCount;
  const generation = graph.generation + 1;
  // The union reads the graph's entities and columns, so it is made before the graph is emptied.
  const data = appender.union();
  const tmp = path.join(dir, TMP_DIR);
  // The database's own graph becomes the imported one (not a graph of its own that is then
  // dropped): whatever the database does next — a write, a close that writes the snapshot —
  // starts from the graph the new store holds.
  graph.clear();
  try {
    graph.bulkLoad(data);
    graph.mutationSeq = mutationSeq;
    graph.generation = Math.max(graph.generation, generation);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp);
    const store = RecordStore.open(tmp);
    try {
      store.rewriteAll(graph, metaOf(graph, durable.seq, schema), out);
    } finally {
      store.close();
    }
    await RecordStore.closed(tmp);
  } catch (err) {
    // Nothing on disk changed: the graph goes back to what the store holds.
    fs.rmSync(tmp, { recursive: true, force: true });
    durable.reloadGraph();
    throw err;
  }
  await durable.installStore(path.join(tmp, STORE_FILE));
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** The transactional path: one write transaction through the graph's API (WAL, checks, indexes). */
function commitInTransaction(db: Database, appender: BulkAppender, placeOf: ((nodeIndex: number) => string | undefined) | undefined): void {
  const created: number[] = [];
  try {
    appendInTransaction(db, appender, created);
  } catch (err) {
    // A constraint the import breaks is named by the appended row it came from, where the caller knows it.
    const at = err instanceof ConstraintError && err.nodeId !== undefined ? created.indexOf(err.nodeId) : -1;
    const where = at >= 0 ? placeOf?.(at) : undefined;
    if (where === undefined || !(err instanceof ConstraintError)) throw err;
    throw new ConstraintError(`${where}: ${err.message} (nothing was imported)`, err.detail, err.nodeId);
  }
}

function appendInTransaction(db: Database, appender: BulkAppender, created: number[]): void {
  db.writeTransaction((graph) => {
    created.length = 0;
    for (let i = 0; i < appender.nodeCount; i++) {
      const { labels, props } = appender.nodeAt(i);
      created.push(graph.createNode(labels, props).id);
    }
    // Appended ids were counted from the graph's next id, which the transaction also starts from.
    const nodeOf = (id: number) => graph.node(id < appender.nodeBase ? id : created[id - appender.nodeBase])!;
    for (let i = 0; i < appender.relCount; i++) {
      const { type, start, end, props } = appender.relAt(i);
      graph.createRel(type, nodeOf(start), nodeOf(end), props);
    }
  });
}
