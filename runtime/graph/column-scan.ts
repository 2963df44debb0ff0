/**
 * Column kernels of a label scan (read-only queries): before the scan's loop runs, they pick
 * out of the label's id set the ids the loop has to visit, in scan order, reading one
 * property column as typed arrays in one tight pass instead of running the generated
 * per-row code over every member.
 *
 * - `scanRange`: the ids whose value of one key passes a conjunction of range comparisons
 *   (`n.k >= $lo AND n.k < $hi`), exactly as those predicates judge them, so generated code
 *   drops the predicates it hands over. Numbers in an `INT` or `NUMBER` column against
 *   number bounds are compared branch-free; anything else goes through the comparison
 *   functions generated code would have called.
 * - `topKCandidates`: for `ORDER BY n.k … LIMIT l` over the scan, the ids that can still be
 *   among the first `l` rows: every id whose key is not a plain number (absent, NaN, or in a
 *   column that is not numeric), and every id whose number is no worse than the `l`-th best.
 *   A dropped id sorts after `l` other rows on the first key, whatever the later keys, so it
 *   cannot make the cut; the kept ones go through the usual top-k sort, so ties (stability),
 *   nulls and mixed types are ordered exactly as before, and only they are projected.
 *
 * Both hand the loop a `ScanRun` (blocks of ids) and charge the deadline budget per block of
 * members; a range fills one block at a time, so a loop that stops early has read little.
 */

import { INT, NUMBER, ZONE, type PropertyColumn } from '../../src/store/columns/property-column.js';
import type { Value } from '../values.js';
import { gt, gte, lt, lte } from '../compare.js';
import type { ExecContext } from './context.js';
import { tick } from './patterns.js';

/** A label's members as a scan reads them (an `IdSet`). */
export interface IdSource {
  readonly ids: Int32Array;
  readonly length: number;
  /** `IdSet.runStart`: the first id when the members are consecutive ids in ascending order, else -1. */
  runStart(): number;
}

/**
 * What a kernel hands the scan loop: `next()` fills `ids[0 … length-1]` with the next ids to
 * visit, in scan order, and is false once there are none left. A range selects a block of
 * members at a time, so a loop that stops early (LIMIT, EXISTS) reads only that far.
 */
export interface ScanRun {
  ids: Int32Array;
  length: number;
  next(): boolean;
}

/** Comparison codes of `scanRange`: `n.k <op> bound`. */
export const RANGE_LT = 0;
export const RANGE_LTE = 1;
export const RANGE_GT = 2;
export const RANGE_GTE = 3;

/** Members per block (and per deadline check). */
const BLOCK = 4096;

function charge(ctx: ExecContext, n: number): void {
  ctx.budget -= n;
  if (ctx.budget < 0) tick(ctx);
}

/** A column generated code may read as numbers (`INT` ints or `NUMBER` floats). */
function numericColumn(column: PropertyColumn | undefined): column is PropertyColumn {
  return column !== undefined && (column.kind === INT || column.kind === NUMBER);
}

/** Ids handed over in one piece. */
class WholeRun implements ScanRun {
  private done = false;

  constructor(
    public ids: Int32Array,
    public length: number,
  ) {}

  next(): boolean {
    if (this.done) return false;
    this.done = true;
    return this.length > 0;
  }
}

const NOTHING = new Int32Array(0);

/**
 * The members of `set` whose value of `column` satisfies every `value <ops[j]> bounds[j]`
 * with the result `true` (null, absent and incomparable values fail, as in WHERE).
 */
