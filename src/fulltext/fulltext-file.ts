/**
 * The binary body of a saved full-text index (`fulltext-indexes/<name>.fts`; the header
 * and the crash-safe write are src/vector/persistence.ts's). Unsigned LEB128 varints
 * throughout, so ids up to 2^53 fit and small numbers take a byte. Document by document,
 * so that a save can encode in slices while writes go on (each document's record is whole),
 * each document being its forward entries (inverted-index.ts), from which loading rebuilds
 * the postings:
 *
 *   "GFTS" { id+1 length print entryCount { entry [termBytes utf8] } } 0
 *
 * entry 0 ends a list element, 1 ends a field, 2 introduces a new term (its bytes follow),
 * n > 2 repeats the (n-3)-th term introduced. `length` counts the terms. `print` is the
 * fingerprint of the text the document was indexed from (`textPrint`), so a loaded index can
 * be caught up with the store without re-analysing unchanged documents. Decoding checks the
 * structure as it goes and throws `FulltextFileError` on anything that does not fit (the
 * caller then rebuilds); the header's CRC-32 has already caught damaged bytes by then.
 *
 * Format history (the header's version, FULLTEXT_FILES): 2 stored per-term position lists
 * per document; 3 stores forward entries. A version-2 file is not read: the index is
 * rebuilt from the store, with a warning that names the versions.
 */

import * as fs from 'node:fs';
import { ELEMENT_END, FIELD_END, type InvertedIndex } from './inverted-index.js';

const MAGIC = Buffer.from('GFTS', 'latin1');
const ENTRY_ELEMENT_END = 0;
const ENTRY_FIELD_END = 1;
const ENTRY_NEW_TERM = 2;
const FIRST_TERM_REF = 3;
/** Entity ids index typed arrays (inverted-index.ts): a larger one in a file is damage, not data. */
const MAX_ID = 2 ** 31 - 1;

export class FulltextFileError extends Error {}

/** Collects varints into 1 MiB chunks. */
class Encoder {
  readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(1 << 20);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(Math.max(1 << 20, n));
    this.at = 0;
  }

  uint(v: number): void {
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.at++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.at++] = v;
  }

  bytes(b: Buffer): void {
    this.uint(b.length);
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }

  finish(): Buffer[] {
    this.chunks.push(this.buf.subarray(0, this.at));
    return this.chunks;
  }
}

class Decoder {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.buf.length) throw new FulltextFileError('the file ends inside a number');
      const b = this.buf[this.at++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new FulltextFileError('a number is too long');
    }
  }

  string(): string {
    const n = this.uint();
    if (this.at + n > this.buf.length) throw new FulltextFileError('the file ends inside a term');
    const s = this.buf.toString('utf8', this.at, this.at + n);
    this.at += n;
    return s;
  }

  get done(): boolean {
    return this.at === this.buf.length;
  }
}

/** Documents encoded between two yields of `encodeFulltextAsync`. */
const SLICE = 2000;

/**
 * Encodes an index document by document (see the module comment), handing control back
 * to `pause` every SLICE documents when one is given. The caller keeps slot numbers
 * stable until it is done (no `compact`). Each document is encoded in one go, so its record
 * is always whole and its fingerprint matches its terms; documents changed between slices
 * are written in whichever state they had when reached (a document re-indexed after it
 * was written gets a later slot, which is skipped), and the load's fingerprint catch-up
 * tells them apart.
 */
function* encodeDocs(index: InvertedIndex, e: Encoder): Generator<void> {
  let local = new Int32Array(1024); // term id → its number in the file + 1
  let terms = 0;
  let written = new Uint32Array(1024); // a bit per entity id
  let count = 0;
  e.bytes(MAGIC);
  for (let slot = 0; slot < index.slotCount; slot++) {
    if (!index.isLive(slot)) continue;
    const id = index.idOf(slot);
    if (id >>> 5 >= written.length) written = grownTo(written, (id >>> 5) + 1);
    if ((written[id >>> 5] & (1 << (id & 31))) !== 0) continue;
    written[id >>> 5] |= 1 << (id & 31);
    if (++count % SLICE === 0) yield;
    e.uint(id + 1);
    e.uint(index.lengthOf(slot));
    e.uint(index.printOf(slot));
    const entries = index.sequence(slot);
    e.uint(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const t = entries[i];
      if (t === ELEMENT_END) e.uint(ENTRY_ELEMENT_END);
      else if (t === FIELD_END) e.uint(ENTRY_FIELD_END);
      else {
        if (t >= local.length) local = grownTo(local, t + 1);
        if (local[t] === 0) {
          local[t] = ++terms;
          e.uint(ENTRY_NEW_TERM);
          e.bytes(Buffer.from(index.term(t), 'utf8'));
        } else e.uint(FIRST_TERM_REF + local[t] - 1);
      }
    }
  }
  e.uint(0);
}

