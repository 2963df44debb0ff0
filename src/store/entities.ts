/**
 * The graph's entities as the rest of the engine sees them: one canonical `Node` object per
 * node and one `Rel` object per relationship, owned by the store (`graph.ts`) and handed out
 * as Cypher values without copying. Adjacency does not live on the node: the graph keeps it
 * in CSR blocks per relationship type and direction (adjacency.ts), so expansions walk
 * integers in shared buffers, not objects.
 *
 * Memory is the point of several choices here, because a load creates millions of these:
 * entities are thin (id, labels or type, endpoints) and read their properties through the
 * graph's column store (`columns/property-store.ts`), and `labels` may be shared (with change records, between nodes with the
 * same labels) under copy-on-write, which only the store performs (`shared` bits).
 *
 * `Path` and the `Value` union live here too because they and the entities refer to one
 * another; runtime/values.ts, the value model's home, re-exports them.
 */

import type { ExtendedValue, FloatBox } from '../../runtime/scalars.js';
import { InternalError } from '../errors.js';

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
