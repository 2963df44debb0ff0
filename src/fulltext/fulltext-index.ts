/**
 * One full-text index: an inverted index with positions over string properties of nodes
 * with any of some labels (or relationships of some types), scored with BM25 (k1 = 1.2,
 * b = 0.75, Lucene's defaults), answering the query forms of query-parser.ts. Written here
 * rather than taken from a library: the JS search libraries on npm either cannot update
 * documents in place (lunr), or keep no term positions and so cannot answer phrases
 * (MiniSearch, FlexSearch), and this index must follow every write and rollback through the
 * schema's change feed. The postings live in typed arrays (inverted-index.ts) so that
 * following writes costs the collector little.
 *
 * The index lives in memory; on a data directory it is saved at checkpoints and on close
 * (fulltext-file.ts, with the header and crash-safe write of src/vector/persistence.ts), and
 * `populate` at open loads the file and catches it up with the recovered store: a document
 * whose text's fingerprint differs from the saved one is re-analysed, one that is gone is
 * removed, and the WAL records replayed after that reach the index through the change feed.
 * A file that is missing, damaged, of another format version or for another definition is
 * not used: the index is rebuilt.
 *
 * An index over many documents (`backgroundBuildFrom` covered entities and more) is built in
 * the background, in slices of `buildSliceMs` between which the event loop serves everything
 * else, instead of holding every door up for the whole build (seconds for a million
 * documents). While it is being built (SHOW FULLTEXT INDEXES: POPULATING, with the share done)
 * writes are indexed into it as usual: re-indexing an entity from its current state is
 * idempotent, so the build reaching an entity already written leaves it as it is, and an
 * entity deleted or relabelled meanwhile is found so. A search cannot be answered right from
 * part of the documents — BM25 needs every document's terms and length, and so would any exact
 * scoring of the rest — so a search of a populating index completes the build first (as
 * Neo4j's full-text procedures wait for their index to come online) and answers from the
 * finished index; `finishPopulation` (db.awaitIndex) does the same. A checkpoint does not save
 * a half-built index, and a drop or the database closing stops the build.
 */

import * as fs from 'node:fs';
import { ResourceLimitError } from '../errors.js';
import type { Graph } from '../store/graph.js';
import type { Node, Rel } from '../store/entities.js';
import type { ExtensionIndex, ExtensionIndexDef } from '../store/schema.js';
import { AsciiWords, analyzer as analyzerNamed, WORD_STRIDE, type Analyzer } from './analyzers.js';
import type { FtQuery } from './query-parser.js';
import { inTurns, nextTurn } from '../event-loop.js';
import { decodeFulltext, encodeFulltext, encodeFulltextAsync, textPrint, writeChunks, writeChunksSync } from './fulltext-file.js';
import { ELEMENT_END, FIELD_END, InvertedIndex } from './inverted-index.js';
import type { VectorStorage as IndexStorage } from '../vector/hnsw-index.js';
import type { PopulationReport } from '../vector/hnsw-index.js';
import { NO_STATE, readIndexFiles, removeIndexFiles, saveIndexFiles, saveIndexFilesAsync, type IndexFileKind } from '../vector/persistence.js';

import { FULLTEXT_INDEX_TYPE } from './index-type.js';

export { FULLTEXT_INDEX_TYPE };
const K1 = 1.2;
const B = 0.75;
const MAX_EXPANSIONS = 1024;
/** Terms one search may score in all, its prefixes and fuzzy terms expanded (each expands to at most MAX_EXPANSIONS). */
export const MAX_SCORED_TERMS = 16 * 1024;
/** Dead slots are reclaimed once there are at least this many and more than live documents. */
const COMPACT_MIN_DEAD = 4096;
/** Bump when analysis or the file's layout changes: older files are then rebuilt (fulltext-file.ts lists the versions). */
export const FULLTEXT_FILES: IndexFileKind = { subdir: 'fulltext-indexes', suffix: '.fts', format: 'graphdb-fulltext', version: 3 };