export function scanRange(ctx: ExecContext, set: IdSource, column: PropertyColumn | undefined, ops: readonly number[], bounds: readonly Value[]): ScanRun {
  if (set.length === 0 || column === undefined) return new WholeRun(NOTHING, 0);
  // Number bounds fold into one closed interval [lo, hi]: a strict bound becomes the next
  // double inward, which admits exactly the same numbers (and NaN fails both tests).
  let lo = -Infinity;
  let hi = Infinity;
  for (let j = 0; j < ops.length; j++) {
    const b = bounds[j];
    if (typeof b !== 'number' || !numericColumn(column)) return new RangeByValue(ctx, set, column, ops, bounds);
    if (b !== b) return new WholeRun(NOTHING, 0); // every comparison with NaN is false
    if (ops[j] === RANGE_GT || ops[j] === RANGE_GTE) lo = Math.max(lo, ops[j] === RANGE_GT ? nextUp(b) : b);
    else hi = Math.min(hi, ops[j] === RANGE_LT ? -nextUp(-b) : b);
  }
  if (!(lo <= hi)) return new WholeRun(NOTHING, 0);
  return new RangeOfNumbers(ctx, set, column, lo, hi);
}

const F64 = new Float64Array(1);
const I64 = new BigInt64Array(F64.buffer);

/** The smallest double above `x` (`x` not NaN); NaN above +Infinity, so nothing passes. */
function nextUp(x: number): number {
  if (x === Infinity) return NaN;
  if (x === 0) return Number.MIN_VALUE; // from -0 too
  F64[0] = x;
  I64[0] += x > 0 ? 1n : -1n;
  return F64[0];
}

/** `scanRange` over numbers: each block of members in one branch-free pass. */
class RangeOfNumbers implements ScanRun {
  ids = new Int32Array(BLOCK);
  length = 0;
  private readonly present: Uint32Array;
  private readonly capacity: number;
  private readonly values: Int32Array | Float64Array;
  private readonly zones: { max: Float64Array; min: Float64Array };
  /** The next member's position in the set, or with a run of ids, the next id. */
  private at: number;
  private readonly end: number;
  private readonly first: number;

  constructor(
    private readonly ctx: ExecContext,
    private readonly set: IdSource,
    column: PropertyColumn,
    private readonly lo: number,
    private readonly hi: number,
  ) {
    this.present = column.present;
    this.capacity = column.capacity;
    this.values = column.kind === INT ? column.ints : column.nums;
    this.zones = column.zones()!;
    this.first = set.runStart();
    // A run past the column's capacity holds no values there.
    this.at = this.first >= 0 ? this.first : 0;
    this.end = this.first >= 0 ? Math.min(this.first + set.length, this.capacity) : set.length;
  }

  next(): boolean {
    if (this.at >= this.end) return false;
    const blockEnd = Math.min(this.end, this.at + BLOCK);
    charge(this.ctx, blockEnd - this.at);
    this.length = this.first >= 0 ? this.fromRun(blockEnd) : this.fromIds(blockEnd);
    this.at = blockEnd;
    return true;
  }

  private fromIds(blockEnd: number): number {
    const { ids: memberIds } = this.set;
    const { present, capacity, values, lo, hi, ids: out } = this;
    let m = 0;
    for (let i = this.at; i < blockEnd; i++) {
      const id = memberIds[i];
      if (id >= capacity) continue;
      const x = values[id];
      // Branch-free: the id is written always and kept only when the bit and both tests are 1.
      out[m] = id;
      m += ((present[id >>> 5] >>> (id & 31)) & 1) & Number(x >= lo) & Number(x <= hi);
    }
    return m;
  }

  /**
   * The ids `at … blockEnd - 1`: a zone-map block whose bounds miss [lo, hi] is skipped whole;
   * within a block, 32 at a time, a presence word with every bit set skips the bit test.
   */
  private fromRun(blockEnd: number): number {
    const { present, values, lo, hi, ids: out, zones } = this;
    let m = 0;
    let id = this.at;
    while (id < blockEnd) {
      const zone = (id / ZONE) | 0;
      if (zones.max[zone] < lo || zones.min[zone] > hi) {
        id = Math.min(blockEnd, (zone + 1) * ZONE);
        continue;
      }
      const wordEnd = Math.min(blockEnd, (id | 31) + 1);
      const word = present[id >>> 5];
      if (word === 0xffffffff) {
        for (; id < wordEnd; id++) {
          const x = values[id];
          out[m] = id;
          m += Number(x >= lo) & Number(x <= hi);
        }
      } else {
        for (; id < wordEnd; id++) {
          const x = values[id];
          out[m] = id;
          m += ((word >>> (id & 31)) & 1) & Number(x >= lo) & Number(x <= hi);
        }
      }
    }
    return m;
  }
}

