/**
 * PageRank's rounds on the WebAssembly kernel (wasm/pagerank-kernel.ts): the memory that
 * holds one CSR's transposed rows and the round's arrays, and the round driver: each round is
 * a task (parallel.ts) whose items are the blocks, each block cut into calls of at most 4096
 * rows with the deadline checked between them, as the JavaScript rounds do. On one thread the
 * calling thread runs the items in order.
 *
 * On several threads the memory is a shared one (instance.ts's `instanceFor`): each
 * round is a task of the worker pool (parallel.ts) whose items are the blocks, and every
 * thread, the calling one included, instantiates the same compiled module over the same
 * memory and runs its blocks there. A block writes only its own nodes and its own pair of
 * sums, and the caller adds the pairs in block order, so any thread count gives the bits of
 * one thread.
 *
 * Memory layout (byte addresses, doubles 8-aligned): each block's two running sums from 0
 * (`SUMS_BYTES`, room for the 64 blocks pageRank cuts at most), then the transposed offsets
 * (n + 1 int32) and targets (m int32), copied in once when the memory is made, then six
 * arrays of n doubles: share, teleport, and the two scores and two contributions arrays the
 * rounds swap. The memory is kept per CSR (instance.ts's `keptMemory`: a CSR keeps the memory
 * of the kernel that ran last over it), so a repeated call over a cached projection copies
 * nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { controlArray, registerKernel, runTask, type TaskBase } from '../parallel.js';
import { instanceFor, keptMemory, poolExports, wasmKernelsOn, type WasmMemory } from './instance.js';
import type { PageRankRows } from './pagerank-kernel.js';


const align8 = (bytes: number): number => (bytes + 7) & ~7;

/** The control array of a one-thread round, which runTask never reads then. */
const SOLO_CONTROL = new Int32Array(4);

/** The most blocks a round has, and the bytes their sums take at the start of the memory. */
const MAX_BLOCKS = 64;
const SUMS_BYTES = 16 * MAX_BLOCKS;

/**
 * One round on the pool: the blocks are the items; everything else is a byte address into
 * `memory`, which the threads share.
 */
export interface PageRankWasmTask extends TaskBase {
  /** The compiled module, for a worker's instance (absent for a memory that is not shared: one thread only). */
  module?: object;
  memory: WasmMemory;
  cuts: Int32Array;
  base: number;
  offsets: number;
  targets: number;
  share: number;
  teleport: number;
  x: number;
  contrib: number;
  next: number;
  contribNext: number;
}

/**
 * Block `b` of a round, on whichever thread claims it: the block's sums (at 16·b) are zeroed,
 * then its rows run in calls of 4096 with the deadline checked between them. Shipped to the
 * workers as text, with `poolExports`.
 */
export function pageRankWasmItem(t: PageRankWasmTask, b: number, deadline: Deadline): void {
  const rows = poolExports<{ pageRankRows: PageRankRows }>(t.module, t.memory).pageRankRows;
  const sums = new Float64Array(t.memory.buffer, 16 * b, 2);
  sums[0] = 0;
  sums[1] = 0;
  const last = t.cuts[b + 1];
  for (let from = t.cuts[b]; from < last; from += 4096) {
    deadline();
    rows(from, Math.min(last, from + 4096), t.base, t.offsets, t.targets, t.share, t.teleport, t.x, t.contrib, t.next, t.contribNext, 16 * b);
  }
}

registerKernel('pageRankWasm', pageRankWasmItem, [poolExports]);

export class WasmPageRank {
  readonly share: Float64Array;
  readonly teleport: Float64Array;
  /** This round's scores and contributions (the views swap with the next round's after each round). */
  x: Float64Array;
  contrib: Float64Array;
  private next: Float64Array;
  private contribNext: Float64Array;
  private readonly sums: Float64Array;
  private readonly offsetsAt: number;
  private readonly targetsAt: number;
  private readonly teleportAt: number;
  private readonly shareAt: number;

