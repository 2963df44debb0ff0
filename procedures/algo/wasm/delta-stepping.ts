/**
 * Delta-stepping's one-thread search on the WebAssembly round (wasm/delta-stepping-kernel.ts):
 * the memory that holds one CSR's rows split for one bucket width, the search's per-node
 * block and its distances, all as views that delta-stepping.ts's search reads and writes as
 * it does its plain arrays, and the round driver that cuts a round into calls of at most
 * `CHECK_NODES` nodes, checking the deadline between them as `relaxSolo` does every 4096.
 *
 * On several threads the memory is a shared one (instance.ts's `instanceFor`): a
 * round of more than one block is a task of the worker pool (parallel.ts) whose items are
 * blocks of the round's nodes, every thread instantiating the same compiled module over the
 * same memory and relaxing its blocks with `deltaRelaxShared` (distances lowered by
 * compare-and-swap on their bits, stamps by compare-and-swap, list slots by atomic add). The
 * buckets, the heavy lists and the order stay on the calling thread, between rounds.
 *
 * Memory layout (byte addresses, doubles 8-aligned): the split rows' offsets (n + 1 int32),
 * split points (n int32) and targets (m int32), their weights (m doubles), the distances (n
 * doubles), the window's base (a double), the search block (8n + 2 int32, delta-stepping.ts's
 * `searchBlock` layout), then the buckets' lists (wasm/delta-buckets-kernel.ts: next, prev
 * and where, n int32 each, and WINDOW + 1 heads). The
 * split rows are written straight into the memory (by the caller's `fill`, the same code as
 * the JavaScript rows), not kept a second time outside it; the memory is kept per CSR
 * (instance.ts's `keptMemory`) and made again when the width changes or another kernel ran
 * over the CSR since.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { controlArray, registerKernel, runTask, type TaskBase } from '../parallel.js';
import { WINDOW } from './delta-buckets-kernel.js';
import type { DeltaRelax } from './delta-stepping-kernel.js';
import { instanceFor, keptMemory, poolExports, wasmKernelsOn, type WasmKernels, type WasmMemory } from './instance.js';

/** Nodes per kernel call: the deadline is checked between calls. */
const CHECK_NODES = 4096;

const align8 = (bytes: number): number => (bytes + 7) & ~7;

/** Split rows: row v's light edges are offsets[v] .. split[v], its heavy ones split[v] .. offsets[v + 1]. */
export interface SplitRows {
  offsets: Int32Array;
  split: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
}

/** One round on the pool: blocks of `chunk` of the round's nodes as items, byte addresses into the shared `memory`. */
export interface DeltaWasmTask extends TaskBase {
  module: object;
  memory: WasmMemory;
  nodes: number;
  size: number;
  chunk: number;
  light: number;
  width: number;
  limit: number;
  round: number;
  offsets: number;
  split: number;
  targets: number;
  weights: number;
  dist: number;
  near: number;
  far: number;
  nearMark: number;
  farMark: number;
  found: number;
}

/**
 * Block `b` of a round, on whichever thread claims it, in calls of 4096 nodes (CHECK_NODES:
 * kernels see no module constants) with the deadline checked between them. Shipped to the
 * workers as text, with `poolExports`.
 */
export function deltaWasmItem(t: DeltaWasmTask, b: number, deadline: Deadline): void {
  const relax = poolExports<{ deltaRelaxShared: DeltaRelax }>(t.module, t.memory).deltaRelaxShared;
  const from = b * t.chunk;
  const to = Math.min(t.size, from + t.chunk);
  for (let at = from; at < to; at += 4096) {
    deadline();
    relax(t.nodes + 4 * at, Math.min(4096, to - at), t.light, t.width, t.limit, t.round, t.offsets, t.split, t.targets, t.weights, t.dist, t.near, t.far, t.nearMark, t.farMark, t.found);
  }
}

registerKernel('deltaSteppingWasm', deltaWasmItem, [poolExports]);

export class WasmDeltaStepping {
  readonly rows: SplitRows;
  readonly dist: Float64Array;
  /** The search's per-node block (see delta-stepping.ts's `searchBlock`). */
  readonly block: Int32Array;
  /** The buckets' lists (see wasm/delta-buckets-kernel.ts) and the window's base. */
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly where: Int32Array;
  private readonly head: Int32Array;
  private readonly state: Float64Array;
  /** A group's distances for the result order (byDistance). */
  private readonly keys: Float64Array;

