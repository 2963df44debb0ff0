/**
 * `PropertyColumn`: the values of one property key for every entity of one kind (nodes or
 * relationships), indexed by the entity's dense id. A presence bitmap says which ids hold
 * the key; the values sit in the narrowest representation that fits all of them:
 *
 * | kind      | storage                                                                    |
 * |-----------|----------------------------------------------------------------------------|
 * | `INT`     | `Int32Array` — every value an integer in the 32-bit range                   |
 * | `NUMBER`  | `Float64Array` plus a tag bitset — integers up to 2^53 and floats mixed; a set tag bit marks an integral float (`FloatBox`) |
 * | `BOOL`    | a bitset                                                                   |
 * | `STRING`  | `Int32Array` of codes into the column's string dictionary (while most values repeat) |
 * | `TEXT`    | mostly distinct strings as UTF-8 in one byte heap, with a start and a length per id |
 * | `GENERIC` | a plain array of values: lists, maps, temporal, spatial, vectors, BigInt beyond 2^53, and any mix of the above; numeric lists (embeddings) packed in `lists` (`float-lists.ts`), their `values` slot left empty |
 *
 * A column starts `EMPTY`, takes the kind of its first value and widens (`INT` → `NUMBER`,
 * anything → `GENERIC`) when a value does not fit, or when a string column's values turn
 * out mostly distinct (past 4096 of them), where a dictionary only adds a lookup and the
 * column becomes `TEXT` (a string there takes its UTF-8 bytes plus 8, not a JavaScript
 * string's header and two-byte or sliced forms; a read decodes it); it never narrows, so a read returns the
 * value that was written, with the value model's distinctions intact (integer vs float,
 * `FloatBox`, BigInt). A numeric column also keeps a zone map (largest and smallest number
 * per block of ids) once a scan kernel asks for it. All typed arrays come from `buffers.ts` (shared memory). Generated
 * code may test `kind` and read the arrays directly for a run of ids within one statement
 * of no writes; everything else goes through `get`.
 *
 * A column of a typed kind can be lent (`lend`): its arrays go as they are into a graph image,
 * and another thread's column reads the very same memory (`borrowing`). From then on both are
 * *borrowed*: whichever changes first copies the arrays to make them its own (`own`, at the
 * top of every write), so neither ever sees the other's writes, and a column nobody writes
 * stays one copy for every thread.
 */

import { FloatBox } from '../../../runtime/scalars.js';
import type { Value } from '../entities.js';
import { bitClear, bitCount, bitGet, bitSet, grownBits, grownFloat64, grownInt32, loadLength, sharedBits, sharedFloat64, sharedInt32, wordsFor } from './buffers.js';
import { TextHeap, type TextHeapImage } from './text-heap.js';
import { FloatLists, isPackableList } from './float-lists.js';

export const EMPTY = 0;
export const INT = 1;
export const NUMBER = 2;
export const BOOL = 3;
export const STRING = 4;
export const GENERIC = 5;
export const TEXT = 6;
export type ColumnKind = typeof EMPTY | typeof INT | typeof NUMBER | typeof BOOL | typeof STRING | typeof GENERIC | typeof TEXT;

const NO_BITS = new Uint32Array(0);
const NO_INTS = new Int32Array(0);
const NO_FLOATS = new Float64Array(0);
/** Ids per block of a column's zone map (a multiple of 32: whole presence words). */
export const ZONE = 1024;
/** Smallest capacity a column allocates: a multiple of 32 so bitsets cover whole words. */
const MIN_CAPACITY = 32;
/** Past this many entries a string dictionary is checked for dead and for mostly distinct entries: */
const DICT_CHECK_MIN = 4096;
/** rebuilt from the live values when it holds more than this many times the entries present; */
const DICT_COMPACT_FACTOR = 2;
/** and given up (the column turns generic) when more than this share of the values are distinct. */
const DICT_DISTINCT_SHARE = 0.5;

