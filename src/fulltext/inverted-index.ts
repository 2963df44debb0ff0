/**
 * The in-memory inverted index behind a full-text index, laid out in a handful of typed
 * arrays so that keeping it current on every write makes almost no JS objects (the former
 * per-term maps of per-document position arrays made a dozen small objects per indexed
 * document; at a million documents the collector's work on them cut write throughput to a
 * fiftieth). It owns:
 *
 * - the term dictionary (term-dictionary.ts): term text ↔ dense term id;
 * - the documents, as slots: each indexed version of an entity gets the next slot number,
 *   with its entity id, length (terms) and text fingerprint in typed arrays by slot. An
 *   update or delete only marks the old slot dead in a tombstone bitset; dead slots are
 *   reclaimed by `compact`, which renumbers the live ones (the owner calls it once the dead
 *   outnumber the live, and before a save);
 * - a forward store: each slot's term ids in order (one `Uint32Array` pool), with markers
 *   between list elements (`ELEMENT_END`) and after each field (`FIELD_END`); positions are
 *   indexes into it, so phrases and field restrictions read it, and compaction and saving
 *   rebuild everything else from it;
 * - postings: per term, a chain of blocks in a pool of `Int32Array` chunks (added one at a
 *   time, never copied: a pool of hundreds of MB grown by doubling stalled writes for its
 *   copy and the collector's reaction to it), each block within one chunk,
 *   `[next, capacity, (slot, tf) × capacity]`, capacities doubling from 2 to 1024; slots are
 *   appended in increasing order, so every list is sorted; the live document frequency per
 *   term is kept exact (a dead slot's terms are subtracted when it dies).
 *
 * Scoring and query forms are fulltext-index.ts's; this module knows nothing of BM25.
 */

import { TermDictionary } from './term-dictionary.js';

/** Forward-store marker: the end of one element of a list property (a phrase never spans it). */
export const ELEMENT_END = 0xffffffff;
/** Forward-store marker: the end of one indexed property (field). */
export const FIELD_END = 0xfffffffe;

const FIRST_BLOCK = 2;
const TERM_STRIDE = 8;
const HEAD = 0;
const TAIL = 1;
const NEXT = 2;
const ROOM = 3;
const DF = 4;
const STAMP = 5;
const COUNT = 6;
const MAX_BLOCK = 1024;
const BLOCK_HEADER = 2;
/** Pool chunks hold 2^CHUNK_BITS numbers (4 MiB); a block never straddles two. */
const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

type Grown = Int32Array | Uint32Array | Float64Array;

/** `old`'s entries in a new array of the same kind with room for `length` (at least doubling). */
function grow<T extends Grown>(old: T, length: number, fill = 0): T {
  if (length <= old.length) return old;
  const size = Math.max(length, old.length * 2, 16);
  const out = new (old.constructor as new (n: number) => T)(size);
  out.set(old);
  if (fill !== 0) out.fill(fill, old.length);
  return out;
}

export class InvertedIndex {
  // ---- terms
  private dictionary = new TermDictionary();
  /**
   * Per term, TERM_STRIDE entries side by side (one cache line for everything a posting
   * touches): the first and last blocks of its postings, where the next posting goes and
   * how many more fit there, its live document frequency, and scratch for counting one
   * document's terms (the stamp of the last document that counted it, and its count).
   */
  private terms = new Int32Array(0);
  private stampNow = 0;
  private distinct = new Int32Array(64);

  // ---- postings
  /** Pool position p is `chunks[p >>> CHUNK_BITS][p & IN_CHUNK]`; the first chunk starts small and grows to CHUNK. */
  private chunks: Int32Array[] = [new Int32Array(1 << 12)];
  private poolUsed = 0;

  // ---- slots (document versions)
  private slots = 0;
  private live = 0;
  private slotId = new Float64Array(0);
  private slotLength = new Int32Array(0);
  private slotPrint = new Float64Array(0);
  private slotStart = new Float64Array(0);
  private slotWords = new Int32Array(0);
  private dead = new Uint32Array(0);
  private idSlot = new Int32Array(0);
  private lengthSum = 0;

  // ---- forward store
  private forward = new Uint32Array(1 << 12);
  private forwardUsed = 0;

  /** Live documents. */
  get size(): number {
    return this.live;
  }

  /** Dead slots not yet reclaimed. */
  get deadSlots(): number {
    return this.slots - this.live;
  }

  /** Slots handed out so far (live and dead); slot numbers are below this. */
  get slotCount(): number {
    return this.slots;
  }

  /** Total length (terms) of the live documents. */
  get totalLength(): number {
    return this.lengthSum;
  }

