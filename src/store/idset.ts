/**
 * `IdSet`: a dense set of non-negative integer ids (node ids of one label, relationship ids
 * of one type) that generated code scans as a typed array: `for (i < set.length) set.ids[i]`.
 *
 * Membership is a bitset over ids (one bit per id up to the largest member), which generated
 * code tests for label checks. Removal is O(1) through a position table indexed by id
 * (position + 1, so 0 means "absent") that is built on the first removal only: a set that is
 * loaded and scanned, as most are, never pays 4 bytes per id for it. Removal swaps the last
 * member into the hole, so scan order is insertion order only until the first removal.
 * `insertAt` reverses one removal exactly, which lets a transaction rollback restore the
 * precise previous layout (and so the previous scan order).
 *
 * Memory: 4 bytes per member plus one bit per id up to the largest member id (plus 4 bytes
 * per id once anything was removed). A set a load makes of one run of ids (`IdSet.run`: a
 * bulk import's label or type, whose ids are consecutive) keeps no member array until
 * something reads `ids` or changes the set, and no bitset until it changes (`has` compares
 * with the run's bounds): scans by `runStart` count ids instead, so the
 * 4 bytes per member (42 MB of snb-200k's 10.4M relationships) are never spent for them.
 *
 * The members and the bitset are on shared memory, and a set can be lent to a graph image
 * (`lend`) and read by another thread's set over the same memory (`borrowing`): from then on
 * both are copy-on-write, the first change of either copying the two arrays for itself.
 */

import { grownBits, grownInt32, loadLength, sharedBits, sharedInt32 } from './columns/buffers.js';

/** A lent set's state (`IdSet.lend`): its arrays shared. */
export interface IdSetImage {
  /** Null when the members are the run `runFirst … runFirst + length - 1` and were never materialized. */
  ids: Int32Array | null;
  runFirst: number;
  length: number;
  /** Null, like `ids`, for a run whose bitset was never made. */
  members: Uint32Array | null;
  ascending: boolean;
}

export class IdSet {
  /** Members in scan order, or null while they are the run `runFirst …` (see `ids`). */
  private idArray: Int32Array | null;
  /** The first member of a set made as a run whose member array is not made yet. */
  private runFirst = -1;
  length = 0;
  /** Bit `id` is set for members; null for a run not yet changed (`has` compares with the run's bounds). */
  private bitArray: Uint32Array | null;
  /** `pos[id] - 1` is the index of `id` in `ids`; 0 means absent. Null until the first removal. */
  private pos: Int32Array | null = null;
  /** Whether the members are in strictly ascending order (as a load and appends in id order leave them). */
  private ascending = true;
  /** `ids` and `members` are shared with another graph's set (lent or borrowed): copied before the first change. */
  private borrowed = false;

  constructor(capacity = 8) {
    this.idArray = sharedInt32(capacity);
    this.bitArray = sharedBits(Math.max(32, capacity));
  }

  /** The membership bitset, made for a run on first need (a change: reads test the run's bounds). */
  private get members(): Uint32Array {
    if (this.bitArray === null) this.bitArray = runBits(this.runFirst, this.length, this.runFirst + this.length);
    return this.bitArray;
  }

  private set members(bits: Uint32Array) {
    this.bitArray = bits;
  }

  /**
   * Members in scan order; only the first `length` slots are meaningful. A run's array is
   * made on first read (callers hoist it out of their loops, so the test costs once a scan).
   */
  get ids(): Int32Array {
    if (this.idArray === null) {
      const ids = sharedInt32(Math.max(this.length, 8));
      for (let i = 0, first = this.runFirst; i < this.length; i++) ids[i] = first + i;
      this.idArray = ids;
      // Other graphs holding this run's image make their own array (never shared, never written by them).
    }
    return this.idArray;
  }

  set ids(ids: Int32Array) {
    this.idArray = ids;
  }

