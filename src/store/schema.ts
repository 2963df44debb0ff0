/**
 * The schema: property indexes on `(:Label).key` and the constraints built on them
 * (uniqueness, existence). Indexes are kept current lazily: the graph records which nodes
 * changed (`Graph.trackNodeChanges`), and the schema re-indexes exactly those nodes before
 * an index is read and before a transaction commits — so every mutation path, rollbacks
 * included, is covered without hooks in each one. Constraints are checked at commit over
 * the nodes the transaction touched; a violation aborts the transaction.
 *
 * Other modules add index kinds of their own (vector in src/vector/, full-text in
 * src/fulltext/) as `ExtensionIndex`es: the schema names, lists, drops and persists them with
 * the rest and forwards them the same change feed (nodes and relationships), so they follow
 * writes and rollbacks exactly as property indexes do. A `ChangeObserver` (graph_rag's name
 * index) gets the same node feed without being an index of the schema: never listed, persisted
 * or part of a schema definition.
 */

import type { Graph } from './graph.js';
import { Node, type PropertyColumnSource, type Rel } from './entities.js';
import { INT, PropertyColumn } from './columns/property-column.js';
import { loadLength } from './columns/buffers.js';
import type { Value } from '../../runtime/values.js';
import { groupKey, type GroupKey } from '../../runtime/groupkey.js';
import { compare } from '../../runtime/compare.js';
import { ConstraintError, QuerySemanticError } from '../errors.js';
import { formatValue } from '../../runtime/format.js';
import { inTurns } from '../event-loop.js';

export interface IndexInfo {
  name: string;
  label: string;
  key: string;
  /** The constraint that owns this index, if any. */
  owner?: string;
}

export interface ConstraintInfo {
  name: string;
  label: string;
  key: string;
  kind: 'unique' | 'notNull';
}

/** What persists an extension index: enough for the factory of its `type` to build it again. */
export interface ExtensionIndexDef {
  /** `VECTOR` or `FULLTEXT` (the SHOW INDEXES type). */
  type: string;
  name: string;
  entity: 'node' | 'relationship';
  labelsOrTypes: string[];
  properties: string[];
  /** JSON-safe settings (dimensions, similarity function, analyzer, …). */
  options: Record<string, string | number | boolean>;
}

/** An index kept by another module from the schema's change feed. */
export interface ExtensionIndex {
  readonly def: ExtensionIndexDef;
  /** Indexes every entity the graph holds now (at creation and on load). */
  populate(graph: Graph): void;
  /** Re-indexes one entity from its current state (deleted, relabelled, changed or restored by a rollback). */
  updateNode(node: Node): void;
  updateRel(rel: Rel): void;
  /** Entities indexed, for SHOW INDEXES. */
  readonly size: number;
  /** Whether it is still being filled in the background (SHOW: POPULATING), and how far, in percent. */
  readonly populating?: boolean;
  readonly populationPercent?: number;
  /** Completes a background fill at once (db.awaitIndex). */
  finishPopulation?(): void;
  /** Frees what the index holds outside the JS heap. */
  dispose(): void;
}

export type ExtensionIndexFactory = (def: ExtensionIndexDef) => ExtensionIndex;

/** Follows node changes (writes and rollbacks) from the schema's feed; builds its initial state itself. */
export interface ChangeObserver {
  updateNode(node: Node): void;
}

/**
 * The entries an index build files from a column of 32-bit integers, frozen: values in
 * ascending order (ties in the label's scan order) beside their node ids, each id's position
 * in an array over the ids' span, and a bitset of positions taken out since (by writes).
 * 8 bytes per entry plus 4 per id of the span, where a map entry and a slot cost about 38;
 * 4 bytes per entry where the entries are the span's ids in order (no id arrays at all).
 */
class IntBase {
  /** Live entries. */
  live: number;
  readonly distinct: number;
  private readonly dead: Uint32Array;

  constructor(
    private readonly values: Int32Array,
    /** Entry → node id; null when entry `p` is node `low + p` (a label loaded as one run of ids, values ascending with them). */
    private readonly ids: Int32Array | null,
    /** `positions[id - low] - 1` is the id's entry; 0: none. Null with `ids`. */
    private readonly positions: Int32Array | null,
    private readonly low: number,
    /** Ids from `low` that the base spans. */
    private readonly span: number,
  ) {
    this.live = values.length;
    this.dead = new Uint32Array((values.length + 31) >>> 5);
    let distinct = 0;
    for (let p = 0; p < values.length; p++) if (p === 0 || values[p] !== values[p - 1]) distinct++;
    this.distinct = distinct;
  }

