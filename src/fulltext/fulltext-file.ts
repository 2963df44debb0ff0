/**
 * The binary body of a saved full-text index (`fulltext-indexes/<name>.fts`; the header
 * and the crash-safe write are src/vector/persistence.ts's). Unsigned LEB128 varints
 * throughout, so ids up to 2^53 fit and small numbers take a byte. Document by document,
 * so that a save can encode in slices while writes go on (each document's record is whole):
 *
 *   "GFTS" { id+1 length print termCount { termRef [termBytes utf8] fieldCount
 *     { positionCount delta-coded positions } } } 0
 *
 * termRef 0 introduces a new term (its bytes follow), n > 0 repeats the n-th one.
 * `print` is the fingerprint of the text the document was indexed from (`textPrint`), so a
 * loaded index can be caught up with the store without re-analysing unchanged documents.
 * Decoding checks the structure as it goes and throws `FulltextFileError` on anything
 * that does not fit (the caller then rebuilds); the header's CRC-32 has already caught
 * damaged bytes by then.
 */

import * as fs from 'node:fs';

const MAGIC = Buffer.from('GFTS', 'latin1');

/** Per document: for each field index, the positions of one term. */
export type Positions = (number[] | undefined)[];

export interface SavedDoc {
  length: number;
  print: number;
}

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

/** What the encoder reads of an index: its documents and, per term, the documents' positions. */
export interface EncodeSource {
  docs: Map<number, SavedDoc & { terms: string[] }>;
  postings: Map<string, Map<number, Positions>>;
}

/** Documents encoded between two yields of `encodeFulltextAsync`. */
const SLICE = 2000;

/**
 * Encodes an index document by document (see the module comment), handing control back
 * to `pause` every SLICE documents when one is given. Each document is encoded in one go,
 * so its record is always whole and its fingerprint matches its terms; documents changed
 * between slices are written in whichever state they had when reached, which the
 * fingerprint catch-up at load tells apart.
 */
function* encodeDocs(index: EncodeSource, e: Encoder): Generator<void> {
  const termIds = new Map<string, number>();
  // A document re-indexed between slices moves to the end of the map: it is written once.
  const written = new Set<number>();
  e.bytes(MAGIC);
  for (const [id, doc] of index.docs) {
    if (written.has(id)) continue;
    written.add(id);
    if (written.size % SLICE === 0) yield;
    e.uint(id + 1);
    e.uint(doc.length);
    e.uint(doc.print);
    e.uint(doc.terms.length);
    for (const term of doc.terms) {
      const known = termIds.get(term);
      if (known === undefined) {
        termIds.set(term, termIds.size);
        e.uint(0);
        e.bytes(Buffer.from(term, 'utf8'));
      } else e.uint(known + 1);
      const positions = index.postings.get(term)?.get(id) ?? [];
      e.uint(positions.length);
      for (const field of positions) {
        e.uint(field?.length ?? 0);
        let last = 0;
        for (const p of field ?? []) {
          e.uint(p - last);
          last = p;
        }
      }
    }
  }
  e.uint(0);
}

export function encodeFulltext(index: EncodeSource): Buffer[] {
  const e = new Encoder();
  const slices = encodeDocs(index, e);
  while (slices.next().done !== true) continue;
  return e.finish();
}

/** `encodeFulltext` in slices, awaiting `pause()` between them (a save that leaves the event loop free). */
export async function encodeFulltextAsync(index: EncodeSource, pause: () => Promise<void>): Promise<Buffer[]> {
  const e = new Encoder();
  const slices = encodeDocs(index, e);
  while (slices.next().done !== true) await pause();
  return e.finish();
}

export interface DecodedFulltext {
  docs: Map<number, SavedDoc & { terms: string[] }>;
  postings: Map<string, Map<number, Positions>>;
  totalLength: number;
}

/** Decodes a file written by `encodeFulltext`; throws FulltextFileError when it does not fit. */
export function decodeFulltext(buf: Buffer): DecodedFulltext {
  const d = new Decoder(buf);
  if (d.string() !== MAGIC.toString('latin1')) throw new FulltextFileError('not a full-text index file');
  const docs = new Map<number, SavedDoc & { terms: string[] }>();
  const postings = new Map<string, Map<number, Positions>>();
  const terms: string[] = [];
  let totalLength = 0;
  for (let idPlus = d.uint(); idPlus !== 0; idPlus = d.uint()) {
    const id = idPlus - 1;
    const length = d.uint();
    const doc = { length, print: d.uint(), terms: new Array<string>(d.uint()) };
    if (docs.has(id)) throw new FulltextFileError(`document ${id} appears twice`);
    docs.set(id, doc);
    totalLength += length;
    for (let t = 0; t < doc.terms.length; t++) {
      const ref = d.uint();
      if (ref === 0) terms.push(d.string());
      else if (ref > terms.length) throw new FulltextFileError(`a term reference (${ref}) points past the terms read so far`);
      const term = ref === 0 ? terms[terms.length - 1] : terms[ref - 1];
      doc.terms[t] = term;
      const fields = d.uint();
      if (fields > 1 << 16) throw new FulltextFileError('too many fields');
      const positions: Positions = new Array<number[] | undefined>(fields);
      for (let f = 0; f < fields; f++) {
        const count = d.uint();
        if (count === 0) continue;
        const at: number[] = new Array<number>(count);
        let last = 0;
        for (let i = 0; i < count; i++) at[i] = last += d.uint();
        positions[f] = at;
      }
      let list = postings.get(term);
      if (!list) postings.set(term, (list = new Map()));
      list.set(id, positions);
    }
  }
  if (!d.done) throw new FulltextFileError('bytes after the end of the index');
  return { docs, postings, totalLength };
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
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let any = false;
  const mix = (w: number): void => {
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ (w + 0x7f4a7c15), 0x85ebca6b);
    b ^= b >>> 13;
  };
  for (let f = 0; f < values.length; f++) {
    const value = values[f];
    const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    mix(0x10000 + f);
    for (const text of texts) {
      if (typeof text !== 'string') continue;
      any = true;
      mix(0x20000 + text.length);
      for (let i = 0; i < text.length; i++) mix(text.charCodeAt(i));
    }
  }
  return any ? ((a >>> 0) & 0x1fffff) * 0x100000000 + (b >>> 0) : null;
}
