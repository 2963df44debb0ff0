/**
 * The direction-optimising BFS's one-thread levels on the WebAssembly steps
 * (wasm/bfs-kernel.ts): the memory that holds one CSR's rows (and its incoming rows, when
 * they are another CSR), the search's depths, queues, frontier bitmaps and counts, as views
 * that bfs-parallel.ts's search reads and writes as it does its plain arrays; and the level
 * drivers, which cut a level into calls of at most `CHECK_NODES` nodes and check the
 * deadline between them, as the JavaScript steps do every 4096; and the steps between levels
 * and after the last (wasm/bfs-convert-kernel.ts: the queue as a bitmap, a level's nodes as a
 * queue, the visit order).
 *
 * Memory layout (byte addresses, all int32): offsets (n + 1) and targets (m), the incoming
 * offsets and targets when apart, then depth, queue and next queue (n each), the two bitmaps
 * (one bit per node) and the two counts. Kept per CSR and incoming CSR (instance.ts's
 * `keptMemory`: a CSR keeps the memory of the kernel that ran last over it), so a repeated
 * search over a cached projection copies nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { keptMemory, wasmInstance, wasmKernelsOn, type WasmKernels } from './instance.js';

/** Nodes per kernel call: the deadline is checked between calls. */
const CHECK_NODES = 4096;

export class WasmBfs {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  readonly inOffsets: Int32Array;
  readonly inTargets: Int32Array;
  readonly depth: Int32Array;
  readonly queue: Int32Array;
  readonly nextQueue: Int32Array;
  readonly frontier: Int32Array;
  readonly nextFrontier: Int32Array;
  /** [0] nodes found (top-down: the next queue's length), [1] their out-degrees summed. */
  readonly found: Int32Array;

  constructor(private readonly kernels: WasmKernels, buffer: ArrayBuffer, readonly csr: Csr, readonly incoming: Csr) {
    let at = 0;
    const ints = (length: number): Int32Array => {
      const view = new Int32Array(buffer, at, length);
      at += 4 * length;
      return view;
    };
    const n = csr.n;
    this.offsets = ints(n + 1);
    this.offsets.set(csr.offsets);
    this.targets = ints(csr.offsets[n]);
    this.targets.set(csr.targets.subarray(0, csr.offsets[n]));
    if (incoming === csr) {
      this.inOffsets = this.offsets;
      this.inTargets = this.targets;
    } else {
      this.inOffsets = ints(n + 1);
      this.inOffsets.set(incoming.offsets);
      this.inTargets = ints(incoming.offsets[n]);
      this.inTargets.set(incoming.targets.subarray(0, incoming.offsets[n]));
    }
    const words = (n + 31) >> 5;
    this.depth = ints(n);
    this.queue = ints(n);
    this.nextQueue = ints(n);
    this.frontier = ints(words);
    this.nextFrontier = ints(words);
    this.found = ints(2);
  }

  /** The bytes a memory for `csr` and `incoming` needs. */
  static bytes(csr: Csr, incoming: Csr): number {
    const n = csr.n;
    const rows = n + 1 + csr.offsets[n] + (incoming === csr ? 0 : n + 1 + incoming.offsets[n]);
    return 4 * (rows + 3 * n + 2 * ((n + 31) >> 5) + 2);
  }

  /** A top-down level: the `size` nodes of `queue` (one of the two queue views) claim their neighbours at depth `next` into `nextQueue` (the other). */
  topDown(queue: Int32Array, size: number, nextQueue: Int32Array, next: number, deadline: Deadline): void {
    const step = this.kernels.bfsTopDown;
    for (let from = 0; from < size; from += CHECK_NODES) {
      deadline();
      step(queue.byteOffset + 4 * from, Math.min(CHECK_NODES, size - from), next, this.offsets.byteOffset, this.targets.byteOffset, this.depth.byteOffset, nextQueue.byteOffset, this.found.byteOffset);
    }
  }

  /** The `size` nodes of `queue` as bits of `bitmap` (cleared first). */
  toBitmap(queue: Int32Array, size: number, bitmap: Int32Array): void {
    this.kernels.bfsToBitmap(queue.byteOffset, size, bitmap.byteOffset, bitmap.length);
  }

  /** The nodes at depth `level`, in index order, into `queue`; returns their number. */
  atDepth(level: number, queue: Int32Array): number {
    return this.kernels.bfsAtDepth(this.depth.byteOffset, this.depth.length, level, queue.byteOffset);
  }

  /**
   * The visit order (by depth, then index) of the `count` reached nodes, `levelSize[d]` of
   * them at depth d, as a new array of n entries: placed in the memory (the queues are free
   * once the search is done) and copied out.
   */
  order(levelSize: readonly number[], count: number): Int32Array {
    const n = this.depth.length;
    const start = this.nextQueue.subarray(0, levelSize.length);
    for (let d = 0, at = 0; d < levelSize.length; d++) {
      start[d] = at;
      at += levelSize[d];
    }
    this.kernels.bfsOrder(this.depth.byteOffset, n, start.byteOffset, this.queue.byteOffset);
    const order = new Int32Array(n);
    order.set(this.queue.subarray(0, count));
    return order;
  }

  /** A bottom-up level: every unvisited node looks for a parent in `frontier` (one of the two bitmap views) and marks itself in `nextFrontier` (the other). */
  bottomUp(frontier: Int32Array, nextFrontier: Int32Array, next: number, deadline: Deadline): void {
    const step = this.kernels.bfsBottomUp;
    const n = this.depth.length;
    for (let from = 0; from < n; from += CHECK_NODES) {
      deadline();
      step(from, Math.min(n, from + CHECK_NODES), next, this.offsets.byteOffset, this.inOffsets.byteOffset, this.inTargets.byteOffset, this.depth.byteOffset, frontier.byteOffset, nextFrontier.byteOffset, this.found.byteOffset);
    }
  }
}

/**
 * The WebAssembly search's memory for `csr` with incoming rows `incoming` (made and filled
 * at the first call, then kept), or undefined when the WebAssembly kernels are off or cannot
 * run (the caller then runs its JavaScript steps).
 */
export function wasmBfs(csr: Csr, incoming: Csr): WasmBfs | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'bfs-do', (kept: WasmBfs) => kept.incoming === incoming, () => {
    const made = wasmInstance(WasmBfs.bytes(csr, incoming));
    return made === undefined ? undefined : new WasmBfs(made.kernels, made.memory.buffer, csr, incoming);
  });
}
