/**
 * The graph's entities as the rest of the engine sees them: one canonical `Node` object per
 * node and one `Rel` object per relationship, owned by the store (`graph.ts`) and handed out
 * as Cypher values without copying. Adjacency lives on the node, grouped by relationship
 * type id, in integer columns (`AdjList`) so that expansions walk integers, not objects.
 *
 * Memory is the point of several choices here, because a load creates millions of these:
 * entities are thin (id, labels or type, endpoints, adjacency) and read their properties
 * through the graph's column store (`columns/property-store.ts`); adjacency columns start
 * at one entry and grow geometrically, nodes without relationships share one empty
 * adjacency array, and `labels` may be shared (with change records, between nodes with the
 * same labels) under copy-on-write, which only the store performs (`shared` bits).
 *
 * `Path` and the `Value` union live here too because they and the entities refer to one
 * another; runtime/values.ts, the value model's home, re-exports them.
 */

import type { ExtendedValue, FloatBox } from '../../runtime/scalars.js';
import { InternalError } from '../errors.js';

/**
 * Storage of one `AdjList` column. Short lists use plain arrays of small integers (a one-entry
 * array costs about 56 bytes, a one-entry `Int32Array` about 210); past
 * `SMALL_LIST_CAPACITY` entries a list moves to an `Int32Array` (4 bytes per entry). Either
 * way readers index it (`rels[i]`) and only look at the first `length` entries.
 */
export type AdjColumn = Int32Array | number[];

/** Largest capacity an `AdjList` keeps in plain arrays before it moves to typed arrays. */
const SMALL_LIST_CAPACITY = 32;

/** `column` with room for `capacity` entries (at least its own length), its entries kept. */
function grownColumn(column: AdjColumn, capacity: number): AdjColumn {
  if (capacity <= SMALL_LIST_CAPACITY && Array.isArray(column)) {
    // An array of exactly `capacity` slots (growth by `push` would leave at least 16 spare
    // ones); slots past the copied entries stay holes until written.
    const grown = new Array<number>(capacity);
    for (let i = 0; i < column.length; i++) grown[i] = column[i];
    return grown;
  }
  const grown = new Int32Array(capacity);
  if (Array.isArray(column)) for (let i = 0; i < column.length; i++) grown[i] = column[i];
  else grown.set(column);
  return grown;
}

/**
 * Relationships of one node and one type in one direction: parallel columns of
 * relationship ids and neighbour node ids, read as `rels[i]` / `nbrs[i]` for
 * `i < length`. Slots at or past `length` hold leftovers, never meaningful data.
 */
export class AdjList {
  rels: AdjColumn;
  nbrs: AdjColumn;
  length = 1;

  /** A list holding one entry: most lists never get more than a few. */
  constructor(relId: number, nbrId: number) {
    this.rels = [relId];
    this.nbrs = [nbrId];
  }

  push(relId: number, nbrId: number): void {
    const n = this.length;
    if (n === this.rels.length) {
      this.rels = grownColumn(this.rels, n * 2);
      this.nbrs = grownColumn(this.nbrs, n * 2);
    }
    this.rels[n] = relId;
    this.nbrs[n] = nbrId;
    this.length = n + 1;
  }

  /**
   * Removes one relationship id. Keeps insertion order (a shift, not a swap) so that
   * expansion order stays stable; lists are short for most nodes.
   */
  remove(relId: number): boolean {
    const index = this.indexOf(relId);
    if (index < 0) return false;
    this.removeAt(index);
    return true;
  }

  /** Index of `relId` in this list, or -1 (searched from the end, where recent ones are). */
  indexOf(relId: number): number {
    const rels = this.rels;
    for (let i = this.length - 1; i >= 0; i--) if (rels[i] === relId) return i;
    return -1;
  }

  /** Removes the entry at `index`, keeping the order of the rest. */
  removeAt(index: number): void {
    const n = this.length;
    shiftDown(this.rels, index, n);
    shiftDown(this.nbrs, index, n);
    this.length = n - 1;
  }

  /** Inserts an entry at `index` (0..length), shifting later ones up: the exact inverse of `removeAt`. */
  insertAt(index: number, relId: number, nbrId: number): void {
    const n = this.length;
    this.push(relId, nbrId);
    if (index >= n) return;
    shiftUp(this.rels, index, n);
    shiftUp(this.nbrs, index, n);
    this.rels[index] = relId;
    this.nbrs[index] = nbrId;
  }
}

/** Moves entries `index + 1 .. n - 1` of `column` one slot down. */
function shiftDown(column: AdjColumn, index: number, n: number): void {
  if (Array.isArray(column)) for (let i = index + 1; i < n; i++) column[i - 1] = column[i];
  else column.copyWithin(index, index + 1, n);
}

/** Moves entries `index .. n - 1` of `column` one slot up (slot `n` must exist). */
function shiftUp(column: AdjColumn, index: number, n: number): void {
  if (Array.isArray(column)) for (let i = n; i > index; i--) column[i] = column[i - 1];
  else column.copyWithin(index + 1, index, n);
}

