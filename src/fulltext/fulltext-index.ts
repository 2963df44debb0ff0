/**
 * One full-text index: an inverted index with positions over string properties of nodes
 * with any of some labels (or relationships of some types), scored with BM25 (k1 = 1.2,
 * b = 0.75, Lucene's defaults). Written here rather than taken from a library: the JS
 * search libraries on npm either cannot update documents in place (lunr), or keep no term
 * positions and so cannot answer phrases (MiniSearch, FlexSearch), and this index must
 * follow every write and rollback through the schema's change feed. The index lives in
 * memory; on a data directory it is saved at checkpoints and on close (fulltext-file.ts,
 * with the header and crash-safe write of src/vector/persistence.ts), and `populate` at open
 * loads the file and catches it up with the recovered store: a document whose text's
 * fingerprint differs from the saved one is re-analysed, one that is gone is removed, and
 * the WAL records replayed after that reach the index through the change feed. A file that
 * is missing, damaged or for another definition is not used: the index is rebuilt.
 */

import * as fs from 'node:fs';
import type { Graph } from '../store/graph.js';
import type { Node, Rel } from '../store/entities.js';
import type { ExtensionIndex, ExtensionIndexDef } from '../store/schema.js';
import { analyzer as analyzerNamed, type Analyzer } from './analyzers.js';
import type { FtQuery } from './query-parser.js';
import { decodeFulltext, encodeFulltext, encodeFulltextAsync, textPrint, writeChunks, writeChunksSync, type Positions } from './fulltext-file.js';
import type { VectorStorage as IndexStorage } from '../vector/hnsw-index.js';
import type { PopulationReport } from '../vector/hnsw-index.js';
import { NO_STATE, readIndexFiles, removeIndexFiles, saveIndexFiles, saveIndexFilesAsync, type IndexFileKind } from '../vector/persistence.js';

export const FULLTEXT_INDEX_TYPE = 'FULLTEXT';
const K1 = 1.2;
const B = 0.75;
/** Positions between the elements of a list property, so a phrase never spans two of them. */
const LIST_GAP = 100;
const MAX_EXPANSIONS = 1024;
/** Bump when analysis changes what terms a text gives: older files are then rebuilt. */
export const FULLTEXT_FILES: IndexFileKind = { subdir: 'fulltext-indexes', suffix: '.fts', format: 'graphdb-fulltext', version: 2 };

interface Doc {
  length: number;
  terms: string[];
  /** Fingerprint of the text it was analysed from (fulltext-file.ts `textPrint`). */
  print: number;
}

export class FulltextIndex implements ExtensionIndex {
  readonly analyzer: Analyzer;
  private readonly postings = new Map<string, Map<number, Positions>>();
  private readonly docs = new Map<number, Doc>();
  private totalLength = 0;
  private readonly labels: Set<string>;
  /** Whether the index changed since it was last saved or loaded. */
  private dirty = true;
  /** Bumped by a drop and by every save: a background save whose number is stale leaves the files alone. */
  private generation = 0;
  population: PopulationReport = { source: 'built', caughtUp: 0 };

  constructor(
    readonly def: ExtensionIndexDef,
    private readonly storage: IndexStorage = {},
  ) {
    this.analyzer = analyzerNamed(String(def.options['fulltext.analyzer'] ?? 'standard'));
    this.labels = new Set(def.labelsOrTypes);
  }

  get size(): number {
    return this.docs.size;
  }

  get entity(): 'node' | 'relationship' {
    return this.def.entity;
  }

  /** Fills the index from the graph: from its saved file when there is a sound one, else by analysing every document. */
  populate(graph: Graph): void {
    if (this.storage.dataDir !== undefined && this.restore(graph, this.storage.dataDir)) return;
    this.clear();
    this.dirty = true;
    this.forEachCovered(graph, (e) => this.put(e));
    this.population = { source: 'built', caughtUp: 0 };
  }