  // ------------------------------------------------------------------ terms

  /** The id of `term`, made when new. */
  intern(term: string): number {
    return this.known(this.dictionary.intern(term));
  }

  /** The id of the term `text.slice(start, end).toLowerCase()` (see `TermDictionary.internLowered`), made when new. */
  internLowered(text: string, start: number, end: number, hash: number, lo: number, hi: number): number {
    return this.known(this.dictionary.internLowered(text, start, end, hash, lo, hi));
  }

  /** Makes room for term `id`'s postings. */
  private known(id: number): number {
    if (TERM_STRIDE * id >= this.terms.length) {
      const from = this.terms.length;
      this.terms = grow(this.terms, TERM_STRIDE * (id + 1));
      for (let at = from; at < this.terms.length; at += TERM_STRIDE) this.terms[at + HEAD] = this.terms[at + TAIL] = -1;
    }
    return id;
  }

  /** The id of `term`, or -1 when no document ever held it. */
  termId(term: string): number {
    return this.dictionary.idOf(term);
  }

  term(id: number): string {
    return this.dictionary.term(id);
  }

  /** Live documents holding term `id`. */
  df(id: number): number {
    return this.terms[TERM_STRIDE * id + DF];
  }

  /** Calls `fn` with every term some live document holds, in the order terms were first seen; stops when it returns false. */
  forEachTerm(fn: (term: string, id: number) => boolean): void {
    this.dictionary.forEach((term, id) => this.terms[TERM_STRIDE * id + DF] === 0 || fn(term, id));
  }

  // ------------------------------------------------------------------ documents

  slotOf(id: number): number {
    return id < this.idSlot.length ? this.idSlot[id] : -1;
  }

  idOf(slot: number): number {
    return this.slotId[slot];
  }

  lengthOf(slot: number): number {
    return this.slotLength[slot];
  }

  printOf(slot: number): number {
    return this.slotPrint[slot];
  }

  isLive(slot: number): boolean {
    return (this.dead[slot >>> 5] & (1 << (slot & 31))) === 0;
  }

  /** Slot `slot`'s forward-store entries (term ids and markers); valid until the next write. */
  sequence(slot: number): Uint32Array {
    const start = this.slotStart[slot];
    return this.forward.subarray(start, start + this.slotWords[slot]);
  }

  /** The whole forward store, for reading slots' entries without a view per slot (valid until the next write). */
  get entries(): Uint32Array {
    return this.forward;
  }

  /** Where slot `slot`'s forward entries start in `entries`. */
  entriesStart(slot: number): number {
    return this.slotStart[slot];
  }

  /** Where slot `slot`'s forward entries end in `entries`. */
  entriesEnd(slot: number): number {
    return this.slotStart[slot] + this.slotWords[slot];
  }

  /** Ids of the live documents, in slot order. */
  *ids(): Generator<number> {
    for (let s = 0; s < this.slots; s++) if (this.isLive(s)) yield this.slotId[s];
  }

  /**
   * Starts a document: its forward entries are appended with `push` and it is indexed by
   * `finish`. Only one document is open at a time, and nothing is removed while it is.
   */
  begin(): void {
    this.pending = this.forwardUsed;
    this.pendingDistinct = 0;
    this.nextStamp();
  }

  private pending = 0;
  /** The open document's distinct terms so far (in `distinct`), counted as they are pushed. */
  private pendingDistinct = 0;

  /**
   * Appends a term id or a marker to the open document. A term is counted for its posting
   * here, while its entries are in the cache anyway (it was just looked up), rather than in
   * a second pass over the document at `finish`.
   */
  push(entry: number): void {
    if (this.forwardUsed >= this.forward.length) this.forward = grow(this.forward, this.forwardUsed + 1);
    this.forward[this.forwardUsed++] = entry;
    if (entry < FIELD_END) this.pendingDistinct = this.count(entry, this.pendingDistinct);
  }

  /** Drops the open document's entries (it had no terms). */
  abandon(): void {
    this.forwardUsed = this.pending;
  }

  /**
   * Indexes the open document as entity `id` (which must hold no live document: `remove`
   * it first) with `length` terms and the text fingerprint `print`.
   */
  finish(id: number, length: number, print: number): void {
    const slot = this.slots++;
    if (slot >= this.slotId.length) {
      const n = slot + 1;
      this.slotId = grow(this.slotId, n);
      this.slotLength = grow(this.slotLength, n);
      this.slotPrint = grow(this.slotPrint, n);
      this.slotStart = grow(this.slotStart, n);
      this.slotWords = grow(this.slotWords, n);
    }
    if (slot >>> 5 >= this.dead.length) this.dead = grow(this.dead, (slot >>> 5) + 1);
    if (id >= this.idSlot.length) this.idSlot = grow(this.idSlot, id + 1, -1);
    this.slotId[slot] = id;
    this.slotLength[slot] = length;
    this.slotPrint[slot] = print;
    this.slotStart[slot] = this.pending;
    this.slotWords[slot] = this.forwardUsed - this.pending;
    this.idSlot[id] = slot;
    this.live++;
    this.lengthSum += length;
    this.post(slot, this.pendingDistinct);
  }