/** The background build: the covered ids when it started (a label's twice when it has two of the index's labels: indexing is idempotent), and how far it has come. */
interface Build {
  ids: Int32Array;
  next: number;
  /** Whether the index's arrays have been sized for the whole build (after its first slice). */
  reserved: boolean;
  /** Settles when the build ends, is dropped or is stopped (`whenPopulated`). */
  ended: Promise<void>;
  end: () => void;
}

export class FulltextIndex implements ExtensionIndex {
  /** Indexes covering at least this many entities are built in the background (a setting, so that tests can reach that path with few). */
  static backgroundBuildFrom = 10_000;
  /** Longest the background build holds the event loop at a time (a setting, so that tests can see many slices). */
  static buildSliceMs = 10;
  /** Builds running now, in every database of the process: while none runs, a query need not look for one (`whenPopulated`). */
  static buildsRunning = 0;
  readonly analyzer: Analyzer;
  /** The standard analyzer's scanner for ASCII texts (the common case, analysed without a string per word). */
  private readonly asciiWords: AsciiWords | undefined;
  private readonly index = new InvertedIndex();
  private readonly labels: Set<string>;
  /** Whether the index changed since it was last saved or loaded. */
  private dirty = true;
  /** Bumped by a drop and by every save: a background save whose number is stale leaves the files alone. */
  private generation = 0;
  private readonly values: unknown[] = [];
  /** Background saves encoding now: slots keep their numbers (no compaction) until they are done. */
  private encoding = 0;
  population: PopulationReport = { source: 'built', caughtUp: 0 };
  /** The background build running, if any. */
  private building: Build | undefined;
  private graph: Graph | undefined;

  constructor(
    readonly def: ExtensionIndexDef,
    private readonly storage: IndexStorage = {},
  ) {
    this.analyzer = analyzerNamed(String(def.options['fulltext.analyzer'] ?? 'standard'));
    this.labels = new Set(def.labelsOrTypes);
    this.asciiWords = this.analyzer.name === 'standard' ? new AsciiWords() : undefined;
  }

  get size(): number {
    return this.index.size;
  }

  /** Superseded document versions not yet reclaimed (see `compactIfWorthIt`). */
  get deadDocuments(): number {
    return this.index.deadSlots;
  }

  get entity(): 'node' | 'relationship' {
    return this.def.entity;
  }

  /** Fills the index from the graph: from its saved file when there is a sound one, else by analysing every document (in the background when many). */
  populate(graph: Graph): void {
    this.graph = graph;
    if (this.storage.dataDir !== undefined && this.restore(graph, this.storage.dataDir)) return;
    this.clear();
    this.dirty = true;
    this.population = { source: 'built', caughtUp: 0 };
    let resolve = (): void => undefined;
    const ended = new Promise<void>((r) => (resolve = r));
    let running = true;
    FulltextIndex.buildsRunning++;
    const end = (): void => {
      if (!running) return;
      running = false;
      FulltextIndex.buildsRunning--;
      resolve();
    };
    const build: Build = { ids: this.coveredIds(graph), next: 0, reserved: false, ended, end };
    this.building = build;
    if (build.ids.length < FulltextIndex.backgroundBuildFrom) {
      this.buildSlice(Infinity);
      return;
    }
    // Until dropped, rebuilt or closed meanwhile, when this build is no longer the index's.
    void inTurns(
      () => this.building === build,
      () => this.buildSlice(FulltextIndex.buildSliceMs),
    );
  }

  /** Whether the background build is still running (SHOW FULLTEXT INDEXES: POPULATING). */
  get populating(): boolean {
    return this.building !== undefined;
  }

  /** Settles when the background build running now ends (undefined: none runs), so that an asynchronous caller can wait for it with the event loop free. */
  whenPopulated(): Promise<void> | undefined {
    return this.building?.ended;
  }

