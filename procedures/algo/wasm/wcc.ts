/**
 * Afforest's one-thread phases on the WebAssembly functions (wasm/wcc-kernel.ts): the memory
 * that holds one CSR's rows and the forest, and the phase driver, which runs the full pass in
 * calls of at most `CHECK_ROWS` rows and checks the deadline between them, as the JavaScript
 * pass does every 4096 rows.
 *
 * Memory layout (byte addresses, all int32): offsets (n + 1), targets (m), parent (n). Kept
 * per CSR (instance.ts's `keptMemory`: a CSR keeps the memory of the kernel that ran last
 * over it), so a repeated call over a cached projection copies nothing.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { keptMemory, wasmInstance, wasmKernelsOn, type WasmKernels } from './instance.js';

/** Rows per full-pass call: the deadline is checked between calls. */
const CHECK_ROWS = 4096;

export class WasmAfforest {
  private readonly offsetsAt: number;
  private readonly targetsAt: number;
  /** The forest (parent[v] ≤ v; roots point at themselves). */
  readonly parent: Int32Array;

  constructor(private readonly kernels: WasmKernels, buffer: ArrayBuffer, csr: Csr) {
    const n = csr.n;
    const m = csr.offsets[n];
    new Int32Array(buffer, 0, n + 1).set(csr.offsets);
    new Int32Array(buffer, 4 * (n + 1), m).set(csr.targets.subarray(0, m));
    this.offsetsAt = 0;
    this.targetsAt = 4 * (n + 1);
    this.parent = new Int32Array(buffer, 4 * (n + 1 + m), n);
  }

  static bytes(csr: Csr): number {
    return 4 * (2 * csr.n + 1 + csr.offsets[csr.n]);
  }

  /** Links every vertex with its neighbour number `round`, then points every vertex at its root. */
  sample(round: number): void {
    const n = this.parent.length;
    this.kernels.wccSample(this.offsetsAt, this.targetsAt, this.parent.byteOffset, n, round);
    this.compress();
  }

  /** Every vertex pointed at its root. */
  compress(): void {
    this.kernels.wccCompress(this.parent.byteOffset, this.parent.length);
  }

  /** Every row's entries from number `round` on, rows under `skip` passed over. */
  fullPass(round: number, skip: number, deadline: Deadline): void {
    const n = this.parent.length;
    for (let from = 0; from < n; from += CHECK_ROWS) {
      deadline();
      this.kernels.wccFull(this.offsetsAt, this.targetsAt, this.parent.byteOffset, from, Math.min(n, from + CHECK_ROWS), round, skip);
    }
  }
}

/**
 * The WebAssembly phases' memory for `csr` (made and filled at the first call, then kept), or
 * undefined when the WebAssembly kernels are off or cannot run (the caller then runs its
 * JavaScript phases).
 */
export function wasmAfforest(csr: Csr): WasmAfforest | undefined {
  if (!wasmKernelsOn()) return undefined;
  return keptMemory(csr, 'afforest', () => true, () => {
    const made = wasmInstance(WasmAfforest.bytes(csr));
    return made === undefined ? undefined : new WasmAfforest(made.kernels, made.memory.buffer, csr);
  });
}