/** The kind a column would give `value` on its own. */
function kindOf(value: Value): ColumnKind {
  switch (typeof value) {
    case 'number':
      return (value | 0) === value ? INT : NUMBER;
    case 'boolean':
      return BOOL;
    case 'string':
      return STRING;
    default:
      return value instanceof FloatBox ? NUMBER : GENERIC;
  }
}

/** A lent column's state (`PropertyColumn.lend`): its typed arrays shared, the rest copied. */
export interface ColumnImage {
  kind: typeof INT | typeof NUMBER | typeof BOOL | typeof STRING | typeof TEXT;
  capacity: number;
  count: number;
  present: Uint32Array;
  ints: Int32Array;
  nums: Float64Array;
  bits: Uint32Array;
  dict: string[];
  text: TextHeapImage | undefined;
}

export class PropertyColumn {
  kind: ColumnKind = EMPTY;
  /** Filled by a load and trimmed when it ends: its arrays grow by reservations (`loadLength`, `reserveForLoad`). */
  private loading = false;
  /** Ids below `capacity` have a slot in every array of the current kind. */
  capacity = 0;
  /** Number of ids holding the key (including entities deleted but still referenced as values). */
  count = 0;
  present: Uint32Array = NO_BITS;
  /** `INT` values, or `STRING` dictionary codes. */
  ints: Int32Array = NO_INTS;
  /** `NUMBER` values. */
  nums: Float64Array = NO_FLOATS;
  /** `NUMBER`: integral floats (`FloatBox`); `BOOL`: the booleans. */
  bits: Uint32Array = NO_BITS;
  /** `STRING`: code → string, and string → code. */
  dict: string[] = [];
  private dictIndex = new Map<string, number>();
  /** `GENERIC` values (holes where absent). */
  values: (Value | undefined)[] = [];
  /** `TEXT` strings. */
  text: TextHeap | undefined = undefined;
  /** `GENERIC`: numeric lists packed in typed memory (where `values` has a hole at a present id). */
  lists: FloatLists | undefined = undefined;
  /**
   * Zone map of an `INT` or `NUMBER` column, per block of `ZONE` ids: the largest and the
   * smallest number stored there (a NaN counts as both ends). Null until `zones()` is first
   * asked; from then on every write widens its block, and nothing narrows one, so a block's
   * values always lie within its bounds (removed and overwritten values may leave them loose).
   */
  private zoneMax: Float64Array | null = null;
  private zoneMin: Float64Array | null = null;
  /** The typed arrays are shared with another graph's column (lent or borrowed): copied before the first write. */
  private borrowed = false;

  /**
   * The column's state for a graph image, its typed arrays shared (not copied); undefined for a
   * kind that lives in JavaScript objects (`GENERIC`, `EMPTY`). This column is borrowed from
   * then on: its next write copies them first.
   */
  lend(): ColumnImage | undefined {
    const kind = this.kind;
    if (kind !== INT && kind !== NUMBER && kind !== BOOL && kind !== STRING && kind !== TEXT) return undefined;
    this.borrowed = true;
    const { capacity, count, present, ints, nums, bits } = this;
    return { kind, capacity, count, present, ints, nums, bits, dict: this.dict.slice(), text: this.text?.image() };
  }

  /** A column over a lent column's arrays (the same memory), borrowed: its first write copies them. */
  static borrowing(image: ColumnImage): PropertyColumn {
    const column = new PropertyColumn();
    column.kind = image.kind;
    column.capacity = image.capacity;
    column.count = image.count;
    column.present = image.present;
    column.ints = image.ints;
    column.nums = image.nums;
    column.bits = image.bits;
    column.dict = image.dict.slice();
    column.dictIndex = new Map(column.dict.map((s, code) => [s, code]));
    column.text = image.text === undefined ? undefined : TextHeap.fromImage(image.text);
    column.borrowed = true;
    return column;
  }

