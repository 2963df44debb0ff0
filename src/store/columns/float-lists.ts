/**
 * `FloatLists`: the numeric lists of a `GENERIC` property column — embeddings above all —
 * packed into typed memory instead of one JavaScript array per entity. A JS array of 384
 * numbers costs about 6 KB on the heap (element pointers plus a boxed double per element);
 * packed it costs its elements at 4 bytes (float32) or 8 (float64) plus 12 bytes of address.
 *
 * What users read back does not change: `get` rebuilds a fresh array with the same element
 * values and types — an integer stays a JS integer, a float stays a non-integral number or
 * a `FloatBox` (integral floats such as `1.0` and `-0.0`) — so equality, type checks and
 * printing see the value that was written. The width is chosen per list: float32 when every
 * element is exactly a float32 (what an embedder or a Float32Array produces), else float64,
 * which holds every JS number exactly. Lists that mix integers and floats carry one tag bit
 * per element (set: integer), stored after the elements in 16-bit halves, which float32
 * holds exactly.
 *
 * A list is packed when it has at least `MIN_PACKED` elements and every element is a JS
 * number or a `FloatBox` holding an integral value (anything else — bigints, strings,
 * nested lists, short lists — stays a JS array in the column's `values`). Storage is a list
 * of segments on shared memory (`buffers.ts`), each twice the last up to 4 MB of float32
 * (8 MB of float64), filled in order: growth never
 * copies what is there, and a row is never written in place once stored — a rewrite appends,
 * and a compaction (when dead rows make up half the elements) copies the live rows into new
 * segments — so a capture (`snapshot`) that keeps the segments and a copy of the addresses
 * reads a consistent state while writes go on. The column keeps presence; this class only
 * knows which ids it holds.
 *
 * The vector index reads a row straight as a `Float32Array` (`float32`: a view without a
 * copy for a float32 row), without building the JS array.
 */

import { FloatBox } from '../../../runtime/scalars.js';
import type { Value } from '../entities.js';
import { grownInt32, sharedInt32 } from './buffers.js';

/** Shortest list packed: below it a JS array costs little more, and reads need no rebuild. */
export const MIN_PACKED = 8;
/** Elements of a heap's first segment: each next one doubles, so a column with a few lists stays small. */
const FIRST_SEGMENT = 4096;
/** Elements per segment at most (4 MB of float32, 8 MB of float64); a longer row gets a segment of its own. */
const SEGMENT = 1 << 20;
/** `info` bits: the row is float64; the row carries integer tags. The length is `info >>> 2`. */
const WIDE = 1;
const TAGGED = 2;
/** No row at this id. */
const NONE = -1;

type Segment = Float32Array | Float64Array;

/** Whether `value` is a list this class packs: long enough, every element a number or an integral FloatBox. */
export function isPackableList(value: Value): value is Value[] {
  if (!Array.isArray(value) || value.length < MIN_PACKED) return false;
  for (let i = 0; i < value.length; i++) {
    const x = value[i];
    if (typeof x === 'number') continue;
    if (!(x instanceof FloatBox) || !Number.isInteger(x.value)) return false;
  }
  return true;
}

/** Elements a row of `length` takes with its tags (16 tag bits per element slot). */
function rowSize(length: number, tagged: boolean): number {
  return tagged ? length + ((length + 15) >>> 4) : length;
}

/** The segments of one width: filled in order, the last one open. */
class SegmentList {
  segments: Segment[] = [];
  /** Next free element in the last segment. */
  fill = 0;
  /** Elements in rows, live and dead. */
  used = 0;
  /** Elements in dead rows (rewritten or removed). */
  garbage = 0;

  constructor(private readonly make: (n: number) => Segment) {}