  /** Calls `fn` once for every live entity with one of the index's labels (types). */
  private forEachCovered(graph: Graph, fn: (e: Node | Rel) => void): void {
    const seen = new Set<number>();
    for (const label of this.def.labelsOrTypes) {
      const ids = this.def.entity === 'node' ? graph.labelSet(label) : graph.typeSet(label);
      if (!ids) continue;
      for (let i = 0; i < ids.length; i++) {
        const id = ids.ids[i];
        if (seen.has(id)) continue;
        seen.add(id);
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
    let decoded;
    try {
      decoded = decodeFulltext(fs.readFileSync(saved.file));
    } catch (err) {
      return refuse(`it cannot be decoded (${err instanceof Error ? err.message : String(err)})`);
    }
    this.clear();
    for (const [term, list] of decoded.postings) this.postings.set(term, list);
    for (const [id, doc] of decoded.docs) this.docs.set(id, doc);
    this.totalLength = decoded.totalLength;
    let caughtUp = 0;
    const seen = new Set<number>();
    this.forEachCovered(graph, (e) => {
      seen.add(e.id);
      const print = this.textPrintOf(e);
      if (print === (this.docs.get(e.id)?.print ?? null)) return;
      this.put(e);
      caughtUp++;
    });
    for (const id of [...this.docs.keys()]) {
      if (seen.has(id)) continue;
      this.remove(id);
      caughtUp++;
    }
    this.dirty = caughtUp > 0;
    this.population = { source: 'file', caughtUp, fileSeq: saved.seq };
    return true;
  }

  private textPrintOf(e: Node | Rel): number | null {
    return textPrint(this.def.properties.map((key) => e.prop(key)));
  }

  /** Saves the index into the data directory when there is one and it changed; durable when it returns (close). */
  save(seq: number): void {
    const dataDir = this.storage.dataDir;
    if (dataDir === undefined || !this.dirty) return;
    this.generation++;
    const chunks = encodeFulltext({ docs: this.docs, postings: this.postings });
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
    if (dataDir === undefined || !this.dirty) return;
    const generation = ++this.generation;
    this.dirty = false;
    try {
      const chunks = await encodeFulltextAsync({ docs: this.docs, postings: this.postings }, () => new Promise((resolve) => setImmediate(resolve)));
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
    this.postings.clear();
    this.docs.clear();
    this.totalLength = 0;
  }

  /** Forgets the saved files (the index was dropped). */
  removeFiles(): void {
    if (this.storage.dataDir !== undefined) removeIndexFiles(this.storage.dataDir, this.def.name, FULLTEXT_FILES);
  }

  private covers(e: Node | Rel): boolean {
    if (e.deleted) return false;
    return 'labels' in e ? e.labels.some((l) => this.labels.has(l)) : this.labels.has(e.type);
  }

  private remove(id: number): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    for (const term of doc.terms) {
      const list = this.postings.get(term);
      list?.delete(id);
      if (list && list.size === 0) this.postings.delete(term);
    }
    this.totalLength -= doc.length;
    this.docs.delete(id);
    this.dirty = true;
  }

  private put(e: Node | Rel): void {
    this.remove(e.id);
    if (!this.covers(e)) return;
    this.dirty = true;
    const perTerm = new Map<string, Positions>();
    let length = 0;
    this.def.properties.forEach((key, field) => {
      const value = e.prop(key);
      const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      let position = 0;
      for (const text of texts) {
        for (const term of this.analyzer.terms(text)) {
          let positions = perTerm.get(term);
          if (!positions) perTerm.set(term, (positions = []));
          (positions[field] ??= []).push(position++);
          length++;
        }
        position += LIST_GAP;
      }
    });
    if (length === 0) return;
    for (const [term, positions] of perTerm) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(e.id, positions);
    }
    this.docs.set(e.id, { length, terms: [...perTerm.keys()], print: this.textPrintOf(e) ?? 0 });
    this.totalLength += length;
  }

  // ------------------------------------------------------------------ search

  /** Matching entity ids with their scores (unordered). */
  search(query: FtQuery): Map<number, number> {
    return this.evaluate(query) ?? new Map();
  }

  private fieldIndex(field: string | undefined): number | undefined {
    if (field === undefined) return undefined;
    const i = this.def.properties.indexOf(field);
    return i < 0 ? -1 : i;
  }

  private idf(df: number): number {
    const n = this.docs.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private bm25(tf: number, id: number, idf: number): number {
    const avg = this.docs.size > 0 ? this.totalLength / this.docs.size : 1;
    const dl = this.docs.get(id)?.length ?? avg;
    return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dl) / avg));
  }

  private tfIn(positions: Positions, field: number | undefined): number {
    if (field !== undefined) return positions[field]?.length ?? 0;
    let tf = 0;
    for (const p of positions) tf += p?.length ?? 0;
    return tf;
  }

  private termScores(term: string, field: number | undefined, weight: number, into: Map<number, number>): void {
    const list = this.postings.get(term);
    if (!list) return;
    let df = 0;
    for (const positions of list.values()) if (this.tfIn(positions, field) > 0) df++;
    const idf = this.idf(df);
    for (const [id, positions] of list) {
      const tf = this.tfIn(positions, field);
      if (tf > 0) into.set(id, (into.get(id) ?? 0) + weight * this.bm25(tf, id, idf));
    }
  }

  /** Terms of the vocabulary that `accept` admits (bounded, as Lucene bounds expansions). */
  private expand(accept: (term: string) => number | undefined): [string, number][] {
    const out: [string, number][] = [];
    for (const term of this.postings.keys()) {
      const w = accept(term);
      if (w !== undefined) out.push([term, w]);
      if (out.length >= MAX_EXPANSIONS) break;
    }
    return out;
  }

  private normalise(text: string): string {
    const terms = this.analyzer.terms(text);
    return terms.length === 1 ? terms[0] : this.analyzer.name === 'whitespace' || this.analyzer.name === 'keyword' ? text : text.toLowerCase();
  }

  /** Scores per id, or undefined for a clause that analysis emptied (a stop word), which the parent ignores. */
  private evaluate(q: FtQuery): Map<number, number> | undefined {
    const field = this.fieldIndex('field' in q ? q.field : undefined);
    if (field === -1) return new Map();
    const out = new Map<number, number>();
    switch (q.kind) {
      case 'term': {
        const terms = this.analyzer.terms(q.text);
        if (terms.length === 0) return undefined;
        for (const t of terms) this.termScores(t, field, q.boost, out);
        return out;
      }
      case 'prefix': {
        const p = this.normalise(q.prefix);
        for (const [t] of this.expand((t) => (t.startsWith(p) ? 1 : undefined))) this.termScores(t, field, q.boost, out);
        return out;
      }
      case 'fuzzy': {
        const target = this.normalise(q.text);
        const matches = this.expand((t) => {
          const d = editDistanceWithin(target, t, q.maxEdits);
          return d === undefined ? undefined : 1 - d / Math.max(target.length, t.length, 1);
        });
        for (const [t, w] of matches) this.termScores(t, field, q.boost * w, out);
        return out;
      }
      case 'phrase':
        return this.phrase(q.text, field, q.boost);
      case 'bool':
        return this.bool(q);
    }
  }

  private phrase(text: string, field: number | undefined, boost: number): Map<number, number> | undefined {
    const terms = this.analyzer.terms(text);
    if (terms.length === 0) return undefined;
    const out = new Map<number, number>();
    const lists = terms.map((t) => this.postings.get(t));
    if (lists.some((l) => l === undefined)) return out;
    const first = lists[0]!;
    const freq = new Map<number, number>();
    for (const [id, positions0] of first) {
      let count = 0;
      const fields = field === undefined ? positions0.map((_, f) => f) : [field];
      for (const f of fields) {
        const starts = positions0[f];
        if (!starts) continue;
        for (const p of starts) {
          let ok = true;
          for (let i = 1; i < lists.length && ok; i++) ok = lists[i]!.get(id)?.[f]?.includes(p + i) ?? false;
          if (ok) count++;
        }
      }
      if (count > 0) freq.set(id, count);
    }
    const idf = terms.reduce((s, t) => s + this.idf(this.postings.get(t)!.size), 0);
    for (const [id, tf] of freq) out.set(id, boost * this.bm25(tf, id, idf));
    return out;
  }

  private bool(q: Extract<FtQuery, { kind: 'bool' }>): Map<number, number> {
    const must: Map<number, number>[] = [];
    const should: Map<number, number>[] = [];
    const mustNot: Map<number, number>[] = [];
    for (const c of q.clauses) {
      const r = this.evaluate(c.query);
      if (r === undefined) continue;
      (c.occur === 'must' ? must : c.occur === 'should' ? should : mustNot).push(r);
    }
    let out: Map<number, number>;
    if (must.length > 0) {
      const [smallest, ...rest] = [...must].sort((a, b) => a.size - b.size);
      out = new Map();
      for (const [id, s] of smallest) {
        let total = s;
        let all = true;
        for (const m of rest) {
          const x = m.get(id);
          if (x === undefined) {
            all = false;
            break;
          }
          total += x;
        }
        if (all) out.set(id, total);
      }
      for (const sh of should) for (const [id, s] of sh) if (out.has(id)) out.set(id, out.get(id)! + s);
    } else {
      out = new Map();
      for (const sh of should) for (const [id, s] of sh) out.set(id, (out.get(id) ?? 0) + s);
    }
    for (const m of mustNot) for (const id of m.keys()) out.delete(id);
    if (q.boost !== 1) for (const [id, s] of out) out.set(id, s * q.boost);
    return out;
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

