/**
 * The WebAssembly kernels' module and its instances. The module (every hand-written kernel
 * of this folder) is encoded and compiled once per process, at first use, synchronously: it
 * is a few thousand bytes. Each instance gets a memory of its own sized for one CSR's arrays,
 * kept per CSR (scratch.ts, `keptMemory`), so the CSR is copied in once and the memory is
 * freed with the CSR; a CSR keeps one such memory, for the kernel that ran last over it, so
 * its rows are copied at most once however many kernels run over it.
 *
 * Where WebAssembly is missing or refused (an embedder's content security policy, a memory
 * that cannot be had) `instanceFor` answers undefined and the kernels run their JavaScript
 * form, which stays the reference the WebAssembly form is tested against.
 */

import type { Csr } from '../csr.js';
import { scratchObject } from '../scratch.js';
import { encodeModule } from './encode.js';
import { bfsBottomUp, bfsTopDown, bfsTopDownShared, type BfsBottomUp, type BfsTopDown } from './bfs-kernel.js';
import { bfsAtDepth, bfsOrder, bfsToBitmap, type BfsAtDepth, type BfsOrder, type BfsToBitmap } from './bfs-convert-kernel.js';
import { deltaFile, deltaHeavy, deltaNext, deltaTake, type DeltaFile, type DeltaHeavy, type DeltaNext, type DeltaTake } from './delta-buckets-kernel.js';
import { deltaCount, deltaGroupKeys, deltaGroupPlace, type DeltaCount, type DeltaGroupKeys, type DeltaGroupPlace } from './delta-order-kernel.js';
import { deltaRelax, deltaRelaxShared, type DeltaRelax } from './delta-stepping-kernel.js';
import { pageRankRows, type PageRankRows } from './pagerank-kernel.js';
import { triCount, triForward, type TriCount, type TriForward } from './triangles-kernel.js';
import { wccCompress, wccFull, wccFullShared, wccSample, wccSampleShared, type WccCompress, type WccFull, type WccSample } from './wcc-kernel.js';

/**
 * The part of the WebAssembly JavaScript API used here, typed locally: the project compiles
 * against ES2023 and Node's types, neither of which declares the `WebAssembly` namespace.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
type CompiledModule = object;
interface WasmApi {
  Module: new (bytes: Uint8Array) => CompiledModule;
  Instance: new (module: CompiledModule, imports: { env: { memory: WasmMemory } }) => { exports: object };
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
}

/** The exported functions of the kernels' module. */
export interface WasmKernels {
  pageRankRows: PageRankRows;
  deltaRelax: DeltaRelax;
  deltaRelaxShared: DeltaRelax;
  deltaFile: DeltaFile;
  deltaTake: DeltaTake;
  deltaNext: DeltaNext;
  deltaHeavy: DeltaHeavy;
  deltaCount: DeltaCount;
  deltaGroupKeys: DeltaGroupKeys;
  deltaGroupPlace: DeltaGroupPlace;
  bfsTopDown: BfsTopDown;
  bfsBottomUp: BfsBottomUp;
  bfsToBitmap: BfsToBitmap;
  bfsAtDepth: BfsAtDepth;
  bfsOrder: BfsOrder;
  wccSample: WccSample;
  wccCompress: WccCompress;
  wccFull: WccFull;
  wccSampleShared: WccSample;
  wccFullShared: WccFull;
  bfsTopDownShared: BfsTopDown;
  triForward: TriForward;
  triCount: TriCount;
}

export interface WasmInstance {
  memory: WasmMemory;
  kernels: WasmKernels;
}

/**
 * An instance over a shared memory, with the compiled module it came from: both can be posted
 * to worker threads (a module and a shared memory are cloned by reference), where
 * `new WebAssembly.Instance(module, { env: { memory } })` runs the same kernels over the same bytes.
 */
export interface SharedWasmInstance extends WasmInstance {
  module: CompiledModule;
}

/** The largest memory a kernel asks for: 2 GiB, so that every byte address is a positive i32 (the kernels compare addresses). */
export const WASM_MAX_BYTES = 2 ** 31;

const PAGE = 65536;

let compiled: CompiledModule | null | undefined;
let compiledShared: CompiledModule | null | undefined;

/** Whether the kernels are to run their JavaScript forms (tests and benchmarks compare the two). */
let disabled = false;

/** Turns the WebAssembly kernels off (`false`) or on again (`true`): the JavaScript forms run while off. */
export function useWasmKernels(on: boolean): void {
  disabled = !on;
}

/** Whether the kernels are to try their WebAssembly forms. */
export function wasmKernelsOn(): boolean {
  return !disabled;
}

