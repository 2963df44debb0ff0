/**
 * Working arrays kept per CSR: a kernel that runs again over the same CSR (graphdb caches a
 * projection's CSR while the graph is unchanged) reuses them and allocates only its result.
 * Allocating them afresh per call cost a page fault per 4 KiB wherever the allocator handed
 * out new pages, and their external memory drove V8 into full collections of the whole heap.
 *
 * An array is named by its kernel and use (`'bfs.seen'`), so two kernels never share one; a
 * kernel runs to completion on its thread before another starts, so one array per name and
 * CSR suffices. The arrays come back as they were left: each kernel clears or writes what it
 * reads, and a run a deadline stopped leaves nothing the next run trusts. `shared` arrays sit
 * on a SharedArrayBuffer (for the worker pool) and are kept apart from plain ones; the pool
 * (parallel.ts) hands back a cancelled task only when no worker is still inside it, or else
 * retires everything kept here.
 */

import type { Csr } from './csr.js';

type Scratch = Int32Array | Uint8Array | Float64Array;

/** Other working state kept per CSR (a kernel's growable lists), by name. */
let objects = new WeakMap<Csr, Map<string, unknown>>();

let kept = new WeakMap<Csr, Map<string, Scratch>>();

/**
 * Forgets every kept array and object, for every CSR: the worker pool calls it when it had to
 * terminate a worker that would not leave a cancelled task, which may still write into them.
 * Kernels make fresh ones on their next call; the old ones go when nothing holds them.
 */
export function retireKeptScratch(): void {
  objects = new WeakMap();
  kept = new WeakMap();
}

function find(csr: Csr, key: string): { arrays: Map<string, Scratch>; hit: Scratch | undefined } {
  let arrays = kept.get(csr);
  if (arrays === undefined) {
    arrays = new Map();
    kept.set(csr, arrays);
  }
  return { arrays, hit: arrays.get(key) };
}

/** The bytes of `length` elements of `size` bytes, on a SharedArrayBuffer when `shared` (at least one element: a zero-length SharedArrayBuffer cannot be viewed by every view). */
function buffer(length: number, size: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
  return shared ? new SharedArrayBuffer(size * Math.max(1, length)) : new ArrayBuffer(size * length);
}

/** The Int32Array named `name` of `length` entries kept for `csr` (contents as last left, zeros when new). */
export function scratchInt32(csr: Csr, name: string, length: number, shared = false): Int32Array {
  const key = shared ? `${name}@shared` : name;
  const { arrays, hit } = find(csr, key);
  if (hit instanceof Int32Array && hit.length === length) return hit;
  const made = new Int32Array(buffer(length, 4, shared), 0, length);
  arrays.set(key, made);
  return made;
}

/** The Uint8Array named `name` of `length` entries kept for `csr` (contents as last left, zeros when new). */
export function scratchUint8(csr: Csr, name: string, length: number): Uint8Array {
  const { arrays, hit } = find(csr, name);
  if (hit instanceof Uint8Array && hit.length === length) return hit;
  const made = new Uint8Array(length);
  arrays.set(name, made);
  return made;
}

/** The Float64Array named `name` of `length` entries kept for `csr` (contents as last left, zeros when new). */
export function scratchFloat64(csr: Csr, name: string, length: number, shared = false): Float64Array {
  const key = shared ? `${name}@shared` : name;
  const { arrays, hit } = find(csr, key);
  if (hit instanceof Float64Array && hit.length === length) return hit;
  const made = new Float64Array(buffer(length, 8, shared), 0, length);
  arrays.set(key, made);
  return made;
}

/**
 * The object named `name` kept for `csr`, made by `make` on first use (working state that is
 * not one flat array, such as delta-stepping's growable bucket lists). Each name must always
 * be made by the same `make`: the object is handed back as that type unchecked.
 */
export function scratchObject<T>(csr: Csr, name: string, make: () => T): T {
  let named = objects.get(csr);
  if (named === undefined) {
    named = new Map();
    objects.set(csr, named);
  }
  if (named.has(name)) return named.get(name) as T;
  const made = make();
  named.set(name, made);
  return made;
}