  /**
   * The members in scan order (the first `length` entries), without keeping an array for a run
   * that has none: a pass that reads them once (an index build) gets a temporary one.
   */
  memberArray(): Int32Array {
    if (this.idArray !== null) return this.idArray;
    // In a reservation of its own mapping when large (`loadLength`), so it is unmapped when freed.
    const ids = new Int32Array(loadLength(this.length, 4));
    for (let i = 0, first = this.runFirst; i < this.length; i++) ids[i] = first + i;
    return ids;
  }

  /** The set's state for a graph image, its arrays shared; this set is borrowed from then on (its next change copies them). */
  lend(): IdSetImage {
    this.borrowed = true;
    // A run's member array is made here, once, so the borrowers scan this very array instead
    // of each making its own on its first scan (the bitset stays unmade: `has` needs only the bounds).
    return { ids: this.ids, runFirst: this.runFirst, length: this.length, members: this.bitArray, ascending: this.ascending };
  }

  /** A set over a lent set's arrays (the same memory), borrowed: its first change copies them. */
  static borrowing(image: IdSetImage): IdSet {
    const set = new IdSet(0);
    set.idArray = image.ids;
    set.runFirst = image.runFirst;
    set.length = image.length;
    set.bitArray = image.members;
    set.ascending = image.ascending;
    set.borrowed = true;
    return set;
  }

  /** Copies the shared arrays, so that changes reach this set only. */
  private own(): void {
    this.ids = grownInt32(this.ids, this.ids.length);
    this.members = grownBits(this.members, this.members.length * 32);
    this.borrowed = false;
  }

  /**
   * A set holding the first `count` entries of `ids` (distinct, each below `idBound`), in that
   * order: what a load builds in one pass instead of `count` calls to `add`.
   */
  static of(ids: Int32Array, count: number, idBound: number): IdSet {
    if (count > 0 && ids[count - 1] - ids[0] === count - 1 && isRun(ids, count)) return IdSet.run(ids[0], count, idBound);
    const set = new IdSet(0);
    set.ids = ids.length === count ? ids : ids.slice(0, count);
    const members = sharedBits(Math.max(32, idBound));
    for (let i = 0; i < count; i++) {
      members[ids[i] >>> 5] |= 1 << (ids[i] & 31);
      if (i > 0 && ids[i] <= ids[i - 1]) set.ascending = false;
    }
    set.members = members;
    set.length = count;
    if (set.ids.length === 0) set.ids = sharedInt32(8);
    return set;
  }

  /**
   * The set of the `count` ids `first … first + count - 1` in ascending order (each below
   * `idBound`), with no member array until one is asked for (`ids`).
   */
  static run(first: number, count: number, idBound: number): IdSet {
    const set = new IdSet(0);
    set.length = count;
    if (count > 0) {
      set.idArray = null;
      set.bitArray = null;
      set.runFirst = first;
    } else set.bitArray = sharedBits(Math.max(32, idBound));
    return set;
  }

  /**
   * The first member when the members are exactly the ids `first … first + length - 1` in
   * ascending order (so a scan may count ids instead of reading them), else -1.
   */
  runStart(): number {
    const n = this.length;
    const ids = this.idArray;
    if (ids === null) return this.runFirst;
    return n > 0 && this.ascending && ids[n - 1] - ids[0] === n - 1 ? ids[0] : -1;
  }

  /** Bytes of the id buffers (none for a run not yet read as an array). */
  memoryBytes(): number {
    return (this.idArray?.byteLength ?? 0) + (this.bitArray?.byteLength ?? 0) + (this.pos?.byteLength ?? 0);
  }

  has(id: number): boolean {
    const word = id >>> 5;
    const bits = this.bitArray;
    if (bits === null) return id >= this.runFirst && id - this.runFirst < this.length;
    return word < bits.length && (bits[word] & (1 << (id & 31))) !== 0;
  }

