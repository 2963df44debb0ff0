/**
 * Triangle count on the WebAssembly kernel (wasm/triangles-kernel.ts): the memory that holds
 * one simple undirected CSR's rows, the forward rows made from them per call (as triangles.ts
 * and bench/algo-c/kernels.c make them), and per lane a mark array and a count array; and
 * the driver, which cuts the nodes into calls of at most 4096 with the deadline checked
 * between them, as the JavaScript kernel checks every 4096 nodes.
 *
 * On several threads the memory is a shared one (instance.ts's `instanceFor`) and the
 * count is a task of the worker pool (parallel.ts) whose items are blocks of nodes of about
 * equal forward entries; every thread instantiates the same compiled module over the same
 * memory. A block counts into a lane (a mark and a count array) that no other running block
 * holds: it takes a free one by compare-and-swap on the lane's flag and frees it at the end,
 * and there are as many lanes as threads, so one is always free. The caller adds the lanes'
 * counts: integers, exact in doubles, so any thread count and any split give one thread's
 * counts bit for bit.
 *
 * Memory layout (byte addresses): the lanes' flags (`MAX_LANES` int32), offsets (n + 1 int32)
 * and targets (m), forward offsets (n + 1) and targets (m / 2: the CSR holds each edge both
 * ways), the lanes' marks (n int32 each), then, 8-aligned, the lanes' counts (n doubles
 * each). Kept per CSR (instance.ts's `keptMemory`), so a repeated count over a cached
 * projection copies nothing; made again for more lanes.
 */

import type { Csr } from '../csr.js';
import type { Deadline } from '../deadline.js';
import { controlArray, registerKernel, runTask, workCuts, type TaskBase } from '../parallel.js';
import { instanceFor, keptMemory, poolExports, wasmKernelsOn, type WasmKernels, type WasmMemory } from './instance.js';
import type { TriCount } from './triangles-kernel.js';

/** Nodes per kernel call: the deadline is checked between calls. */
const CHECK_NODES = 4096;

/** The most lanes (threads counting at once) a memory has. */
const MAX_LANES = 64;

/** Blocks per thread on the pool: the work per node is skewed, so blocks are claimed as threads free up. */
const BLOCKS_PER_THREAD = 16;

const align8 = (bytes: number): number => (bytes + 7) & ~7;

/** One count on the pool: blocks of nodes (`cuts`) as items, byte addresses into the shared `memory`. */
export interface TrianglesWasmTask extends TaskBase {
  module: object;
  memory: WasmMemory;
  cuts: Int32Array;
  n: number;
  fwdOffsets: number;
  fwdTargets: number;
  /** The lanes: their flags (int32, 1 while a block holds the lane), marks and counts. */
  lanes: number;
  flags: number;
  marks: number;
  counts: number;
}

/**
 * Block `b` on whichever thread claims it: a free lane taken by compare-and-swap on its flag
 * (at most `lanes` blocks run at once, so the search ends), the block's nodes counted into it
 * in calls of 4096 (CHECK_NODES: kernels see no module constants) with the deadline checked
 * between them, the lane freed. Shipped to the workers as text, with `poolExports`.
 */
export function trianglesWasmItem(t: TrianglesWasmTask, b: number, deadline: Deadline): void {
  const count = poolExports<{ triCount: TriCount }>(t.module, t.memory).triCount;
  const flags = new Int32Array(t.memory.buffer, t.flags, t.lanes);
  let lane = b % t.lanes;
  while (Atomics.compareExchange(flags, lane, 0, 1) !== 0) lane = (lane + 1) % t.lanes;
  try {
    const mark = t.marks + 4 * t.n * lane;
    const counts = t.counts + 8 * t.n * lane;
    const last = t.cuts[b + 1];
    for (let from = t.cuts[b]; from < last; from += 4096) {
      deadline();
      count(from, Math.min(last, from + 4096), t.fwdOffsets, t.fwdTargets, mark, counts);
    }
  } finally {
    Atomics.store(flags, lane, 0);
  }
}

registerKernel('trianglesWasm', trianglesWasmItem, [poolExports]);

export class WasmTriangles {
  private readonly offsets: Int32Array;
  private readonly targets: Int32Array;
  private readonly fwdOffsets: Int32Array;
  private readonly fwdTargets: Int32Array;
  private readonly flags: Int32Array;
  /** Every lane's marks, and every lane's counts, one after another. */
  private readonly marks: Int32Array;
  private readonly counts: Float64Array;

