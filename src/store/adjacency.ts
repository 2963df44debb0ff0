/**
 * Adjacency of the graph: for each relationship type and direction one `AdjacencyBlock`,
 * a CSR (compressed sparse row) base on `SharedArrayBuffer` plus an append-only delta.
 *
 * - The base lists node `v`'s entries at `[offsets[v - rowStart], offsets[v - rowStart + 1])`
 *   of the parallel columns `rels` (relationship ids) and `nbrs` (neighbour node ids), for
 *   `rowStart <= v < rowEnd`: rows span only the ids that have entries of the block's type
 *   (a type whose relationships start at one label's nodes needs offsets for those only).
 * - Relationships created since the last merge are appended to a small per-node delta list
 *   (`delta[v]`), so a creation never moves base entries.
 * - A deleted relationship is not removed: its id is set in the graph's tombstone bitset
 *   (`AdjacencyTombstones`), and every reader skips tombstoned ids. A rollback of a delete
 *   just clears the bit, so expansion order survives rollbacks without position bookkeeping.
 * - `merge` (compaction) rebuilds the base from base + delta without tombstoned entries,
 *   keeping each node's order (base entries first, then delta entries in creation order).
 *   The graph merges a block after a commit once its delta and tombstones pass a share of
 *   the base (`needsMerge`), so the cost is amortised over the writes that caused it. A merge
 *   allocates new buffers rather than rewriting the old ones, so a reader that still holds
 *   the old columns keeps a consistent (stale) view.
 *
 * Readers go through `forEachAdjacent` or, in generated code, through the same fields
 * (codegen/emit.ts `expand`); both visit base then delta and skip tombstones.
 *
 * Because a base is never written after it is made, threads share it: a query worker's replica
 * takes the primary's bases from its graph image (`BlockImage`) and, instead of merging its
 * own blocks, adopts each base the primary's merges make (`adopt`), so the graph's adjacency is
 * held once per process, and each replica keeps only the deltas since the last merge.
 */

import { InternalError } from '../errors.js';
import { bitClear, bitGet, bitSet, grownBits, sharedBits, sharedInt32 } from './columns/buffers.js';

/** Entries appended to one node's adjacency since the last merge (plain arrays: most hold one or two). */
export interface DeltaList {
  rels: number[];
  nbrs: number[];
}

/** Smallest delta (plus tombstones) that triggers a merge, so tiny graphs do not merge on every commit. */
const MIN_MERGE_ENTRIES = 4096;

/** Relationship ids that are deleted (in an open transaction or since): shared by every block. */
export class AdjacencyTombstones {
  bits: Uint32Array = sharedBits(1024);

  /** Makes room for ids up to `relId`, so readers may index the bits without a bounds check. */
  ensure(relId: number): void {
    if (relId >= this.bits.length * 32) this.bits = grownBits(this.bits, Math.max(relId + 1, this.bits.length * 64));
  }

  set(relId: number): void {
    this.ensure(relId);
    bitSet(this.bits, relId);
  }

  clear(relId: number): void {
    if (relId < this.bits.length * 32) bitClear(this.bits, relId);
  }

  has(relId: number): boolean {
    return relId < this.bits.length * 32 && bitGet(this.bits, relId);
  }
}

/** A block's base columns (immutable once made, so any thread may hold them). */
export interface BlockBase {
  offsets: Int32Array;
  rels: Int32Array;
  nbrs: Int32Array;
  rowStart: number;
  rowEnd: number;
}

/**
 * A block as a graph image carries it: the base shared, the delta as parallel columns of
 * (node, relationship, neighbour) in append order, and how many stored entries are dead.
 */
export interface BlockImage extends BlockBase {
  deltaNodes: Int32Array;
  deltaRels: Int32Array;
  deltaNbrs: Int32Array;
  deadEntries: number;
}

const EMPTY_OFFSETS = sharedInt32(1);
const EMPTY_COLUMN = sharedInt32(0);

