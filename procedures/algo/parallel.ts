/**
 * Worker threads for the algorithm kernels that split into independent items (blocks of
 * sources for closeness and betweenness, ranges of nodes for triangle counting).
 *
 * A kernel is a plain function `(task, item, deadline)` that only calls other plain functions;
 * the worker source is built from those functions' own text (`Function.prototype.toString`),
 * so the worker runs exactly the code the calling thread runs, loaded the same way from the
 * TypeScript sources and from dist/ (`eval: true`, as for the ONNX worker). The CSR arrays and
 * the outputs live on SharedArrayBuffers: workers write their items' results in place, and
 * since an item's result does not depend on which thread computed it, a parallel run gives
 * the same bits as a sequential one.
 *
 * Procedures are synchronous, so the calling thread takes part: it posts the task to
 * `concurrency - 1` pooled workers, claims items from a shared counter like they do, then
 * waits (Atomics.wait in short slices, checking the query deadline between them) until every
 * item is finished. On a timeout or an error the task is cancelled through a shared flag, and
 * the calling thread returns only once every engaged worker has left the task: kernels keep
 * their working memory per CSR (scratch.ts, wasm/instance.ts), and a worker still counting
 * into it would corrupt the next run. Kernels check the flag between short chunks, so this
 * takes about a chunk's time; a worker that stays inside longer (`cancelWait`) is terminated,
 * and the kept working memory it may still touch is retired. Idle workers are unref'd and
 * never keep the process alive.
 */

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Csr } from './csr.js';
import type { Deadline } from './deadline.js';
import { retireKeptScratch } from './scratch.js';

/** Slots of the control array shared by the threads of one task. */
const NEXT = 0;
const FINISHED = 1;
const CANCEL = 2;
const FAILED = 3;
/** Engaged workers inside the task: raised before a worker's first look at CANCEL, lowered when it leaves. */
const ACTIVE = 4;


/** What every task carries; kernels add their own arrays and options. */
export interface TaskBase {
  kernel: string;
  items: number;
  control: Int32Array;
}

/** A kernel: computes one item of a task. `deadline` throws when the task is cancelled or out of time. */
export type Kernel<T extends TaskBase> = (task: T, item: number, deadline: Deadline) => void;

/** A function or class whose source text can be sent to a worker. */
type Shippable = ((...args: never[]) => unknown) | (abstract new (...args: never[]) => unknown);

interface Registered {
  kernel: Kernel<never>;
  /** Functions the kernel calls, by their declared names (classes included). */
  helpers: readonly Shippable[];
}

const registry = new Map<string, Registered>();

/** Started workers, idle between tasks. */
const pool: Worker[] = [];

/** Makes `kernel` (and the functions it calls) available to the workers under `name`. */
export function registerKernel<T extends TaskBase>(name: string, kernel: Kernel<T>, helpers: Registered['helpers']): void {
  registry.set(name, { kernel: kernel as Kernel<never>, helpers });
  source = undefined;
  // Workers already started run the old source, without this kernel (the algorithm family
  // registers all of its kernels when it loads, but a module that registers one may load after
  // the pool ran: a test's kernel, an embedder's); they are idle here, since registration runs
  // on this thread between tasks, so fresh ones replace them.
  for (const w of pool.splice(0)) void w.terminate();
}

let source: string | undefined;