  /** A base over the members `ids[0 .. count)` holding a value in `column` (an INT column). */
  static build(ids: Int32Array, count: number, column: PropertyColumn): IntBase {
    let n = 0;
    let low = Infinity;
    let high = -Infinity;
    let ascending = true;
    // Temporaries (what the base keeps is copied out below), so in reservations of their own
    // mapping (`loadLength`): from the allocator's heap, they stayed resident after a load.
    const values = new Int32Array(loadLength(count, 4));
    const members = new Int32Array(loadLength(count, 4));
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      if (!column.has(id)) continue;
      const v = column.ints[id];
      if (n > 0 && v < values[n - 1]) ascending = false;
      values[n] = v;
      members[n++] = id;
      if (id < low) low = id;
      if (id > high) high = id;
    }
    let sortedValues = values.subarray(0, n);
    let sortedIds = members.subarray(0, n);
    if (!ascending) {
      const order = new Int32Array(loadLength(n, 4)).subarray(0, n);
      for (let p = 0; p < n; p++) order[p] = p;
      order.sort((a, b) => values[a] - values[b] || a - b);
      sortedValues = order.map((p) => values[p]);
      sortedIds = order.map((p) => members[p]);
    } else {
      sortedValues = sortedValues.slice();
    }
    const span = n === 0 ? 0 : high - low + 1;
    // The usual bulk load: a label's nodes are one run of ids whose values ascend with them, so
    // entry p is node low + p and neither id array is needed (8 bytes a node).
    let identity = span === n;
    for (let p = 0; identity && p < n; p++) identity = sortedIds[p] === low + p;
    if (identity) return new IntBase(sortedValues, null, null, n === 0 ? 0 : low, span);
    if (ascending) sortedIds = sortedIds.slice();
    const positions = new Int32Array(span);
    for (let p = 0; p < n; p++) positions[sortedIds[p] - low] = p + 1;
    return new IntBase(sortedValues, sortedIds, positions, n === 0 ? 0 : low, span);
  }

  /** The entry of `id` (live or not); -1 when it has none. */
  private entryOf(id: number): number {
    const at = id - this.low;
    if (at < 0 || at >= this.span) return -1;
    return this.positions === null ? at : this.positions[at] - 1;
  }

  /** The highest id of the base's span (-1 when empty). */
  get high(): number {
    return this.low + this.span - 1;
  }

  /** The value of `id`'s live entry; undefined when it has none. */
  valueOf(id: number): number | undefined {
    const p = this.entryOf(id);
    return p < 0 || (this.dead[p >>> 5] & (1 << (p & 31))) !== 0 ? undefined : this.values[p];
  }

  /** Takes `id`'s entry out; false when it has none (or it was taken out before). */
  remove(id: number): boolean {
    const p = this.entryOf(id);
    if (p < 0 || (this.dead[p >>> 5] & (1 << (p & 31))) !== 0) return false;
    this.dead[p >>> 5] |= 1 << (p & 31);
    this.live--;
    return true;
  }

  /** Ids of the live entries holding `key` (a grouping key), appended to `out` in order. */
  collect(key: GroupKey, out: number[]): number[] {
    if (typeof key !== 'number' || (key | 0) !== key) return out;
    const { values, ids, dead, low } = this;
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    for (let p = lo; p < values.length && values[p] === key; p++) if ((dead[p >>> 5] & (1 << (p & 31))) === 0) out.push(ids === null ? low + p : ids[p]);
    return out;
  }

  /**
   * Each live entry by value, ascending (ties in scan order): `visit(value, id, shared)`, where
   * `shared` says whether another live entry holds the same value.
   */
  forEachLive(visit: (value: number, id: number, shared: boolean) => void): void {
    const { values, ids, dead, low } = this;
    const live = (p: number): boolean => (dead[p >>> 5] & (1 << (p & 31))) === 0;
    for (let start = 0; start < values.length; ) {
      let end = start + 1;
      while (end < values.length && values[end] === values[start]) end++;
      let count = 0;
      for (let p = start; p < end; p++) if (live(p)) count++;
      for (let p = start; p < end; p++) if (live(p)) visit(values[p], ids === null ? low + p : ids[p], count > 1);
      start = end;
    }
  }

  /** The distinct values (live or not), ascending. */
  distinctValues(): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.values.length; p++) if (p === 0 || this.values[p] !== this.values[p - 1]) out.push(this.values[p]);
    return out;
  }

  bytes(): number {
    return this.values.byteLength + (this.ids?.byteLength ?? 0) + (this.positions?.byteLength ?? 0) + this.dead.byteLength;
  }
}

/** The name a constraint gets when its command gives none. */
export function constraintNameFor(label: string, key: string, kind: 'unique' | 'notNull'): string {
  return `constraint_${label}_${key}_${kind}`;
}