  /** Room for `size` elements: the segment index and offset where they go. */
  reserve(size: number): [number, number] {
    const last = this.segments.length - 1;
    if (last >= 0 && this.fill + size <= this.segments[last].length) {
      const at = this.fill;
      this.fill += size;
      this.used += size;
      return [last, at];
    }
    // The rest of the last segment is left unused (less than half of it: sizes double).
    const next = last < 0 ? FIRST_SEGMENT : Math.min(SEGMENT, 2 * this.segments[last].length);
    this.segments.push(this.make(Math.max(next, size)));
    this.fill = size;
    this.used += size;
    return [this.segments.length - 1, 0];
  }

  bytes(): number {
    let bytes = 0;
    for (const s of this.segments) bytes += s.byteLength;
    return bytes;
  }
}

const float32Segment = (n: number): Float32Array => new Float32Array(new SharedArrayBuffer(n * 4));
const float64Segment = (n: number): Float64Array => new Float64Array(new SharedArrayBuffer(n * 8));

/** A row read from `segment` at `at`, as the list that was stored. */
function decodeRow(segment: Segment, at: number, info: number): Value[] {
  const length = info >>> 2;
  const out = new Array<Value>(length);
  if ((info & TAGGED) === 0) {
    for (let i = 0; i < length; i++) {
      const x = segment[at + i];
      out[i] = Number.isInteger(x) ? new FloatBox(x) : x;
    }
    return out;
  }
  const tags = at + length;
  for (let i = 0; i < length; i++) {
    const x = segment[at + i];
    const integer = (segment[tags + (i >>> 4)] & (1 << (i & 15))) !== 0;
    out[i] = integer || !Number.isInteger(x) ? x : new FloatBox(x);
  }
  return out;
}

/** The packed lists at a moment, by offset from `firstId` (a checkpoint's capture of one chunk). */
export class FloatListSnapshot {
  constructor(
    private readonly narrow: readonly Segment[],
    private readonly wide: readonly Segment[],
    private readonly seg: Int32Array,
    private readonly offset: Int32Array,
    private readonly info: Int32Array,
  ) {}

  /** The list at chunk offset `i`, or undefined when none was packed there. */
  get(i: number): Value[] | undefined {
    if (i >= this.seg.length || this.seg[i] === NONE) return undefined;
    const info = this.info[i];
    return decodeRow(((info & WIDE) !== 0 ? this.wide : this.narrow)[this.seg[i]], this.offset[i], info);
  }
}

export class FloatLists {
  private readonly narrow = new SegmentList(float32Segment);
  private readonly wide = new SegmentList(float64Segment);
  /** Per id: the row's segment (NONE: no row), its offset in it, and its `info`. */
  private seg: Int32Array;
  private offset: Int32Array;
  private info: Int32Array;
  /** Ids holding a row. */
  count = 0;

  constructor(capacity: number) {
    this.seg = sharedInt32(capacity).fill(NONE);
    this.offset = sharedInt32(capacity);
    this.info = sharedInt32(capacity);
  }

  /** Whether `id` holds a packed list. */
  has(id: number): boolean {
    return id < this.seg.length && this.seg[id] !== NONE;
  }

  /** The list at `id` (which holds one), rebuilt as it was stored. */
  get(id: number): Value[] {
    const info = this.info[id];
    return decodeRow(((info & WIDE) !== 0 ? this.wide : this.narrow).segments[this.seg[id]], this.offset[id], info);
  }

  /** The length of the list at `id` (which holds one). */
  length(id: number): number {
    return this.info[id] >>> 2;
  }

  /**
   * The list at `id` (which holds one) as float32s, as a vector index holds it: a view of
   * the packed row when it is float32 (no copy; never write to it), else a rounded copy.
   */
  float32(id: number): Float32Array {
    const info = this.info[id];
    const length = info >>> 2;
    const at = this.offset[id];
    if ((info & WIDE) === 0) return (this.narrow.segments[this.seg[id]] as Float32Array).subarray(at, at + length);
    return Float32Array.from((this.wide.segments[this.seg[id]] as Float64Array).subarray(at, at + length));
  }