function workerSource(): string {
  if (source !== undefined) return source;
  const parts: string[] = [
    "const { parentPort } = require('node:worker_threads');",
    // Transpilers that keep function names (esbuild's keepNames) call this helper.
    'const __name = (f) => f;',
  ];
  const seen = new Set<string>();
  const kernels: string[] = [];
  for (const [name, r] of registry) {
    for (const f of [...r.helpers, r.kernel]) {
      // Test runners that rewrite modules (vitest) qualify imported names with the imported
      // module's namespace; in the worker every helper is a top-level declaration, so the
      // qualifier is dropped.
      const text = f.toString().replace(/\b__vite?_(?:ssr_)?import_\d+__\./g, '');
      if (seen.has(text)) continue;
      seen.add(text);
      parts.push(text.startsWith('class') || text.startsWith('function') ? text : `const ${f.name} = ${text};`);
    }
    kernels.push(`${JSON.stringify(name)}: ${r.kernel.name}`);
  }
  parts.push(
    `const KERNELS = { ${kernels.join(', ')} };`,
    `parentPort.on('message', (task) => {
  const ctl = task.control;
  const deadline = () => { if (Atomics.load(ctl, ${CANCEL}) !== 0) throw new Error('cancelled'); };
  const run = KERNELS[task.kernel];
  Atomics.add(ctl, ${ACTIVE}, 1);
  try {
    for (;;) {
      if (Atomics.load(ctl, ${CANCEL}) !== 0) return;
      const item = Atomics.add(ctl, ${NEXT}, 1);
      if (item >= task.items) return;
      try { run(task, item, deadline); } catch { Atomics.store(ctl, ${FAILED}, 1); Atomics.store(ctl, ${CANCEL}, 1); }
      Atomics.add(ctl, ${FINISHED}, 1);
      Atomics.notify(ctl, ${FINISHED});
    }
  } finally {
    Atomics.sub(ctl, ${ACTIVE}, 1);
    Atomics.notify(ctl, ${ACTIVE});
  }
});`,
  );
  source = parts.join('\n');
  return source;
}

/**
 * Up to `count` pooled workers, started as needed. Fewer where a worker cannot be started (the
 * browser build refuses Node's `Worker`; a process out of threads or memory): the caller then
 * runs more of the items itself, on the calling thread alone at worst.
 */
function workers(count: number): Worker[] {
  while (pool.length < count) {
    let w: Worker;
    try {
      w = new Worker(workerSource(), { eval: true });
    } catch {
      workersRefused = pool.length === 0;
      break;
    }
    w.unref();
    w.on('error', () => drop(w));
    w.on('exit', () => drop(w));
    pool.push(w);
  }
  return pool.slice(0, count);
}

function drop(w: Worker): void {
  const i = pool.indexOf(w);
  if (i >= 0) pool.splice(i, 1);
}

/** Set when no worker could be started (the browser build refuses Node's `Worker`). */
let workersRefused = false;

/**
 * The threads to use: the `concurrency` option, or every available core; 1 where the pool
 * cannot run: without SharedArrayBuffer (a page that is not cross-origin isolated) or once
 * starting a worker was refused.
 */
export function threadsFor(concurrency: number | undefined): number {
  if (typeof SharedArrayBuffer !== 'function' || workersRefused) return 1;
  return Math.max(1, Math.min(concurrency ?? availableParallelism(), 64));
}

/**
 * Work (in inner-loop steps, about one edge or one vector entry each) below which the kernels
 * that consult it (WCC, node similarity, knn, fastRP) run on the calling thread alone: under
 * it a run takes well under a millisecond, less than waking the worker threads costs. A
 * property so that tests can lower it and run the parallel path on small graphs.
 */
export const parallelFloor = { work: 1 << 17 };

/** `threads` when `work` reaches the floor, else 1. */
export function threadsForWork(threads: number, work: number): number {
  return work >= parallelFloor.work ? threads : 1;
}

/**
 * How long a cancelled task waits for its workers to leave before terminating them. A property
 * so that tests can shorten it.
 */
export const cancelWait = { ms: 2000 };

/** Tasks that ran on more than one thread, by kernel name: tests check that the parallel path ran. */
export const parallelRuns = new Map<string, number>();

/** A fresh control array for a task. */
export function controlArray(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * 5));
}

/**
 * Runs every item of `task` on `threads` threads (this one included) and returns when all
 * are done. Sequential when `threads` is 1 or there is a single item: the same kernel, called
 * in a loop, with the query's own deadline.
 */