function duplicateError(c: ConstraintInfo, id: number, value: Value): ConstraintError {
  return new ConstraintError(
    `Node(${id}) already exists with label \`${c.label}\` and property \`${c.key}\` = ${formatValue(value)} (constraint ${c.name})`,
    'ConstraintValidationFailed',
    id,
  );
}

/** How far past the end of a run of ids an id may land and still extend it (V8 keeps an array dense within this gap). */
const RUN_GAP = 1024;

/**
 * The key each node outside an index's frozen base is filed under, by node id (to take the
 * entry out again when the node changes). Ids come in two runs: the span an index build
 * filed (a label's nodes mostly sit in one run of ids), and the nodes created after it,
 * whose ids only grow. Each run is an array by `id - start`; the few ids outside both (a
 * node of the build's span filed again after the base took it, a label added to an old
 * node) go to a map. `high` is the highest id ever filed, base included: a node created
 * after it has no entry to take out, and finding that costs one comparison.
 */
class KeysById {
  private built: (GroupKey | undefined)[] = [];
  private builtStart = 0;
  private appended: (GroupKey | undefined)[] = [];
  /** First id of the appended run; -1 before it starts. */
  private appendedStart = -1;
  private readonly others = new Map<number, GroupKey>();
  high = -1;

  /** Makes `[low, high]` the build's run (before any entry is filed). */
  reserve(low: number, high: number): void {
    this.builtStart = low;
    this.built = new Array<GroupKey | undefined>(high - low + 1);
  }

  set(id: number, key: GroupKey): void {
    let at = id - this.builtStart;
    if (at >= 0 && at < this.built.length) {
      this.built[at] = key;
    } else if (this.appendedStart < 0 && id > this.high) {
      this.appendedStart = id;
      this.appended.push(key);
    } else if (this.appendedStart >= 0 && (at = id - this.appendedStart) >= 0 && at < this.appended.length + RUN_GAP) {
      this.appended[at] = key;
    } else {
      this.others.set(id, key);
    }
    if (id > this.high) this.high = id;
  }

  /** The key `id` is filed under; undefined when it has none. */
  get(id: number): GroupKey | undefined {
    if (id > this.high) return undefined;
    let at = id - this.builtStart;
    if (at >= 0 && at < this.built.length) return this.built[at];
    at = id - this.appendedStart;
    if (this.appendedStart >= 0 && at >= 0 && at < this.appended.length) return this.appended[at];
    return this.others.get(id);
  }

  /** The key `id` is filed under, taken out; undefined when it has none. */
  take(id: number): GroupKey | undefined {
    if (id > this.high) return undefined;
    let at = id - this.builtStart;
    let key: GroupKey | undefined;
    if (at >= 0 && at < this.built.length) {
      key = this.built[at];
      this.built[at] = undefined;
    } else if (this.appendedStart >= 0 && (at = id - this.appendedStart) >= 0 && at < this.appended.length) {
      key = this.appended[at];
      this.appended[at] = undefined;
    } else {
      key = this.others.get(id);
      if (key !== undefined) this.others.delete(id);
    }
    return key;
  }
}

/**
 * Node ids by property value, for one label and key. Sized for indexes over millions of
 * mostly distinct values (the `id` of every node of a label): a value held by one node maps
 * to that node's id, a shared value to an array of ids; the key each node is filed under
 * sits in `KeysById`; and the value of a key is kept apart only when the key is not the
 * value itself (a float, a list, a temporal value). A build from a column of 32-bit
 * integers (the common `id` index over a bulk load) files its entries in a frozen `IntBase`
 * of typed arrays instead; writes take entries out of it and file the new ones in the maps.
 */
export class PropertyIndex {
  /**
   * What the build filed from an integer column (frozen; writes only take entries out of it),
   * or null. Everything filed after the build, and every build from another kind of column,
   * goes to the maps below.
   */
  private base: IntBase | null = null;
  private readonly byValue = new Map<GroupKey, number | number[]>();
  private keys = new KeysById();
  private indexed = 0;
  /** Values of the keys that are not values themselves (see `groupKey`). */
  private readonly valueOfKey = new Map<GroupKey, Value>();
  /** Distinct values in order, for range seeks; rebuilt when the index changes. */
  private sorted: Value[] | null = null;
  /** A fill still running in slices (`Schema.addIndex`): the label's members when it started, and how many it has filed. */
  private population: { ids: Int32Array; next: number } | undefined;

  constructor(readonly info: IndexInfo) {}

  /** Whether it is still being filled (SHOW INDEXES: POPULATING): the planner does not use it yet. */
  get populating(): boolean {
    return this.population !== undefined;
  }

