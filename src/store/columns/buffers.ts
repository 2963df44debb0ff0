/**
 * Allocation of the store's typed arrays. Every column buffer is created here, on a
 * `SharedArrayBuffer`, so that a later step can hand the same memory to reader threads
 * without copying: nothing in a column keeps JavaScript objects in these buffers, only
 * numbers, and growth replaces a buffer by a larger one (never resizes in place), so a
 * reader holding the old view keeps a consistent, if stale, snapshot.
 *
 * Also the bitset primitives the columns use (presence, booleans, float tags): one bit per
 * entity id, 32 ids per `Uint32Array` word.
 */

/** A zero-filled `Int32Array` of `length` entries on shared memory. */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}

/** A zero-filled `Int8Array` of `length` entries on shared memory. */
export function sharedInt8(length: number): Int8Array {
  return new Int8Array(new SharedArrayBuffer(length));
}

/** A zero-filled `Int16Array` of `length` entries on shared memory. */
export function sharedInt16(length: number): Int16Array {
  return new Int16Array(new SharedArrayBuffer(length * 2));
}

/** A zero-filled `Uint8Array` of `length` bytes on shared memory. */
export function sharedUint8(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

/** A zero-filled `Float64Array` of `length` entries on shared memory. */
export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * 8));
}

/** A zero-filled bitset with room for `bits` bits (rounded up to whole words) on shared memory. */
export function sharedBits(bits: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(wordsFor(bits) * 4));
}

/**
 * A load's growing buffers (a bulk import's columns, `PropertyColumn.reserveForLoad`) jump, once
 * past `LOAD_RESERVE_FROM` bytes, to at least `LOAD_RESERVE_BYTES`: past glibc's largest
 * dynamic mmap threshold (32 MiB), so each is a mapping of its own. `calloc` leaves a fresh
 * mapping's pages untouched, so only what is written becomes resident; growth stops copying
 * below that size; and the load's trim keeps views of them, whose untouched tails stay
 * non-resident (`PropertyColumn.trim`). Grown by
 * half from the allocator's heap instead, every old copy stayed resident after the load as a
 * hole the later long-lived arrays did not fill (tens of MB on snb-50k).
 */
export const LOAD_RESERVE_BYTES = 32 << 20;
export const LOAD_RESERVE_FROM = 1 << 20;

/** The length a load's buffer of `bytesPerEntry`-byte entries takes when it needs `length` (see `LOAD_RESERVE_BYTES`). */
export function loadLength(length: number, bytesPerEntry: number): number {
  return length * bytesPerEntry < LOAD_RESERVE_FROM ? length : Math.max(length, Math.ceil(LOAD_RESERVE_BYTES / bytesPerEntry));
}

export function wordsFor(bits: number): number {
  return (bits + 31) >>> 5;
}

/** `old`'s entries copied into a new shared array of `length` entries (the rest zero). */
export function grownInt32(old: Int32Array, length: number): Int32Array {
  const grown = sharedInt32(length);
  grown.set(old.length <= length ? old : old.subarray(0, length));
  return grown;
}

export function grownFloat64(old: Float64Array, length: number): Float64Array {
  const grown = sharedFloat64(length);
  grown.set(old.length <= length ? old : old.subarray(0, length));
  return grown;
}

export function grownBits(old: Uint32Array, bits: number): Uint32Array {
  const grown = sharedBits(bits);
  const words = wordsFor(bits);
  grown.set(old.length <= words ? old : old.subarray(0, words));
  return grown;
}

export function bitGet(bits: Uint32Array, id: number): boolean {
  return (bits[id >>> 5] & (1 << (id & 31))) !== 0;
}

export function bitSet(bits: Uint32Array, id: number): void {
  bits[id >>> 5] |= 1 << (id & 31);
}

export function bitClear(bits: Uint32Array, id: number): void {
  bits[id >>> 5] &= ~(1 << (id & 31));
}

/** Number of set bits in `bits`. */
export function bitCount(bits: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) {
    let w = bits[i];
    w -= (w >>> 1) & 0x55555555;
    w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
    n += (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return n;
}