  /** Whether the typed arrays are (still) shared with another graph's column. */
  get isBorrowed(): boolean {
    return this.borrowed;
  }

  /** Copies the shared arrays, so that writes change this column only. */
  private own(): void {
    this.present = grownBits(this.present, this.present.length * 32);
    if (this.ints.length > 0) this.ints = grownInt32(this.ints, this.ints.length);
    if (this.nums.length > 0) this.nums = grownFloat64(this.nums, this.nums.length);
    if (this.bits.length > 0) this.bits = grownBits(this.bits, this.bits.length * 32);
    // The dictionary is this column's own already (`lend` and `borrowing` copy it): only the typed arrays are shared.
    this.text = this.text?.copy();
    this.borrowed = false;
  }

  has(id: number): boolean {
    return id < this.capacity && bitGet(this.present, id);
  }

  /** The value at `id`; undefined when the entity does not hold the key. */
  get(id: number): Value | undefined {
    if (id >= this.capacity || (this.present[id >>> 5] & (1 << (id & 31))) === 0) return undefined;
    switch (this.kind) {
      case INT:
        return this.ints[id];
      case NUMBER:
        return (this.bits[id >>> 5] & (1 << (id & 31))) !== 0 ? new FloatBox(this.nums[id]) : this.nums[id];
      case BOOL:
        return (this.bits[id >>> 5] & (1 << (id & 31))) !== 0;
      case STRING:
        return this.dict[this.ints[id]];
      case TEXT:
        return this.text!.get(id);
      default:
        return this.values[id] ?? this.lists!.get(id);
    }
  }

  /** Stores a non-null `value` at `id`, widening the column when it does not fit. */
  set(id: number, value: Value): void {
    if (this.borrowed) this.own();
    if (id >= this.capacity) this.grow(id + 1);
    // The common case (the value fits the column as it is) and the presence bit inline: a
    // small write runs this for every property, in V8's interpreter for its first thousands
    // of calls, where each helper call costs.
    const kind = kindOf(value) === this.kind ? this.kind : this.fit(value);
    const word = id >>> 5;
    const bit = 1 << (id & 31);
    if ((this.present[word] & bit) === 0) {
      this.present[word] |= bit;
      this.count++;
    }
    switch (kind) {
      case INT:
        this.ints[id] = value as number;
        if (this.zoneMax !== null) this.widenZone(id, value as number);
        return;
      case NUMBER:
        if (value instanceof FloatBox) {
          this.nums[id] = value.value;
          bitSet(this.bits, id);
        } else {
          this.nums[id] = value as number;
          bitClear(this.bits, id);
        }
        if (this.zoneMax !== null) this.widenZone(id, this.nums[id]);
        return;
      case BOOL:
        if (value) bitSet(this.bits, id);
        else bitClear(this.bits, id);
        return;
      case STRING: {
        const code = this.code(value as string);
        if (code >= 0) {
          this.ints[id] = code;
          return;
        }
        this.widenToText(id); // a mostly distinct column: a dictionary only adds a lookup
        this.text!.set(id, value as string);
        return;
      }
      case TEXT:
        this.text!.set(id, value as string);
        return;
      default:
        if (isPackableList(value)) {
          (this.lists ??= new FloatLists(this.capacity)).set(id, value);
          this.values[id] = undefined;
        } else {
          this.values[id] = value;
          this.lists?.delete(id);
        }
    }
  }

  /** The UTF-8 bytes of a `TEXT` column's strings over a chunk of ids (`TextHeap.copyOut`); undefined for another kind or a string kept aside. */
  textBytesOf(firstId: number, count: number, present: Uint32Array): { lengths: Int32Array; bytes: Uint8Array } | undefined {
    return this.kind === TEXT ? this.text!.copyOut(firstId, count, present) : undefined;
  }