  /** Share of the label's members filed so far, in percent (100 once online). */
  get populationPercent(): number {
    const p = this.population;
    return p === undefined || p.ids.length === 0 ? 100 : (100 * p.next) / p.ids.length;
  }

  get size(): number {
    return this.indexed;
  }

  get distinctValues(): number {
    return this.byValue.size + (this.base?.distinct ?? 0);
  }

  /** Bytes of the frozen base's arrays (0 without one). */
  baseBytes(): number {
    return this.base?.bytes() ?? 0;
  }

  /** Files the nodes `ids[0 .. count)` (of the index's label) from the key's column: a build that makes no node objects. */
  build(ids: Int32Array, count: number, column: PropertyColumnSource | undefined): void {
    if (column === undefined || count === 0) return;
    if (column instanceof PropertyColumn && column.kind === INT && this.indexed === 0) {
      this.base = IntBase.build(ids, count, column);
      this.indexed = this.base.live;
      this.keys.high = this.base.high;
      return;
    }
    let low = ids[0];
    let high = ids[0];
    for (let i = 1; i < count; i++) {
      if (ids[i] < low) low = ids[i];
      else if (ids[i] > high) high = ids[i];
    }
    this.keys.reserve(low, high);
    for (let i = 0; i < count; i++) {
      const value = column.get(ids[i]);
      if (value !== undefined && value !== null) this.add(ids[i], value);
    }
  }

  /** Starts a fill over the members `ids[0 .. count)` that `fillSlice` carries out later; writes meanwhile are filed by `update` as usual. */
  startPopulation(ids: Int32Array, count: number): void {
    const members = ids.slice(0, count);
    let low = members[0];
    let high = members[0];
    for (let i = 1; i < count; i++) {
      if (members[i] < low) low = members[i];
      else if (members[i] > high) high = members[i];
    }
    if (count > 0) this.keys.reserve(low, high);
    this.population = { ids: members, next: 0 };
  }

  /**
   * Files members from `column` for up to `ms` milliseconds (Infinity: to the end); true once
   * the fill is complete. A member a write has filed already (from its state now) is passed
   * over, and so is one that is no longer a live node of the label (`isMember`).
   */
  fillSlice(column: PropertyColumnSource | undefined, isMember: (id: number) => boolean, ms: number): boolean {
    const p = this.population;
    if (p === undefined) return true;
    const until = performance.now() + ms;
    const { ids } = p;
    while (p.next < ids.length) {
      const id = ids[p.next++];
      if (column !== undefined && this.filedKey(id) === undefined && isMember(id)) {
        const value = column.get(id);
        if (value !== undefined && value !== null) this.add(id, value);
      }
      if ((p.next & 255) === 0 && performance.now() >= until) return false;
    }
    this.population = undefined;
    return true;
  }

  /** Re-indexes one node from its current state. */
  update(node: Node): void {
    const value = node.deleted || !node.labels.includes(this.info.label) ? undefined : node.prop(this.info.key);
    const key = value === undefined || value === null ? undefined : groupKey(value);
    // Filed under the same key already (a write to another property, the common case): nothing
    // moves, so the frozen base keeps its entry and the sorted values stay valid.
    if (key !== undefined && key === this.filedKey(node.id)) return;
    this.remove(node.id);
    if (key !== undefined) this.add(node.id, value!, key);
  }

  /** The key `id` is filed under, base included; undefined when it has none. */
  private filedKey(id: number): GroupKey | undefined {
    if (id > this.keys.high) return undefined;
    return this.base?.valueOf(id) ?? this.keys.get(id);
  }

  private add(id: number, value: Value, key: GroupKey = groupKey(value)): void {
    const held = this.byValue.get(key);
    if (held === undefined) {
      this.byValue.set(key, id);
      if (key !== value) this.valueOfKey.set(key, value);
      this.sorted = null;
    } else if (typeof held === 'number') {
      this.byValue.set(key, [held, id]);
    } else {
      held.push(id);
    }
    this.keys.set(id, key);
    this.indexed++;
  }

  private remove(id: number): void {
    if (id > this.keys.high) return; // a node created since: nothing filed
    if (this.base?.remove(id) === true) {
      this.indexed--;
      this.sorted = null;
      return;
    }
    const key = this.keys.take(id);
    if (key === undefined) return;
    this.indexed--;
    const held = this.byValue.get(key);
    if (typeof held === 'number' || held === undefined) {
      this.byValue.delete(key);
      this.valueOfKey.delete(key);
      this.sorted = null;
      return;
    }
    const at = held.indexOf(id);
    held[at] = held[held.length - 1];
    held.pop();
    if (held.length === 1) this.byValue.set(key, held[0]);
  }