  /** `module` is given when `memory` is shared: then rounds may run on the pool. */
  constructor(private readonly kernels: WasmKernels, private readonly memory: WasmMemory, readonly width: number, n: number, m: number, private readonly module?: object) {
    const buffer = memory.buffer;
    let at = 0;
    const ints = (length: number): Int32Array => {
      const view = new Int32Array(buffer, at, length);
      at += 4 * length;
      return view;
    };
    const doubles = (length: number): Float64Array => {
      at = align8(at);
      const view = new Float64Array(buffer, at, length);
      at += 8 * length;
      return view;
    };
    const offsets = ints(n + 1);
    const split = ints(n);
    const targets = ints(m);
    const weights = doubles(m);
    this.rows = { offsets, split, targets, weights };
    this.dist = doubles(n);
    this.state = doubles(1);
    this.keys = doubles(n);
    this.block = ints(8 * n + 2);
    this.next = ints(n);
    this.prev = ints(n);
    this.where = ints(n);
    this.head = ints(WINDOW + 1);
  }

  /** The bytes a memory for `n` nodes and `m` entries needs. */
  static bytes(n: number, m: number): number {
    return align8(4 * (2 * n + 1 + m)) + 8 * (m + 2 * n + 1) + 4 * (11 * n + 2 + WINDOW + 1);
  }

  /** Whether the memory is shared, so that rounds can run on several threads. */
  get shared(): boolean {
    return this.module !== undefined;
  }

  /** Every bucket empty, the window from bucket 0. */
  reset(): void {
    this.where.fill(0);
    this.head.fill(-1);
    this.state[0] = 0;
  }

  /** Files each of `far[0 .. count)` whose bucket lies past `bucket`, moving it out of a higher one. */
  file(far: Int32Array, count: number, bucket: number): void {
    this.kernels.deltaFile(far.byteOffset, count, bucket, this.width, this.dist.byteOffset, this.next.byteOffset, this.prev.byteOffset, this.where.byteOffset, this.head.byteOffset, this.state.byteOffset);
  }

  /** The lowest non-empty bucket from `from` on, or -1. */
  nextBucket(from: number): number {
    return this.kernels.deltaNext(from, this.width, this.dist.byteOffset, this.next.byteOffset, this.prev.byteOffset, this.where.byteOffset, this.head.byteOffset, this.state.byteOffset);
  }

  /** Empties bucket `bucket` (from nextBucket) into `queue`; returns the nodes whose distance still lies in it. */
  take(bucket: number, queue: Int32Array): number {
    return this.kernels.deltaTake(bucket, this.width, this.dist.byteOffset, this.next.byteOffset, this.where.byteOffset, this.head.byteOffset, queue.byteOffset, this.state.byteOffset);
  }

  /**
   * delta-stepping.ts's `byDistance` on the memory, once the search is done: the reached
   * nodes (rankOf[v] > 0, 1 .. `ranks`) by distance, then index, copied out. The search's
   * lists are free by then: the order is placed in the queue, the group starts in the next
   * four parts of the block, a group's slots and moved nodes in the heavy list and its marks,
   * its counts in the buckets' next and prev arrays.
   */
  byDistance(rankOf: Int32Array, ranks: number): { order: Int32Array; count: number } {
    const k = this.kernels;
    const n = this.dist.length;
    const block = this.block;
    const start = block.subarray(n, n + ranks + 2).fill(0);
    k.deltaCount(rankOf.byteOffset, n, start.byteOffset);
    const count = n - start[1];
    // Group r from start[r] on; the unreached nodes (rank 0) after all of them.
    start[0] = count;
    start[1] = 0;
    for (let r = 1; r <= ranks; r++) start[r + 1] += start[r];
    const order = block.subarray(0, n);
    k.bfsOrder(rankOf.byteOffset, n, start.byteOffset, order.byteOffset);
    // Placing moved each start[r] to group r's end, start[r + 1] before.
    const slot = block.subarray(5 * n, 6 * n);
    const moved = block.subarray(6 * n, 7 * n);
    for (let r = 1, from = 0; r <= ranks; r++) {
      const size = start[r] - from;
      if (size >= 2) {
        k.deltaGroupKeys(this.dist.byteOffset, order.byteOffset, from, size, this.keys.byteOffset);
        this.keys.subarray(0, size).sort();
        k.deltaGroupPlace(this.dist.byteOffset, order.byteOffset, from, size, this.keys.byteOffset, slot.byteOffset, this.next.byteOffset, moved.byteOffset);
      }
      from = start[r];
    }
    return { order: order.slice(0, count), count };
  }