/** Whether every id in `from … to - 1` holds the key (tested by whole presence words, where ids of other labels may fail it). */
function allPresent(present: Uint32Array, from: number, to: number): boolean {
  for (let w = from >>> 5, last = (to - 1) >>> 5; w <= last; w++) if (present[w] !== 0xffffffff) return false;
  return true;
}

const COMPARE = [lt, lte, gt, gte];

/** `scanRange` for values that are not all numbers: each comparison as WHERE runs it. */
class RangeByValue implements ScanRun {
  ids = new Int32Array(BLOCK);
  length = 0;
  private at = 0;

  constructor(
    private readonly ctx: ExecContext,
    private readonly set: IdSource,
    private readonly column: PropertyColumn,
    private readonly ops: readonly number[],
    private readonly bounds: readonly Value[],
  ) {}

  next(): boolean {
    const { set, column, ops, bounds, ids: out } = this;
    if (this.at >= set.length) return false;
    const blockEnd = Math.min(set.length, this.at + BLOCK);
    charge(this.ctx, blockEnd - this.at);
    let m = 0;
    for (let i = this.at; i < blockEnd; i++) {
      const id = set.ids[i];
      const v = column.get(id) ?? null;
      let pass = true;
      for (let j = 0; j < ops.length && pass; j++) pass = COMPARE[ops[j]](v, bounds[j]) === true;
      if (pass) out[m++] = id;
    }
    this.length = m;
    this.at = blockEnd;
    return true;
  }
}