  /** Ids of nodes whose value equals `value` (Cypher equality: 1 = 1.0), as a fresh array. */
  seek(value: Value): number[] {
    if (value === null) return [];
    return this.idsOf(groupKey(value));
  }

  /** Ids filed under `key`: the base's (filed first), then the maps'. */
  private idsOf(key: GroupKey): number[] {
    const held = this.byValue.get(key);
    const out = this.base === null ? [] : this.base.collect(key, []);
    if (typeof held === 'number') out.push(held);
    else if (held !== undefined) for (const id of held) out.push(id);
    return out;
  }

  /** How many nodes hold a value equal to `value`. */
  count(value: Value): number {
    if (value === null) return 0;
    const key = groupKey(value);
    const held = this.byValue.get(key);
    const inMaps = held === undefined ? 0 : typeof held === 'number' ? 1 : held.length;
    return this.base === null ? inMaps : inMaps + this.base.collect(key, []).length;
  }

  /** Ids of nodes whose value lies in the range; bounds may be null (open). */
  *range(lower: Value, lowerInclusive: boolean, upper: Value, upperInclusive: boolean): Generator<number> {
    if (this.sorted === null) {
      const values = [...this.byValue.keys()].map((key) => this.valueOfKey.get(key) ?? (key as Value));
      // Base values the maps do not also hold (a value is listed once).
      if (this.base !== null) for (const v of this.base.distinctValues()) if (!this.byValue.has(v)) values.push(v);
      this.sorted = values.sort((a, b) => compare(a, b) ?? 0);
    }
    for (const v of this.sorted) {
      if (lower !== null) {
        const c = compare(v, lower);
        if (c === null || Number.isNaN(c) || c < 0 || (c === 0 && !lowerInclusive)) continue;
      }
      if (upper !== null) {
        const c = compare(v, upper);
        if (c === null || Number.isNaN(c) || c > 0 || (c === 0 && !upperInclusive)) continue;
      }
      yield* this.idsOf(groupKey(v));
    }
  }

  /**
   * The lowest id among the nodes whose value another node also holds, with that value;
   * undefined when every value is held once. One pass over the entries, making no node
   * objects: what a new uniqueness constraint checks the existing data with.
   */
  lowestDuplicate(): { id: number; value: Value } | undefined {
    let found: { id: number; value: Value } | undefined;
    const consider = (id: number, value: Value): void => {
      if (found === undefined || id < found.id) found = { id, value };
    };
    this.base?.forEachLive((value, id, shared) => {
      if (shared || this.byValue.has(value)) consider(id, value);
    });
    for (const [key, held] of this.byValue) {
      const value = this.valueOfKey.get(key) ?? (key as Value);
      // An array holds two ids or more (`remove` turns one of one id back into the id).
      if (typeof held !== 'number') for (const id of held) consider(id, value);
      else if (this.base !== null && typeof key === 'number' && this.base.collect(key, []).length > 0) consider(held, value);
    }
    return found;
  }

  clear(): void {
    this.population = undefined;
    this.base = null;
    this.byValue.clear();
    this.keys = new KeysById();
    this.indexed = 0;
    this.valueOfKey.clear();
    this.sorted = null;
  }
}

export class Schema {
  private readonly indexes = new Map<string, PropertyIndex>();
  private readonly constraints = new Map<string, ConstraintInfo>();
  private readonly extensions = new Map<string, ExtensionIndex>();
  private readonly extensionFactories = new Map<string, ExtensionIndexFactory>();
  private readonly observers = new Set<ChangeObserver>();
  /** Nodes re-indexed during the open transaction: the ones its constraints must be checked on. */
  private readonly pendingChecks = new Set<Node>();
  /** Bumped on every schema change (what the log records and a failed transaction undoes). */
  version = 0;
  /** Indexes that have come online after a background fill. */
  private indexesOnlined = 0;
  /** Set when the database closes: background fills stop. */
  private stopped = false;
  /**
   * Label members from which `CREATE INDEX` fills the new index in the background, in slices
   * of `fillSliceMs` with the event loop free between them, instead of at once. Off (Infinity)
   * unless the database is served (`Database.fillIndexesInBackground`): a script that calls
   * the library synchronously never yields, so its index would never come online. An index
   * over a column of 32-bit integers is always built at once: its frozen base takes about
   * 30 ms per million nodes, where the maps take 0.3–0.9 s.
   */
  backgroundFillFrom = Infinity;
  /** How long one slice of a background fill may hold the thread (it checks every 256 members). Settable for tests. */
  static fillSliceMs = 10;

  constructor(private readonly graph: Graph) {}

  // ------------------------------------------------------------ reading

  /** Moves whenever a cached plan may be out of date: on every schema change, and when an index comes online. */
  get planVersion(): number {
    return this.version + this.indexesOnlined;
  }