  /** Makes an empty column a `TEXT` one with room for ids below `capacity`, for `setTextBytes` (loading a store). */
  beginText(capacity: number): void {
    if (this.kind !== EMPTY || this.count !== 0) return;
    if (this.borrowed) this.own();
    this.grow(capacity);
    this.text = new TextHeap(this.capacity);
    this.kind = TEXT;
  }

  /**
   * Stores at `id` of a `TEXT` column the string whose UTF-8 (well-formed) is
   * `bytes[start, end)`, copying the bytes without making the string (the bulk import).
   */
  setTextBytes(id: number, bytes: Uint8Array, start: number, end: number): void {
    if (this.borrowed) this.own();
    if (id >= this.capacity) this.grow(id + 1);
    if (!bitGet(this.present, id)) {
      bitSet(this.present, id);
      this.count++;
    }
    this.text!.setUtf8(id, bytes, start, end);
  }

  /**
   * Stores the strings of a stored block in a `TEXT` column (`TextHeap.setBlock`): ids
   * `firstId + i` for each `i` set in `present`, their UTF-8 one after another in `bytes`.
   */
  setTextBlock(firstId: number, count: number, present: Uint32Array, lengths: Int32Array, bytes: Uint8Array): void {
    if (this.borrowed) this.own();
    if (firstId + count > this.capacity) this.grow(firstId + count);
    for (let i = 0; i < count; i++) {
      if ((present[i >>> 5] & (1 << (i & 31))) === 0) continue;
      const id = firstId + i;
      if (!bitGet(this.present, id)) {
        bitSet(this.present, id);
        this.count++;
      }
    }
    this.text!.setBlock(firstId, count, present, lengths, bytes);
  }

  /**
   * The zone map (`zoneMax`, `zoneMin`; block `b` covers ids `b * ZONE …`) of an `INT` or
   * `NUMBER` column, made by one pass on first use; undefined for other kinds.
   */
  zones(): { max: Float64Array; min: Float64Array } | undefined {
    if (this.kind !== INT && this.kind !== NUMBER) return undefined;
    if (this.zoneMax === null || this.zoneMin === null) {
      this.zoneMax = new Float64Array(0);
      this.zoneMin = new Float64Array(0);
      this.growZones();
      const { present, capacity, zoneMax, zoneMin } = this;
      const values = this.kind === INT ? this.ints : this.nums;
      for (let start = 0, b = 0; start < capacity; start += ZONE, b++) {
        // A NaN widens the block to everything; later numbers leave it so.
        let high = -Infinity;
        let low = Infinity;
        for (let id = start, end = Math.min(capacity, start + ZONE); id < end; id++) {
          if ((present[id >>> 5] & (1 << (id & 31))) === 0) continue;
          const v = values[id];
          high = v > high || v !== v ? (v === v ? v : Infinity) : high;
          low = v < low || v !== v ? (v === v ? v : -Infinity) : low;
        }
        zoneMax![b] = high;
        zoneMin![b] = low;
      }
    }
    return { max: this.zoneMax, min: this.zoneMin! };
  }

  /** Zone-map blocks for the whole capacity; the new ones start empty. */
  private growZones(): void {
    const blocks = Math.ceil(this.capacity / ZONE) + 1;
    const max = sharedFloat64(blocks).fill(-Infinity);
    const min = sharedFloat64(blocks).fill(Infinity);
    max.set(this.zoneMax!);
    min.set(this.zoneMin!);
    this.zoneMax = max;
    this.zoneMin = min;
  }

  private widenZone(id: number, v: number): void {
    const b = (id / ZONE) | 0;
    if (b >= this.zoneMax!.length) this.growZones();
    const max = this.zoneMax!;
    const min = this.zoneMin!;
    if (v !== v) {
      max[b] = Infinity;
      min[b] = -Infinity;
    } else {
      if (v > max[b]) max[b] = v;
      if (v < min[b]) min[b] = v;
    }
  }