function grown(a: Int32Array, length: number): Int32Array {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

/**
 * The members of `set` that can be among the first `k` rows of a scan sorted by `column`
 * (first key, `descending` or not), in scan order: see the module comment.
 */
export function topKCandidates(ctx: ExecContext, set: IdSource, column: PropertyColumn | undefined, k: number, descending: boolean): ScanRun {
  const n = set.length;
  if (k <= 0 || n === 0) return new WholeRun(NOTHING, 0);
  if (k >= n || !numericColumn(column)) return new WholeRun(set.ids, n);
  return new TopK(column, k, descending).run(ctx, set);
}

/**
 * One pass of `topKCandidates`: a min-heap of the `k` best keys seen so far (a key is the
 * value, negated for an ascending sort, so that larger is better), and the ids that were
 * candidates when seen. The candidate list is cut back to those still at least as good as the
 * heap's root whenever it fills, and once more at the end. The hot loops only compare a key
 * with the bound (the heap's root once it is full); `take` does the rest for the few that pass.
 */
class TopK {
  private readonly heap: Float64Array;
  private size = 0;
  private out: Int32Array;
  private m = 0;
  /** Below this key nothing is a candidate: -Infinity until the heap is full, then its root. */
  private bound = -Infinity;
  private readonly sign: number;

  private readonly present: Uint32Array;
  private readonly capacity: number;
  private readonly values: Int32Array | Float64Array;
  /** Per zone-map block, the best number in it for this order (largest descending, smallest ascending). */
  private readonly zoneBest: Float64Array;

  constructor(
    column: PropertyColumn,
    private readonly k: number,
    descending: boolean,
  ) {
    this.present = column.present;
    this.capacity = column.capacity;
    this.values = column.kind === INT ? column.ints : column.nums;
    const zones = column.zones()!;
    this.zoneBest = descending ? zones.max : zones.min;
    this.heap = new Float64Array(k);
    this.out = new Int32Array(2 * k + 1024);
    this.sign = descending ? 1 : -1;
  }

  run(ctx: ExecContext, set: IdSource): ScanRun {
    const first = set.runStart();
    if (first >= 0) this.scanRun(ctx, first, first + set.length);
    else this.scanIds(ctx, set.ids, set.length);
    this.compact();
    return new WholeRun(this.out, this.m);
  }

  private scanIds(ctx: ExecContext, ids: Int32Array, n: number): void {
    const { present, capacity, values, sign } = this;
    let bound = this.bound;
    for (let b = 0; b < n; b += BLOCK) {
      const end = Math.min(n, b + BLOCK);
      charge(ctx, end - b);
      for (let i = b; i < end; i++) {
        const id = ids[i];
        if (id >= capacity || (present[id >>> 5] & (1 << (id & 31))) === 0) bound = this.take(id, NaN);
        else {
          const s = sign * values[id];
          if (!(s < bound)) bound = this.take(id, s);
        }
      }
    }
  }

  /**
   * The ids `first … end - 1`, one zone-map block at a time: a block whose every id holds a
   * number (full presence words) and whose best bound is below the bound is skipped whole;
   * within a block, 32 at a time, a full presence word skips the bit tests.
   */
  private scanRun(ctx: ExecContext, first: number, end: number): void {
    const { present, values, sign, zoneBest } = this;
    const stored = Math.min(end, this.capacity);
    let bound = this.bound;
    let id = first;
    while (id < stored) {
      const zone = (id / ZONE) | 0;
      const blockEnd = Math.min(stored, (zone + 1) * ZONE);
      charge(ctx, blockEnd - id);
      if (sign * zoneBest[zone] < bound && allPresent(present, id, blockEnd)) {
        id = blockEnd;
        continue;
      }
      while (id < blockEnd) {
        const wordEnd = Math.min(blockEnd, (id | 31) + 1);
        const word = present[id >>> 5];
        if (word === 0xffffffff) {
          for (; id < wordEnd; id++) {
            const s = sign * values[id];
            if (!(s < bound)) bound = this.take(id, s);
          }
        } else {
          for (; id < wordEnd; id++) {
            if (((word >>> (id & 31)) & 1) === 0) bound = this.take(id, NaN);
            else {
              const s = sign * values[id];
              if (!(s < bound)) bound = this.take(id, s);
            }
          }
        }
      }
    }
    // Ids past the column's capacity do not hold the key: candidates.
    if (id < end) charge(ctx, end - id);
    for (; id < end; id++) this.take(id, NaN);
  }

  /**
   * Records candidate `id` with key `s` (NaN for an absent value or a NaN: always kept, never
   * in the heap) and returns the bound that follows.
   */
  private take(id: number, s: number): number {
    if (s === s) {
      if (this.size < this.k) {
        this.push(s);
        if (this.size === this.k) this.bound = this.heap[0];
      } else if (s > this.bound) {
        this.replaceRoot(s);
        this.bound = this.heap[0];
      }
    }
    if (this.m === this.out.length) this.compact();
    this.out[this.m++] = id;
    return this.bound;
  }

  /** Keeps the candidates that are not numbers below the bound; grows the list when that frees too little. */
  private compact(): void {
    const { present, capacity, values, out, sign, bound } = this;
    let w = 0;
    for (let r = 0; r < this.m; r++) {
      const id = out[r];
      if (id < capacity && (present[id >>> 5] & (1 << (id & 31))) !== 0 && sign * values[id] < bound) continue;
      out[w++] = id;
    }
    this.m = w;
    if (w > out.length / 2) this.out = grown(out, out.length * 2);
  }

  private push(s: number): void {
    const heap = this.heap;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= s) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = s;
  }

  private replaceRoot(s: number): void {
    const heap = this.heap;
    const size = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && heap[r] < heap[l] ? r : l;
      if (heap[c] >= s) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = s;
  }
}
