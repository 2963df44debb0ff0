/**
 * `TextHeap`: the strings of a `TEXT` property column (mostly distinct strings, such as
 * message bodies) as UTF-8 bytes in one byte heap on shared memory, with a start offset and a
 * byte length per entity id. A string costs its bytes plus 8, where a JavaScript string costs
 * a header and, read from a file, often keeps the whole text it was sliced from alive. A read
 * decodes a fresh string.
 *
 * The column tracks presence; this heap only holds bytes. A rewrite or a removal leaves the
 * old bytes behind; when they make up half the heap, the next growth rebuilds it from the live
 * strings. A string that UTF-8 cannot carry exactly (a lone surrogate) is kept aside as is,
 * marked by a length of -1.
 */

import { grownInt32, loadLength, sharedInt32, sharedUint8 } from './buffers.js';

const MIN_BYTES = 4096;
/** `trim` compacts when garbage is at least 1/8 of the used bytes. */
const GARBAGE_SHARE_TO_COMPACT = 8;
/** Strings with a surrogate code unit: those need the exact well-formedness check. */
const SURROGATE = /[\uD800-\uDFFF]/;

function wellFormed(s: string): boolean {
  return !SURROGATE.test(s) || (s as string & { isWellFormed(): boolean }).isWellFormed();
}

/** `length` bytes from `source[start…]` to `target[at…]`; short runs (most strings) by hand, where a subarray view per string costs more than the copy. */
function copyBytes(source: Uint8Array, start: number, target: Uint8Array, at: number, length: number): void {
  if (length < 64) for (let i = 0; i < length; i++) target[at + i] = source[start + i];
  else target.set(source.subarray(start, start + length), at);
}

/** A heap's state for a graph image: its arrays shared (`TextHeap.image`), the kept-aside strings copied. */
export interface TextHeapImage {
  bytes: Uint8Array;
  used: number;
  garbage: number;
  starts: Int32Array;
  lengths: Int32Array;
  odd: [number, string][];
}

export class TextHeap {
  private bytes: Uint8Array;
  /** A Buffer over `bytes` (the same memory) for encoding and decoding. */
  private view: Buffer;
  private used = 0;
  private garbage = 0;
  private starts: Int32Array;
  private lengths: Int32Array;
  /** Strings UTF-8 cannot round-trip, by id. */
  private readonly odd = new Map<number, string>();
  /** A load's heap: its byte buffer grows by reservations (`loadLength`) until `trim`. */
  loading = false;

  constructor(capacity: number) {
    this.bytes = sharedUint8(MIN_BYTES);
    this.view = Buffer.from(this.bytes.buffer, 0, this.bytes.length);
    this.starts = sharedInt32(capacity);
    this.lengths = sharedInt32(capacity);
  }

  /** The heap's state with its arrays shared, not copied (the column decides who may write: `PropertyColumn.lend`). */
  image(): TextHeapImage {
    return { bytes: this.bytes, used: this.used, garbage: this.garbage, starts: this.starts, lengths: this.lengths, odd: [...this.odd] };
  }

  /** A heap over an image's arrays (the same memory). */
  static fromImage(image: TextHeapImage): TextHeap {
    const heap = new TextHeap(0);
    heap.setBytes(image.bytes);
    heap.used = image.used;
    heap.garbage = image.garbage;
    heap.starts = image.starts;
    heap.lengths = image.lengths;
    for (const [id, s] of image.odd) heap.odd.set(id, s);
    return heap;
  }

  /** A heap of its own with the same strings (the bytes in use, the offsets and lengths copied). */
  copy(): TextHeap {
    const heap = new TextHeap(0);
    const bytes = sharedUint8(this.bytes.length);
    bytes.set(this.bytes.subarray(0, this.used));
    heap.setBytes(bytes);
    heap.used = this.used;
    heap.garbage = this.garbage;
    heap.starts = grownInt32(this.starts, this.starts.length);
    heap.lengths = grownInt32(this.lengths, this.lengths.length);
    for (const [id, s] of this.odd) heap.odd.set(id, s);
    return heap;
  }

  /** The string at `id` (which the column knows is present). */
  get(id: number): string {
    const length = this.lengths[id];
    if (length < 0) return this.odd.get(id)!;
    const start = this.starts[id];
    return this.view.toString('utf8', start, start + length);
  }

  set(id: number, s: string): void {
    this.release(id);
    if (!wellFormed(s)) {
      this.odd.set(id, s);
      this.lengths[id] = -1;
      return;
    }
    const length = Buffer.byteLength(s, 'utf8');
    this.reserve(length);
    this.view.write(s, this.used, 'utf8');
    this.starts[id] = this.used;
    this.lengths[id] = length;
    this.used += length;
  }

  /** Sets `id` to the string whose well-formed UTF-8 is `source[start, end)`. */
  setUtf8(id: number, source: Uint8Array, start: number, end: number): void {
    this.release(id);
    const length = end - start;
    this.reserve(length);
    copyBytes(source, start, this.bytes, this.used, length);
    this.starts[id] = this.used;
    this.lengths[id] = length;
    this.used += length;
  }