// Read through `unknown`: the Node project has no WebAssembly types, and the DOM lib's (the browser
// build's type-check) are wider than the part of the API the kernels use.
const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const FUNCTIONS = [pageRankRows, deltaRelax, deltaFile, deltaTake, deltaNext, deltaHeavy, deltaCount, deltaGroupKeys, deltaGroupPlace, bfsTopDown, bfsBottomUp, bfsToBitmap, bfsAtDepth, bfsOrder, wccSample, wccCompress, wccFull, wccSampleShared, wccFullShared, bfsTopDownShared, deltaRelaxShared, triForward, triCount];

function compile(shared: boolean): CompiledModule | null {
  if (api === undefined) return null;
  try {
    return new api.Module(encodeModule(FUNCTIONS, 1, shared));
  } catch {
    return null;
  }
}

function module(): CompiledModule | null {
  if (compiled === undefined) compiled = compile(false);
  return compiled;
}

/** The module whose memory import is shared (compiled at first use; null where threads' WebAssembly is missing). */
function sharedModule(): CompiledModule | null {
  if (compiledShared === undefined) compiledShared = compile(true);
  return compiledShared;
}

/** `m` instantiated over a new memory of at least `bytes` bytes (shared: of exactly that many pages). */
function instantiate(m: CompiledModule | null, bytes: number, shared: boolean): SharedWasmInstance | undefined {
  if (disabled || bytes > WASM_MAX_BYTES || m === null || api === undefined) return undefined;
  try {
    const pages = Math.max(1, Math.ceil(bytes / PAGE));
    const memory = new api.Memory(shared ? { initial: pages, maximum: pages, shared } : { initial: pages });
    const instance = new api.Instance(m, { env: { memory } });
    // The pool's kernels look for their instance on the memory object (poolExports): the
    // calling thread's is this one.
    (memory as unknown as Record<symbol, object>)[Symbol.for('graphdb.wasm.exports')] = instance.exports;
    return { memory, kernels: instance.exports as unknown as WasmKernels, module: m };
  } catch {
    return undefined;
  }
}

/**
 * An instance for a kernel's memory of `bytes`: over a shared memory when `shared` (the
 * kernel's work goes to the pool; its buffer a SharedArrayBuffer that cannot grow; undefined
 * where shared WebAssembly memory is not available, as in a browser page that is not
 * cross-origin isolated), else over a memory of its own. `module` is set only for a shared one.
 */
export function instanceFor(bytes: number, shared: boolean): (WasmInstance & { module?: CompiledModule }) | undefined {
  const made = instantiate(shared ? sharedModule() : module(), bytes, shared);
  return made === undefined || shared ? made : { memory: made.memory, kernels: made.kernels };
}

/**
 * The exports of this thread's instance over a pool task's shared `memory`, made from `module`
 * at first use and kept on the memory object: the calling thread's memory is the kept one (its
 * instance set there when the memory was made), a worker's a fresh copy per task, so a worker
 * instantiates once per task (35–80 µs here), not per item. Shipped to the workers as text
 * (parallel.ts), so it names nothing outside itself but the `WebAssembly` global.
 */
export function poolExports<T>(module: object | undefined, memory: WasmMemory): T {
  const holder = memory as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for('graphdb.wasm.exports');
  let exports = holder[key];
  if (exports === undefined) {
    const wasm = (globalThis as unknown as { WebAssembly: { Instance: new (m: object, i: object) => { exports: T } } }).WebAssembly;
    if (module === undefined) throw new Error('a WebAssembly memory without its instance or module');
    exports = new wasm.Instance(module, { env: { memory } }).exports;
    holder[key] = exports;
  }
  return exports;
}

/** A CSR's one kept memory: the kernel that made it, and that kernel's object over it. */
interface KeptMemory {
  kernel: string;
  value: unknown;
}

/**
 * The WebAssembly object `kernel` keeps for `csr` (one whose memory holds a copy of the CSR's
 * rows): the kept one when this kernel made it and `fits` it, else one made by `make`
 * (undefined when it cannot be), which replaces whatever another kernel kept for the CSR.
 * The old memory is let go before the new one is made, so that two copies are never held.
 */
export function keptMemory<T>(csr: Csr, kernel: string, fits: (kept: T) => boolean, make: () => T | undefined): T | undefined {
  const slot = scratchObject(csr, 'wasm.memory', (): KeptMemory => ({ kernel: '', value: undefined }));
  if (slot.kernel === kernel && slot.value !== undefined && fits(slot.value as T)) return slot.value as T;
  slot.kernel = '';
  slot.value = undefined;
  const made = make();
  if (made !== undefined) {
    slot.kernel = kernel;
    slot.value = made;
  }
  return made;
}