  /** Share of the covered entities indexed so far, in percent (100 once built). */
  get populationPercent(): number {
    const b = this.building;
    return b === undefined || b.ids.length === 0 ? 100 : (100 * b.next) / b.ids.length;
  }

  /**
   * Completes a background build at once (db.awaitIndex, and a search of a populating index).
   * `checkDeadline` (the calling query's) may stop it part-way with its error: what was indexed
   * stays, and the background slices go on from there.
   */
  finishPopulation(checkDeadline?: () => void): void {
    while (this.building !== undefined) {
      this.buildSlice(checkDeadline === undefined ? Infinity : FulltextIndex.buildSliceMs);
      if (this.building !== undefined) checkDeadline?.();
    }
  }

  /** Stops a background build for good (the database is closing): the index stays POPULATING and is not saved. */
  stopPopulation(): void {
    // A copy of the build, so the scheduled slice no longer finds its own and ends the chain.
    if (this.building === undefined) return;
    this.building = { ...this.building };
    this.building.end();
  }

  /** Indexes covered entities for up to `ms`; the last slice ends the build. */
  private buildSlice(ms: number): void {
    const build = this.building;
    const graph = this.graph;
    if (build === undefined || graph === undefined) return;
    const { ids } = build;
    if (!build.reserved && build.next > 0 && ms !== Infinity) {
      // A slice of its own, sized from the documents of the first: the rest of the build grows no array.
      build.reserved = true;
      let top = 0;
      for (let i = build.next; i < ids.length; i++) if (ids[i] > top) top = ids[i];
      this.index.reserve(ids.length - build.next, top + 1);
      return;
    }
    const until = performance.now() + ms;
    const nodes = this.def.entity === 'node';
    while (build.next < ids.length) {
      const id = ids[build.next++];
      const e = nodes ? graph.nodeAt(id) : graph.relAt(id);
      // From its current state: an entity written meanwhile is already indexed so, and is left as it is.
      if (e) this.put(e);
      if ((build.next & 7) === 0 && performance.now() >= until) return;
    }
    this.building = undefined;
    build.end();
  }

  /** The ids of every entity with one of the index's labels (types) as they are now, copied (the sets change while a build runs). */
  private coveredIds(graph: Graph): Int32Array {
    const sets = this.def.labelsOrTypes.map((l) => (this.def.entity === 'node' ? graph.labelSet(l) : graph.typeSet(l)));
    const out = new Int32Array(sets.reduce((n, set) => n + (set?.length ?? 0), 0));
    let at = 0;
    for (const set of sets) {
      if (set === undefined) continue;
      out.set(set.ids.subarray(0, set.length), at);
      at += set.length;
    }
    return out;
  }

  /** Calls `fn` once for every live entity with one of the index's labels (types). */
  private forEachCovered(graph: Graph, fn: (e: Node | Rel) => void): void {
    const seen = new Set<number>();
    for (const label of this.def.labelsOrTypes) {
      const ids = this.def.entity === 'node' ? graph.labelSet(label) : graph.typeSet(label);
      if (!ids) continue;
      for (let i = 0; i < ids.length; i++) {
        const id = ids.ids[i];
        if (this.def.labelsOrTypes.length > 1) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        const e = this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
        if (e && !e.deleted) fn(e);
      }
    }
  }

