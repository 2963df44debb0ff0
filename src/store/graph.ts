/**
 * `Graph`: the in-memory graph every query runs against. It owns the entity tables (dense
 * id → `Node`/`Rel`), interning of labels, relationship types and property keys, adjacency
 * upkeep, the label and type indexes (`IdSet`s), the statistics the optimizer reads, and
 * transactions: every mutation records an exact undo entry and a deterministic
 * `ChangeRecord`; `commit()` validates and hands the records over, `rollback()` restores
 * the previous state (content, scan order and expansion order).
 *
 * Contract for callers:
 * - Every mutation requires an open transaction (`begin()` … `commit()`/`rollback()`);
 *   outside one it throws InternalError. There is no hidden auto-commit, so no write can
 *   bypass the write queue and the WAL. `transact(fn)` wraps the usual sequence.
 * - Generated code reads the public fields directly. `nodes`/`rels` are paged tables
 *   (`entity-table.ts`) whose `length` is the id bound. During a transaction they
 *   may hold entities flagged `deleted` (a query may still refer to them); after a commit
 *   deleted entities leave the tables, so a slot is either `undefined` or live.
 * - Ids are never reused within a process: rolled-back creations and `clear()` leave
 *   `nextNodeId`/`nextRelId` where they were. Only `applyChange` (WAL/snapshot replay)
 *   places an entity at a given id.
 * - `mutationSeq` counts applied change records; a rollback restores it, so the
 *   fingerprint depends on committed history only. `version` only ever grows (every
 *   mutation, rollback and clear bump it): key caches on it, not on `mutationSeq`.
 * - The store does not type-check property values (the runtime rejects maps, nodes, … as
 *   property values before they get here); it drops `null`s as Cypher requires.
 * - Properties live in two column stores (`nodeProps`, `relProps`; see
 *   `columns/property-store.ts`), one column per key, indexed by entity id; entities read
 *   through them. A created entity's `createNode`/`createRel` record keeps the property
 *   map it was created from, and shares its `labels` array with the node: the store copies
 *   a node's `labels` before the first in-place change (copy-on-write, `Node.shared`), so a
 *   record keeps describing the state at the time of its change. Everyone else must treat
 *   records and `labels` as read-only.
 * - `createNode`/`createRel` copy the caller's property map into their change record,
 *   unless the caller handed it over with `handOverProps` (the runtime's CREATE path does:
 *   it builds a fresh map per entity).
 */

import type { Value } from '../../runtime/values.js';
import type { QueryStats } from '../engine/types.js';
import { ConstraintError, EntityNotFoundError, InternalError, StorageError } from '../errors.js';
import type { ChangeRecord, EntityKind } from './changes.js';
import type { ColumnImage, PropertyColumn } from './columns/property-column.js';
import { PropertyStore } from './columns/property-store.js';
import { AdjacencyBlock, AdjacencyTombstones, degreeInBlock, forEachInBlock, type AdjacencyBlocks, type BlockBase, type BlockImage } from './adjacency.js';
import { sharedBits, sharedInt32 } from './columns/buffers.js';
import { BulkEntities, narrowIndexes, type IndexArray } from './bulk-entities.js';
import { EMPTY_PROPS, Node, Rel, SHARED_LABELS } from './entities.js';
import { fingerprintOf } from './fingerprint.js';
import { IdSet, type IdSetImage } from './idset.js';
import { EntityTable } from './entity-table.js';
import { Interner } from './interner.js';
import { createdNodeEntry, createdRelEntry, type UndoEntry } from './undo.js';

export type { ChangeRecord } from './changes.js';
export { IdSet } from './idset.js';

/**
 * A whole graph as arrays, for `Graph.bulkLoad` (opening a data directory): node id →
 * index into `labelLists` (-1: no node), relationship id → index into `typeNames` (-1: no
 * relationship) with its start and end node ids, and the property columns by key name
 * (holding values of live entities only).
 */
export interface BulkGraph extends EntityArrays {
  nodeColumns: ReadonlyMap<string, PropertyColumn>;
  relColumns: ReadonlyMap<string, PropertyColumn>;
  /** The adjacency as another graph holds it, to share instead of building it from the relationships. */
  adjacency?: AdjacencyImage;
  /** Label and type sets as another graph holds them (`Graph.lendSets`), to share instead of building them. */
  sets?: LentSets;
  /** Live entities holding each key, by kind, where a column's own count may include deleted ones (a lent column's). */
  liveKeyCounts?: { node: ReadonlyMap<string, number>; rel: ReadonlyMap<string, number> };
}

/** Label and type sets lent by a graph (`Graph.lendSets`), by name. */
export interface LentSets {
  labels: ReadonlyMap<string, IdSetImage>;
  types: ReadonlyMap<string, IdSetImage>;
}

/** Columns lent by a graph (`Graph.lendColumns`): each key's column state and its count of live entities. */
export interface LentColumns {
  node: { key: string; image: ColumnImage; live: number }[];
  rel: { key: string; image: ColumnImage; live: number }[];
}

/**
 * Every entity as arrays (`BulkGraph`'s form): node id → index into `labelLists` (-1: no node),
 * relationship id → index into `typeNames` (-1: none) and its ends. Never written once made,
 * so graphs on several threads may hold the same ones.
 */
export interface EntityArrays {
  labelLists: readonly string[][];
  nodeLabels: IndexArray;
  typeNames: readonly string[];
  relType: IndexArray;
  relStart: Int32Array;
  relEnd: Int32Array;
}

/** A graph's adjacency blocks by relationship type, with its tombstones (a graph image carries it). */
export interface AdjacencyImage {
  types: { type: string; out: BlockImage; in: BlockImage }[];
  /** Copied: each graph tombstones on its own. */
  dead: Uint32Array;
}

/** A block's new base made by a commit's merge, for replicas to adopt (`Graph.adoptMergedBases`). */
export interface MergedBase {
  type: string;
  isIn: boolean;
  base: BlockBase;
}

/** A relationship as ids, for `Graph.liveRelInto`. */
export interface RelShape {
  typeId: number;
  start: number;
  end: number;
}

/** Direction of an expansion, as the optimizer asks about fan-out. */
export type Direction = 'out' | 'in' | 'both';

interface Transaction {
  undo: UndoEntry[];
  changes: ChangeRecord[];
  deletedNodes: Node[];
  deletedRels: Rel[];
  seqAtBegin: number;
}

/** Fresh counters for a query that changed nothing. */
export function zeroStats(): QueryStats {
  return {
    nodesCreated: 0,
    nodesDeleted: 0,
    relationshipsCreated: 0,
    relationshipsDeleted: 0,
    labelsAdded: 0,
    labelsRemoved: 0,
    propertiesSet: 0,
  };
}

/** Whether a query's counters show any change (its `mutated` flag). */
export function anyChanges(stats: QueryStats): boolean {
  return (
    stats.nodesCreated + stats.nodesDeleted + stats.relationshipsCreated + stats.relationshipsDeleted + stats.labelsAdded + stats.labelsRemoved + stats.propertiesSet >
    0
  );
}

/** A copy of `props` without null values (Cypher never stores null). */
function withoutNulls(props: Map<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [key, value] of props) if (value !== null) out.set(key, value);
  return out;
}

function hasNull(props: Map<string, Value>): boolean {
  for (const value of props.values()) if (value === null) return true;
  return false;
}

/** The map the last `handOverProps` call handed over, until a creation takes it. */
let handedOver: Map<string, Value> | undefined;

