/**
 * The direction-optimising BFS's levels on the WebAssembly steps
 * (wasm/bfs-kernel.ts): the memory that holds one CSR's rows (and its incoming rows, when
 * they are another CSR), the search's depths, queues, frontier bitmaps and counts, as views
 * that bfs-parallel.ts's search reads and writes as it does its plain arrays; and the level
 * drivers, which cut a level into calls of at most `CHECK_NODES` nodes and check the
 * deadline between them, as the JavaScript steps do every 4096; and the steps between levels
 * and after the last (wasm/bfs-convert-kernel.ts: the queue as a bitmap, a level's nodes as a
 * queue, the visit order).
 *
 * On several threads the memory is a shared one (instance.ts's `instanceFor`) and each
 * level is a task of the worker pool (parallel.ts), every thread instantiating the same
 * compiled module over the same memory: top-down over blocks of the frontier with
 * `bfsTopDownShared` (claims by compare-and-swap, queue slots by atomic add), bottom-up over
 * blocks of nodes (cut at multiples of 32) with `bfsBottomUp`, each block counting into a
 * pair of its own that the caller adds up. The conversions between levels and the order stay
 * on the calling thread.
 *
 * Memory layout (byte addresses, all int32): offsets (n + 1) and targets (m), the incoming
 * offsets and targets when apart, then depth, queue and next queue (n each), the two bitmaps
 * (one bit per node), the two counts and the blocks' count pairs (`MAX_BLOCKS`). Kept per CSR
 * and incoming CSR (instance.ts's `keptMemory`: a CSR keeps the memory of the kernel that ran
 * last over it), so a repeated search over a cached projection copies nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { controlArray, registerKernel, runTask, type TaskBase } from '../parallel.js';
import type { BfsBottomUp, BfsTopDown } from './bfs-kernel.js';
import { instanceFor, keptMemory, poolExports, wasmKernelsOn, type WasmKernels, type WasmMemory } from './instance.js';

/** Nodes per kernel call: the deadline is checked between calls. */
const CHECK_NODES = 4096;

/** The most bottom-up blocks a level has on the pool (32 per thread, 64 threads), each with a count pair. */
const MAX_BLOCKS = 2048;

/** One level on the pool: blocks as items, byte addresses into the shared `memory`. */
export interface BfsWasmTask extends TaskBase {
  module: object;
  memory: WasmMemory;
  /** 0 top-down, 1 bottom-up. */
  step: number;
  next: number;
  offsets: number;
  targets: number;
  inOffsets: number;
  inTargets: number;
  depth: number;
  /** Top-down: the frontier queue, its size and block length, the next queue, the shared counts. */
  queue: number;
  size: number;
  chunk: number;
  nextQueue: number;
  found: number;
  /** Bottom-up: the bitmaps, the blocks' cuts (multiples of 32) and their count pairs. */
  frontier: number;
  nextFrontier: number;
  cuts: Int32Array;
  blockFound: number;
}

/** The functions a pool thread calls on its instance. */
interface BfsWasmExports {
  bfsTopDownShared: BfsTopDown;
  bfsBottomUp: BfsBottomUp;
}

/** Block `b` of a level, on whichever thread claims it. Shipped to the workers as text, with `poolExports`. */
export function bfsWasmItem(t: BfsWasmTask, b: number, deadline: Deadline): void {
  const fns = poolExports<BfsWasmExports>(t.module, t.memory);
  if (t.step === 0) {
    const from = b * t.chunk;
    const to = Math.min(t.size, from + t.chunk);
    for (let at = from; at < to; at += 4096) {
      deadline();
      fns.bfsTopDownShared(t.queue + 4 * at, Math.min(4096, to - at), t.next, t.offsets, t.targets, t.depth, t.nextQueue, t.found);
    }
    return;
  }
  const found = t.blockFound + 8 * b;
  const pair = new Int32Array(t.memory.buffer, found, 2);
  pair[0] = 0;
  pair[1] = 0;
  const last = t.cuts[b + 1];
  for (let from = t.cuts[b]; from < last; from += 4096) {
    deadline();
    fns.bfsBottomUp(from, Math.min(last, from + 4096), t.next, t.offsets, t.inOffsets, t.inTargets, t.depth, t.frontier, t.nextFrontier, found);
  }
}