  /**
   * Loads the saved file and catches it up with the graph, document by document (see the
   * module comment). False, with a warning, when there is a file but it cannot be used.
   */
  private restore(graph: Graph, dataDir: string): boolean {
    const saved = readIndexFiles(dataDir, FULLTEXT_FILES, this.def, (state) => (state.length === 0 ? {} : undefined));
    if (!saved) return false;
    const refuse = (why: string): false => {
      this.storage.warn?.(`graphdb: full-text index ${this.def.name}: not loading its saved file, rebuilding it from the store: ${why}`);
      return false;
    };
    if ('refused' in saved) return refuse(saved.refused);
    this.clear();
    try {
      decodeFulltext(fs.readFileSync(saved.file), this.index, this.def.properties.length);
    } catch (err) {
      this.clear();
      return refuse(`it cannot be decoded (${err instanceof Error ? err.message : String(err)})`);
    }
    let caughtUp = 0;
    const seen = new Set<number>();
    this.forEachCovered(graph, (e) => {
      seen.add(e.id);
      const slot = this.index.slotOf(e.id);
      if (this.textPrintOf(e) === (slot < 0 ? null : this.index.printOf(slot))) return;
      this.put(e);
      caughtUp++;
    });
    for (const id of [...this.index.ids()]) {
      if (seen.has(id)) continue;
      this.index.remove(id);
      caughtUp++;
    }
    this.compactIfWorthIt();
    this.dirty = caughtUp > 0;
    this.population = { source: 'file', caughtUp, fileSeq: saved.seq };
    return true;
  }

  private textPrintOf(e: Node | Rel): number | null {
    return textPrint(this.valuesOf(e));
  }

  /** The indexed properties' values of `e`, in a scratch array reused from call to call. */
  private valuesOf(e: Node | Rel): unknown[] {
    const keys = this.def.properties;
    for (let f = 0; f < keys.length; f++) this.values[f] = e.prop(keys[f]);
    return this.values;
  }

