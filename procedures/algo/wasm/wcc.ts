/**
 * Afforest's phases on the WebAssembly functions (wasm/wcc-kernel.ts): the memory that holds
 * one CSR's rows and the forest, and the phase drivers, which run the full pass in calls of at
 * most `CHECK_ROWS` rows and check the deadline between them, as the JavaScript pass does
 * every 4096 rows.
 *
 * On one thread the phases run here in turn. On several threads the memory is a shared one
 * (instance.ts's `instanceFor`) and each phase is a task of the worker pool
 * (parallel.ts) over blocks of rows, every thread instantiating the same compiled module over
 * the same memory: the sampled rounds and the full pass link by compare-and-swap
 * (`wccSampleShared`, `wccFullShared`), the compressions write only their own block's vertices.
 * The roots are each component's smallest member however the links interleave.
 *
 * Memory layout (byte addresses, all int32): offsets (n + 1), targets (m), parent (n). Kept
 * per CSR (instance.ts's `keptMemory`: a CSR keeps the memory of the kernel that ran last
 * over it), so a repeated call over a cached projection copies nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { controlArray, registerKernel, runTask, type TaskBase } from '../parallel.js';
import { instanceFor, keptMemory, poolExports, wasmKernelsOn, type WasmKernels, type WasmMemory } from './instance.js';
import type { WccCompress, WccFull, WccSample } from './wcc-kernel.js';

/** Rows per full-pass call: the deadline is checked between calls. */
const CHECK_ROWS = 4096;

/** The phases of a pool task: a sampled round, a compression, the full pass. */
export const WCC_SAMPLE = 0;
export const WCC_COMPRESS = 1;
export const WCC_FULL = 2;

/** One phase on the pool: blocks of rows as items, byte addresses into the shared `memory`. */
export interface WccWasmTask extends TaskBase {
  module: object;
  memory: WasmMemory;
  phase: number;
  round: number;
  skip: number;
  offsets: number;
  targets: number;
  parent: number;
  /** Block b is rows cuts[b] .. cuts[b + 1]. */
  cuts: Int32Array;
}

/** The functions a pool thread calls on its instance. */
interface WccWasmExports {
  wccSampleShared: WccSample;
  wccCompress: WccCompress;
  wccFullShared: WccFull;
}

/** Block `b` of a phase, on whichever thread claims it. Shipped to the workers as text, with `poolExports`. */
export function wccWasmItem(t: WccWasmTask, b: number, deadline: Deadline): void {
  const fns = poolExports<WccWasmExports>(t.module, t.memory);
  const from = t.cuts[b];
  const to = t.cuts[b + 1];
  if (t.phase === 1) fns.wccCompress(t.parent, from, to);
  else if (t.phase === 0) {
    deadline();
    fns.wccSampleShared(t.offsets, t.targets, t.parent, from, to, t.round);
  } else {
    for (let v = from; v < to; v += 4096) {
      deadline();
      fns.wccFullShared(t.offsets, t.targets, t.parent, v, Math.min(to, v + 4096), t.round, t.skip);
    }
  }
}

registerKernel('wccWasm', wccWasmItem, [poolExports]);

export class WasmAfforest {
  private readonly offsetsAt: number;
  private readonly targetsAt: number;
  /** The forest (parent[v] ≤ v; roots point at themselves). */
  readonly parent: Int32Array;

  /** `module` is given when `memory` is shared: then phases may run on the pool. */
  constructor(private readonly kernels: WasmKernels, private readonly memory: WasmMemory, csr: Csr, private readonly module?: object) {
    const n = csr.n;
    const m = csr.offsets[n];
    const buffer = memory.buffer;
    new Int32Array(buffer, 0, n + 1).set(csr.offsets);
    new Int32Array(buffer, 4 * (n + 1), m).set(csr.targets.subarray(0, m));
    this.offsetsAt = 0;
    this.targetsAt = 4 * (n + 1);
    this.parent = new Int32Array(buffer, 4 * (n + 1 + m), n);
  }

  static bytes(csr: Csr): number {
    return 4 * (2 * csr.n + 1 + csr.offsets[csr.n]);
  }

  /** Whether the memory is shared, so that phases can run on several threads. */
  get shared(): boolean {
    return this.module !== undefined;
  }

  /** Links every vertex with its neighbour number `round`, then points every vertex at its root. */
  sample(round: number): void {
    const n = this.parent.length;
    this.kernels.wccSample(this.offsetsAt, this.targetsAt, this.parent.byteOffset, 0, n, round);
    this.compress();
  }

  /** Every vertex pointed at its root. */
  compress(): void {
    this.kernels.wccCompress(this.parent.byteOffset, 0, this.parent.length);
  }

  /** Every row's entries from number `round` on, rows under `skip` passed over. */
  fullPass(round: number, skip: number, deadline: Deadline): void {
    const n = this.parent.length;
    for (let from = 0; from < n; from += CHECK_ROWS) {
      deadline();
      this.kernels.wccFull(this.offsetsAt, this.targetsAt, this.parent.byteOffset, from, Math.min(n, from + CHECK_ROWS), round, skip);
    }
  }

  /**
   * One phase (`WCC_SAMPLE` with its round, `WCC_COMPRESS`, `WCC_FULL` from `round` with
   * `skip`) on `threads` threads over the blocks `cuts`; needs a shared memory.
   */
  phaseOnPool(phase: number, round: number, skip: number, cuts: Int32Array, threads: number, deadline: Deadline): void {
    if (this.module === undefined) throw new Error('Afforest on the pool needs a shared WebAssembly memory');
    // Checked here too: the workers may take every block before the calling thread claims one.
    deadline();
    const task: WccWasmTask = {
      kernel: 'wccWasm', items: cuts.length - 1, control: controlArray(), module: this.module, memory: this.memory,
      phase, round, skip, offsets: this.offsetsAt, targets: this.targetsAt, parent: this.parent.byteOffset, cuts,
    };
    runTask(task, threads, deadline);
  }
}

/**
 * The WebAssembly phases' memory for `csr` (made and filled at the first call, then kept), or
 * undefined when the WebAssembly kernels are off or cannot run (the caller then runs its
 * JavaScript phases). With `shared` (phases on several threads) the memory must be a shared
 * one; a kept shared memory also serves one thread.
 */
export function wasmAfforest(csr: Csr, shared = false): WasmAfforest | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'afforest', (kept: WasmAfforest) => kept.shared || !shared, () => {
    const made = instanceFor(WasmAfforest.bytes(csr), shared);
    return made === undefined ? undefined : new WasmAfforest(made.kernels, made.memory, csr, made.module);
  });
}