  /** Appends a posting for each of the `n` distinct terms of `slot` (in `distinct`) and counts it in their document frequencies. */
  private post(slot: number, n: number): void {
    const terms = this.terms;
    for (let i = 0; i < n; i++) {
      const m = TERM_STRIDE * this.distinct[i];
      if (terms[m + ROOM] === 0) this.newBlock(m);
      const next = terms[m + NEXT];
      const chunk = this.chunks[next >>> CHUNK_BITS];
      const at = next & IN_CHUNK;
      chunk[at] = slot;
      chunk[at + 1] = terms[m + COUNT];
      terms[m + NEXT] = next + 2;
      terms[m + ROOM]--;
      terms[m + DF]++;
    }
  }

  /** A new stamp: term counts from here on belong to one new document. */
  private nextStamp(): void {
    if (++this.stampNow === 0x7fffffff) {
      for (let m = 0; m < this.terms.length; m += TERM_STRIDE) this.terms[m + STAMP] = 0;
      this.stampNow = 1;
    }
  }

  /** Counts one occurrence of term `t` in the document being counted, of which `n` distinct terms are in `distinct` so far; returns the new number. */
  private count(t: number, n: number): number {
    const terms = this.terms;
    const m = TERM_STRIDE * t;
    if (terms[m + STAMP] !== this.stampNow) {
      terms[m + STAMP] = this.stampNow;
      terms[m + COUNT] = 1;
      if (n >= this.distinct.length) this.distinct = grow(this.distinct, n + 1);
      this.distinct[n++] = t;
    } else terms[m + COUNT]++;
    return n;
  }

  /** Collects `slot`'s distinct terms into `distinct` (returns how many) with their counts in the terms' COUNT. */
  private countTerms(slot: number): number {
    this.nextStamp();
    const start = this.slotStart[slot];
    const end = start + this.slotWords[slot];
    let n = 0;
    for (let i = start; i < end; i++) {
      const t = this.forward[i];
      if (t < FIELD_END) n = this.count(t, n);
    }
    return n;
  }

  /** Chains a new block to the postings of the term whose entries start at `m` (twice the last one's capacity). */
  private newBlock(m: number): void {
    const terms = this.terms;
    const last = terms[m + TAIL];
    const capacity = last < 0 ? FIRST_BLOCK : Math.min(MAX_BLOCK, this.poolAt(last + 1) * 2);
    const block = this.allocate(BLOCK_HEADER + 2 * capacity);
    this.poolSet(block, -1);
    this.poolSet(block + 1, capacity);
    if (last < 0) terms[m + HEAD] = block;
    else this.poolSet(last, block);
    terms[m + TAIL] = block;
    terms[m + NEXT] = block + BLOCK_HEADER;
    terms[m + ROOM] = capacity;
  }

  private poolAt(p: number): number {
    return this.chunks[p >>> CHUNK_BITS][p & IN_CHUNK];
  }

  private poolSet(p: number, v: number): void {
    this.chunks[p >>> CHUNK_BITS][p & IN_CHUNK] = v;
  }

  /** Room for `size` numbers within one chunk: the pool position where they start. */
  private allocate(size: number): number {
    let at = this.poolUsed;
    if ((at & IN_CHUNK) + size > CHUNK) at = ((at >>> CHUNK_BITS) + 1) << CHUNK_BITS;
    const index = at >>> CHUNK_BITS;
    const end = (at & IN_CHUNK) + size;
    if (index === this.chunks.length) this.chunks.push(new Int32Array(CHUNK));
    else if (end > this.chunks[index].length) {
      const grown = new Int32Array(Math.min(CHUNK, Math.max(end, 2 * this.chunks[index].length)));
      grown.set(this.chunks[index]);
      this.chunks[index] = grown;
    }
    this.poolUsed = at + size;
    return at;
  }