  /** The index on (label, key), brought up to date (completed first if it is still being filled: a plan that seeks it needs every entry). */
  index(label: string, key: string): PropertyIndex | undefined {
    const found = this.findIndex(label, key);
    if (found) {
      if (found.populating) this.fillIndex(found, Infinity);
      this.refresh();
    }
    return found;
  }

  /** Whether an online index on (label, key) exists (for the planner, which leaves one still being filled alone; no refresh). */
  hasIndex(label: string, key: string): boolean {
    return this.findIndex(label, key)?.populating === false;
  }

  indexSelectivity(label: string, key: string): number {
    const idx = this.findIndex(label, key);
    if (!idx || idx.populating) return 1;
    return idx.distinctValues > 0 ? 1 / idx.distinctValues : 1;
  }

  /** The share of a property index filled so far, in percent (100 when online); undefined when there is no index called `name`. */
  indexPopulation(name: string): number | undefined {
    return this.indexes.get(name)?.populationPercent;
  }

  /**
   * For a served `CREATE CONSTRAINT … IS UNIQUE` over a large label with no index on the key:
   * adds the constraint's own index and fills it in the background, settling when it is full
   * (or dropped, or the database closes). The command then finds it and only checks it, so the
   * event loop is not held for the build. Nothing to do (settles at once) in any other case.
   */
  async fillConstraintIndex(name: string, label: string, key: string): Promise<void> {
    if (this.findIndex(label, key) !== undefined || this.indexes.has(name) || this.constraints.has(name) || !this.fillsInBackground(label, key)) return;
    await this.addIndex({ name, label, key, owner: name }, true);
  }

  /** Stops the background fills (the database is closing; a reopened store builds its indexes again). */
  stopBackgroundFills(): void {
    this.stopped = true;
  }

  /** Completes the fill of the index called `name` (every property index when omitted) at once: db.awaitIndex. */
  finishPopulation(name?: string): void {
    for (const idx of this.indexes.values()) if ((name === undefined || idx.info.name === name) && idx.populating) this.fillIndex(idx, Infinity);
  }

  listIndexes(): IndexInfo[] {
    return [...this.indexes.values()].map((i) => i.info);
  }

  listConstraints(): ConstraintInfo[] {
    return [...this.constraints.values()];
  }

  private findIndex(label: string, key: string): PropertyIndex | undefined {
    for (const idx of this.indexes.values()) if (idx.info.label === label && idx.info.key === key) return idx;
    return undefined;
  }

  /** Applies the graph's recorded node (and relationship) changes to every index. */
  refresh(): void {
    if (this.extensions.size > 0) this.refreshRels();
    const changed = this.graph.drainChangedNodes();
    if (changed.length === 0) return;
    // Counted loops and `forEach`, not `for…of`, and the rare feeds in methods of their own: a
    // small write runs this in V8's interpreter and baseline tiers until it has run enough of
    // its own bytecode to be optimized, where an iterator costs several times a counted loop.
    const n = changed.length;
    this.indexes.forEach((idx) => {
      for (let i = 0; i < n; i++) idx.update(changed[i]);
    });
    if (this.extensions.size > 0 || this.observers.size > 0) this.feedNodes(changed);
    // Only constraints are checked on these (a constraint created later checks every node itself).
    if (this.graph.inTransaction && this.constraints.size > 0) for (let i = 0; i < n; i++) this.pendingChecks.add(changed[i]);
  }

  private refreshRels(): void {
    const rels = this.graph.drainChangedRels();
    if (rels.length > 0) for (const ext of this.extensions.values()) for (const r of rels) ext.updateRel(r);
  }

  private feedNodes(changed: readonly Node[]): void {
    for (const ext of this.extensions.values()) for (const node of changed) ext.updateNode(node);
    for (const o of this.observers) for (const node of changed) o.updateNode(node);
  }

  /**
   * Feeds `observer` every node change from now on. Changes made before are applied to the
   * indexes first (and not to the observer), so it builds from the graph as it is now.
   */
  observe(observer: ChangeObserver): void {
    this.graph.trackNodeChanges();
    this.refresh();
    this.observers.add(observer);
  }

  // ------------------------------------------------------------ transactions

  /** Checks every constraint on the nodes the transaction touched; throws ConstraintError on a violation. */
  validate(): void {
    this.refresh();
    if (this.constraints.size > 0) {
      for (const node of this.pendingChecks) {
        if (node.deleted) continue;
        for (const c of this.constraints.values()) this.checkNode(c, node);
      }
    }
    if (this.pendingChecks.size > 0) this.pendingChecks.clear();
  }