  /** Removes the value at `id` (a no-op when absent). */
  delete(id: number): void {
    if (!this.has(id)) return;
    if (this.borrowed) this.own();
    bitClear(this.present, id);
    this.count--;
    if (this.kind === GENERIC) {
      this.values[id] = undefined;
      this.lists?.delete(id);
    }
    if (this.kind === TEXT) this.text!.delete(id);
  }

  /**
   * Marks a column a load fills and then hands to `Graph.bulkLoad`, whose `trim` ends it at its
   * last id: until then its arrays grow by reservations of their own mapping (`loadLength`),
   * whose untouched tails are never resident.
   */
  reserveForLoad(): this {
    this.loading = true;
    if (this.text !== undefined) this.text.loading = true;
    return this;
  }

  /**
   * Ends a load's growth: the arrays end at the word after the highest id present (a column
   * filled by appends holds up to half its capacity unused) and a text heap's bytes at the last
   * byte in use. Called once a bulk load has filled the column; the next write past the end
   * grows it again as usual. A borrowed or generic column is left as it is.
   */
  trim(): void {
    this.loading = false;
    if (this.text !== undefined) this.text.loading = false;
    if (this.borrowed || this.kind === EMPTY || this.kind === GENERIC) return;
    let words = this.present.length;
    while (words > 0 && this.present[words - 1] === 0) words--;
    const capacity = Math.max(MIN_CAPACITY, words * 32);
    if (this.kind === TEXT) this.text!.trim(Math.min(capacity, this.capacity));
    if (capacity >= this.capacity) return;
    // Views of the load's arrays, not copies: past the last id written, a reservation's pages
    // were never touched, so never resident (`loadLength`). The copies cost 2.2 s of an snb-1M
    // load's commit (with the text heaps) and left holes in the allocator's heap: RSS growth
    // after that import 2.44-3.06 GB with them, 2.24-2.26 GB with views.
    this.present = this.present.subarray(0, wordsFor(capacity));
    if (this.ints.length > 0) this.ints = this.ints.subarray(0, capacity);
    if (this.nums.length > 0) this.nums = this.nums.subarray(0, capacity);
    if (this.bits.length > 0) this.bits = this.bits.subarray(0, wordsFor(capacity));
    if (this.zoneMax !== null) {
      // Blocks past the new end hold nothing any more; the zone map is remade on next use.
      this.zoneMax = null;
      this.zoneMin = null;
    }
    this.capacity = capacity;
  }

  /** Approximate bytes held: buffers exactly, dictionary strings and generic slots estimated. */
  memoryBytes(): number {
    let bytes = this.present.byteLength + this.ints.byteLength + this.nums.byteLength + this.bits.byteLength;
    if (this.kind === STRING) for (const s of this.dict) bytes += 40 + s.length * 2;
    if (this.kind === GENERIC) bytes += this.values.length * 8 + (this.count - (this.lists?.count ?? 0)) * 32 + (this.lists?.memoryBytes() ?? 0);
    if (this.kind === TEXT) bytes += this.text!.memoryBytes();
    return bytes;
  }

  /** The column's kind after making room for `value` (widening if needed). */
  private fit(value: Value): ColumnKind {
    const want = kindOf(value);
    const kind = this.kind;
    if (want === kind || kind === GENERIC) return kind;
    if (kind === EMPTY) {
      this.become(want);
      return want;
    }
    if (kind === NUMBER && want === INT) return NUMBER;
    if (kind === TEXT && want === STRING) return TEXT;
    if (kind === INT && want === NUMBER) {
      this.widenToNumber();
      return NUMBER;
    }
    this.widenToGeneric();
    return GENERIC;
  }

  private become(kind: ColumnKind): void {
    this.kind = kind;
    if (kind === INT || kind === STRING) this.ints = sharedInt32(this.capacity);
    if (kind === NUMBER) this.nums = sharedFloat64(this.capacity);
    if (kind === NUMBER || kind === BOOL) this.bits = sharedBits(this.capacity);
  }