  /** `module` is given when `memory` is shared: then the count may run on the pool. */
  constructor(private readonly kernels: WasmKernels, private readonly memory: WasmMemory, csr: Csr, readonly lanes: number, private readonly module?: object) {
    const buffer = memory.buffer;
    const n = csr.n;
    const m = csr.offsets[n];
    let at = 0;
    const ints = (length: number): Int32Array => {
      const view = new Int32Array(buffer, at, length);
      at += 4 * length;
      return view;
    };
    this.flags = ints(MAX_LANES);
    this.offsets = ints(n + 1);
    this.offsets.set(csr.offsets);
    this.targets = ints(m);
    this.targets.set(csr.targets.subarray(0, m));
    this.fwdOffsets = ints(n + 1);
    this.fwdTargets = ints(Math.max(1, m >> 1));
    this.marks = ints(lanes * n);
    at = align8(at);
    this.counts = new Float64Array(buffer, at, lanes * n);
  }

  /** The bytes a memory for `csr` and `lanes` lanes needs. */
  static bytes(csr: Csr, lanes: number): number {
    const n = csr.n;
    const m = csr.offsets[n];
    return align8(4 * (MAX_LANES + 2 * (n + 1) + m + Math.max(1, m >> 1) + lanes * n)) + 8 * lanes * n;
  }

  /** Whether the memory is shared, so that the count can run on several threads. */
  get shared(): boolean {
    return this.module !== undefined;
  }

  /**
   * Triangles through each node, on `threads` threads (on this one alone when 1 or the memory
   * is not shared), as a new array.
   */
  count(threads: number, deadline: Deadline): Float64Array {
    const n = this.offsets.length - 1;
    const k = this.kernels;
    k.triForward(n, this.offsets.byteOffset, this.targets.byteOffset, this.fwdOffsets.byteOffset, this.fwdTargets.byteOffset);
    const blocks = Math.min(n, BLOCKS_PER_THREAD * threads);
    const lanes = Math.min(this.lanes, threads, blocks);
    const pool = lanes > 1 && this.module !== undefined;
    this.marks.fill(0, 0, (pool ? lanes : 1) * n);
    this.counts.fill(0, 0, (pool ? lanes : 1) * n);
    if (!pool) {
      for (let from = 0; from < n; from += CHECK_NODES) {
        deadline();
        k.triCount(from, Math.min(n, from + CHECK_NODES), this.fwdOffsets.byteOffset, this.fwdTargets.byteOffset, this.marks.byteOffset, this.counts.byteOffset);
      }
      return this.counts.slice(0, n);
    }
    // Checked here too: the workers may take every block before this thread claims one.
    deadline();
    this.flags.fill(0);
    const task: TrianglesWasmTask = {
      kernel: 'trianglesWasm', items: blocks, control: controlArray(), module: this.module as object, memory: this.memory,
      cuts: workCuts(this.fwdOffsets, n, blocks), n, fwdOffsets: this.fwdOffsets.byteOffset, fwdTargets: this.fwdTargets.byteOffset,
      lanes, flags: this.flags.byteOffset, marks: this.marks.byteOffset, counts: this.counts.byteOffset,
    };
    runTask(task, lanes, deadline);
    const total = this.counts.slice(0, n);
    for (let lane = 1; lane < lanes; lane++) addLane(total, this.counts, lane * n);
    return total;
  }
}

/** total[v] += counts[at + v] for every node v. */
function addLane(total: Float64Array, counts: Float64Array, at: number): void {
  for (let v = 0; v < total.length; v++) total[v] += counts[at + v];
}

/**
 * The WebAssembly count's memory for the simple undirected `csr` with `lanes` lanes (made and
 * filled at the first call, then kept), or undefined when the WebAssembly kernels are off or
 * cannot run (the caller then runs its JavaScript kernel). With `shared` (several lanes) the
 * memory must be a shared one; a kept shared memory also serves one thread.
 */
export function wasmTriangles(csr: Csr, lanes: number, shared: boolean): WasmTriangles | undefined {
  if (!wasmKernelsOn()) return undefined;
  const want = Math.max(1, Math.min(MAX_LANES, lanes));
  return keptMemory(csr, 'triangles', (kept: WasmTriangles) => kept.lanes >= want && (kept.shared || !shared), () => {
    const made = instanceFor(WasmTriangles.bytes(csr, want), shared);
    return made === undefined ? undefined : new WasmTriangles(made.kernels, made.memory, csr, want, made.module);
  });
}
