/**
 * PageRank's one-thread rounds on the WebAssembly kernel (wasm/pagerank-kernel.ts): the
 * memory that holds one CSR's transposed rows and the round's arrays, and the round driver
 * that cuts each block into calls of at most `CHECK_ROWS` rows, checking the deadline between
 * them as the JavaScript rounds do every 4096 rows.
 *
 * Memory layout (byte addresses, doubles 8-aligned): the block's two running sums at 0, then
 * the transposed offsets (n + 1 int32) and targets (m int32), copied in once when the memory
 * is made, then six arrays of n doubles: share, teleport, and the two scores and two
 * contributions arrays the rounds swap. The memory is kept per CSR (instance.ts's
 * `keptMemory`: a CSR keeps the memory of the kernel that ran last over it), so a repeated
 * call over a cached projection copies nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { keptMemory, wasmInstance, wasmKernelsOn, type WasmKernels, type WasmMemory } from './instance.js';

/** Rows per kernel call: the deadline is checked between calls. */
const CHECK_ROWS = 4096;

const align8 = (bytes: number): number => (bytes + 7) & ~7;

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

  constructor(private readonly kernels: WasmKernels, memory: WasmMemory, rows: Csr) {
    const { n } = rows;
    const buffer = memory.buffer;
    this.sums = new Float64Array(buffer, 0, 2);
    this.offsetsAt = 16;
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
    return align8(16 + 4 * (rows.n + 1) + 4 * rows.targets.length) + 6 * 8 * rows.n;
  }

  /**
   * One round: block by block (`cuts`), the block's change and dangling mass summed alone and
   * then added in block order, as pageRank's JavaScript rounds do; answers the round's
   * change and dangling mass in `out` and swaps the scores and contributions.
   */
  round(cuts: Int32Array, blocks: number, base: number, uniform: boolean, deadline: Deadline, out: Float64Array): void {
    const rowsOf = this.kernels.pageRankRows;
    const { sums, offsetsAt, targetsAt, shareAt } = this;
    const teleportAt = uniform ? 0 : this.teleportAt;
    const xAt = this.x.byteOffset;
    const contribAt = this.contrib.byteOffset;
    const nextAt = this.next.byteOffset;
    const contribNextAt = this.contribNext.byteOffset;
    let delta = 0;
    let dangling = 0;
    for (let b = 0; b < blocks; b++) {
      sums[0] = 0;
      sums[1] = 0;
      const last = cuts[b + 1];
      for (let from = cuts[b]; from < last; from += CHECK_ROWS) {
        deadline();
        rowsOf(from, Math.min(last, from + CHECK_ROWS), base, offsetsAt, targetsAt, shareAt, teleportAt, xAt, contribAt, nextAt, contribNextAt, 0);
      }
      delta += sums[0];
      dangling += sums[1];
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
 * (the caller then runs its JavaScript rounds).
 */
export function wasmPageRank(csr: Csr, rows: Csr): WasmPageRank | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'pagerank', () => true, () => {
    const made = wasmInstance(WasmPageRank.bytes(rows));
    return made === undefined ? undefined : new WasmPageRank(made.kernels, made.memory, rows);
  });
}