  /** `module` is given when `memory` is shared: then rounds may run on the pool. */
  constructor(private readonly memory: WasmMemory, rows: Csr, private readonly module?: object) {
    const { n } = rows;
    const buffer = memory.buffer;
    this.sums = new Float64Array(buffer, 0, 2 * MAX_BLOCKS);
    this.offsetsAt = SUMS_BYTES;
    this.targetsAt = this.offsetsAt + 4 * (n + 1);
    new Int32Array(buffer, this.offsetsAt, n + 1).set(rows.offsets);
    new Int32Array(buffer, this.targetsAt, rows.targets.length).set(rows.targets);
    let at = align8(this.targetsAt + 4 * rows.targets.length);
    const doubles = (): Float64Array => {
      const view = new Float64Array(buffer, at, n);
      at += 8 * n;
      return view;
    };
    this.shareAt = at;
    this.share = doubles();
    this.teleportAt = at;
    this.teleport = doubles();
    this.x = doubles();
    this.next = doubles();
    this.contrib = doubles();
    this.contribNext = doubles();
  }

  /** The bytes a memory for `rows` needs. */
  static bytes(rows: Csr): number {
    return align8(SUMS_BYTES + 4 * (rows.n + 1) + 4 * rows.targets.length) + 6 * 8 * rows.n;
  }

  /** Whether the memory is shared, so that rounds can run on several threads. */
  get shared(): boolean {
    return this.module !== undefined;
  }

  /**
   * One round: block by block (`cuts`), the block's change and dangling mass summed alone and
   * then added in block order, as pageRank's JavaScript rounds do; answers the round's
   * change and dangling mass in `out` and swaps the scores and contributions.
   */
  round(cuts: Int32Array, blocks: number, base: number, uniform: boolean, deadline: Deadline, out: Float64Array, threads = 1): void {
    if (blocks > MAX_BLOCKS) throw new Error(`PageRank rounds have at most ${MAX_BLOCKS} blocks (${blocks} asked)`);
    const { sums } = this;
    const pool = threads > 1 && this.module !== undefined && blocks > 1;
    const task: PageRankWasmTask = {
      kernel: 'pageRankWasm', items: blocks, control: pool ? controlArray() : SOLO_CONTROL, module: this.module, memory: this.memory, cuts, base,
      offsets: this.offsetsAt, targets: this.targetsAt, share: this.shareAt, teleport: uniform ? 0 : this.teleportAt,
      x: this.x.byteOffset, contrib: this.contrib.byteOffset, next: this.next.byteOffset, contribNext: this.contribNext.byteOffset,
    };
    // Checked here too on the pool: the workers may take every block before the calling thread claims one.
    if (pool) deadline();
    // One thread: the same blocks by the same function, in order on this thread.
    runTask(task, pool ? threads : 1, deadline);
    let delta = 0;
    let dangling = 0;
    for (let b = 0; b < blocks; b++) {
      delta += sums[2 * b];
      dangling += sums[2 * b + 1];
    }
    [this.x, this.next] = [this.next, this.x];
    [this.contrib, this.contribNext] = [this.contribNext, this.contrib];
    out[0] = delta;
    out[1] = dangling;
  }
}

/**
 * The WebAssembly rounds' memory for `csr`, whose transpose is `rows` (made and filled at the
 * first call, then kept), or undefined when the WebAssembly kernels are off or cannot run
 * (the caller then runs its JavaScript rounds). With `shared` (rounds on several threads) the
 * memory must be a shared one; a kept shared memory also serves one thread.
 */
export function wasmPageRank(csr: Csr, rows: Csr, shared = false): WasmPageRank | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'pagerank', (kept: WasmPageRank) => kept.shared || !shared, () => {
    const made = instanceFor(WasmPageRank.bytes(rows), shared);
    return made === undefined ? undefined : new WasmPageRank(made.memory, rows, made.module);
  });
}
