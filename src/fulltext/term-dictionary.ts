/**
 * A full-text index's term dictionary: term text ↔ dense term id. An open-addressing hash
 * table over typed arrays rather than a `Map<string, number>`, because indexing looks terms
 * up straight from a range of the (lower-cased) document text: hashing and comparing the
 * characters in place makes no substring for a term already known, which is nearly every
 * word of every document after the first few thousand; a short ASCII term is compared
 * packed in its table cell, without reading its text at all. Terms are only ever added; a
 * compaction of the index builds a new dictionary with the terms still in use.
 */

const EMPTY = 0;
/** Numbers per table cell: term id + 1 (0: empty), hash, and the two words of `pack`. */
const CELL = 4;
/** Terms of at most this many code units, all ASCII, are packed whole into their cell (analyzers.ts `AsciiWords` packs them so). */
export const PACKED_MAX = 7;

/** FNV-1a's constants. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** A term's hash: FNV-1a over its UTF-16 code units (analyzers.ts `AsciiWords` computes the same while scanning). */
export function hashTerm(term: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), FNV_PRIME);
  return h;
}

export class TermDictionary {
  private terms: string[] = [];
  /** Per term id: where its code units start in `chars`, and how many. */
  private spans = new Int32Array(128);
  private chars = new Uint16Array(1024);
  private charsUsed = 0;
  /**
   * The hash table: a power of two of cells of CELL numbers, at most half full. A short
   * ASCII term (most words) is packed whole into its cell, so its lookup reads one cache
   * line; a longer one is compared with its code units in `chars` (three lines; a `Map` of
   * strings took four or five).
   */
  private cells = new Int32Array(CELL * 256);
  /** `pack`'s result. */
  private lo = 0;
  private hi = 0;

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id];
  }

  /** The id of `term`, or -1. */
  idOf(term: string): number {
    return this.find(term, 0, term.length, hashTerm(term));
  }

  /** The id of `term`, added when new. */
  intern(term: string): number {
    const hash = hashTerm(term);
    const found = this.find(term, 0, term.length, hash);
    return found >= 0 ? found : this.add(term, hash);
  }

  /**
   * The id of the term `text.slice(start, end).toLowerCase()` (ASCII; its `hashTerm` is `hash`
   * and `lo`, `hi` are its packing as `pack` makes it), added when new: the scanner's words
   * (analyzers.ts `AsciiWords`) are looked up in the text as written, with no string made
   * unless the term is new.
   */
  internLowered(text: string, start: number, end: number, hash: number, lo: number, hi: number): number {
    const found = this.probe(text, start, end, hash, lo, hi, true);
    return found >= 0 ? found : this.add(text.slice(start, end).toLowerCase(), hash);
  }

  /** Calls `fn` with every term and its id, in id order; stops when it returns false. */
  forEach(fn: (term: string, id: number) => boolean): void {
    for (let id = 0; id < this.terms.length; id++) if (!fn(this.terms[id], id)) return;
  }

  /**
   * Packs `text.slice(start, end)` into `lo` and `hi` when it is short and ASCII: one byte per
   * code unit, the length + 1 in `hi`'s top byte (so `hi` is never 0); else both are 0.
   */
  private pack(text: string, start: number, end: number): void {
    let lo = 0;
    let hi = 0;
    const length = end - start;
    if (length <= PACKED_MAX) {
      for (let i = 0; i < length; i++) {
        const c = text.charCodeAt(start + i);
        if (c > 0x7f) {
          this.lo = this.hi = 0;
          return;
        }
        if (i < 4) lo |= c << (8 * i);
        else hi |= c << (8 * (i - 4));
      }
      hi |= (length + 1) << 24;
    }
    this.lo = lo;
    this.hi = hi;
  }

  private find(text: string, start: number, end: number, hash: number): number {
    this.pack(text, start, end);
    return this.probe(text, start, end, hash, this.lo, this.hi, false);
  }

  /** The id of the term in `text` from `start` to `end` (lower-cased first when `lower`: ASCII only) with this hash and packing, or -1. */
  private probe(text: string, start: number, end: number, hash: number, lo: number, hi: number, lower: boolean): number {
    const cells = this.cells;
    const mask = cells.length / CELL - 1;
    const length = end - start;
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      const c = CELL * cell;
      const entry = cells[c];
      if (entry === EMPTY) return -1;
      if (cells[c + 1] !== hash || cells[c + 2] !== lo || cells[c + 3] !== hi) continue;
      if (hi !== 0) return entry - 1; // short: the packed code units are the term
      const id = entry - 1;
      if (this.spans[2 * id + 1] !== length) continue;
      const at = this.spans[2 * id] - start;
      let i = start;
      if (lower) while (i < end && this.chars[at + i] === lowerAscii(text.charCodeAt(i))) i++;
      else while (i < end && this.chars[at + i] === text.charCodeAt(i)) i++;
      if (i === end) return id;
    }
  }

  private add(term: string, hash: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (2 * id + 2 > this.spans.length) this.spans = grown(this.spans, 2 * id + 2);
    if (this.charsUsed + term.length > this.chars.length) this.chars = grown(this.chars, this.charsUsed + term.length);
    this.spans[2 * id] = this.charsUsed;
    this.spans[2 * id + 1] = term.length;
    for (let i = 0; i < term.length; i++) this.chars[this.charsUsed++] = term.charCodeAt(i);
    if (2 * this.terms.length > this.cells.length / CELL) this.rehash(2 * (this.cells.length / CELL));
    this.pack(term, 0, term.length);
    this.place(id + 1, hash, this.lo, this.hi);
    return id;
  }

  private place(entry: number, hash: number, lo: number, hi: number): void {
    const mask = this.cells.length / CELL - 1;
    let cell = hash & mask;
    while (this.cells[CELL * cell] !== EMPTY) cell = (cell + 1) & mask;
    const c = CELL * cell;
    this.cells[c] = entry;
    this.cells[c + 1] = hash;
    this.cells[c + 2] = lo;
    this.cells[c + 3] = hi;
  }

  /** Moves every term into a table of `size` cells. */
  private rehash(size: number): void {
    const old = this.cells;
    this.cells = new Int32Array(CELL * size);
    for (let c = 0; c < old.length; c += CELL) if (old[c] !== EMPTY) this.place(old[c], old[c + 1], old[c + 2], old[c + 3]);
  }
}

function grown<T extends Int32Array | Uint16Array>(old: T, length: number): T {
  const out = new (old.constructor as new (n: number) => T)(Math.max(length, 2 * old.length));
  out.set(old);
  return out;
}

/** An ASCII code unit lower-cased (others as they are). */
export function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}