  /** Adds `id` at the end; false when it was already a member. */
  add(id: number): boolean {
    if (this.has(id)) return false;
    if (this.borrowed) this.own();
    this.ensureMemberCapacity(this.length + 1);
    this.ensureIdCapacity(id);
    if (this.length > 0 && id <= this.ids[this.length - 1]) this.ascending = false;
    this.ids[this.length] = id;
    this.length++;
    this.members[id >>> 5] |= 1 << (id & 31);
    if (this.pos !== null) this.pos[id] = this.length;
    return true;
  }

  /**
   * Removes `id` by moving the last member into its slot. Returns the index the id had
   * (pass it to `insertAt` to undo), or -1 when it was not a member.
   */
  remove(id: number): number {
    if (!this.has(id)) return -1;
    if (this.borrowed) this.own();
    const pos = this.positions();
    const index = pos[id] - 1;
    const last = this.length - 1;
    if (index !== last) {
      this.ascending = false;
      const moved = this.ids[last];
      this.ids[index] = moved;
      pos[moved] = index + 1;
    }
    pos[id] = 0;
    this.members[id >>> 5] &= ~(1 << (id & 31));
    this.length = last;
    return index;
  }

  /**
   * Undoes `remove(id)` that returned `index`, given that the set is otherwise as the
   * removal left it: the member now at `index` goes back to the end, `id` back to `index`.
   */
  insertAt(id: number, index: number): void {
    if (this.has(id)) return;
    if (this.borrowed) this.own();
    this.ensureMemberCapacity(this.length + 1);
    this.ensureIdCapacity(id);
    const pos = this.positions();
    if (index < this.length) {
      this.ascending = false;
      const moved = this.ids[index];
      this.ids[this.length] = moved;
      pos[moved] = this.length + 1;
    } else {
      index = this.length;
      if (index > 0 && id <= this.ids[index - 1]) this.ascending = false;
    }
    this.ids[index] = id;
    pos[id] = index + 1;
    this.members[id >>> 5] |= 1 << (id & 31);
    this.length++;
  }

  clear(): void {
    this.borrowed = false;
    this.idArray = sharedInt32(8);
    this.bitArray = sharedBits(32);
    this.pos = null;
    this.length = 0;
    this.ascending = true;
  }

  /** Members in scan order (a copy). */
  toArray(): number[] {
    return Array.from(this.ids.subarray(0, this.length));
  }

  /** The position table, built from the members on first use. */
  private positions(): Int32Array {
    if (this.pos === null) {
      const pos = new Int32Array(this.members.length * 32);
      for (let i = 0; i < this.length; i++) pos[this.ids[i]] = i + 1;
      this.pos = pos;
    }
    return this.pos;
  }

  private ensureMemberCapacity(needed: number): void {
    if (needed <= this.ids.length) return;
    this.ids = grownInt32(this.ids, Math.max(needed, this.ids.length * 2));
  }

  /** Room for `id` in the bitset (and the position table, once there is one), doubling. */
  private ensureIdCapacity(id: number): void {
    const words = (id >>> 5) + 1;
    if (words > this.members.length) {
      this.members = grownBits(this.members, Math.max(words, this.members.length * 2) * 32);
    }
    if (this.pos !== null && id >= this.pos.length) {
      const grown = new Int32Array(this.members.length * 32);
      grown.set(this.pos);
      this.pos = grown;
    }
  }
}

/** The bitset of the ids `first … first + count - 1`, over ids below `idBound`. */
function runBits(first: number, count: number, idBound: number): Uint32Array {
  const members = sharedBits(Math.max(32, idBound));
  const end = first + count;
  // Whole words at once: a bit loop over 10M relationships is measurable.
  let id = first;
  for (; id < end && (id & 31) !== 0; id++) members[id >>> 5] |= 1 << (id & 31);
  for (; id + 32 <= end; id += 32) members[id >>> 5] = -1;
  for (; id < end; id++) members[id >>> 5] |= 1 << (id & 31);
  return members;
}

/** Whether the first `count` entries of `ids` are consecutive ascending ids. */
function isRun(ids: Int32Array, count: number): boolean {
  for (let i = 1; i < count; i++) if (ids[i] !== ids[i - 1] + 1) return false;
  return true;
}