function grownTo<T extends Int32Array | Uint32Array>(old: T, length: number): T {
  const out = new (old.constructor as new (n: number) => T)(Math.max(length, old.length * 2));
  out.set(old);
  return out;
}

export function encodeFulltext(index: InvertedIndex): Buffer[] {
  const e = new Encoder();
  const slices = encodeDocs(index, e);
  while (slices.next().done !== true) continue;
  return e.finish();
}

/** `encodeFulltext` in slices, awaiting `pause()` between them (a save that leaves the event loop free). */
export async function encodeFulltextAsync(index: InvertedIndex, pause: () => Promise<void>): Promise<Buffer[]> {
  const e = new Encoder();
  const slices = encodeDocs(index, e);
  while (slices.next().done !== true) await pause();
  return e.finish();
}

/**
 * Decodes a file written by `encodeFulltext` into `index` (empty), whose documents have
 * `fields` fields; throws FulltextFileError when it does not fit (`index` is then part
 * filled: the caller clears it).
 */
export function decodeFulltext(buf: Buffer, index: InvertedIndex, fields: number): void {
  const d = new Decoder(buf);
  if (d.string() !== MAGIC.toString('latin1')) throw new FulltextFileError('not a full-text index file');
  const terms: number[] = [];
  for (let idPlus = d.uint(); idPlus !== 0; idPlus = d.uint()) {
    const id = idPlus - 1;
    if (id > MAX_ID) throw new FulltextFileError(`a document id (${id}) is out of range`);
    if (index.slotOf(id) >= 0) throw new FulltextFileError(`document ${id} appears twice`);
    const length = d.uint();
    const print = d.uint();
    const entries = d.uint();
    let termsSeen = 0;
    let fieldsSeen = 0;
    index.begin();
    for (let i = 0; i < entries; i++) {
      const entry = d.uint();
      if (entry === ENTRY_ELEMENT_END) index.push(ELEMENT_END);
      else if (entry === ENTRY_FIELD_END) {
        index.push(FIELD_END);
        fieldsSeen++;
      } else {
        if (entry === ENTRY_NEW_TERM) terms.push(index.intern(d.string()));
        else if (entry - FIRST_TERM_REF >= terms.length) throw new FulltextFileError(`a term reference (${entry}) points past the terms read so far`);
        index.push(entry === ENTRY_NEW_TERM ? terms[terms.length - 1] : terms[entry - FIRST_TERM_REF]);
        termsSeen++;
      }
    }
    if (termsSeen !== length || length === 0) throw new FulltextFileError(`document ${id} has ${termsSeen} terms, its record says ${length}`);
    if (fieldsSeen !== fields) throw new FulltextFileError(`document ${id} has ${fieldsSeen} fields, the index has ${fields}`);
    index.finish(id, length, print);
  }
  if (!d.done) throw new FulltextFileError('bytes after the end of the index');
}

/** Writes encoded chunks to `file` (synchronously: close). */
export function writeChunksSync(file: string, chunks: Buffer[]): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const c of chunks) fs.writeSync(fd, c);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes encoded chunks to `file` off the event loop. */
export async function writeChunks(file: string, chunks: Buffer[]): Promise<void> {
  const handle = await fs.promises.open(file, 'w');
  try {
    for (const c of chunks) await handle.write(c);
  } finally {
    await handle.close();
  }
}

/**
 * A fingerprint of the text an entity is indexed from: every string (and string list
 * element) of the indexed properties, with their field and element boundaries; 53 bits as
 * one number. null when there is no text at all.
 */
export function textPrint(values: readonly unknown[]): number | null {
  // Two 32-bit hashes mixed word by word, inline: this runs on every indexed write, where a
  // closure or an array per value would cost more than the hashing.
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let any = false;
  for (let f = 0; f < values.length; f++) {
    const value = values[f];
    let w = 0x10000 + f;
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ (w + 0x7f4a7c15), 0x85ebca6b);
    b ^= b >>> 13;
    const count = typeof value === 'string' ? 1 : Array.isArray(value) ? value.length : 0;
    for (let e = 0; e < count; e++) {
      const text: unknown = typeof value === 'string' ? value : (value as unknown[])[e];
      if (typeof text !== 'string') continue;
      any = true;
      w = 0x20000 + text.length;
      a = Math.imul(a ^ w, 0x01000193);
      b = Math.imul(b ^ (w + 0x7f4a7c15), 0x85ebca6b);
      b ^= b >>> 13;
      for (let i = 0; i < text.length; i++) {
        w = text.charCodeAt(i);
        a = Math.imul(a ^ w, 0x01000193);
        b = Math.imul(b ^ (w + 0x7f4a7c15), 0x85ebca6b);
        b ^= b >>> 13;
      }
    }
  }
  return any ? ((a >>> 0) & 0x1fffff) * 0x100000000 + (b >>> 0) : null;
}