  /** Stores `list` (which `isPackableList` accepted) at `id`, replacing any row there. */
  set(id: number, list: readonly Value[]): void {
    this.release(id);
    const length = list.length;
    let narrow = true;
    let integers = 0;
    for (let i = 0; i < length; i++) {
      const e = list[i];
      const x = typeof e === 'number' ? e : (e as FloatBox).value;
      if (typeof e === 'number' && Number.isInteger(e)) integers++;
      if (narrow && Math.fround(x) !== x && x === x) narrow = false;
    }
    const tagged = integers > 0;
    const heap = narrow ? this.narrow : this.wide;
    const size = rowSize(length, tagged);
    if (heap.garbage >= SEGMENT && heap.garbage * 2 >= heap.used) this.compact(heap, narrow ? 0 : WIDE);
    const [segIndex, at] = heap.reserve(size);
    const segment = heap.segments[segIndex];
    for (let i = 0; i < length; i++) {
      const e = list[i];
      segment[at + i] = typeof e === 'number' ? e : (e as FloatBox).value;
    }
    if (tagged) {
      // Tag words start zeroed (fresh segment memory is zero and no row is written twice).
      const tags = at + length;
      for (let i = 0; i < length; i++) {
        const e = list[i];
        if (typeof e === 'number' && Number.isInteger(e)) segment[tags + (i >>> 4)] += 1 << (i & 15);
      }
    }
    this.seg[id] = segIndex;
    this.offset[id] = at;
    this.info[id] = (length << 2) | (narrow ? 0 : WIDE) | (tagged ? TAGGED : 0);
    this.count++;
  }

  /** Forgets the row at `id` (a no-op when there is none). */
  delete(id: number): void {
    if (this.release(id)) this.seg[id] = NONE;
  }

  /** Room for ids below `capacity`. */
  grow(capacity: number): void {
    if (capacity <= this.seg.length) return;
    const seg = sharedInt32(capacity).fill(NONE);
    seg.set(this.seg);
    this.seg = seg;
    this.offset = grownInt32(this.offset, capacity);
    this.info = grownInt32(this.info, capacity);
  }

  /** The rows of ids `firstId … firstId + count - 1` as they are now; later writes do not change it. */
  snapshot(firstId: number, count: number): FloatListSnapshot {
    const end = Math.min(this.seg.length, firstId + count);
    const copy = (a: Int32Array): Int32Array => (end > firstId ? a.slice(firstId, end) : new Int32Array(0));
    return new FloatListSnapshot(this.narrow.segments.slice(), this.wide.segments.slice(), copy(this.seg), copy(this.offset), copy(this.info));
  }

  memoryBytes(): number {
    return this.narrow.bytes() + this.wide.bytes() + this.seg.byteLength + this.offset.byteLength + this.info.byteLength;
  }

  /** Counts the row at `id` as garbage; false when there is none. */
  private release(id: number): boolean {
    if (!this.has(id)) return false;
    const info = this.info[id];
    ((info & WIDE) !== 0 ? this.wide : this.narrow).garbage += rowSize(info >>> 2, (info & TAGGED) !== 0);
    this.count--;
    return true;
  }

  /** Copies the live rows of one width into fresh segments (the old ones stay intact for snapshots). */
  private compact(heap: SegmentList, width: number): void {
    const old = heap.segments;
    heap.segments = [];
    heap.fill = 0;
    heap.used = 0;
    heap.garbage = 0;
    for (let id = 0; id < this.seg.length; id++) {
      const info = this.info[id];
      if (this.seg[id] === NONE || (info & WIDE) !== width) continue;
      const size = rowSize(info >>> 2, (info & TAGGED) !== 0);
      const from = this.offset[id];
      const [segIndex, at] = heap.reserve(size);
      heap.segments[segIndex].set(old[this.seg[id]].subarray(from, from + size), at);
      this.seg[id] = segIndex;
      this.offset[id] = at;
    }
  }
}