  /** Marks entity `id`'s document dead (a tombstone; `compact` reclaims it). */
  remove(id: number): void {
    const slot = this.slotOf(id);
    if (slot < 0) return;
    this.idSlot[id] = -1;
    this.dead[slot >>> 5] |= 1 << (slot & 31);
    this.live--;
    this.lengthSum -= this.slotLength[slot];
    const n = this.countTerms(slot);
    for (let i = 0; i < n; i++) this.terms[TERM_STRIDE * this.distinct[i] + DF]--;
  }

  /**
   * Calls `fn(slot, tf)` for each live document holding term `id`, in slot order. `fn`
   * must not write to the index.
   */
  forEachPosting(id: number, fn: (slot: number, tf: number) => void): void {
    const m = TERM_STRIDE * id;
    for (let block = this.terms[m + HEAD]; block >= 0; ) {
      const chunk = this.chunks[block >>> CHUNK_BITS];
      const start = block & IN_CHUNK;
      const end = block === this.terms[m + TAIL] ? this.terms[m + NEXT] - (block - start) : start + BLOCK_HEADER + 2 * chunk[start + 1];
      for (let at = start + BLOCK_HEADER; at < end; at += 2) {
        const slot = chunk[at];
        if ((this.dead[slot >>> 5] & (1 << (slot & 31))) === 0) fn(slot, chunk[at + 1]);
      }
      block = chunk[start];
    }
  }

  /**
   * Reclaims the dead slots: the live documents get slots 0… in their old order, and the
   * forward store, postings and term dictionary (terms no live document holds are dropped)
   * are rebuilt from their forward entries.
   */
  compact(): void {
    const old = {
      forward: this.forward,
      slotId: this.slotId,
      slotLength: this.slotLength,
      slotPrint: this.slotPrint,
      slotStart: this.slotStart,
      slotWords: this.slotWords,
      dead: this.dead,
      slots: this.slots,
      dictionary: this.dictionary,
    };
    const isLive = (s: number): boolean => (old.dead[s >>> 5] & (1 << (s & 31))) === 0;
    let words = 0;
    for (let s = 0; s < old.slots; s++) if (isLive(s)) words += old.slotWords[s];
    this.reset(this.live, words);
    const remap = new Int32Array(old.dictionary.size).fill(-1);
    for (let s = 0; s < old.slots; s++) {
      if (!isLive(s)) continue;
      this.begin();
      const start = old.slotStart[s];
      const end = start + old.slotWords[s];
      for (let i = start; i < end; i++) {
        const t = old.forward[i];
        if (t >= FIELD_END) this.push(t);
        else {
          if (remap[t] < 0) remap[t] = this.intern(old.dictionary.term(t));
          this.push(remap[t]);
        }
      }
      this.finish(old.slotId[s], old.slotLength[s], old.slotPrint[s]);
    }
  }

  /**
   * Makes room at once for `docs` more documents like the ones indexed so far (their forward
   * entries estimated from the average) and for entity ids below `ids`. A background build
   * calls it after its first slice: growing the arrays by doubling part-way copies tens of MB
   * in one step at a million documents, and one such copy held the event loop past a slice.
   */
  reserve(docs: number, ids: number): void {
    const n = this.slots + docs;
    if (n > this.slotId.length) {
      this.slotId = grow(this.slotId, n);
      this.slotLength = grow(this.slotLength, n);
      this.slotPrint = grow(this.slotPrint, n);
      this.slotStart = grow(this.slotStart, n);
      this.slotWords = grow(this.slotWords, n);
    }
    this.dead = grow(this.dead, (n + 31) >>> 5);
    this.idSlot = grow(this.idSlot, ids, -1);
    if (this.slots > 0) this.forward = grow(this.forward, Math.ceil(this.forwardUsed + 1.1 * docs * (this.forwardUsed / this.slots)));
  }

  /** Empties the index (room for about `docs` documents of `words` forward entries). */
  clear(): void {
    this.reset(0, 0);
  }

  private reset(docs: number, words: number): void {
    this.dictionary = new TermDictionary();
    this.terms = new Int32Array(0);
    this.stampNow = 0;
    this.chunks = [new Int32Array(Math.max(1 << 12, Math.min(CHUNK, this.poolUsed, 8 * words)))];
    this.poolUsed = 0;
    this.slots = 0;
    this.live = 0;
    this.lengthSum = 0;
    this.slotId = new Float64Array(docs);
    this.slotLength = new Int32Array(docs);
    this.slotPrint = new Float64Array(docs);
    this.slotStart = new Float64Array(docs);
    this.slotWords = new Int32Array(docs);
    this.dead = new Uint32Array((docs + 31) >>> 5);
    this.idSlot.fill(-1);
    this.forward = new Uint32Array(Math.max(1 << 12, words));
    this.forwardUsed = 0;
  }
}