  /** Lists `nodes[0 .. size)` in `heavy` from `heavySize` on, each once per heavy pass (heavyMark), stamped with `rank`; returns the new size. */
  heavyList(nodes: Int32Array, size: number, pass: number, rank: number, heavyMark: Int32Array, rankOf: Int32Array, heavy: Int32Array, heavySize: number): number {
    return this.kernels.deltaHeavy(nodes.byteOffset, size, pass, rank, heavyMark.byteOffset, rankOf.byteOffset, heavy.byteOffset, heavySize);
  }

  /**
   * One round (relaxSolo's contract): the light or heavy edges of `nodes[0 .. size)` (a view
   * into the block), lowered nodes into `near` and `far` (views into the block), their counts
   * into `found` (the block's last two entries).
   */
  relax(nodes: Int32Array, size: number, light: boolean, bucket: number, round: number, near: Int32Array, far: Int32Array, nearMark: Int32Array, farMark: Int32Array, found: Int32Array, deadline: Deadline): void {
    const relaxRows = this.kernels.deltaRelax;
    const { offsets, split, targets, weights } = this.rows;
    found[0] = 0;
    found[1] = 0;
    for (let from = 0; from < size; from += CHECK_NODES) {
      deadline();
      relaxRows(
        nodes.byteOffset + 4 * from, Math.min(CHECK_NODES, size - from), light ? 1 : 0, this.width, bucket + 1, round,
        offsets.byteOffset, split.byteOffset, targets.byteOffset, weights.byteOffset, this.dist.byteOffset,
        near.byteOffset, far.byteOffset, nearMark.byteOffset, farMark.byteOffset, found.byteOffset,
      );
    }
  }

  /**
   * `relax` on `threads` threads: the round's nodes in blocks (of `chunk`, about eight per
   * thread and at least 64 nodes, as the JavaScript rounds on the pool cut them), each block a
   * pool task's item relaxed by `deltaRelaxShared`; the lowered nodes land in `near` and
   * `far` in whatever order the threads find them, their counts in `found`. A round of one
   * block runs as `relax` on this thread. Only for a shared memory (`shared`).
   */
  relaxOnPool(nodes: Int32Array, size: number, light: boolean, bucket: number, round: number, near: Int32Array, far: Int32Array, nearMark: Int32Array, farMark: Int32Array, found: Int32Array, threads: number, deadline: Deadline): void {
    const chunk = Math.max(64, Math.ceil(size / (8 * threads)));
    const items = Math.ceil(size / chunk);
    if (items <= 1 || this.module === undefined) {
      this.relax(nodes, size, light, bucket, round, near, far, nearMark, farMark, found, deadline);
      return;
    }
    // Checked here too: the workers may take every block before this thread claims one.
    deadline();
    found[0] = 0;
    found[1] = 0;
    const { offsets, split, targets, weights } = this.rows;
    const task: DeltaWasmTask = {
      kernel: 'deltaSteppingWasm', items, control: controlArray(), module: this.module, memory: this.memory,
      nodes: nodes.byteOffset, size, chunk, light: light ? 1 : 0, width: this.width, limit: bucket + 1, round,
      offsets: offsets.byteOffset, split: split.byteOffset, targets: targets.byteOffset, weights: weights.byteOffset, dist: this.dist.byteOffset,
      near: near.byteOffset, far: far.byteOffset, nearMark: nearMark.byteOffset, farMark: farMark.byteOffset, found: found.byteOffset,
    };
    runTask(task, threads, deadline);
  }
}

/**
 * The WebAssembly search's memory for `csr` and bucket width `width` (made, and its split rows
 * written by `fill`, at the first call and when the width changes, then kept), or undefined
 * when the WebAssembly kernels are off or cannot run (the caller then runs `relaxSolo`, or
 * its JavaScript rounds on the pool). With `shared` (rounds on several threads) the memory
 * must be a shared one; a kept shared memory also serves one thread.
 */
export function wasmDeltaStepping(csr: Csr, width: number, fill: (rows: SplitRows) => void, shared = false): WasmDeltaStepping | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'delta-stepping', (kept: WasmDeltaStepping) => kept.width === width && (kept.shared || !shared), () => {
    const n = csr.n;
    const m = csr.offsets[n];
    const made = instanceFor(WasmDeltaStepping.bytes(n, m), shared);
    if (made === undefined) return undefined;
    const search = new WasmDeltaStepping(made.kernels, made.memory, width, n, m, made.module);
    fill(search.rows);
    return search;
  });
}