export class AdjacencyBlock {
  /** CSR row starts by `v - rowStart`; `offsets[v - rowStart + 1]` ends row `v`; length `rowEnd - rowStart + 1`. */
  offsets: Int32Array = EMPTY_OFFSETS;
  rels: Int32Array = EMPTY_COLUMN;
  nbrs: Int32Array = EMPTY_COLUMN;
  /** The base has rows for node ids `rowStart .. rowEnd - 1`. */
  rowStart = 0;
  rowEnd = 0;
  /** Per node id, entries appended since the last merge (sparse). */
  delta: (DeltaList | undefined)[] = [];
  /**
   * Whether `nbrs` is a view of the bulk load's entity arrays (a type whose relationships were
   * loaded as one run in start order: its outgoing neighbours are its end column as it is), so
   * its bytes are counted there, not here.
   */
  nbrsBorrowed = false;
  /** Entries in `delta`. */
  deltaEntries = 0;
  /** Entries (base or delta) whose relationship is tombstoned, reclaimed by the next merge. */
  deadEntries = 0;

  /** Index of node `v`'s base row in `offsets`, or -1 when the base has no row for it. */
  baseRow(v: number): number {
    return v >= this.rowStart && v < this.rowEnd ? v - this.rowStart : -1;
  }

  /** Appends relationship `relId` to node `v`'s list, towards `nbrId`. */
  append(v: number, relId: number, nbrId: number): void {
    const delta = this.delta;
    while (delta.length < v) delta.push(undefined);
    const list = delta[v];
    if (list === undefined) delta[v] = { rels: [relId], nbrs: [nbrId] };
    else {
      list.rels.push(relId);
      list.nbrs.push(nbrId);
    }
    this.deltaEntries++;
  }

  /** Removes the newest entry of node `v` (the exact inverse of its last `append`); false when it is not `relId`. */
  popLast(v: number, relId: number): boolean {
    const list = this.delta[v];
    if (list === undefined || list.rels[list.rels.length - 1] !== relId) return false;
    list.rels.pop();
    list.nbrs.pop();
    if (list.rels.length === 0) this.delta[v] = undefined;
    this.deltaEntries--;
    return true;
  }

  /** Entries stored (live or tombstoned). */
  get storedEntries(): number {
    return this.rels.length + this.deltaEntries;
  }

  /** Whether the delta and the tombstones have grown enough to be worth a merge. */
  needsMerge(): boolean {
    const pending = this.deltaEntries + this.deadEntries;
    return pending > 0 && pending >= Math.max(MIN_MERGE_ENTRIES, this.rels.length >>> 2);
  }

  /**
   * Rebuilds the base from base + delta, dropping tombstoned entries. Must not run inside a
   * transaction (undo relies on delta positions).
   */
  merge(dead: AdjacencyTombstones): void {
    const bits = dead.bits;
    const isDead = (r: number): boolean => r < bits.length * 32 && (bits[r >>> 5] & (1 << (r & 31))) !== 0;
    const oldOffsets = this.offsets;
    const oldRels = this.rels;
    const oldNbrs = this.nbrs;
    const oldStart = this.rowStart;
    const oldEnd = this.rowEnd;
    const delta = this.delta;
    let start = oldEnd > oldStart ? oldStart : delta.length;
    for (let v = 0; v < start; v++) {
      if (delta[v] !== undefined) {
        start = v;
        break;
      }
    }
    const end = Math.max(oldEnd, delta.length);
    if (end <= start) {
      this.clearBase();
      return;
    }
    const offsets = sharedInt32(end - start + 1);
    let count = 0;
    for (let v = start; v < end; v++) {
      offsets[v - start] = count;
      if (v >= oldStart && v < oldEnd) for (let i = oldOffsets[v - oldStart], e = oldOffsets[v - oldStart + 1]; i < e; i++) if (!isDead(oldRels[i])) count++;
      const list = delta[v];
      if (list !== undefined) for (const r of list.rels) if (!isDead(r)) count++;
    }
    offsets[end - start] = count;
    const rels = sharedInt32(count);
    const nbrs = sharedInt32(count);
    let e = 0;
    for (let v = start; v < end; v++) {
      if (v >= oldStart && v < oldEnd) {
        for (let i = oldOffsets[v - oldStart], stop = oldOffsets[v - oldStart + 1]; i < stop; i++) {
          const r = oldRels[i];
          if (isDead(r)) continue;
          rels[e] = r;
          nbrs[e++] = oldNbrs[i];
        }
      }
      const list = delta[v];
      if (list === undefined) continue;
      for (let k = 0; k < list.rels.length; k++) {
        const r = list.rels[k];
        if (isDead(r)) continue;
        rels[e] = r;
        nbrs[e++] = list.nbrs[k];
      }
    }
    this.offsets = offsets;
    this.rels = rels;
    this.nbrs = nbrs;
    this.nbrsBorrowed = false;
    this.rowStart = start;
    this.rowEnd = end;
    this.delta = [];
    this.deltaEntries = 0;
    this.deadEntries = 0;
  }