/**
 * The adjacency (`Node.out`/`Node.in`) of every node without relationships in that
 * direction: one shared, always-empty array. The store replaces it with a node's own array
 * before adding a list; nothing may write into it.
 */
export const NO_ADJACENCY: readonly (AdjList | undefined)[] = [];

/** `Node.shared` bit: `labels` is also referenced elsewhere (a change record, other nodes). */
export const SHARED_LABELS = 2;

/** One property column as entities and generated code read it (columns/property-column.ts). */
export interface PropertyColumnSource {
  get(id: number): Value | undefined;
}

/**
 * What an entity reads its properties from: the graph's column store for its kind
 * (columns/property-store.ts implements it; declared here so the store's modules can
 * depend on the value types without a cycle).
 */
export interface PropertySource {
  get(id: number, key: string): Value | undefined;
  keysOf(id: number): string[];
  mapOf(id: number): Map<string, Value>;
  column(key: string): PropertyColumnSource | undefined;
}

/**
 * The properties of one entity that lives outside the graph (a virtual node or relationship,
 * such as `db.schema.visualization` returns): a plain map, whatever id is asked for. It has no
 * columns, so generated code falls back to `prop()` for it.
 */
export class DetachedProperties implements PropertySource {
  constructor(private readonly props: ReadonlyMap<string, Value>) {}

  get(_id: number, key: string): Value | undefined {
    return this.props.get(key);
  }

  keysOf(): string[] {
    return [...this.props.keys()];
  }

  mapOf(): Map<string, Value> {
    return new Map(this.props);
  }

  column(): undefined {
    return undefined;
  }
}

/**
 * Property reads shared by `Node` and `Rel`: both read the columns of the store they were
 * created in, at their id. A deleted entity keeps its last properties (ids are never
 * reused), so it stays a valid value.
 */
abstract class Entity {
  constructor(
    readonly id: number,
    /** The graph's property columns for this kind of entity (only the graph writes them). */
    readonly store: PropertySource,
  ) {}

  /** The value of property `key`, or undefined when the entity does not hold it. */
  prop(key: string): Value | undefined {
    return this.store.get(this.id, key);
  }

  hasProp(key: string): boolean {
    return this.store.get(this.id, key) !== undefined;
  }

  /** The entity's property keys, in key-id order. */
  propKeys(): string[] {
    return this.store.keysOf(this.id);
  }

  /** A fresh map of the entity's properties (the caller may keep or change it). */
  propertyMap(): Map<string, Value> {
    return this.store.mapOf(this.id);
  }
}

export class Node extends Entity {
  /** Set when the node is deleted; the object stays valid as a value (its id and last state). */
  deleted = false;
  /** Outgoing relationships by relationship type id (sparse array; `NO_ADJACENCY` when there are none). */
  out: (AdjList | undefined)[] = NO_ADJACENCY as (AdjList | undefined)[];
  /** Incoming relationships by relationship type id (sparse array; `NO_ADJACENCY` when there are none). */
  in: (AdjList | undefined)[] = NO_ADJACENCY as (AdjList | undefined)[];
  /**
   * Copy-on-write bits (`SHARED_LABELS`): whether other owners also reference `labels`, so
   * the store copies it before its first change in place. Only the store reads or writes
   * this; everyone else treats `labels` as read-only.
   */
  shared = 0;

  constructor(
    id: number,
    /** Label names, in the order they were added, without duplicates. */
    public labels: string[],
    store: PropertySource,
  ) {
    super(id, store);
  }

  hasLabel(label: string): boolean {
    return this.labels.includes(label);
  }
}

export class Rel extends Entity {
  deleted = false;

  constructor(
    id: number,
    readonly type: string,
    readonly typeId: number,
    readonly start: Node,
    readonly end: Node,
    store: PropertySource,
  ) {
    super(id, store);
  }

  /** The node at the other end from `node` (for a self-loop, the same node). */
  other(node: Node): Node {
    return this.start === node ? this.end : this.start;
  }
}

/**
 * An empty property map that refuses changes: what a creation without properties passes
 * to the store and keeps in its change record, shared by all of them.
 */
class EmptyProps extends Map<string, Value> {
  override set(key: string): this {
    throw new InternalError(`Write of '${key}' to the shared empty property map`);
  }

  override delete(): boolean {
    throw new InternalError('Delete from the shared empty property map');
  }

  override clear(): void {
    throw new InternalError('Clear of the shared empty property map');
  }
}

export const EMPTY_PROPS: Map<string, Value> = new EmptyProps();

/** A path: `nodes.length === rels.length + 1`; `rels[i]` joins `nodes[i]` and `nodes[i + 1]` in either direction. */
export class Path {
  constructor(
    readonly nodes: Node[],
    readonly rels: Rel[],
  ) {}
}

/** A Cypher map: property maps of nodes and relationships, map values. */
export type CypherMap = Map<string, Value>;

/** Every Cypher value (see runtime/values.ts for the JavaScript representation of each type). */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | FloatBox
  | Value[]
  | CypherMap
  | Node
  | Rel
  | Path
  | Float32Array
  | ExtendedValue;