  /**
   * Sets a run of ids at once from a stored block: the strings of ids `firstId + i` (for each
   * `i` set in `present`) lie one after another in `bytes`, `lengths[i]` bytes each, so the
   * bytes go in with one copy instead of one per string (opening a data directory).
   */
  setBlock(firstId: number, count: number, present: Uint32Array, lengths: Int32Array, bytes: Uint8Array): void {
    for (let i = 0; i < count; i++) if ((present[i >>> 5] & (1 << (i & 31))) !== 0) this.release(firstId + i);
    this.reserve(bytes.length);
    const base = this.used;
    this.bytes.set(bytes, base);
    let at = base;
    for (let i = 0; i < count; i++) {
      if ((present[i >>> 5] & (1 << (i & 31))) === 0) continue;
      this.starts[firstId + i] = at;
      this.lengths[firstId + i] = lengths[i];
      at += lengths[i];
    }
    this.used = at;
  }

  delete(id: number): void {
    this.release(id);
    this.lengths[id] = 0;
  }

  /**
   * The UTF-8 of the strings at ids `firstId + i`, for every offset `i` whose bit is set in
   * `present`, one after another, with each one's byte length by offset (0 where absent): a
   * copy a checkpoint can encode later without making a string. Undefined when one of them
   * is kept aside (UTF-8 cannot carry it).
   */
  copyOut(firstId: number, count: number, present: Uint32Array): { lengths: Int32Array; bytes: Uint8Array } | undefined {
    const lengths = new Int32Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      if ((present[i >>> 5] & (1 << (i & 31))) === 0) continue;
      const length = this.lengths[firstId + i];
      if (length < 0) return undefined;
      lengths[i] = length;
      total += length;
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const length = lengths[i];
      if (length === 0) continue;
      copyBytes(this.bytes, this.starts[firstId + i], out, at, length);
      at += length;
    }
    return { lengths, bytes: out };
  }

  /** Room for ids below `capacity`. */
  grow(capacity: number): void {
    if (capacity <= this.starts.length) return;
    this.starts = grownInt32(this.starts, capacity);
    this.lengths = grownInt32(this.lengths, capacity);
  }

  /** Shrinks the offsets to ids below `capacity` (none above may hold a string) and the byte heap to the live bytes, compacting it. */
  trim(capacity: number): void {
    this.loading = false;
    // Views, not copies, as `PropertyColumn.trim` takes them (the untouched tail was never resident).
    if (capacity < this.starts.length) {
      this.starts = this.starts.subarray(0, capacity);
      this.lengths = this.lengths.subarray(0, capacity);
    }
    const live = this.used - this.garbage;
    // Compacting copies every live string: worth it for a real share of garbage, not for a few rewritten strings.
    if (this.garbage * GARBAGE_SHARE_TO_COMPACT >= this.used && this.garbage > 0) this.rebuild(Math.max(MIN_BYTES, live));
    else if (this.bytes.length > Math.max(MIN_BYTES, this.used)) this.setBytes(this.bytes.subarray(0, Math.max(MIN_BYTES, this.used)));
  }

  memoryBytes(): number {
    let bytes = this.bytes.byteLength + this.starts.byteLength + this.lengths.byteLength;
    for (const s of this.odd.values()) bytes += 40 + s.length * 2;
    return bytes;
  }

  /** Counts the bytes of `id`'s current string as garbage (and forgets a kept-aside one). */
  private release(id: number): void {
    const length = this.lengths[id];
    if (length > 0) this.garbage += length;
    else if (length < 0) this.odd.delete(id);
  }

  /** Makes room for `length` more bytes: compacting when half the heap is garbage, else growing. */
  private reserve(length: number): void {
    if (this.used + length <= this.bytes.length) return;
    const live = this.used - this.garbage;
    const size = Math.max(MIN_BYTES, Math.ceil((live + length) * 1.5));
    if (this.garbage * 2 >= this.used) {
      this.rebuild(size);
      return;
    }
    const wanted = Math.max(size, Math.ceil(this.bytes.length * 1.5));
    const bytes = sharedUint8(this.loading ? loadLength(wanted, 1) : wanted);
    bytes.set(this.bytes.subarray(0, this.used));
    this.setBytes(bytes);
  }

  /** Copies the live strings into a fresh heap of `size` bytes, in id order. */
  private rebuild(size: number): void {
    const bytes = sharedUint8(size);
    let at = 0;
    for (let id = 0; id < this.lengths.length; id++) {
      const length = this.lengths[id];
      if (length <= 0) continue;
      copyBytes(this.bytes, this.starts[id], bytes, at, length);
      this.starts[id] = at;
      at += length;
    }
    this.used = at;
    this.garbage = 0;
    this.setBytes(bytes);
  }

  private setBytes(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.view = Buffer.from(bytes.buffer, 0, bytes.length);
  }
}
