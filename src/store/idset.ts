/**
 * `IdSet`: a dense set of non-negative integer ids (node ids of one label, relationship ids
 * of one type) that generated code scans as a typed array: `for (i < set.length) set.ids[i]`.
 *
 * Add, remove and membership are O(1): a position table indexed by id remembers where each
 * member sits in `ids` (stored as position + 1, so 0 means "absent"). Removal swaps the last
 * member into the hole, so scan order is insertion order only until the first removal.
 * `insertAt` reverses one removal exactly, which lets a transaction rollback restore the
 * precise previous layout (and so the previous scan order).
 *
 * Memory: 4 bytes per member plus 4 bytes per id up to the largest member id.
 */

export class IdSet {
  /** Members in scan order; only the first `length` slots are meaningful. */
  ids: Int32Array;
  length = 0;
  /** `pos[id] - 1` is the index of `id` in `ids`; 0 means absent. */
  private pos: Int32Array;

  constructor(capacity = 8) {
    this.ids = new Int32Array(capacity);
    this.pos = new Int32Array(capacity);
  }

  /**
   * A set holding the first `count` entries of `ids` (distinct, each below `idBound`), in that
   * order: what a load builds in one pass instead of `count` calls to `add`.
   */
  static of(ids: Int32Array, count: number, idBound: number): IdSet {
    const set = new IdSet(0);
    set.ids = ids.length === count ? ids : ids.slice(0, count);
    set.pos = new Int32Array(Math.max(idBound, 8));
    for (let i = 0; i < count; i++) set.pos[ids[i]] = i + 1;
    set.length = count;
    if (set.ids.length === 0) set.ids = new Int32Array(8);
    return set;
  }

  /** Bytes of the two id buffers. */
  memoryBytes(): number {
    return this.ids.byteLength + this.pos.byteLength;
  }

  has(id: number): boolean {
    return id < this.pos.length && this.pos[id] !== 0;
  }

  /** Adds `id` at the end; false when it was already a member. */
  add(id: number): boolean {
    if (this.has(id)) return false;
    this.ensureMemberCapacity(this.length + 1);
    this.ensureIdCapacity(id);
    this.ids[this.length] = id;
    this.pos[id] = ++this.length;
    return true;
  }

  /**
   * Removes `id` by moving the last member into its slot. Returns the index the id had
   * (pass it to `insertAt` to undo), or -1 when it was not a member.
   */
  remove(id: number): number {
    if (!this.has(id)) return -1;
    const index = this.pos[id] - 1;
    const last = this.length - 1;
    if (index !== last) {
      const moved = this.ids[last];
      this.ids[index] = moved;
      this.pos[moved] = index + 1;
    }
    this.pos[id] = 0;
    this.length = last;
    return index;
  }

  /**
   * Undoes `remove(id)` that returned `index`, given that the set is otherwise as the
   * removal left it: the member now at `index` goes back to the end, `id` back to `index`.
   */
  insertAt(id: number, index: number): void {
    if (this.has(id)) return;
    this.ensureMemberCapacity(this.length + 1);
    this.ensureIdCapacity(id);
    if (index < this.length) {
      const moved = this.ids[index];
      this.ids[this.length] = moved;
      this.pos[moved] = this.length + 1;
    } else {
      index = this.length;
    }
    this.ids[index] = id;
    this.pos[id] = index + 1;
    this.length++;
  }

  clear(): void {
    this.ids = new Int32Array(8);
    this.pos = new Int32Array(8);
    this.length = 0;
  }

  /** Members in scan order (a copy). */
  toArray(): number[] {
    return Array.from(this.ids.subarray(0, this.length));
  }

  private ensureMemberCapacity(needed: number): void {
    if (needed <= this.ids.length) return;
    const grown = new Int32Array(Math.max(needed, this.ids.length * 2));
    grown.set(this.ids.subarray(0, this.length));
    this.ids = grown;
  }

  private ensureIdCapacity(id: number): void {
    if (id < this.pos.length) return;
    const grown = new Int32Array(Math.max(id + 1, this.pos.length * 2));
    grown.set(this.pos);
    this.pos = grown;
  }
}