  /** Saves the index into the data directory when there is one and it changed; durable when it returns (close). */
  save(seq: number): void {
    const dataDir = this.storage.dataDir;
    // A half-built index is not saved: the next open builds it again.
    if (dataDir === undefined || !this.dirty || this.building !== undefined) return;
    this.generation++;
    this.compactIfWorthIt();
    const chunks = encodeFulltext(this.index);
    this.dirty = false;
    try {
      saveIndexFiles(dataDir, FULLTEXT_FILES, this.def, seq, NO_STATE, (file) => writeChunksSync(file, chunks));
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /**
   * `save` without holding up the event loop: the index is encoded in slices of documents
   * with the event loop free between them (writes may go on: each document is written
   * whole, in whichever state it had when reached, and the load's catch-up tells them
   * apart), then written and synced asynchronously.
   */
  async saveAsync(seq: number): Promise<void> {
    const dataDir = this.storage.dataDir;
    if (dataDir === undefined || !this.dirty || this.building !== undefined) return;
    const generation = ++this.generation;
    this.dirty = false;
    try {
      this.compactIfWorthIt();
      this.encoding++;
      let chunks: Buffer[];
      try {
        chunks = await encodeFulltextAsync(this.index, nextTurn);
      } finally {
        this.encoding--;
      }
      await saveIndexFilesAsync(dataDir, FULLTEXT_FILES, this.def, seq, NO_STATE, (file) => writeChunks(file, chunks), () => this.generation === generation);
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  updateNode(node: Node): void {
    if (this.def.entity === 'node') this.put(node);
  }

  updateRel(rel: Rel): void {
    if (this.def.entity === 'relationship') this.put(rel);
  }

  /** The index was dropped: empty it and forget its files. */
  dispose(): void {
    this.clear();
    this.removeFiles();
  }

  private clear(): void {
    this.generation++;
    this.building?.end();
    this.building = undefined;
    this.index.clear();
  }

  /** Forgets the saved files (the index was dropped). */
  removeFiles(): void {
    if (this.storage.dataDir !== undefined) removeIndexFiles(this.storage.dataDir, this.def.name, FULLTEXT_FILES);
  }

  private covers(e: Node | Rel): boolean {
    if (e.deleted) return false;
    return 'labels' in e ? e.labels.some((l) => this.labels.has(l)) : this.labels.has(e.type);
  }

  /** Reclaims dead slots once they outnumber the live documents (amortised: each compaction follows as many updates as it copies documents). */
  private compactIfWorthIt(): void {
    const ix = this.index;
    if (this.encoding === 0 && ix.deadSlots >= COMPACT_MIN_DEAD && ix.deadSlots > ix.size) ix.compact();
  }

  /** Re-indexes one entity from its current state; an unchanged text (same fingerprint) is left as it is. */
  private put(e: Node | Rel): void {
    const ix = this.index;
    const slot = ix.slotOf(e.id);
    const values = this.covers(e) ? this.valuesOf(e) : undefined;
    const print = values === undefined ? null : textPrint(values);
    if (slot >= 0) {
      if (print !== null && ix.printOf(slot) === print) return;
      ix.remove(e.id);
      this.dirty = true;
      this.compactIfWorthIt();
    }
    if (values === undefined || print === null) return;
    ix.begin();
    let length = 0;
    for (const value of values) {
      if (typeof value === 'string') length += this.analyse(value);
      else if (Array.isArray(value)) {
        for (const element of value) {
          if (typeof element !== 'string') continue;
          length += this.analyse(element);
          ix.push(ELEMENT_END);
        }
      }
      ix.push(FIELD_END);
    }
    if (length === 0) {
      ix.abandon();
      return;
    }
    ix.finish(e.id, length, print);
    this.dirty = true;
  }

  /** Appends the terms of one text to the open document; returns how many. */
  private analyse(text: string): number {
    const words = this.asciiWords;
    if (words !== undefined && words.scan(text)) {
      const w = words.words;
      const ix = this.index;
      for (let i = 0; i < WORD_STRIDE * words.count; i += WORD_STRIDE) ix.push(ix.internLowered(text, w[i], w[i + 1], w[i + 2], w[i + 3], w[i + 4]));
      return words.count;
    }
    const terms = this.analyzer.terms(text);
    for (let i = 0; i < terms.length; i++) this.index.push(this.index.intern(terms[i]));
    return terms.length;
  }

  // ------------------------------------------------------------------ search

  /**
   * Matching entity ids with their scores (unordered). A populating index is completed first
   * (`checkDeadline`: the calling query's, which may stop that with its error).
   */
  search(query: FtQuery, checkDeadline?: () => void): Map<number, number> {
    this.finishPopulation(checkDeadline);
    return this.evaluate(query, new Evaluation(checkDeadline)) ?? new Map();
  }

  private fieldIndex(field: string | undefined): number | undefined {
    if (field === undefined) return undefined;
    const i = this.def.properties.indexOf(field);
    return i < 0 ? -1 : i;
  }

  private idf(df: number): number {
    const n = this.index.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private bm25(tf: number, slot: number, idf: number): number {
    const n = this.index.size;
    const avg = n > 0 ? this.index.totalLength / n : 1;
    const dl = this.index.lengthOf(slot);
    return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dl) / avg));
  }

  /** How often term `term` occurs in field `field` of `slot` (from its forward entries). */
  private tfInField(slot: number, term: number, field: number): number {
    const entries = this.index.entries;
    const end = this.index.entriesEnd(slot);
    let f = 0;
    let tf = 0;
    for (let i = this.index.entriesStart(slot); i < end && f <= field; i++) {
      const t = entries[i];
      if (t === FIELD_END) f++;
      else if (t === term && f === field) tf++;
    }
    return tf;
  }

  private termScores(term: string, field: number | undefined, weight: number, into: Map<number, number>, ev: Evaluation): void {
    ev.spendTerm();
    const ix = this.index;
    const t = ix.termId(term);
    if (t < 0 || ix.df(t) === 0) return;
    // tf per posting within the one field asked for: [slot, tf, slot, tf, …].
    const hits: number[] = [];
    if (field === undefined || this.def.properties.length === 1)
      ix.forEachPosting(t, (slot, tf) => {
        ev.tick();
        hits.push(slot, tf);
      });
    else
      ix.forEachPosting(t, (slot) => {
        ev.tick();
        const tf = this.tfInField(slot, t, field);
        if (tf > 0) hits.push(slot, tf);
      });
    const idf = this.idf(hits.length / 2);
    for (let i = 0; i < hits.length; i += 2) {
      const id = ix.idOf(hits[i]);
      into.set(id, (into.get(id) ?? 0) + weight * this.bm25(hits[i + 1], hits[i], idf));
    }
  }

  /**
   * Terms of the vocabulary that `accept` admits, in term order, the first MAX_EXPANSIONS of
   * them (bounded, as Lucene bounds expansions). In term order rather than the dictionary's,
   * which is the order terms first came in: so the answer (which terms, and the order their
   * scores are summed in, down to the last bit) depends on the documents, not on their history
   * — an index built in the background while writes come in answers as one built at once.
   */
  private expand(accept: (term: string) => number | undefined, ev: Evaluation): [string, number][] {
    const out: [string, number][] = [];
    this.index.forEachTerm((term) => {
      ev.tick();
      const w = accept(term);
      if (w !== undefined) out.push([term, w]);
      return true;
    });
    out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return out.length > MAX_EXPANSIONS ? out.slice(0, MAX_EXPANSIONS) : out;
  }

  private normalise(text: string): string {
    const terms = this.analyzer.terms(text);
    return terms.length === 1 ? terms[0] : this.analyzer.name === 'whitespace' || this.analyzer.name === 'keyword' ? text : text.toLowerCase();
  }

  /** Scores per id, or undefined for a clause that analysis emptied (a stop word), which the parent ignores. */
  private evaluate(q: FtQuery, ev: Evaluation): Map<number, number> | undefined {
    ev.tick();
    const field = this.fieldIndex('field' in q ? q.field : undefined);
    if (field === -1) return new Map();
    const out = new Map<number, number>();
    switch (q.kind) {
      case 'term': {
        const terms = this.analyzer.terms(q.text);
        if (terms.length === 0) return undefined;
        for (const t of terms) this.termScores(t, field, q.boost, out, ev);
        return out;
      }
      case 'prefix': {
        const p = this.normalise(q.prefix);
        const matches = ev.expansion(`p\0${p}`, () => this.expand((t) => (t.startsWith(p) ? 1 : undefined), ev));
        for (const [t] of matches) this.termScores(t, field, q.boost, out, ev);
        return out;
      }
      case 'fuzzy': {
        const target = this.normalise(q.text);
        const matches = ev.expansion(`f${q.maxEdits}\0${target}`, () =>
          this.expand((t) => {
            const d = editDistanceWithin(target, t, q.maxEdits);
            return d === undefined ? undefined : 1 - d / Math.max(target.length, t.length, 1);
          }, ev),
        );
        for (const [t, w] of matches) this.termScores(t, field, q.boost * w, out, ev);
        return out;
      }
      case 'phrase':
        return this.phrase(q.text, field, q.boost, ev);
      case 'bool':
        return this.bool(q, ev);
    }
  }

  private phrase(text: string, field: number | undefined, boost: number, ev: Evaluation): Map<number, number> | undefined {
    const terms = this.analyzer.terms(text);
    if (terms.length === 0) return undefined;
    for (let i = 0; i < terms.length; i++) ev.spendTerm();
    const out = new Map<number, number>();
    const ix = this.index;
    const ids: number[] = [];
    for (const term of terms) {
      const t = ix.termId(term);
      if (t < 0 || ix.df(t) === 0) return out;
      ids.push(t);
    }
    // Candidates are the documents of the rarest term; each is checked in its forward entries.
    let driver = ids[0];
    for (const t of ids) if (ix.df(t) < ix.df(driver)) driver = t;
    const matches: number[] = [];
    ix.forEachPosting(driver, (slot) => {
      ev.tick();
      const count = this.phraseCount(slot, ids, field);
      if (count > 0) matches.push(slot, count);
    });
    const idf = ids.reduce((s, t) => s + this.idf(ix.df(t)), 0);
    for (let i = 0; i < matches.length; i += 2) out.set(ix.idOf(matches[i]), boost * this.bm25(matches[i + 1], matches[i], idf));
    return out;
  }

  /** Occurrences of the term sequence `ids` in `slot` (in field `field` when given); markers break a sequence. */
  private phraseCount(slot: number, ids: number[], field: number | undefined): number {
    const entries = this.index.entries;
    const end = this.index.entriesEnd(slot);
    const n = ids.length;
    let f = 0;
    let count = 0;
    for (let i = this.index.entriesStart(slot); i + n <= end; i++) {
      const t = entries[i];
      if (t === FIELD_END) f++;
      else if (t === ids[0] && (field === undefined || f === field)) {
        let k = 1;
        while (k < n && entries[i + k] === ids[k]) k++;
        if (k === n) count++;
      }
    }
    return count;
  }

  /**
   * Folds each clause into the answer as soon as it is scored, so that only the answer so far
   * and one clause's scores are held at a time, however many clauses there are. Required
   * clauses come first (their intersection is what optional ones may add to), then optional,
   * then prohibited ones.
   */
  private bool(q: Extract<FtQuery, { kind: 'bool' }>, ev: Evaluation): Map<number, number> {
    let out: Map<number, number> | undefined;
    for (const c of q.clauses) {
      if (c.occur !== 'must') continue;
      const r = this.evaluate(c.query, ev);
      if (r === undefined) continue;
      if (out === undefined) out = r;
      else {
        const kept = new Map<number, number>();
        const [small, large] = out.size <= r.size ? [out, r] : [r, out];
        for (const [id, s] of small) {
          const x = large.get(id);
          if (x !== undefined) kept.set(id, out === small ? s + x : x + s);
        }
        out = kept;
      }
    }
    const required = out !== undefined;
    out ??= new Map();
    for (const c of q.clauses) {
      if (c.occur !== 'should') continue;
      const r = this.evaluate(c.query, ev);
      if (r === undefined) continue;
      if (required) {
        for (const [id, s] of r) {
          const x = out.get(id);
          if (x !== undefined) out.set(id, x + s);
        }
      } else for (const [id, s] of r) out.set(id, (out.get(id) ?? 0) + s);
    }
    for (const c of q.clauses) {
      if (c.occur !== 'mustNot') continue;
      const r = this.evaluate(c.query, ev);
      if (r !== undefined) for (const id of r.keys()) out.delete(id);
    }
    if (q.boost !== 1) for (const [id, s] of out) out.set(id, s * q.boost);
    return out;
  }
}

/**
 * The bounds and the clock of one search: the query's deadline is checked every few thousand
 * steps (terms scanned, postings read), the terms scored in all are bounded however prefixes
 * and fuzzy terms expand, and a prefix or fuzzy term that comes again is expanded once.
 */
class Evaluation {
  private steps = 0;
  private terms = 0;
  private readonly expansions = new Map<string, [string, number][]>();

  constructor(private readonly checkDeadline: (() => void) | undefined) {}

  tick(): void {
    if ((++this.steps & 4095) === 0) this.checkDeadline?.();
  }

  spendTerm(): void {
    if (++this.terms > MAX_SCORED_TERMS) {
      throw new ResourceLimitError(`Full-text query scores more than ${MAX_SCORED_TERMS} terms once prefixes and fuzzy terms are expanded (the limit per query)`);
    }
  }

  expansion(key: string, expand: () => [string, number][]): [string, number][] {
    let found = this.expansions.get(key);
    if (found === undefined) {
      found = expand();
      this.expansions.set(key, found);
    }
    return found;
  }
}

/** Levenshtein distance when it is at most `max`, else undefined (banded, so cheap to reject). */
export function editDistanceWithin(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return undefined;
    prev = cur;
  }
  return prev[b.length] <= max ? prev[b.length] : undefined;
}