  /** The base columns as they are now (shared, not copied). */
  base(): BlockBase {
    return { offsets: this.offsets, rels: this.rels, nbrs: this.nbrs, rowStart: this.rowStart, rowEnd: this.rowEnd };
  }

  /**
   * Takes `base` — another graph's merge of this same block at this same state — in place of
   * its own base and delta. Throws when the live entries do not match (the graphs diverged).
   */
  adopt(base: BlockBase): void {
    const live = this.storedEntries - this.deadEntries;
    if (live !== base.rels.length) throw new InternalError(`An adopted adjacency base holds ${base.rels.length} entries, but the block has ${live} live ones`);
    this.setBase(base);
    this.delta = [];
    this.deltaEntries = 0;
    this.deadEntries = 0;
  }

  /** The block as a graph image carries it (`BlockImage`): the base shared, the delta copied. */
  image(): BlockImage {
    const deltaNodes = new Int32Array(this.deltaEntries);
    const deltaRels = new Int32Array(this.deltaEntries);
    const deltaNbrs = new Int32Array(this.deltaEntries);
    let k = 0;
    this.delta.forEach((list, v) => {
      if (list === undefined) return;
      for (let i = 0; i < list.rels.length; i++, k++) {
        deltaNodes[k] = v;
        deltaRels[k] = list.rels[i];
        deltaNbrs[k] = list.nbrs[i];
      }
    });
    return { ...this.base(), deltaNodes, deltaRels, deltaNbrs, deadEntries: this.deadEntries };
  }

  /** A block built from its image (`image`), sharing the base. */
  static fromImage(image: BlockImage): AdjacencyBlock {
    const block = new AdjacencyBlock();
    block.setBase(image);
    for (let k = 0; k < image.deltaNodes.length; k++) block.append(image.deltaNodes[k], image.deltaRels[k], image.deltaNbrs[k]);
    block.deadEntries = image.deadEntries;
    return block;
  }

  private setBase(base: BlockBase): void {
    this.offsets = base.offsets;
    this.rels = base.rels;
    this.nbrs = base.nbrs;
    this.nbrsBorrowed = false;
    this.rowStart = base.rowStart;
    this.rowEnd = base.rowEnd;
  }

  private clearBase(): void {
    this.offsets = EMPTY_OFFSETS;
    this.rels = EMPTY_COLUMN;
    this.nbrs = EMPTY_COLUMN;
    this.nbrsBorrowed = false;
    this.rowStart = 0;
    this.rowEnd = 0;
    this.delta = [];
    this.deltaEntries = 0;
    this.deadEntries = 0;
  }