  private widenToNumber(): void {
    const nums = sharedFloat64(this.capacity);
    for (let id = 0; id < this.capacity; id++) if (bitGet(this.present, id)) nums[id] = this.ints[id];
    this.nums = nums;
    this.ints = NO_INTS;
    this.bits = sharedBits(this.capacity);
    this.kind = NUMBER;
  }

  private widenToGeneric(): void {
    const values = new Array<Value | undefined>(this.capacity);
    for (let id = 0; id < this.capacity; id++) if (bitGet(this.present, id)) values[id] = this.get(id);
    this.values = values;
    this.ints = NO_INTS;
    this.nums = NO_FLOATS;
    this.bits = NO_BITS;
    this.dict = [];
    this.dictIndex = new Map();
    this.text = undefined;
    this.kind = GENERIC;
  }

  /**
   * From a dictionary whose strings turned out mostly distinct to a byte heap. `settingId` is
   * being set (its presence bit is already on, its code is not): it is left out, not copied
   * as whatever string its stale code names and then overwritten (bytes left as garbage, which
   * made trimming a loaded column copy its whole heap).
   */
  private widenToText(settingId: number): void {
    const text = new TextHeap(this.capacity);
    text.loading = this.loading;
    for (let id = 0; id < this.capacity; id++) if (id !== settingId && bitGet(this.present, id)) text.set(id, this.dict[this.ints[id]]);
    this.text = text;
    this.ints = NO_INTS;
    this.dict = [];
    this.dictIndex = new Map();
    this.kind = TEXT;
  }

  private grow(minCapacity: number): void {
    let capacity = Math.max(MIN_CAPACITY, this.capacity + (this.capacity >>> 1), minCapacity);
    if (this.loading && this.kind !== GENERIC && this.kind !== BOOL && this.kind !== EMPTY) capacity = loadLength(capacity, this.kind === NUMBER ? 8 : 4);
    capacity = wordsFor(capacity) * 32;
    this.present = grownBits(this.present, capacity);
    switch (this.kind) {
      case INT:
      case STRING:
        this.ints = grownInt32(this.ints, capacity);
        break;
      case NUMBER:
        this.nums = grownFloat64(this.nums, capacity);
        this.bits = grownBits(this.bits, capacity);
        break;
      case BOOL:
        this.bits = grownBits(this.bits, capacity);
        break;
      case GENERIC:
        this.values.length = capacity;
        this.lists?.grow(capacity);
        break;
      case TEXT:
        this.text!.grow(capacity);
        break;
    }
    this.capacity = capacity;
  }

  /**
   * The dictionary code of `s`, adding it (first compacting a mostly dead dictionary); -1
   * when the dictionary is not worth keeping because most values are distinct.
   */
  private code(s: string): number {
    let code = this.dictIndex.get(s);
    if (code !== undefined) return code;
    if (this.dict.length > DICT_CHECK_MIN) {
      if (this.dict.length > DICT_COMPACT_FACTOR * this.count) this.compactDictionary();
      if (this.dict.length > DICT_CHECK_MIN && this.dict.length > DICT_DISTINCT_SHARE * this.count) return -1;
    }
    code = this.dict.length;
    this.dict.push(s);
    this.dictIndex.set(s, code);
    return code;
  }

  /** Rebuilds the dictionary from the strings still present (codes change, values do not). */
  private compactDictionary(): void {
    const old = this.dict;
    this.dict = [];
    this.dictIndex = new Map();
    for (let id = 0; id < this.capacity; id++) {
      if (!bitGet(this.present, id)) continue;
      const s = old[this.ints[id]];
      let code = this.dictIndex.get(s);
      if (code === undefined) {
        code = this.dict.length;
        this.dict.push(s);
        this.dictIndex.set(s, code);
      }
      this.ints[id] = code;
    }
  }

  /** Present ids counted from the bitmap (for consistency checks in tests). */
  countPresent(): number {
    return bitCount(this.present);
  }
}
