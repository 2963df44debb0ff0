/**
 * A full-text index's term dictionary: term text ↔ dense term id. An open-addressing hash
 * table over typed arrays rather than a `Map<string, number>`, because indexing looks terms
 * up straight from a range of the (lower-cased) document text: hashing and comparing the
 * characters in place makes no substring for a term already known, which is nearly every
 * word of every document after the first few thousand. Terms are only ever added; a
 * compaction of the index builds a new dictionary with the terms still in use.
 */

const EMPTY = 0;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

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
   * Pairs of [term id + 1 (0 empty), hash]; a power of two of them, at most half full. The
   * hash beside the id, and the code units in one pool, keep a lookup to about two cache
   * lines (a `Map` or an array of strings took four or five).
   */
  private cells = new Int32Array(2 * 256);

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

  /** The id of the term `text.slice(start, end)`, whose `hashTerm` is `hash`, added when new (the slice is only made then). */
  internRange(text: string, start: number, end: number, hash: number): number {
    const found = this.find(text, start, end, hash);
    return found >= 0 ? found : this.add(text.slice(start, end), hash);
  }

  /** Calls `fn` with every term and its id, in id order; stops when it returns false. */
  forEach(fn: (term: string, id: number) => boolean): void {
    for (let id = 0; id < this.terms.length; id++) if (!fn(this.terms[id], id)) return;
  }

  private find(text: string, start: number, end: number, hash: number): number {
    const cells = this.cells;
    const mask = (cells.length >> 1) - 1;
    const length = end - start;
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      const entry = cells[2 * cell];
      if (entry === EMPTY) return -1;
      if (cells[2 * cell + 1] !== hash) continue;
      const id = entry - 1;
      if (this.spans[2 * id + 1] !== length) continue;
      const at = this.spans[2 * id] - start;
      let i = start;
      while (i < end && this.chars[at + i] === text.charCodeAt(i)) i++;
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
    if (2 * this.terms.length > this.cells.length >> 1) this.rehash(this.cells.length);
    this.place(id, hash);
    return id;
  }

  private place(id: number, hash: number): void {
    const mask = (this.cells.length >> 1) - 1;
    let cell = hash & mask;
    while (this.cells[2 * cell] !== EMPTY) cell = (cell + 1) & mask;
    this.cells[2 * cell] = id + 1;
    this.cells[2 * cell + 1] = hash;
  }

  /** Doubles the table (`cells` entries: twice the pairs). */
  private rehash(entries: number): void {
    const old = this.cells;
    this.cells = new Int32Array(2 * entries);
    for (let c = 0; c < old.length; c += 2) if (old[c] !== EMPTY) this.place(old[c] - 1, old[c + 1]);
  }
}

function grown<T extends Int32Array | Uint16Array>(old: T, length: number): T {
  const out = new (old.constructor as new (n: number) => T)(Math.max(length, 2 * old.length));
  out.set(old);
  return out;
}