  /**
   * Replaces an empty block's base by the CSR of `count` entries given as parallel columns
   * (`from[i]` lists relationship `relIds[i]` towards `to[i]`). A counting sort by `from`,
   * stable, so each row keeps the order of the input (relationship id order on a load, which
   * is the order appends would have given). Rows span the smallest to the largest `from`.
   * `relIds` may be a number: the entries are then relationships `relIds … relIds + count - 1`
   * (a type loaded as one run of ids, whose ends a load passes as views of its arrays); when
   * `from` is then already in row order, `to` (shared memory) becomes the base's `nbrs` as it is.
   */
  fill(count: number, relIds: Int32Array | number, from: Int32Array, to: Int32Array): void {
    if (this.storedEntries > 0) throw new InternalError('AdjacencyBlock.fill needs an empty block');
    if (count === 0) return;
    let start = from[0];
    let end = from[0];
    for (let i = 1; i < count; i++) {
      const v = from[i];
      if (v < start) start = v;
      else if (v > end) end = v;
    }
    end++;
    const rows = end - start;
    const offsets = sharedInt32(rows + 1);
    for (let i = 0; i < count; i++) offsets[from[i] - start + 1]++;
    for (let v = 0; v < rows; v++) offsets[v + 1] += offsets[v];
    if (typeof relIds === 'number' && to.buffer instanceof SharedArrayBuffer && nondecreasing(from, count)) {
      // Already in row order: the neighbours are `to` itself (never written, like any base) and
      // the relationships count up, so neither needs the counting sort's cursor or a copy.
      const rels = sharedInt32(count);
      for (let i = 0; i < count; i++) rels[i] = relIds + i;
      this.offsets = offsets;
      this.rels = rels;
      this.nbrs = to.length === count ? to : to.subarray(0, count);
      this.nbrsBorrowed = true;
      this.rowStart = start;
      this.rowEnd = end;
      return;
    }
    const rels = sharedInt32(count);
    const nbrs = sharedInt32(count);
    if (count >= PARTITION_FROM && rows >= PARTITION_ROWS_FROM) placePartitioned(count, relIds, from, to, start, offsets, rels, nbrs);
    else {
      // The offsets serve as the placing cursor (shifted: `offsets[r + 1]` starts at row r's
      // start and ends at its end, which is row r + 1's start), so no temporary array is made:
      // a load of many blocks left each cursor behind as a hole in the allocator's heap.
      for (let r = rows; r > 0; r--) offsets[r] = offsets[r - 1];
      if (typeof relIds === 'number') {
        for (let i = 0; i < count; i++) {
          const at = offsets[from[i] - start + 1]++;
          rels[at] = relIds + i;
          nbrs[at] = to[i];
        }
      } else {
        for (let i = 0; i < count; i++) {
          const at = offsets[from[i] - start + 1]++;
          rels[at] = relIds[i];
          nbrs[at] = to[i];
        }
      }
    }
    this.offsets = offsets;
    this.rels = rels;
    this.nbrs = nbrs;
    this.rowStart = start;
    this.rowEnd = end;
  }

  /** Bytes of the base columns and (estimated) delta lists. */
  memoryBytes(): number {
    return this.baseBytes() + this.deltaEntries * 16 + this.delta.length * 8;
  }

  /** Bytes of the base columns alone (what replicas share). */
  baseBytes(): number {
    return this.offsets.byteLength + this.rels.byteLength + (this.nbrsBorrowed ? 0 : this.nbrs.byteLength);
  }
}

/** Entries and rows from which `fill` places by partitions (`placePartitioned`). */
const PARTITION_FROM = 1 << 20;
const PARTITION_ROWS_FROM = 1 << 16;
/** About how many entries a partition of rows holds, so that its part of the columns stays in cache. */
const PARTITION_ENTRIES = 1 << 16;

/**
 * The placing step of `fill` for a large block, in two cache-friendly passes instead of one
 * whose every write lands at random in columns of many megabytes (about 60 ns an entry at
 * snb-1M, most of the bulk load). `offsets` already holds the row starts (`offsets[r]`).
 * Rows are cut into partitions of 2^k consecutive rows (about `PARTITION_ENTRIES` entries
 * each); the first pass copies each entry, in input order, to the next free slot of its
 * partition's range of the columns (a few hundred sequential write streams), with its row
 * beside it; the second sorts each partition's range by row through a scratch copy of it.
 * Both passes keep input order within a row, so the result is the one-pass counting sort's.
 */