/**
 * Hands `props` over to the next `createNode`/`createRel` that is given this very map: the
 * new entity keeps it instead of copying it. Only for a map built for that one call, which
 * the caller neither keeps nor changes afterwards. Returns `props`.
 */
export function handOverProps(props: Map<string, Value>): Map<string, Value> {
  handedOver = props;
  return props;
}

/**
 * The property map a new entity's change record keeps for `props`: the shared empty map
 * when there are no (non-null) properties, `props` itself when it may be kept (handed over,
 * or a change record's map, which nobody changes) and holds no null, otherwise a copy
 * without nulls.
 */
function creationProps(props: Map<string, Value>, mayKeep: boolean): Map<string, Value> {
  if (props === handedOver) {
    handedOver = undefined;
    mayKeep = true;
  }
  if (props.size === 0) return EMPTY_PROPS;
  if (mayKeep && !hasNull(props)) return props;
  const own = withoutNulls(props);
  return own.size === 0 ? EMPTY_PROPS : own;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How many distinct label lists `Graph` keeps one shared array for. */
const MAX_SHARED_LABEL_LISTS = 1024;

export class Graph {
  /** Nodes by id; `undefined` for ids never used, rolled back or deleted (after commit). */
  nodes = new EntityTable<Node>();
  /** Relationships by id, as `nodes`. */
  rels = new EntityTable<Rel>();
  /** Next id `createNode` hands out; persistence restores it. */
  nextNodeId = 0;
  /** Next id `createRel` hands out; persistence restores it. */
  nextRelId = 0;
  /** Bumped by wholesale changes (`clear()`, loads); part of the fingerprint. */
  generation = 0;
  /** Number of change records applied (restored by rollback); part of the fingerprint. */
  mutationSeq = 0;
  /** Grows on every mutation, rollback and clear; for cache invalidation. */
  version = 0;

  /** Node ids per label id (indexed by `labelId`). */
  readonly labelSets: (IdSet | undefined)[] = [];
  /** Relationship ids per relationship type id (indexed by `typeId`). */
  readonly typeSets: (IdSet | undefined)[] = [];
  /** Outgoing adjacency per relationship type id (see adjacency.ts); generated code reads it directly. */
  readonly adjOut: AdjacencyBlocks = [];
  /** Incoming adjacency per relationship type id. */
  readonly adjIn: AdjacencyBlocks = [];
  /** Set by an append or a tombstone in any block since the last `mergeAdjacency`. */
  private adjacencyGrew = false;
  /**
   * Set on a replica that shares its primary's adjacency bases: it never merges its blocks
   * itself, but adopts the bases each of the primary's merges makes (`adoptMergedBases`), so
   * the bases stay shared instead of each thread holding a copy of its own.
   */
  adoptsMerges = false;
  /** The bases the last commit's merge made and the mutation sequence they belong to (`takeMergedBases`). */
  private lastMerged: { seq: number; bases: MergedBase[] } | undefined;
  /**
   * Entities of the last bulk load not made into objects yet (bulk-entities.ts); undefined
   * for a graph that was not bulk-loaded. Read through `nodeAt`/`relAt`; the checkpoint
   * writer reads it directly so that saving does not make every object.
   */
  bulk: BulkEntities | undefined;
  /** `version` right after the last bulk load: while it still is, `bulk` describes the whole graph. */
  private bulkVersion = -1;
  /**
   * Called before the graph can change (at `begin()` and `clear()`): whoever reads a
   * consistent state over several turns (an asynchronous checkpoint's capture) sets it to
   * finish that read first. At most one reader at a time.
   */
  beforeWrite: (() => void) | undefined;
  /**
   * Also called before the graph can change (at `begin()` and `clear()`): the Database keeps
   * the state its open read transactions were pinned at (src/engine/read-snapshots.ts).
   */
  beforeChange: (() => void) | undefined;
  /** Deleted relationship ids, which adjacency readers skip until a merge drops them. */
  readonly deadRels = new AdjacencyTombstones();

  private readonly labelNames = new Interner();
  private readonly typeNames = new Interner();
  private readonly keyNames = new Interner();
  /** Node properties: one column per key, indexed by node id. Replaced (not emptied) by `clear()`. */
  nodeProps = new PropertyStore(this.keyNames);
  /** Relationship properties, as `nodeProps`. */
  relProps = new PropertyStore(this.keyNames);
  /** Live nodes / relationships holding each property key, by key id. */
  private readonly nodeKeyCounts: number[] = [];
  private readonly relKeyCounts: number[] = [];
  private liveNodes = 0;
  private liveRels = 0;
  private tx: Transaction | undefined;
  private stats: QueryStats = zeroStats();
  /**
   * One shared array per distinct label list of created nodes (keyed by its JSON), so that
   * a million `:Person` nodes hold one `['Person']`; `lastLabels` is the latest one used.
   */
  private readonly sharedLabelLists = new Map<string, string[]>();
  private lastLabels: string[] = [];

  // ---------------------------------------------------------------- interning

  typeId(name: string): number | undefined {
    return this.typeNames.get(name);
  }

  internType(name: string): number {
    return this.typeNames.intern(name);
  }

  typeName(id: number): string {
    const name = this.typeNames.name(id);
    if (name === undefined) throw new InternalError(`Unknown relationship type id ${id}`);
    return name;
  }

  labelId(name: string): number | undefined {
    return this.labelNames.get(name);
  }

  internLabel(name: string): number {
    return this.labelNames.intern(name);
  }

  labelName(id: number): string {
    const name = this.labelNames.name(id);
    if (name === undefined) throw new InternalError(`Unknown label id ${id}`);
    return name;
  }

  keyId(name: string): number | undefined {
    return this.keyNames.get(name);
  }

  internKey(name: string): number {
    return this.keyNames.intern(name);
  }

  keyName(id: number): string {
    const name = this.keyNames.name(id);
    if (name === undefined) throw new InternalError(`Unknown property key id ${id}`);
    return name;
  }

  // ---------------------------------------------------------------- lookups and statistics

  get nodeCount(): number {
    return this.liveNodes;
  }

  get relCount(): number {
    return this.liveRels;
  }

  get inTransaction(): boolean {
    return this.tx !== undefined;
  }

  /** The live node with this id, if any. */
  node(id: number): Node | undefined {
    const node = this.nodeAt(id);
    return node === undefined || node.deleted ? undefined : node;
  }

  /** The live relationship with this id, if any. */
  rel(id: number): Rel | undefined {
    const rel = this.relAt(id);
    return rel === undefined || rel.deleted ? undefined : rel;
  }

  /**
   * The node object with this id — made on first use for a bulk-loaded node — or undefined
   * when there is none. During a transaction it may be a node deleted in it (flagged
   * `deleted`). Everything that turns a node id into a node goes through here (generated
   * code too), never through `nodes[id]`, which holds only the nodes made so far.
   */
  nodeAt(id: number): Node | undefined {
    const node = this.nodes.get(id);
    if (node !== undefined || this.bulk === undefined) return node;
    return this.makeBulkNode(id);
  }

  /** The relationship object with this id, as `nodeAt`. */
  relAt(id: number): Rel | undefined {
    const rel = this.rels.get(id);
    if (rel !== undefined || this.bulk === undefined) return rel;
    return this.makeBulkRel(id);
  }

  /** Whether node `id` exists and is not deleted, without making its object. */
  hasLiveNode(id: number): boolean {
    return this.liveLabels(id) !== undefined;
  }

  /**
   * The labels of live node `id` without making its object (read-only: the node's own list
   * or a bulk load's shared one), or undefined when there is no such node.
   */
  liveLabels(id: number): string[] | undefined {
    const node = this.nodes.get(id);
    if (node !== undefined) return node.deleted ? undefined : node.labels;
    return this.bulk?.labelsOf(id);
  }

  /**
   * Type id and end node ids of live relationship `id`, without making its object, written
   * into `out` (so a scan over many allocates nothing); false when there is no such
   * relationship.
   */
  liveRelInto(id: number, out: RelShape): boolean {
    const rel = this.rels.get(id);
    if (rel !== undefined) {
      if (rel.deleted) return false;
      out.typeId = rel.typeId;
      out.start = rel.start.id;
      out.end = rel.end.id;
      return true;
    }
    const bulk = this.bulk;
    const typeId = bulk === undefined ? -1 : bulk.typeIdOf(id);
    if (typeId < 0) return false;
    out.typeId = typeId;
    out.start = bulk!.relStart[id];
    out.end = bulk!.relEnd[id];
    return true;
  }

  private makeBulkNode(id: number): Node | undefined {
    const labels = this.bulk!.labelsOf(id);
    if (labels === undefined) return undefined;
    const node = new Node(id, labels, this.nodeProps);
    node.shared = SHARED_LABELS; // the lists are shared between nodes: copy-on-write
    this.nodes.set(id, node);
    this.bulk!.unmadeNodes--;
    return node;
  }

  private makeBulkRel(id: number): Rel | undefined {
    const bulk = this.bulk!;
    const typeId = bulk.typeIdOf(id);
    if (typeId < 0) return undefined;
    const rel = new Rel(id, this.typeName(typeId), typeId, this.nodeAt(bulk.relStart[id])!, this.nodeAt(bulk.relEnd[id])!, this.relProps);
    this.rels.set(id, rel);
    bulk.unmadeRels--;
    return rel;
  }

  /** Ids of the live nodes carrying `label`; undefined when the label was never used. */
  labelSet(label: string): IdSet | undefined {
    const id = this.labelNames.get(label);
    return id === undefined ? undefined : this.labelSets[id];
  }

  /** Ids of the live relationships of `type`; undefined when the type was never used. */
  typeSet(type: string): IdSet | undefined {
    const id = this.typeNames.get(type);
    return id === undefined ? undefined : this.typeSets[id];
  }

  labelCount(label: string): number {
    return this.labelSet(label)?.length ?? 0;
  }

  typeCount(type: string): number {
    return this.typeSet(type)?.length ?? 0;
  }

  /** Live nodes that hold property `key`. */
  nodesWithProperty(key: string): number {
    const id = this.keyNames.get(key);
    return id === undefined ? 0 : (this.nodeKeyCounts[id] ?? 0);
  }

  /** Live relationships that hold property `key`. */
  relsWithProperty(key: string): number {
    const id = this.keyNames.get(key);
    return id === undefined ? 0 : (this.relKeyCounts[id] ?? 0);
  }

  /**
   * Mean number of relationships (of `type`, or of any type) an expansion in `direction`
   * finds per node: the optimizer's fan-out estimate. 'both' counts each relationship from
   * both ends.
   */
  averageDegree(type: string | undefined, direction: Direction): number {
    if (this.liveNodes === 0) return 0;
    const rels = type === undefined ? this.liveRels : this.typeCount(type);
    return ((direction === 'both' ? 2 : 1) * rels) / this.liveNodes;
  }

  /** Exact degree of `node` for one type id (or all types) in `direction`. */
  degree(node: Node, typeId: number | undefined, direction: Direction): number {
    const count = (blocks: AdjacencyBlocks): number => {
      if (typeId !== undefined) {
        const block = blocks[typeId];
        return block === undefined ? 0 : degreeInBlock(block, node.id, this.deadRels);
      }
      let n = 0;
      for (const block of blocks) if (block !== undefined) n += degreeInBlock(block, node.id, this.deadRels);
      return n;
    };
    if (direction === 'out') return count(this.adjOut);
    if (direction === 'in') return count(this.adjIn);
    return count(this.adjOut) + count(this.adjIn);
  }

  /**
   * Calls `visit(relId, nbrId, isIn)` for each live relationship of `node` of the given type
   * ids (null: every type), outgoing then incoming as `direction` asks. A self-loop appears
   * once per side. The store's one adjacency iterator (generated code inlines the same loop).
   */
  forEachAdjacent(node: Node, typeIds: readonly number[] | null, direction: Direction, visit: (relId: number, nbrId: number, isIn: boolean) => void): void {
    if (direction !== 'in') this.forEachOnSide(this.adjOut, node.id, typeIds, false, visit);
    if (direction !== 'out') this.forEachOnSide(this.adjIn, node.id, typeIds, true, visit);
  }

  /** `forEachAdjacent` for one direction's blocks (no closure per call: this runs per node of a traversal). */
  private forEachOnSide(blocks: AdjacencyBlocks, v: number, typeIds: readonly number[] | null, isIn: boolean, visit: (relId: number, nbrId: number, isIn: boolean) => void): void {
    const dead = this.deadRels;
    if (typeIds === null) {
      for (let t = 0; t < blocks.length; t++) {
        const block = blocks[t];
        if (block !== undefined) forEachInBlock(block, v, dead, visit, isIn);
      }
    } else {
      for (let i = 0; i < typeIds.length; i++) {
        const block = blocks[typeIds[i]];
        if (block !== undefined) forEachInBlock(block, v, dead, visit, isIn);
      }
    }
  }

  /** Whether `node` has a live relationship in either direction. */
  hasRelationships(node: Node): boolean {
    for (const blocks of [this.adjOut, this.adjIn]) {
      for (const block of blocks) if (block !== undefined && degreeInBlock(block, node.id, this.deadRels) > 0) return true;
    }
    return false;
  }

  /**
   * Compacts every adjacency block whose delta and tombstones have grown past its threshold
   * (adjacency.ts). Runs after each commit; callers may also force it (`all`), for example
   * after a bulk load. Never inside a transaction.
   */
  mergeAdjacency(all = false): void {
    if (this.tx !== undefined) throw new InternalError('Cannot merge adjacency inside a transaction');
    // A block comes to need a merge only by appends and tombstones: a commit without either
    // (a node write) skips the walk over every block.
    this.lastMerged = undefined;
    if (this.adoptsMerges || (!all && !this.adjacencyGrew)) return;
    this.adjacencyGrew = false;
    const bases: MergedBase[] = [];
    for (const [blocks, isIn] of [
      [this.adjOut, false],
      [this.adjIn, true],
    ] as const) {
      blocks.forEach((block, typeId) => {
        if (block === undefined || !(all ? block.deltaEntries + block.deadEntries > 0 : block.needsMerge())) return;
        block.merge(this.deadRels);
        bases.push({ type: this.typeNames.name(typeId)!, isIn, base: block.base() });
      });
    }
    if (bases.length > 0) this.lastMerged = { seq: this.mutationSeq, bases };
  }

  /**
   * The bases the last commit's merge made, when that commit ended at mutation sequence `seq`
   * (else none); forgotten once taken, so the graph does not keep bases a later merge replaced.
   */
  takeMergedBases(seq: number): MergedBase[] {
    const merged = this.lastMerged;
    this.lastMerged = undefined;
    return merged !== undefined && merged.seq === seq ? merged.bases : [];
  }

  /**
   * Takes the bases another graph's merges made at this graph's current state (its primary's,
   * after the same commit): each block drops its own base and delta for the shared one. Throws
   * InternalError when a block's live entries differ from the base's (the graphs diverged).
   */
  adoptMergedBases(bases: readonly MergedBase[]): void {
    if (this.tx !== undefined) throw new InternalError('Cannot adopt adjacency inside a transaction');
    for (const { type, isIn, base } of bases) {
      const typeId = this.typeNames.intern(type);
      const blocks = isIn ? this.adjIn : this.adjOut;
      (blocks[typeId] ??= new AdjacencyBlock()).adopt(base);
    }
  }

  /**
   * Lends every column of a typed kind (`PropertyColumn.lend`: arrays shared, and copied by
   * whichever graph writes the column first) with its live count, for a graph image; the
   * columns whose values live in JavaScript objects are left to the image's blocks.
   */
  lendColumns(): LentColumns {
    const lend = (store: PropertyStore, counts: readonly number[]): LentColumns['node'] => {
      const out: LentColumns['node'] = [];
      store.columns.forEach((column, keyId) => {
        const image = column?.lend();
        if (image !== undefined) out.push({ key: this.keyName(keyId), image, live: counts[keyId] ?? 0 });
      });
      return out;
    };
    return { node: lend(this.nodeProps, this.nodeKeyCounts), rel: lend(this.relProps, this.relKeyCounts) };
  }

  /** The adjacency as a graph image carries it: bases shared, deltas and tombstones copied. */
  adjacencyImage(): AdjacencyImage {
    const types: AdjacencyImage['types'] = [];
    this.adjOut.forEach((out, typeId) => {
      const inBlock = this.adjIn[typeId];
      if (out === undefined || inBlock === undefined) return;
      types.push({ type: this.typeNames.name(typeId)!, out: out.image(), in: inBlock.image() });
    });
    return { types, dead: this.deadRels.bits.slice() };
  }

  /** The SPEC's graph fingerprint: a hash of generation, counts and mutation sequence. */
  fingerprint(): string {
    return fingerprintOf([this.generation, this.liveNodes, this.liveRels, this.mutationSeq]);
  }

  *allNodes(): Generator<Node> {
    for (let id = 0; id < this.nodes.length; id++) {
      const node = this.nodeAt(id);
      if (node !== undefined && !node.deleted) yield node;
    }
  }

  *allRels(): Generator<Rel> {
    for (let id = 0; id < this.rels.length; id++) {
      const rel = this.relAt(id);
      if (rel !== undefined && !rel.deleted) yield rel;
    }
  }

  /** Labels carried by at least one live node, in interning order. */
  labels(): string[] {
    const out: string[] = [];
    for (let id = 0; id < this.labelNames.size; id++) {
      if ((this.labelSets[id]?.length ?? 0) > 0) out.push(this.labelName(id));
    }
    return out;
  }

  /** Relationship types of at least one live relationship, in interning order. */
  relationshipTypes(): string[] {
    const out: string[] = [];
    for (let id = 0; id < this.typeNames.size; id++) {
      if ((this.typeSets[id]?.length ?? 0) > 0) out.push(this.typeName(id));
    }
    return out;
  }

  /** Property keys held by at least one live node or relationship, in interning order. */
  propertyKeys(): string[] {
    const out: string[] = [];
    for (let id = 0; id < this.keyNames.size; id++) {
      if ((this.nodeKeyCounts[id] ?? 0) + (this.relKeyCounts[id] ?? 0) > 0) out.push(this.keyName(id));
    }
    return out;
  }

  // ---------------------------------------------------------------- transactions

  begin(): void {
    if (this.tx !== undefined) throw new InternalError('A transaction is already open on this graph');
    this.beforeChange?.();
    this.beforeWrite?.();
    this.tx = { undo: [], changes: [], deletedNodes: [], deletedRels: [], seqAtBegin: this.mutationSeq };
    this.stats = zeroStats();
  }

  /**
   * Validates and ends the transaction, returning its change records in order. If a node
   * deleted in the transaction still has relationships, throws ConstraintError
   * (`DeleteConnectedNode`) and leaves the transaction open: the caller rolls back.
   */
  commit(): ChangeRecord[] {
    const tx = this.requireTx();
    this.validateCommit();
    for (const node of tx.deletedNodes) {
      if (this.nodes.get(node.id) !== node) continue;
      this.nodes.set(node.id, undefined);
      this.bulk?.dropNode(node.id);
    }
    for (const rel of tx.deletedRels) {
      if (this.rels.get(rel.id) !== rel) continue;
      this.rels.set(rel.id, undefined);
      this.bulk?.dropRel(rel.id);
    }
    this.tx = undefined;
    this.mergeAdjacency();
    return tx.changes;
  }

  /**
   * The checks of `commit` without ending the transaction: returns its change records so
   * they can be logged first (a failed log write then still rolls the transaction back).
   */
  validateCommit(): ChangeRecord[] {
    const tx = this.requireTx();
    for (const node of tx.deletedNodes) {
      if (node.deleted && this.hasRelationships(node)) {
        throw new ConstraintError(
          `Cannot delete node ${node.id}, because it still has relationships. To delete this node, you must first delete its relationships (or use DETACH DELETE).`,
          'DeleteConnectedNode',
        );
      }
    }
    return tx.changes;
  }

  /** Undoes every change since `begin()`, newest first, and ends the transaction. */
  rollback(): void {
    const tx = this.requireTx();
    for (let i = tx.undo.length - 1; i >= 0; i--) {
      const entry = tx.undo[i];
      if (typeof entry === 'number') {
        if (entry >= 0) {
          const node = this.nodes.get(entry)!;
          this.undoCreateNode(node);
          this.touch(node);
        } else {
          const rel = this.rels.get(-entry - 1)!;
          this.undoCreateRel(rel);
          this.touchRel(rel);
        }
        continue;
      }
      this.undo(entry);
      if ('node' in entry) this.touch(entry.node);
      else if ('rel' in entry) this.touchRel(entry.rel);
      else if (entry.entity instanceof Node) this.touch(entry.entity);
      else this.touchRel(entry.entity);
    }
    this.mutationSeq = tx.seqAtBegin;
    this.version++;
    this.stats = zeroStats();
    this.tx = undefined;
  }

  /** The open transaction's change records so far, without the checks of `validateCommit` (an explicit transaction's statement keeps them). */
  pendingChanges(): readonly ChangeRecord[] {
    return this.requireTx().changes;
  }

  /** Counters of the open transaction (or of the last committed one). */
  txStats(): QueryStats {
    return { ...this.stats };
  }

  /** Runs `fn` in a transaction: commits on return, rolls back and rethrows on error. */
  transact<T>(fn: (graph: Graph) => T): { result: T; changes: ChangeRecord[]; stats: QueryStats } {
    this.begin();
    try {
      const result = fn(this);
      const stats = this.txStats();
      const changes = this.commit();
      return { result, changes, stats };
    } catch (err) {
      if (this.tx !== undefined) this.rollback();
      throw err;
    }
  }

  /** Empties the graph (not within a transaction). Interned ids and id counters stay. */
  clear(): void {
    if (this.tx !== undefined) throw new InternalError('Cannot clear the graph inside a transaction');
    this.beforeChange?.();
    this.beforeWrite?.();
    for (const node of this.nodes.objects()) node.deleted = true;
    for (const rel of this.rels.objects()) rel.deleted = true;
    this.nodes = new EntityTable();
    this.rels = new EntityTable();
    this.bulk = undefined;
    // Fresh columns: the old entities, now deleted, keep reading their last state.
    this.nodeProps = new PropertyStore(this.keyNames);
    this.relProps = new PropertyStore(this.keyNames);
    for (const set of this.labelSets) set?.clear();
    for (const set of this.typeSets) set?.clear();
    // Fresh blocks: deleted relationships' ids are never reused, so the tombstones may stay.
    this.adjOut.length = 0;
    this.adjIn.length = 0;
    this.nodeKeyCounts.fill(0);
    this.relKeyCounts.fill(0);
    this.liveNodes = 0;
    this.liveRels = 0;
    this.generation++;
    this.version++;
  }

  /**
   * Fills an empty graph from arrays in one pass (no transaction, no change records, no
   * undo): what opening a data directory uses instead of re-creating entities one by one.
   * Ids stay as given; scan and expansion order follow ids, as a load in id order would
   * give. The caller has checked the arrays (every relationship's ends are nodes) and
   * restores the counters afterwards.
   */
  bulkLoad(data: BulkGraph): void {
    if (this.tx !== undefined || this.liveNodes > 0 || this.liveRels > 0) throw new InternalError('bulkLoad needs an empty graph outside a transaction');
    // The columns first: a load fills them by appends, which leave up to a third of their arrays
    // unused, and the slack they give back here is reused by the sets and adjacency built below
    // (given back afterwards, it would stay in the allocator's heap as resident memory).
    for (const [columns, store, counts, live] of [
      [data.nodeColumns, this.nodeProps, this.nodeKeyCounts, data.liveKeyCounts?.node],
      [data.relColumns, this.relProps, this.relKeyCounts, data.liveKeyCounts?.rel],
    ] as const) {
      for (const [key, column] of columns) {
        const keyId = this.keyNames.intern(key);
        column.trim();
        store.columns[keyId] = column;
        Graph.countKey(counts, keyId, live?.get(key) ?? column.count);
      }
    }
    // Kept for the graph's life (BulkEntities): narrowed first, like the columns, so the wide arrays' memory serves what follows.
    const nodeLabels = narrowIndexes(data.nodeLabels, data.labelLists.length);
    const relType = narrowIndexes(data.relType, data.typeNames.length);
    const labelIds = data.labelLists.map((labels) => labels.map((label) => this.labelNames.intern(label)));
    const nodeBound = nodeLabels.length;
    // No objects yet (nodeAt/relAt make them on first use): the tables are only sized.
    const nodes = EntityTable.sized<Node>(nodeBound);
    const perList = new Int32Array(labelIds.length);
    // The first and last id of each label list, so that a label whose nodes are one run of ids (a
    // bulk import's file) becomes a run set, with no member array to gather.
    const listFirst = new Int32Array(labelIds.length).fill(-1);
    const listLast = new Int32Array(labelIds.length);
    for (let id = 0; id < nodeBound; id++) {
      const list = nodeLabels[id];
      if (list < 0) continue;
      if (perList[list]++ === 0) listFirst[list] = id;
      listLast[list] = id;
      this.liveNodes++;
    }
    this.nodes = nodes;
    // Label sets in one pass each: sized from the counts per label list, filled in id order.
    const perLabel = new Int32Array(this.labelNames.size);
    const labelFirst = new Int32Array(perLabel.length).fill(-1);
    const labelLast = new Int32Array(perLabel.length);
    labelIds.forEach((ids, list) =>
      ids.forEach((labelId) => {
        if (perList[list] === 0) return;
        perLabel[labelId] += perList[list];
        if (labelFirst[labelId] < 0 || listFirst[list] < labelFirst[labelId]) labelFirst[labelId] = listFirst[list];
        labelLast[labelId] = Math.max(labelLast[labelId], listLast[list]);
      }),
    );
    const labelRun = (labelId: number): boolean => perLabel[labelId] > 0 && labelLast[labelId] - labelFirst[labelId] === perLabel[labelId] - 1;
    // A label whose set the data lends (a graph image's) is not gathered: the lent set is taken as it is.
    const lentLabel = (labelId: number): IdSetImage | undefined => data.sets?.labels.get(this.labelName(labelId));
    const labelMembers = Array.from(perLabel, (count, labelId) => (lentLabel(labelId) !== undefined || labelRun(labelId) ? undefined : sharedInt32(count)));
    const labelFill = new Int32Array(perLabel.length);
    if (labelMembers.some((members) => members !== undefined)) {
      for (let id = 0; id < nodeBound; id++) {
        const list = nodeLabels[id];
        if (list < 0) continue;
        for (const labelId of labelIds[list]) {
          const members = labelMembers[labelId];
          if (members !== undefined) members[labelFill[labelId]++] = id;
        }
      }
    }
    perLabel.forEach((count, labelId) => {
      if (count === 0) return;
      const lent = lentLabel(labelId);
      this.labelSets[labelId] = lent === undefined && labelRun(labelId) ? IdSet.run(labelFirst[labelId], count, nodeBound) : Graph.lentOrBuilt(lent, labelMembers[labelId], count, nodeBound, this.labelName(labelId));
    });
    const typeIds = data.typeNames.map((type) => this.typeNames.intern(type));
    const relBound = relType.length;
    const rels = EntityTable.sized<Rel>(relBound);
    const perType = new Int32Array(data.typeNames.length);
    const typeFirst = new Int32Array(perType.length).fill(-1);
    const typeLast = new Int32Array(perType.length);
    for (let id = 0; id < relBound; id++) {
      const type = relType[id];
      if (type < 0) continue;
      if (perType[type]++ === 0) typeFirst[type] = id;
      typeLast[type] = id;
      this.liveRels++;
    }
    // A type whose relationships are one run of ids (each file of a bulk import is) needs no
    // gathering: its set is a run and its blocks are built from views of the ends arrays.
    const typeRun = (type: number): boolean => perType[type] > 0 && typeLast[type] - typeFirst[type] === perType[type] - 1;
    this.rels = rels;
    this.bulk = new BulkEntities(data.labelLists, nodeLabels, typeIds, relType, data.relStart, data.relEnd, this.liveNodes, this.liveRels);
    this.deadRels.ensure(relBound - 1);
    // Each type's relationship ids with their ends, gathered in one pass over all of them, then
    // the type set and both CSR blocks built from them directly (no per-node delta lists) —
    // unless the data lends both (a graph image's), which are then taken as they are.
    const shared = data.adjacency === undefined ? undefined : new Map(data.adjacency.types.map((t) => [t.type, t]));
    const lentType = (type: number): IdSetImage | undefined => data.sets?.types.get(data.typeNames[type]);
    const gathers = (type: number): boolean => perType[type] > 0 && (shared === undefined || lentType(type) === undefined) && !typeRun(type);
    const gather = perType.some((_, type) => gathers(type));
    const ofType = Array.from(perType, (count, type) => (gathers(type) ? { ids: sharedInt32(count), starts: new Int32Array(count), ends: new Int32Array(count), filled: 0 } : undefined));
    for (let id = 0; gather && id < relBound; id++) {
      const type = relType[id];
      if (type < 0) continue;
      const to = ofType[type];
      if (to === undefined) continue;
      const k = to.filled++;
      to.ids[k] = id;
      to.starts[k] = data.relStart[id];
      to.ends[k] = data.relEnd[id];
    }
    perType.forEach((count, type) => {
      if (count === 0) return;
      const typeId = typeIds[type];
      const name = data.typeNames[type];
      const gathered = ofType[type];
      const lent = lentType(type);
      const run = typeRun(type) && (lent === undefined || shared === undefined);
      this.typeSets[typeId] = run && lent === undefined ? IdSet.run(typeFirst[type], count, relBound) : Graph.lentOrBuilt(lent, gathered?.ids, count, relBound, name);
      if (shared === undefined) {
        if (run) {
          const first = typeFirst[type];
          const starts = data.relStart.subarray(first, first + count);
          const ends = data.relEnd.subarray(first, first + count);
          (this.adjOut[typeId] = new AdjacencyBlock()).fill(count, first, starts, ends);
          (this.adjIn[typeId] = new AdjacencyBlock()).fill(count, first, ends, starts);
          return;
        }
        const { ids, starts, ends } = gathered!;
        (this.adjOut[typeId] = new AdjacencyBlock()).fill(count, ids, starts, ends);
        (this.adjIn[typeId] = new AdjacencyBlock()).fill(count, ids, ends, starts);
        return;
      }
      const image = shared.get(name);
      if (image === undefined) throw new InternalError(`The shared adjacency has no blocks for :${name}`);
      const out = (this.adjOut[typeId] = AdjacencyBlock.fromImage(image.out));
      const inBlock = (this.adjIn[typeId] = AdjacencyBlock.fromImage(image.in));
      for (const block of [out, inBlock]) {
        const live = block.storedEntries - block.deadEntries;
        if (live !== count) throw new InternalError(`The shared adjacency of :${name} lists ${live} live relationships instead of ${count}`);
      }
    });
    if (data.adjacency !== undefined) {
      const dead = sharedBits(Math.max(relBound, data.adjacency.dead.length * 32));
      dead.set(data.adjacency.dead);
      this.deadRels.bits = dead;
    }
    this.nextNodeId = Math.max(this.nextNodeId, nodes.length);
    this.nextRelId = Math.max(this.nextRelId, rels.length);
    this.generation++;
    this.version++;
    this.bulkVersion = this.version;
  }

  /** A bulk load's set: the lent one (checked to hold `count` members) or one built from `members`. */
  private static lentOrBuilt(lent: IdSetImage | undefined, members: Int32Array | undefined, count: number, idBound: number, name: string): IdSet {
    if (lent === undefined) return IdSet.of(members!, count, idBound);
    if (lent.length !== count) throw new InternalError(`The lent set of ${name} holds ${lent.length} members instead of ${count}`);
    return IdSet.borrowing(lent);
  }

  /**
   * Lends every label and type set (`IdSet.lend`: arrays shared, copied by whichever graph
   * changes the set first), by name, for a graph image.
   */
  lendSets(): LentSets {
    const labels = new Map<string, IdSetImage>();
    const types = new Map<string, IdSetImage>();
    this.labelSets.forEach((set, labelId) => {
      if (set !== undefined && set.length > 0) labels.set(this.labelName(labelId), set.lend());
    });
    this.typeSets.forEach((set, typeId) => {
      if (set !== undefined && set.length > 0) types.set(this.typeName(typeId), set.lend());
    });
    return { labels, types };
  }

  /** Whether the graph is as its last bulk load left it. */
  get unchangedSinceBulkLoad(): boolean {
    return this.version === this.bulkVersion;
  }

  /**
   * The entity arrays of the last bulk load when the graph has not changed since (so they
   * describe every entity: none created, changed or deleted), else undefined.
   */
  entityArraysIfUnchanged(): EntityArrays | undefined {
    const bulk = this.bulk;
    if (bulk === undefined || !this.unchangedSinceBulkLoad) return undefined;
    return { labelLists: bulk.labelLists, nodeLabels: bulk.nodeLabels, typeNames: bulk.typeIds.map((typeId) => this.typeName(typeId)), relType: bulk.relType, relStart: bulk.relStart, relEnd: bulk.relEnd };
  }

  // ---------------------------------------------------------------- change tracking

  /**
   * Nodes whose labels, properties or existence changed since the last `drainChangedNodes()`
   * (rollbacks included); null until someone asks for tracking. Property indexes and
   * constraints (src/store/schema.ts) refresh from it instead of hooking every mutation.
   */
  private changedNodes: Set<Node> | null = null;

  trackNodeChanges(): void {
    this.changedNodes ??= new Set();
  }

  drainChangedNodes(): Node[] {
    const changed = this.changedNodes;
    if (changed === null || changed.size === 0) return [];
    const out = [...changed];
    changed.clear();
    return out;
  }

  private touch(node: Node): void {
    if (this.changedNodes !== null) this.changedNodes.add(node);
  }

  /** Relationships whose properties or existence changed, for indexes on relationships (vector, full-text). */
  private changedRels: Set<Rel> | null = null;

  trackRelChanges(): void {
    this.changedRels ??= new Set();
  }

  drainChangedRels(): Rel[] {
    const changed = this.changedRels;
    if (changed === null || changed.size === 0) return [];
    const out = [...changed];
    changed.clear();
    return out;
  }

  private touchRel(rel: Rel): void {
    if (this.changedRels !== null) this.changedRels.add(rel);
  }

  // ---------------------------------------------------------------- mutations

  /** Creates a node; `labels` and `props` are copied (see `handOverProps`), duplicates and nulls dropped. */
  createNode(labels: readonly string[], props: Map<string, Value>): Node {
    const tx = this.requireTx();
    return this.insertNode(tx, this.nextNodeId++, labels, props, false);
  }

  createRel(type: string, start: Node, end: Node, props: Map<string, Value>): Rel {
    const tx = this.requireTx();
    this.requireLive(start);
    this.requireLive(end);
    return this.insertRel(tx, this.nextRelId++, type, start, end, props, false);
  }

  /** Deletes a relationship; a no-op when it is already deleted. */
  deleteRel(rel: Rel): void {
    const tx = this.requireTx();
    if (rel.deleted) return;
    this.requireMember(rel);
    const outBlock = this.adjOut[rel.typeId];
    const inBlock = this.adjIn[rel.typeId];
    if (outBlock === undefined || inBlock === undefined) throw new InternalError(`Adjacency of relationship ${rel.id} is missing`);
    this.deadRels.set(rel.id);
    outBlock.deadEntries++;
    inBlock.deadEntries++;
    this.adjacencyGrew = true;
    const typePosition = this.typeSets[rel.typeId]!.remove(rel.id);
    this.countKeys(rel, -1);
    this.liveRels--;
    rel.deleted = true;
    this.touchRel(rel);
    tx.deletedRels.push(rel);
    this.stats.relationshipsDeleted++;
    tx.undo.push({ kind: 'deleteRel', rel, typePosition });
    this.emit(tx, { op: 'deleteRel', id: rel.id });
  }

  /**
   * Deletes a node; a no-op when it is already deleted. Its relationships are not checked
   * here: `commit()` refuses the transaction if they are still there at the end.
   */
  deleteNode(node: Node): void {
    const tx = this.requireTx();
    if (node.deleted) return;
    this.requireMember(node);
    const labelPositions = node.labels.map((label) => this.labelSets[this.labelNames.get(label)!]!.remove(node.id));
    this.countKeys(node, -1);
    this.liveNodes--;
    node.deleted = true;
    this.touch(node);
    tx.deletedNodes.push(node);
    this.stats.nodesDeleted++;
    tx.undo.push({ kind: 'deleteNode', node, labelPositions });
    this.emit(tx, { op: 'deleteNode', id: node.id });
  }

  /** Deletes a node's relationships (outgoing by type, then incoming), then the node. */
  detachDeleteNode(node: Node): void {
    this.requireTx();
    if (node.deleted && this.nodes.get(node.id) !== node) return; // deleted in an earlier transaction
    this.requireMember(node);
    const relIds: number[] = [];
    this.forEachAdjacent(node, null, 'both', (relId) => relIds.push(relId));
    for (const id of relIds) {
      const rel = this.relAt(id);
      if (rel !== undefined) this.deleteRel(rel);
    }
    this.deleteNode(node);
  }

  /** Sets one property; `null` removes the key (a no-op when it is absent). */
  setProperty(entity: Node | Rel, key: string, value: Value): void {
    const tx = this.requireTx();
    this.requireLive(entity);
    this.writeProperty(tx, entity, key, value);
  }

  /** Replaces all properties of `entity` with `props` (nulls dropped), as `SET n = {…}`. */
  replaceProperties(entity: Node | Rel, props: Map<string, Value>): void {
    const tx = this.requireTx();
    this.requireLive(entity);
    const old = entity.propertyMap();
    const next = creationProps(props, false);
    const kind: EntityKind = entity instanceof Rel ? 'rel' : 'node';
    if (entity instanceof Node) this.touch(entity);
    else this.touchRel(entity);
    this.setAllProperties(entity, next);
    tx.undo.push({ kind: 'replaceProperties', entity, old });
    for (const key of old.keys()) {
      if (next.has(key)) continue;
      this.stats.propertiesSet++;
      this.emit(tx, { op: 'setProperty', entity: kind, id: entity.id, key, value: null });
    }
    for (const [key, value] of next) {
      this.stats.propertiesSet++;
      this.emit(tx, { op: 'setProperty', entity: kind, id: entity.id, key, value });
    }
  }

  /** Sets each entry of `props` on `entity` (null entries remove keys), as `SET n += {…}`. */
  mergeProperties(entity: Node | Rel, props: Map<string, Value>): void {
    const tx = this.requireTx();
    this.requireLive(entity);
    for (const [key, value] of props) this.writeProperty(tx, entity, key, value);
  }

  /** Adds a label; false when the node already has it. */
  addLabel(node: Node, label: string): boolean {
    const tx = this.requireTx();
    this.requireLive(node);
    if (node.labels.includes(label)) return false;
    this.ownLabels(tx, node).push(label);
    this.touch(node);
    this.labelSetFor(label).add(node.id);
    this.stats.labelsAdded++;
    tx.undo.push({ kind: 'addLabel', node, label });
    this.emit(tx, { op: 'addLabel', id: node.id, label });
    return true;
  }

  /** Removes a label; false when the node does not have it. */
  removeLabel(node: Node, label: string): boolean {
    const tx = this.requireTx();
    this.requireLive(node);
    const index = node.labels.indexOf(label);
    if (index < 0) return false;
    this.ownLabels(tx, node).splice(index, 1);
    this.touch(node);
    const setPosition = this.labelSetFor(label).remove(node.id);
    this.stats.labelsRemoved++;
    tx.undo.push({ kind: 'removeLabel', node, label, index, setPosition });
    this.emit(tx, { op: 'removeLabel', id: node.id, label });
    return true;
  }

  /**
   * Replays one change record (WAL recovery, snapshot load, sync), honouring its ids.
   * Requires an open transaction like any mutation. A record that does not fit the graph
   * (unknown or taken id) throws StorageError (`ReplayMismatch`).
   */
  applyChange(record: ChangeRecord): void {
    const tx = this.requireTx();
    switch (record.op) {
      case 'createNode':
        if (this.nodeAt(record.id) !== undefined) throw this.mismatch(record, `node id ${record.id} is taken`);
        this.nextNodeId = Math.max(this.nextNodeId, record.id + 1);
        this.insertNode(tx, record.id, record.labels, record.props, true);
        return;
      case 'createRel': {
        if (this.relAt(record.id) !== undefined) throw this.mismatch(record, `relationship id ${record.id} is taken`);
        const start = this.replayNode(record, record.start);
        const end = this.replayNode(record, record.end);
        this.nextRelId = Math.max(this.nextRelId, record.id + 1);
        this.insertRel(tx, record.id, record.type, start, end, record.props, true);
        return;
      }
      case 'deleteNode':
        this.deleteNode(this.replayNode(record, record.id));
        return;
      case 'deleteRel':
        this.deleteRel(this.replayRel(record, record.id));
        return;
      case 'setProperty': {
        const entity = record.entity === 'node' ? this.replayNode(record, record.id) : this.replayRel(record, record.id);
        this.setProperty(entity, record.key, record.value);
        return;
      }
      case 'addLabel':
        this.addLabel(this.replayNode(record, record.id), record.label);
        return;
      case 'removeLabel':
        this.removeLabel(this.replayNode(record, record.id), record.label);
        return;
    }
  }

  // ---------------------------------------------------------------- internals

  private requireTx(): Transaction {
    const tx = this.tx;
    if (tx === undefined) throw new InternalError('Graph mutation outside a transaction (call begin() first)');
    return tx;
  }

  private requireMember(entity: Node | Rel): void {
    const held = entity instanceof Rel ? this.rels.get(entity.id) : this.nodes.get(entity.id);
    if (held !== entity) {
      throw new InternalError(`${entity instanceof Rel ? 'Relationship' : 'Node'} ${entity.id} is not part of this graph`);
    }
  }

  private requireLive(entity: Node | Rel): void {
    if (entity.deleted) {
      const what = entity instanceof Rel ? 'Relationship' : 'Node';
      throw new EntityNotFoundError(`${what} ${entity.id} has been deleted and cannot be modified`, 'DeletedEntityAccess');
    }
    this.requireMember(entity);
  }

  private emit(tx: Transaction, record: ChangeRecord): void {
    tx.changes.push(record);
    this.mutationSeq++;
    this.version++;
  }

  private labelSetFor(label: string): IdSet {
    const id = this.labelNames.intern(label);
    return (this.labelSets[id] ??= new IdSet());
  }

  private typeSetFor(typeId: number): IdSet {
    return (this.typeSets[typeId] ??= new IdSet());
  }

  /** The column store `entity` lives in (the current one: only live entities are written). */
  private storeOf(entity: Node | Rel): PropertyStore {
    return entity instanceof Rel ? this.relProps : this.nodeProps;
  }

  /** Adds `delta` to the key counts of every property `entity` holds. */
  private countKeys(entity: Node | Rel, delta: number): void {
    const counts = entity instanceof Rel ? this.relKeyCounts : this.nodeKeyCounts;
    for (const keyId of this.storeOf(entity).keyIdsOf(entity.id)) Graph.countKey(counts, keyId, delta);
  }

  private static countKey(counts: number[], keyId: number, delta: number): void {
    while (counts.length <= keyId) counts.push(0);
    counts[keyId] += delta;
  }

  /** Writes a creation's (null-free) properties into the columns and counts their keys. */
  private storeProperties(store: PropertyStore, counts: number[], id: number, props: Map<string, Value>): void {
    // `forEach`, not `for…of` with destructuring: a small write runs this in V8's interpreter
    // and baseline tiers for its first thousands of calls, where the iterator costs about 2.5×
    // (7 entries: 1.6 µs against 0.6); optimized, the two are within 0.05 µs.
    props.forEach((value, key) => {
      const keyId = store.set(id, key, value);
      if (keyId < counts.length) counts[keyId]++;
      else Graph.countKey(counts, keyId, 1);
    });
  }

  /** Replaces every property of `entity` by the null-free `props`, keeping the key counts right. */
  private setAllProperties(entity: Node | Rel, props: Map<string, Value>): void {
    const counts = entity instanceof Rel ? this.relKeyCounts : this.nodeKeyCounts;
    this.countKeys(entity, -1);
    this.storeOf(entity).clearEntity(entity.id);
    this.storeProperties(this.storeOf(entity), counts, entity.id, props);
  }

  /**
   * Labels a new node keeps: `labels` without duplicates, as an array shared with every
   * other node created with the same list (copy-on-write protects it).
   */
  private creationLabels(labels: readonly string[]): string[] {
    if (sameStrings(this.lastLabels, labels)) return this.lastLabels;
    const unique = labels.length < 2 ? labels.slice() : [...new Set(labels)];
    const key = JSON.stringify(unique);
    let shared = this.sharedLabelLists.get(key);
    if (shared === undefined) {
      shared = unique;
      if (this.sharedLabelLists.size < MAX_SHARED_LABEL_LISTS) this.sharedLabelLists.set(key, shared);
    }
    this.lastLabels = shared;
    return shared;
  }

  /** `node.labels`, first replaced by a private copy if it is shared (undone by rollback). */
  private ownLabels(tx: Transaction, node: Node): string[] {
    if ((node.shared & SHARED_LABELS) === 0) return node.labels;
    const shared = node.labels;
    node.labels = shared.slice();
    node.shared &= ~SHARED_LABELS;
    tx.undo.push({ kind: 'ownLabels', node, shared });
    return node.labels;
  }

  /** `mayKeepProps`: `props` comes from a change record and may be kept as it is. */
  private insertNode(tx: Transaction, id: number, labels: readonly string[], props: Map<string, Value>, mayKeepProps: boolean): Node {
    const ownLabels = this.creationLabels(labels);
    const ownProps = creationProps(props, mayKeepProps);
    const node = new Node(id, ownLabels, this.nodeProps);
    node.shared = SHARED_LABELS; // the change record below references it
    this.nodes.set(id, node);
    this.touch(node);
    for (const label of ownLabels) this.labelSetFor(label).add(id);
    this.storeProperties(this.nodeProps, this.nodeKeyCounts, id, ownProps);
    this.liveNodes++;
    this.stats.nodesCreated++;
    this.stats.labelsAdded += ownLabels.length;
    this.stats.propertiesSet += ownProps.size;
    tx.undo.push(createdNodeEntry(id));
    this.emit(tx, { op: 'createNode', id, labels: ownLabels, props: ownProps });
    return node;
  }

  /** `mayKeepProps`: as for `insertNode`. */
  private insertRel(tx: Transaction, id: number, type: string, start: Node, end: Node, props: Map<string, Value>, mayKeepProps: boolean): Rel {
    const typeId = this.typeNames.intern(type);
    const ownProps = creationProps(props, mayKeepProps);
    const rel = new Rel(id, type, typeId, start, end, this.relProps);
    this.rels.set(id, rel);
    (this.adjOut[typeId] ??= new AdjacencyBlock()).append(start.id, id, end.id);
    (this.adjIn[typeId] ??= new AdjacencyBlock()).append(end.id, id, start.id);
    this.adjacencyGrew = true;
    this.deadRels.ensure(id);
    this.typeSetFor(typeId).add(id);
    this.touchRel(rel);
    this.storeProperties(this.relProps, this.relKeyCounts, id, ownProps);
    this.liveRels++;
    this.stats.relationshipsCreated++;
    this.stats.propertiesSet += ownProps.size;
    tx.undo.push(createdRelEntry(id));
    this.emit(tx, { op: 'createRel', id, type, start: start.id, end: end.id, props: ownProps });
    return rel;
  }

  private writeProperty(tx: Transaction, entity: Node | Rel, key: string, value: Value): void {
    const counts = entity instanceof Rel ? this.relKeyCounts : this.nodeKeyCounts;
    const kind: EntityKind = entity instanceof Rel ? 'rel' : 'node';
    if (entity instanceof Node) this.touch(entity);
    else this.touchRel(entity);
    const store = this.storeOf(entity);
    const old = store.get(entity.id, key);
    if (old === undefined && value === null) return;
    if (value === null) {
      store.delete(entity.id, key);
      Graph.countKey(counts, this.keyNames.intern(key), -1);
    } else {
      const keyId = store.set(entity.id, key, value);
      if (old === undefined) Graph.countKey(counts, keyId, 1);
    }
    tx.undo.push({ kind: 'setProperty', entity, key, old });
    this.stats.propertiesSet++;
    this.emit(tx, { op: 'setProperty', entity: kind, id: entity.id, key, value });
  }

  private undoCreateNode(node: Node): void {
    for (const label of node.labels) this.labelSets[this.labelNames.get(label)!]!.remove(node.id);
    this.countKeys(node, -1);
    this.storeOf(node).clearEntity(node.id);
    this.liveNodes--;
    this.nodes.set(node.id, undefined);
    node.deleted = true;
  }

  private undoCreateRel(rel: Rel): void {
    const outDone = this.adjOut[rel.typeId]?.popLast(rel.start.id, rel.id) === true;
    const inDone = this.adjIn[rel.typeId]?.popLast(rel.end.id, rel.id) === true;
    if (!outDone || !inDone) throw new InternalError(`Rollback of relationship ${rel.id} found its adjacency out of order`);
    this.typeSets[rel.typeId]!.remove(rel.id);
    this.countKeys(rel, -1);
    this.storeOf(rel).clearEntity(rel.id);
    this.liveRels--;
    this.rels.set(rel.id, undefined);
    rel.deleted = true;
  }

  /** Reverses one entry other than a creation (those are numbers, see `rollback`). */
  private undo(entry: Exclude<UndoEntry, number>): void {
    switch (entry.kind) {
      case 'deleteNode': {
        const node = entry.node;
        node.deleted = false;
        node.labels.forEach((label, i) => this.labelSetFor(label).insertAt(node.id, entry.labelPositions[i]));
        this.countKeys(node, 1);
        this.liveNodes++;
        return;
      }
      case 'deleteRel': {
        const rel = entry.rel;
        rel.deleted = false;
        this.deadRels.clear(rel.id);
        this.adjOut[rel.typeId]!.deadEntries--;
        this.adjIn[rel.typeId]!.deadEntries--;
        this.typeSetFor(rel.typeId).insertAt(rel.id, entry.typePosition);
        this.countKeys(rel, 1);
        this.liveRels++;
        return;
      }
      case 'setProperty': {
        const { entity, key, old } = entry;
        const counts = entity instanceof Rel ? this.relKeyCounts : this.nodeKeyCounts;
        const had = this.storeOf(entity).has(entity.id, key);
        if (old === undefined) {
          this.storeOf(entity).delete(entity.id, key);
          if (had) Graph.countKey(counts, this.keyNames.intern(key), -1);
        } else {
          const keyId = this.storeOf(entity).set(entity.id, key, old);
          if (!had) Graph.countKey(counts, keyId, 1);
        }
        return;
      }
      case 'replaceProperties':
        this.setAllProperties(entry.entity, entry.old);
        return;
      case 'addLabel':
        entry.node.labels.pop();
        this.labelSetFor(entry.label).remove(entry.node.id);
        return;
      case 'removeLabel':
        entry.node.labels.splice(entry.index, 0, entry.label);
        this.labelSetFor(entry.label).insertAt(entry.node.id, entry.setPosition);
        return;
      case 'ownLabels':
        entry.node.labels = entry.shared;
        entry.node.shared |= SHARED_LABELS;
        return;
    }
  }

  private replayNode(record: ChangeRecord, id: number): Node {
    const node = this.nodeAt(id);
    if (node === undefined) throw this.mismatch(record, `node ${id} does not exist`);
    return node;
  }

  private replayRel(record: ChangeRecord, id: number): Rel {
    const rel = this.relAt(id);
    if (rel === undefined) throw this.mismatch(record, `relationship ${id} does not exist`);
    return rel;
  }

  private mismatch(record: ChangeRecord, why: string): StorageError {
    return new StorageError(`Cannot replay change record '${record.op}': ${why}`, 'ReplayMismatch');
  }
}