  /** After a rollback the touched nodes are re-indexed from their restored state. */
  afterRollback(): void {
    this.pendingChecks.clear();
    this.refresh();
    this.pendingChecks.clear();
  }

  private checkNode(c: ConstraintInfo, node: Node): void {
    if (!node.labels.includes(c.label)) return;
    const value = node.prop(c.key);
    if (c.kind === 'notNull') {
      if (value === undefined || value === null) {
        throw new ConstraintError(
          `Node(${node.id}) with label \`${c.label}\` must have the property \`${c.key}\` (constraint ${c.name})`,
          'ConstraintValidationFailed',
          node.id,
        );
      }
      return;
    }
    if (value === undefined || value === null) return;
    if ((this.findIndex(c.label, c.key)?.count(value) ?? 0) > 1) throw duplicateError(c, node.id, value);
  }

  // ------------------------------------------------------------ DDL

  createIndex(name: string | undefined, label: string, key: string, ifNotExists: boolean): boolean {
    const existing = this.findIndex(label, key);
    const indexName = name ?? `index_${label}_${key}`;
    if (existing || this.indexes.has(indexName)) {
      if (ifNotExists) return false;
      throw new QuerySemanticError(
        existing ? `An index on :${label}(${key}) already exists (${existing.info.name})` : `An index named ${indexName} already exists`,
        'IndexAlreadyExists',
      );
    }
    void this.addIndex({ name: indexName, label, key }, true);
    return true;
  }

  dropIndex(name: string, ifExists: boolean): boolean {
    const ext = this.extensions.get(name);
    if (ext) {
      this.extensions.delete(name);
      ext.dispose();
      this.version++;
      return true;
    }
    const idx = this.indexes.get(name);
    if (!idx) {
      if (ifExists) return false;
      throw new QuerySemanticError(`There is no index named ${name}`, 'IndexNotFound');
    }
    if (idx.info.owner) {
      throw new QuerySemanticError(`Index ${name} belongs to constraint ${idx.info.owner}; drop the constraint instead`, 'IndexBelongsToConstraint');
    }
    this.indexes.delete(name);
    this.version++;
    return true;
  }

  createConstraint(name: string | undefined, label: string, key: string, kind: 'unique' | 'notNull', ifNotExists: boolean): boolean {
    const constraintName = name ?? constraintNameFor(label, key, kind);
    const same = [...this.constraints.values()].find((c) => c.label === label && c.key === key && c.kind === kind);
    if (same || this.constraints.has(constraintName)) {
      if (ifNotExists) return false;
      throw new QuerySemanticError(`Constraint ${same?.name ?? constraintName} already exists`, 'ConstraintAlreadyExists');
    }
    const info: ConstraintInfo = { name: constraintName, label, key, kind };
    // Uniqueness is checked through the index on (label, key): it must hold every node.
    const existing = this.findIndex(label, key);
    if (existing?.populating) this.fillIndex(existing, Infinity);
    this.graph.trackNodeChanges();
    let ownIndex: string | undefined;
    if (kind === 'unique' && !this.findIndex(label, key)) {
      ownIndex = constraintName;
      void this.addIndex({ name: constraintName, label, key, owner: constraintName });
    } else if (existing?.info.owner === constraintName) {
      // Filled beforehand for this very constraint (`fillConstraintIndex`): it goes if the data fails the check.
      ownIndex = constraintName;
    }
    // Existing data must satisfy the new constraint: uniqueness read off the index, presence off the column.
    try {
      if (kind === 'unique') {
        this.refresh();
        const duplicate = this.findIndex(label, key)!.lowestDuplicate();
        if (duplicate !== undefined) throw duplicateError(info, duplicate.id, duplicate.value);
      } else {
        const set = this.graph.labelSet(label);
        if (set) for (let i = 0; i < set.length; i++) this.checkNode(info, this.graph.nodeAt(set.ids[i]) as Node);
      }
    } catch (err) {
      if (ownIndex) {
        this.indexes.delete(ownIndex);
        // A prefilled index may have come online before the check, and plans made since may seek it.
        this.version++;
      }
      throw err;
    }
    this.constraints.set(constraintName, info);
    this.version++;
    return true;
  }

  dropConstraint(name: string, ifExists: boolean): boolean {
    if (!this.constraints.has(name)) {
      if (ifExists) return false;
      throw new QuerySemanticError(`There is no constraint named ${name}`, 'ConstraintNotFound');
    }
    this.constraints.delete(name);
    for (const [n, idx] of this.indexes) if (idx.info.owner === name) this.indexes.delete(n);
    this.version++;
    return true;
  }