export function runTask<T extends TaskBase>(task: T, threads: number, deadline: Deadline): void {
  const r = registry.get(task.kernel);
  if (r === undefined) throw new Error(`unknown algorithm kernel ${task.kernel}`);
  const kernel = r.kernel as Kernel<T>;
  const helpers = Math.min(threads, task.items) - 1;
  const engaged = helpers > 0 ? workers(helpers) : [];
  if (engaged.length === 0) {
    for (let i = 0; i < task.items; i++) kernel(task, i, deadline);
    return;
  }
  parallelRuns.set(task.kernel, (parallelRuns.get(task.kernel) ?? 0) + 1);
  const ctl = task.control;
  for (const w of engaged) w.postMessage(task);
  // This thread's items stop too when a worker's item failed.
  const deadlineOrFailed: Deadline = () => {
    deadline();
    if (Atomics.load(ctl, FAILED) !== 0) throw new Error(`algorithm kernel ${task.kernel} failed in a worker thread`);
  };
  try {
    for (;;) {
      const item = Atomics.add(ctl, NEXT, 1);
      if (item >= task.items) break;
      kernel(task, item, deadlineOrFailed);
      Atomics.add(ctl, FINISHED, 1);
    }
    for (;;) {
      const done = Atomics.load(ctl, FINISHED);
      if (Atomics.load(ctl, FAILED) !== 0) throw new Error(`algorithm kernel ${task.kernel} failed in a worker thread`);
      if (done >= task.items) break;
      Atomics.wait(ctl, FINISHED, done, 20);
      deadline();
    }
  } catch (err) {
    Atomics.store(ctl, CANCEL, 1);
    if (!workersLeft(ctl, cancelWait.ms)) {
      for (const w of engaged) {
        drop(w);
        void w.terminate();
      }
      // Terminating is asynchronous: the stuck worker may still write a little into the kept
      // working memory, so every kernel makes its own afresh from here on.
      retireKeptScratch();
    }
    throw err;
  }
}

/**
 * Waits up to `ms` for the workers of a cancelled task to leave it; whether they all did. A
 * worker that has not yet taken the task in counts as gone: it raises ACTIVE before it first
 * reads CANCEL, so it will see the flag and take no item.
 */
function workersLeft(ctl: Int32Array, ms: number): boolean {
  const until = Date.now() + ms;
  for (;;) {
    const inside = Atomics.load(ctl, ACTIVE);
    if (inside === 0) return true;
    const left = until - Date.now();
    if (left <= 0) return false;
    Atomics.wait(ctl, ACTIVE, inside, Math.min(left, 20));
  }
}

/** `array` on a SharedArrayBuffer (copied once). */
export function sharedInt32(array: Int32Array): Int32Array {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const copy = new Int32Array(new SharedArrayBuffer(array.byteLength));
  copy.set(array);
  return copy;
}

/** `array` on a SharedArrayBuffer (copied once). */
export function sharedFloat64(array: Float64Array): Float64Array {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const copy = new Float64Array(new SharedArrayBuffer(array.byteLength));
  copy.set(array);
  return copy;
}

const sharedOf = new WeakMap<Csr, Csr>();

/** `csr` with its rows on SharedArrayBuffers, made once per CSR (the projection cache keeps CSRs alive while the graph is unchanged). */
export function sharedCsr(csr: Csr): Csr {
  const hit = sharedOf.get(csr);
  if (hit) return hit;
  const copy: Csr = { ...csr, offsets: sharedInt32(csr.offsets), targets: sharedInt32(csr.targets), weights: csr.weights === undefined ? undefined : sharedFloat64(csr.weights) };
  sharedOf.set(csr, copy);
  return copy;
}

/** A zeroed Float64Array of `length` on a SharedArrayBuffer. */
export function sharedFloats(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * Math.max(1, length))).subarray(0, length);
}

/**
 * `blocks` + 1 cut points splitting nodes from..n-1 into ranges of about equal work, a node
 * costing 1 plus its share of `prefix` (cumulative work, length n + 1: CSR offsets, or a
 * kernel's own estimate).
 */
export function workCuts(prefix: ArrayLike<number>, n: number, blocks: number, from = 0): Int32Array {
  const cuts = new Int32Array(blocks + 1);
  const total = n - from + prefix[n] - prefix[from];
  let v = from;
  // Both ends before the loop: V8 compiles the loop by on-stack replacement on its first run,
  // and code after it, not yet run then, threw that compiled code away on later calls.
  cuts[0] = from;
  cuts[blocks] = n;
  for (let b = 1; b < blocks; b++) {
    const goal = (total * b) / blocks;
    while (v < n && v - from + prefix[v] - prefix[from] < goal) v++;
    cuts[b] = v;
  }
  return cuts;
}
