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
 * Both return an `IdRun` (the shape of an `IdSet`, so the loop reads either), allocate only
 * that run, and charge the deadline budget per block of ids.
 */

import { INT, NUMBER, type PropertyColumn } from '../../src/store/columns/property-column.js';
import type { Value } from '../values.js';
import { gt, gte, lt, lte } from '../compare.js';
import type { ExecContext } from './context.js';
import { tick } from './patterns.js';

/** Ids a scan loop visits: the first `length` entries of `ids`. */
export interface IdRun {
  readonly ids: Int32Array;
  readonly length: number;
  /** `IdSet.runStart`: the first id when the ids are consecutive and ascending, else -1. */
  runStart?(): number;
}

/** Comparison codes of `scanRange`: `n.k <op> bound`. */
export const RANGE_LT = 0;
export const RANGE_LTE = 1;
export const RANGE_GT = 2;
export const RANGE_GTE = 3;

const EMPTY_RUN: IdRun = { ids: new Int32Array(0), length: 0 };
/** Ids per deadline check. */
const BLOCK = 4096;

function charge(ctx: ExecContext, n: number): void {
  ctx.budget -= n;
  if (ctx.budget < 0) tick(ctx);
}

/** A column generated code may read as numbers (`INT` ints or `NUMBER` floats). */
function numericColumn(column: PropertyColumn | undefined): column is PropertyColumn {
  return column !== undefined && (column.kind === INT || column.kind === NUMBER);
}

/**
 * The members of `set` whose value of `column` satisfies every `value <ops[j]> bounds[j]`
 * with the result `true` (null, absent and incomparable values fail, as in WHERE).
 */
export function scanRange(ctx: ExecContext, set: IdRun, column: PropertyColumn | undefined, ops: readonly number[], bounds: readonly Value[]): IdRun {
  const n = set.length;
  if (n === 0 || column === undefined) return EMPTY_RUN;
  // Number bounds fold into one closed interval [lo, hi]: a strict bound becomes the next
  // double inward, which admits exactly the same numbers (and NaN fails both tests).
  let lo = -Infinity;
  let hi = Infinity;
  for (let j = 0; j < ops.length; j++) {
    const b = bounds[j];
    if (typeof b !== 'number' || !numericColumn(column)) return rangeByValue(ctx, set, column, ops, bounds);
    if (b !== b) return EMPTY_RUN; // every comparison with NaN is false
    if (ops[j] === RANGE_GT || ops[j] === RANGE_GTE) lo = Math.max(lo, ops[j] === RANGE_GT ? nextUp(b) : b);
    else hi = Math.min(hi, ops[j] === RANGE_LT ? -nextUp(-b) : b);
  }
  if (!(lo <= hi)) return EMPTY_RUN;
  const values = column.kind === INT ? column.ints : column.nums;
  return rangeOfNumbers(ctx, set, column.present, column.capacity, values, lo, hi);
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

function rangeOfNumbers(ctx: ExecContext, set: IdRun, present: Uint32Array, capacity: number, values: Int32Array | Float64Array, lo: number, hi: number): IdRun {
  const n = set.length;
  const first = set.runStart?.() ?? -1;
  if (first >= 0) return rangeOfRun(ctx, first, Math.min(first + n, capacity), present, values, lo, hi);
  const ids = set.ids;
  let out: Int32Array = new Int32Array(Math.min(n, BLOCK));
  let m = 0;
  for (let b = 0; b < n; b += BLOCK) {
    const end = Math.min(n, b + BLOCK);
    charge(ctx, end - b);
    if (out.length < m + (end - b)) out = grown(out, Math.min(n, Math.max(out.length * 2, m + (end - b))));
    for (let i = b; i < end; i++) {
      const id = ids[i];
      if (id >= capacity) continue;
      const x = values[id];
      // Branch-free: the id is written always and kept only when the bit and both tests are 1.
      out[m] = id;
      m += ((present[id >>> 5] >>> (id & 31)) & 1) & Number(x >= lo) & Number(x <= hi);
    }
  }
  return { ids: out, length: m };
}

/**
 * The same over the ids `first … end - 1`, 32 at a time: a presence word with every bit set
 * (a key every member holds) lets its ids skip the bit test.
 */
function rangeOfRun(ctx: ExecContext, first: number, end: number, present: Uint32Array, values: Int32Array | Float64Array, lo: number, hi: number): IdRun {
  if (end <= first) return EMPTY_RUN;
  let out: Int32Array = new Int32Array(Math.min(end - first, BLOCK));
  let m = 0;
  let id = first;
  while (id < end) {
    const blockEnd = Math.min(end, id + BLOCK);
    charge(ctx, blockEnd - id);
    if (out.length < m + (blockEnd - id)) out = grown(out, Math.min(end - first, Math.max(out.length * 2, m + (blockEnd - id))));
    while (id < blockEnd) {
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
  }
  return { ids: out, length: m };
}

const COMPARE = [lt, lte, gt, gte];

/** The same selection for values that are not all numbers: each comparison as WHERE runs it. */
function rangeByValue(ctx: ExecContext, set: IdRun, column: PropertyColumn, ops: readonly number[], bounds: readonly Value[]): IdRun {
  const ids = set.ids;
  const n = set.length;
  const out = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (--ctx.budget < 0) tick(ctx);
    const id = ids[i];
    const v = column.get(id) ?? null;
    let pass = true;
    for (let j = 0; j < ops.length && pass; j++) pass = COMPARE[ops[j]](v, bounds[j]) === true;
    if (pass) out[m++] = id;
  }
  return { ids: out, length: m };
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
export function topKCandidates(ctx: ExecContext, set: IdRun, column: PropertyColumn | undefined, k: number, descending: boolean): IdRun {
  const n = set.length;
  if (k <= 0 || n === 0) return EMPTY_RUN;
  if (k >= n || !numericColumn(column)) return set;
  const values = column.kind === INT ? column.ints : column.nums;
  return new TopK(column.present, column.capacity, values, k, descending).run(ctx, set);
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

  constructor(
    private readonly present: Uint32Array,
    private readonly capacity: number,
    private readonly values: Int32Array | Float64Array,
    private readonly k: number,
    descending: boolean,
  ) {
    this.heap = new Float64Array(k);
    this.out = new Int32Array(2 * k + 1024);
    this.sign = descending ? 1 : -1;
  }

  run(ctx: ExecContext, set: IdRun): IdRun {
    const first = set.runStart?.() ?? -1;
    if (first >= 0) this.scanRun(ctx, first, first + set.length);
    else this.scanIds(ctx, set.ids, set.length);
    this.compact();
    return { ids: this.out, length: this.m };
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

  /** The ids `first … end - 1`, 32 at a time: a full presence word skips the bit tests. */
  private scanRun(ctx: ExecContext, first: number, end: number): void {
    const { present, values, sign } = this;
    const stored = Math.min(end, this.capacity);
    let bound = this.bound;
    let id = first;
    while (id < stored) {
      const blockEnd = Math.min(stored, id + BLOCK);
      charge(ctx, blockEnd - id);
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