  /**
   * Adds an index and fills it: at once, or (`background`, over a large label and a column
   * that is not of 32-bit integers) in slices on later turns of the event loop. Until it is
   * complete the planner does not use it, so queries meanwhile are right, only slower.
   */
  /**
   * Adds an index and fills it: at once, or (`background`, when `fillsInBackground`) in slices
   * on later turns of the event loop, settling once the fill is over. Until it is complete the
   * planner does not use it, so queries meanwhile are right, only slower.
   */
  private addIndex(info: IndexInfo, background = false): Promise<void> | undefined {
    this.graph.trackNodeChanges();
    this.refresh();
    const idx = new PropertyIndex(info);
    const set = this.graph.labelSet(info.label);
    let filled: Promise<void> | undefined;
    if (set && background && this.fillsInBackground(info.label, info.key)) {
      idx.startPopulation(set.memberArray(), set.length);
      filled = this.fillInBackground(idx);
    } else if (set) {
      idx.build(set.memberArray(), set.length, this.graph.nodeProps.column(info.key));
    }
    this.indexes.set(info.name, idx);
    this.version++;
    return filled;
  }

  /** Whether a new index on (label, key) is filled in the background: a large label, and a column that is not of 32-bit integers (whose frozen base builds at once). */
  private fillsInBackground(label: string, key: string): boolean {
    const set = this.graph.labelSet(label);
    const column = this.graph.nodeProps.column(key);
    return set !== undefined && set.length >= this.backgroundFillFrom && !(column instanceof PropertyColumn && column.kind === INT);
  }

  /** Fills `idx` a slice per turn until it is complete, dropped (or the schema cleared), or the database closes. */
  private fillInBackground(idx: PropertyIndex): Promise<void> {
    return inTurns(
      () => !this.stopped && this.indexes.get(idx.info.name) === idx && idx.populating,
      () => {
        // A write applied across turns (a worker's commit) is not read from halfway: this turn passes.
        if (!this.graph.inTransaction) this.fillIndex(idx, Schema.fillSliceMs);
      },
    );
  }

  /** Runs the fill of `idx` for up to `ms`; once it completes, plans are made again so that they can use it. */
  private fillIndex(idx: PropertyIndex, ms: number): void {
    // Changes not yet filed are filed first, from the nodes' state now, so the fill passes them over.
    this.refresh();
    const set = this.graph.labelSet(idx.info.label);
    const g = this.graph;
    // The column is looked up on every slice: a write may have widened it into a new one.
    const done = idx.fillSlice(g.nodeProps.column(idx.info.key), (id) => set !== undefined && set.has(id) && g.hasLiveNode(id), ms);
    if (done) this.indexesOnlined++;
  }

  // ------------------------------------------------------------ extension indexes (vector, full-text)

  /** Lets `create*` and loading build extension indexes of `type`. */
  registerExtensionType(type: string, factory: ExtensionIndexFactory): void {
    this.extensionFactories.set(type, factory);
  }

  /** The extension index called `name`, brought up to date with the open transaction's writes. */
  extensionIndex(name: string): ExtensionIndex | undefined {
    const found = this.extensions.get(name);
    if (found) this.refresh();
    return found;
  }

  /** Extension indexes as they are (no refresh), for listings and the planner. */
  listExtensionIndexes(): ExtensionIndex[] {
    return [...this.extensions.values()];
  }

  /**
   * Creates and populates an extension index; false when `ifNotExists` and an index of that
   * name or an equivalent one exists. A factory's validation errors propagate unchanged.
   */
  createExtensionIndex(def: ExtensionIndexDef, ifNotExists: boolean): boolean {
    const sameSchema = (d: ExtensionIndexDef): boolean =>
      d.type === def.type && d.entity === def.entity && d.labelsOrTypes.join('|') === def.labelsOrTypes.join('|') && d.properties.join(',') === def.properties.join(',');
    const clash = this.indexes.has(def.name) || this.extensions.has(def.name) ? def.name : [...this.extensions.values()].find((e) => sameSchema(e.def))?.def.name;
    if (clash !== undefined) {
      if (ifNotExists) return false;
      throw new QuerySemanticError(
        clash === def.name ? `An index named ${def.name} already exists` : `An equivalent ${def.type.toLowerCase()} index already exists (${clash})`,
        'IndexAlreadyExists',
      );
    }
    const factory = this.extensionFactories.get(def.type);
    if (!factory) throw new QuerySemanticError(`${def.type.toLowerCase()} indexes are not available in this database`, 'UnsupportedFeature');
    this.graph.trackNodeChanges();
    this.graph.trackRelChanges();
    this.refresh();
    const ext = factory(def);
    try {
      ext.populate(this.graph);
    } catch (err) {
      ext.dispose();
      throw err;
    }
    this.extensions.set(def.name, ext);
    this.version++;
    return true;
  }
}