registerKernel('bfsWasm', bfsWasmItem, [poolExports]);

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
  /** On the pool, each bottom-up block's pair of counts. */
  private readonly blockFound: Int32Array;

  /** `module` is given when `memory` is shared: then levels may run on the pool. */
  constructor(private readonly kernels: WasmKernels, private readonly memory: WasmMemory, readonly csr: Csr, readonly incoming: Csr, private readonly module?: object) {
    const buffer = memory.buffer;
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
    this.blockFound = ints(2 * MAX_BLOCKS);
  }

  /** The bytes a memory for `csr` and `incoming` needs. */
  static bytes(csr: Csr, incoming: Csr): number {
    const n = csr.n;
    const rows = n + 1 + csr.offsets[n] + (incoming === csr ? 0 : n + 1 + incoming.offsets[n]);
    return 4 * (rows + 3 * n + 2 * ((n + 31) >> 5) + 2 + 2 * MAX_BLOCKS);
  }

  /** Whether the memory is shared, so that levels can run on several threads. */
  get shared(): boolean {
    return this.module !== undefined;
  }

  /** A level's task on the pool: the fields both steps share, the rest zero. */
  private poolTask(step: number, next: number, items: number, deadline: Deadline): BfsWasmTask {
    if (this.module === undefined) throw new Error('the BFS on the pool needs a shared WebAssembly memory');
    // Checked here too: the workers may take every block before the calling thread claims one.
    deadline();
    return {
      kernel: 'bfsWasm', items, control: controlArray(), module: this.module, memory: this.memory, step, next,
      offsets: this.offsets.byteOffset, targets: this.targets.byteOffset, inOffsets: this.inOffsets.byteOffset, inTargets: this.inTargets.byteOffset,
      depth: this.depth.byteOffset, queue: 0, size: 0, chunk: 0, nextQueue: 0, found: this.found.byteOffset,
      frontier: 0, nextFrontier: 0, cuts: NO_CUTS, blockFound: this.blockFound.byteOffset,
    };
  }

  /** `topDown` on `threads` threads, the frontier cut into blocks of `chunk` nodes; found[0] must be 0. */
  topDownOnPool(queue: Int32Array, size: number, nextQueue: Int32Array, next: number, chunk: number, threads: number, deadline: Deadline): void {
    const task = this.poolTask(0, next, Math.ceil(size / chunk), deadline);
    task.queue = queue.byteOffset;
    task.size = size;
    task.chunk = chunk;
    task.nextQueue = nextQueue.byteOffset;
    runTask(task, threads, deadline);
  }

  /** `bottomUp` on `threads` threads over the blocks `cuts` (multiples of 32 nodes); the blocks' counts are added into `found`. */
  bottomUpOnPool(frontier: Int32Array, nextFrontier: Int32Array, next: number, cuts: Int32Array, threads: number, deadline: Deadline): void {
    const blocks = cuts.length - 1;
    if (blocks > MAX_BLOCKS) throw new Error(`a bottom-up level has at most ${MAX_BLOCKS} blocks (${blocks} asked)`);
    const task = this.poolTask(1, next, blocks, deadline);
    task.frontier = frontier.byteOffset;
    task.nextFrontier = nextFrontier.byteOffset;
    task.cuts = cuts;
    runTask(task, threads, deadline);
    let count = 0;
    let degrees = 0;
    for (let b = 0; b < blocks; b++) {
      count += this.blockFound[2 * b];
      degrees += this.blockFound[2 * b + 1];
    }
    this.found[0] += count;
    this.found[1] += degrees;
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
 * run (the caller then runs its JavaScript steps). With `shared` (levels on several threads)
 * the memory must be a shared one; a kept shared memory also serves one thread.
 */
export function wasmBfs(csr: Csr, incoming: Csr, shared = false): WasmBfs | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'bfs-do', (kept: WasmBfs) => kept.incoming === incoming && (kept.shared || !shared), () => {
    const made = instanceFor(WasmBfs.bytes(csr, incoming), shared);
    return made === undefined ? undefined : new WasmBfs(made.kernels, made.memory, csr, incoming, made.module);
  });
}

const NO_CUTS = new Int32Array(0);