function placePartitioned(count: number, relIds: Int32Array | number, from: Int32Array, to: Int32Array, start: number, offsets: Int32Array, rels: Int32Array, nbrs: Int32Array): void {
  const rows = offsets.length - 1;
  const shift = Math.max(6, Math.min(16, Math.floor(Math.log2((rows * PARTITION_ENTRIES) / count))));
  const parts = ((rows - 1) >>> shift) + 1;
  const cursor = new Int32Array(parts);
  for (let p = 0; p < parts; p++) cursor[p] = offsets[p << shift];
  const rowOf = new Int32Array(count);
  const run = typeof relIds === 'number' ? relIds : 0;
  const ids = typeof relIds === 'number' ? undefined : relIds;
  for (let i = 0; i < count; i++) {
    const row = from[i] - start;
    const at = cursor[row >>> shift]++;
    rowOf[at] = row;
    rels[at] = ids === undefined ? run + i : ids[i];
    nbrs[at] = to[i];
  }
  let largest = 0;
  for (let p = 0; p < parts; p++) largest = Math.max(largest, offsets[Math.min(rows, (p + 1) << shift)] - offsets[p << shift]);
  const scratchRows = new Int32Array(largest);
  const scratchRels = new Int32Array(largest);
  const scratchNbrs = new Int32Array(largest);
  const place = new Int32Array(1 << shift);
  for (let p = 0; p < parts; p++) {
    const firstRow = p << shift;
    const lastRow = Math.min(rows, firstRow + (1 << shift));
    const a = offsets[firstRow];
    const b = offsets[lastRow];
    if (b - a <= 1) continue;
    scratchRows.set(rowOf.subarray(a, b));
    scratchRels.set(rels.subarray(a, b));
    scratchNbrs.set(nbrs.subarray(a, b));
    for (let r = firstRow; r < lastRow; r++) place[r - firstRow] = offsets[r];
    for (let k = 0, n = b - a; k < n; k++) {
      const at = place[scratchRows[k] - firstRow]++;
      rels[at] = scratchRels[k];
      nbrs[at] = scratchNbrs[k];
    }
  }
}

/** Whether the first `count` entries of `values` never decrease. */
function nondecreasing(values: Int32Array, count: number): boolean {
  for (let i = 1; i < count; i++) if (values[i] < values[i - 1]) return false;
  return true;
}

/** Adjacency blocks of one direction, by relationship type id (sparse). */
export type AdjacencyBlocks = (AdjacencyBlock | undefined)[];

/**
 * Calls `visit(relId, nbrId, isIn)` for each live entry of node `v` in `block`: base entries,
 * then delta entries, tombstones skipped; `isIn` is passed through (whether `block` lists
 * incoming relationships), so a caller walking both directions needs no wrapper per side. The
 * one adjacency iterator of the store (generated code inlines the same loop).
 */
export function forEachInBlock(block: AdjacencyBlock, v: number, dead: AdjacencyTombstones, visit: (relId: number, nbrId: number, isIn: boolean) => void, isIn = false): void {
  const bits = dead.bits;
  const row = block.baseRow(v);
  if (row >= 0) {
    const rels = block.rels;
    const nbrs = block.nbrs;
    for (let i = block.offsets[row], end = block.offsets[row + 1]; i < end; i++) {
      const r = rels[i];
      if ((bits[r >>> 5] & (1 << (r & 31))) !== 0) continue;
      visit(r, nbrs[i], isIn);
    }
  }
  const list = block.delta[v];
  if (list === undefined) return;
  const rels = list.rels;
  const nbrs = list.nbrs;
  // Entries appended during the visit (a write in the same query) are not visited.
  for (let k = 0, end = rels.length; k < end && k < rels.length; k++) {
    const r = rels[k];
    if ((bits[r >>> 5] & (1 << (r & 31))) !== 0) continue;
    visit(r, nbrs[k], isIn);
  }
}

/** Live entries of node `v` in `block`. */
export function degreeInBlock(block: AdjacencyBlock, v: number, dead: AdjacencyTombstones): number {
  let n = 0;
  forEachInBlock(block, v, dead, () => n++);
  return n;
}
