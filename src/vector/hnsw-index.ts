/**
 * One vector index: an HNSW graph (hnswlib-node) over the vectors that one property holds
 * on the nodes of one label (or the relationships of one type). The index follows the
 * schema's change feed: each changed entity is re-read from its current state, so creations,
 * updates, removals, deletions and rollbacks all land the same way.
 *
 * Every vector put in gets a fresh hnswlib label (labels count up from 0, so they index plain
 * arrays back to the entity). A changed vector marks its old element deleted and adds a new
 * one, rather than hnswlib's in-place update: that update re-selects the links of the
 * element's neighbours and, under a stream of updates, cut every link into some unchanged
 * elements, which then no search could reach (simulated streams of a few hundred interleaved
 * writes on random and on collinear 4-d vectors lost an element in 4–28% of runs that way,
 * against 0–0.1% with fresh elements and the rebuild below). A deleted element still routes
 * searches. When deleted elements outnumber live ones the graph is rebuilt from the store (in
 * the background when large), which also restores what pruning wore away.
 *
 * An index over many vectors (BACKGROUND_BUILD_FROM and more) is built in the background, in
 * slices of BUILD_SLICE_MS between which the event loop serves everything else, instead of
 * holding every door up for the whole build (minutes for a million vectors). While it is being
 * built (SHOW VECTOR INDEXES: POPULATING, with the share done) searches score every covered
 * entity exactly, so answers are right meanwhile, only slower — or, for a rebuild, go on in the
 * graph being replaced; changes made meanwhile are held back (and scored exactly) and applied
 * when the build is done; `finishPopulation` (db.awaitIndex) completes it at once.
 *
 * On a data directory the graph is saved to a file at checkpoints and on close
 * (persistence.ts), and `populate` at open loads that file and catches it up with the
 * recovered store, element by element, instead of rebuilding it. A checkpoint's save runs
 * hnswlib's writer on a libuv thread; while it reads the HNSW graph, changes are held back
 * (a search scores them exactly instead) and applied when it is done.
 */

import type hnswlibTypes from 'hnswlib-node';
import { createRequire } from 'node:module';

// hnswlib-node (native) is required when the first vector index is built, not on import.
let hnswModule: typeof hnswlibTypes | undefined;
const hnswlib = (): typeof hnswlibTypes => (hnswModule ??= createRequire(import.meta.url)('hnswlib-node') as typeof hnswlibTypes);
import type { Graph } from '../store/graph.js';
import type { Node, Rel } from '../store/entities.js';
import type { IdSet } from '../store/idset.js';
import type { ExtensionIndex, ExtensionIndexDef } from '../store/schema.js';
import { storedVector, type QueryVector } from './vectors.js';
import { inTurns, nextTurn } from '../event-loop.js';
import { grownFloat64, grownInt32, sharedFloat64, sharedInt32 } from '../store/columns/buffers.js';
import { scoreFromDistance, similarityScore, type Similarity } from './similarity.js';
import {
  encodeVectorState,
  encodeVectorStateAsync,
  fingerprint,
  fingerprintKey,
  HNSW_FILES,
  readVectorIndexFiles,
  removeIndexFiles,
  saveIndexFiles,
  saveIndexFilesAsync,
} from './persistence.js';

/** Where vector indexes keep their files: set once the database knows its data directory. */
export interface VectorStorage {
  dataDir?: string;
  /** Where a refused index file is reported (the index is rebuilt); none: silent. */
  warn?: (message: string) => void;
}

/** How the index got its contents when it was last populated (shown by SHOW VECTOR INDEXES). */
export interface PopulationReport {
  source: 'built' | 'file';
  /** With `file`: elements added, changed or removed to catch the file up with the store. */
  caughtUp: number;
  /** WAL sequence number the loaded file was saved at. */
  fileSeq?: number;
}

export interface VectorIndexConfig {
  dimensions: number;
  similarity: Similarity;
  /** HNSW links per element. */
  m: number;
  efConstruction: number;
  /** The smallest ef a search uses (`vector.hnsw.ef_search`; default MIN_EF): larger indexes need more for the same recall. */
  efSearch?: number;
}

export interface VectorHit {
  id: number;
  score: number;
}

const SPACE: Record<Similarity, 'cosine' | 'l2' | 'ip'> = { cosine: 'cosine', euclidean: 'l2', dot: 'ip' };
const INITIAL_CAPACITY = 1024;
/** ef used when a search asks for fewer neighbours: below this recall drops off quickly. */
const MIN_EF = 64;
const RANDOM_SEED = 100;
/** Longest the background build holds the event loop at a time. */
const BUILD_SLICE_MS = 10;
/**
 * How far each change held back during a background build advances it: so that the build
 * ends, and the held changes stay bounded, even for a caller that writes in a loop without
 * ever yielding to the event loop.
 */
const CHANGE_SLICE_MS = 1;

/** The background build: the ids covered when it started, and how far it has come. */
interface Build {
  ids: Int32Array;
  next: number;
}

export class VectorIndex implements ExtensionIndex {
  /** Indexes of at least this many vectors are built in the background (a setting, so that tests can reach that path with few). */
  static backgroundBuildFrom = 20_000;
  /**
   * A rebuild (after many updates) runs at once, in the write that sets it off, only while the
   * covered entities times (100 + dimensions) stay within this: about 50 ms of hnswlib
   * insertions here (37 µs per element at 4 dimensions, 168 µs at 384). A larger one runs in
   * the background, searches going on in the graph it replaces. (A setting, for tests.)
   */
  static syncRebuildWork = 150_000;
  readonly label: string;
  readonly key: string;
  private hnsw!: hnswlibTypes.HierarchicalNSW;
  /** The entities live in the HNSW graph, each with its element's label. Every other element is marked deleted. */
  private readonly live = new Map<number, number>();
  /** By label, for the live elements: the entity, and the fingerprint of the vector the element holds. */
  private idOfLabel: Int32Array = sharedInt32(0);
  private printOfLabel: Float64Array = sharedFloat64(0);
  private graph: Graph | undefined;
  /** Whether the HNSW graph changed since it was last saved or loaded. */
  private dirty = true;
  /** The background save running, if any: while it reads the HNSW graph, changes wait in `held`. */
  private saving: Promise<void> | undefined;
  private readonly held = new Map<number, Node | Rel>();
  /** Bumped by a drop and by every save: a background save whose number is stale leaves the files alone. */
  private generation = 0;
  population: PopulationReport = { source: 'built', caughtUp: 0 };
  /** The background build running, if any: while it runs, changes wait in `held`, and searches are exact or go to `previous`. */
  private building: Build | undefined;
  /**
   * While a rebuild makes its successor in the background, the graph it replaces: searches go
   * on there (the held-back changes scored exactly beside it) instead of scoring every entity.
   */
  private previous: { hnsw: hnswlibTypes.HierarchicalNSW; idOfLabel: Int32Array; live: number } | undefined;
  /**
   * hnswlib-node reads vectors only from plain JS arrays. `Array.from` on a Float32Array goes
   * through the iterator protocol and costs more than the search itself on small indexes, so
   * every vector handed to hnswlib is copied into this one reused array with a plain loop.
   */
  private readonly scratch: number[];

  constructor(
    readonly def: ExtensionIndexDef,
    readonly config: VectorIndexConfig,
    private readonly storage: VectorStorage = {},
  ) {
    this.label = def.labelsOrTypes[0];
    this.key = def.properties[0];
    this.scratch = new Array<number>(config.dimensions).fill(0.5);
    this.reset(INITIAL_CAPACITY);
  }

  get size(): number {
    // While building, every covered entity counts (searches then score them all exactly), so a
    // filtered search sizes its exact pass to all of them, not to the part built so far.
    if (this.building !== undefined && this.graph !== undefined) {
      const set = this.coveredSet(this.graph);
      return set?.length ?? 0;
    }
    let size = this.live.size;
    for (const e of this.held.values()) size += (this.current(e) !== null ? 1 : 0) - (this.live.has(e.id) ? 1 : 0);
    return size;
  }

  /** The ef of an unfiltered top-k search (at least k). */
  get baseEf(): number {
    return this.config.efSearch ?? MIN_EF;
  }

  get entity(): 'node' | 'relationship' {
    return this.def.entity;
  }

  private reset(capacity: number): void {
    this.hnsw = new (hnswlib().HierarchicalNSW)(SPACE[this.config.similarity], this.config.dimensions);
    this.hnsw.initIndex(capacity, this.config.m, this.config.efConstruction, RANDOM_SEED);
    this.live.clear();
    this.idOfLabel = sharedInt32(capacity);
    this.printOfLabel = sharedFloat64(capacity);
  }

  /** Elements in the HNSW graph, the deleted ones included (for checks of the rebuild policy). */
  get elements(): number {
    return this.hnsw.getCurrentCount();
  }

  /** Elements marked deleted (hnswlib counts them, and searches route through them). */
  private get deletedCount(): number {
    return this.hnsw.getCurrentCount() - this.live.size;
  }

  /** Fills the index from the graph: from its saved file when there is a sound one, else by building (in the background when large). */
  populate(graph: Graph): void {
    this.graph = graph;
    if (this.storage.dataDir !== undefined && this.restore(graph, this.storage.dataDir)) return;
    this.population = { source: 'built', caughtUp: 0 };
    if ((this.coveredSet(graph)?.length ?? 0) < VectorIndex.backgroundBuildFrom) this.build(graph);
    else this.buildInBackground(graph, this.coveredIds(graph));
  }

  /** Whether the background build is still running (SHOW VECTOR INDEXES: POPULATING). */
  get populating(): boolean {
    return this.building !== undefined;
  }

  /** Share of the covered entities indexed so far, in percent (100 once built). */
  get populationPercent(): number {
    const b = this.building;
    return b === undefined || b.ids.length === 0 ? 100 : (100 * b.next) / b.ids.length;
  }

  /** Ends a background build where it is (the database is closing: an unbuilt index is not saved, and a reopen builds it again). */
  stopPopulation(): void {
    this.building = undefined;
    this.previous = undefined;
  }

  /** Completes a background build at once (db.awaitIndex asks for the index online). */
  finishPopulation(): void {
    while (this.building !== undefined) this.buildSlice(Infinity);
  }

  /** The ids of every entity of the index's label or type as they are now: a view, valid until the next write. */
  private coveredIds(graph: Graph): Int32Array {
    const set = this.coveredSet(graph);
    return set === undefined ? new Int32Array(0) : set.ids.subarray(0, set.length);
  }

  /** `keepServing`: a rebuild, whose searches meanwhile use the graph it replaces. */
  private buildInBackground(graph: Graph, ids: Int32Array, keepServing = false): void {
    this.graph = graph;
    this.dirty = true;
    this.previous = keepServing && this.live.size > 0 ? { hnsw: this.hnsw, idOfLabel: this.idOfLabel, live: this.live.size } : undefined;
    this.reset(Math.max(INITIAL_CAPACITY, Math.ceil(ids.length * 1.25)));
    // A copy: the label's set changes while the build runs.
    const build: Build = { ids: ids.slice(), next: 0 };
    this.building = build;
    // Until dropped (or rebuilt) meanwhile, when this build is no longer the index's.
    void inTurns(
      () => this.building === build,
      () => this.buildSlice(BUILD_SLICE_MS),
    );
  }

  /** Indexes covered entities for up to `ms`; the last slice applies the changes held back meanwhile. */
  private buildSlice(ms: number): void {
    const build = this.building;
    const graph = this.graph;
    if (build === undefined || graph === undefined) return;
    const until = performance.now() + ms;
    const { ids } = build;
    while (build.next < ids.length) {
      const id = ids[build.next++];
      // A changed entity is indexed from its state when the build ends.
      if (!this.held.has(id)) {
        const entity = this.entityAt(graph, id);
        if (entity !== undefined) this.put(id, this.current(entity));
      }
      if ((build.next & 15) === 0 && performance.now() >= until) return;
    }
    this.building = undefined;
    this.previous = undefined;
    this.applyHeld();
  }

  private applyHeld(): void {
    const held = [...this.held.values()];
    this.held.clear();
    for (const e of held) this.change(e);
  }

  /** Builds the HNSW graph from every indexable entity of the graph. */
  private build(graph: Graph): void {
    this.graph = graph;
    this.building = undefined;
    this.previous = undefined;
    this.dirty = true;
    const ids = this.coveredSet(graph);
    const count = ids?.length ?? 0;
    this.reset(Math.max(INITIAL_CAPACITY, Math.ceil(count * 1.25)));
    if (!ids) return;
    for (let i = 0; i < ids.length; i++) {
      const id = ids.ids[i];
      const entity = this.entityAt(graph, id);
      if (entity) this.put(id, this.vectorOf(entity));
    }
  }

  /**
   * Loads the saved file and catches it up with the graph: an entity whose vector's
   * fingerprint differs from the saved one is re-added, a saved element whose entity is gone
   * (or no longer holds a vector) is removed. False when there is no sound file.
   */
  private restore(graph: Graph, dataDir: string): boolean {
    const saved = readVectorIndexFiles(dataDir, this.def);
    if (!saved) return false;
    const refuse = (why: string): false => {
      this.storage.warn?.(`graphdb: vector index ${this.def.name}: not loading its saved file, rebuilding it from the store: ${why}`);
      return false;
    };
    if ('refused' in saved) return refuse(saved.refused);
    const hnsw = new (hnswlib().HierarchicalNSW)(SPACE[this.config.similarity], this.config.dimensions);
    try {
      hnsw.readIndexSync(saved.file);
    } catch (err) {
      return refuse(`hnswlib cannot read it (${err instanceof Error ? err.message : String(err)})`);
    }
    const { elements, live, labels, prints } = saved.state;
    if (hnsw.getCurrentCount() !== elements) return refuse(`its HNSW graph holds ${hnsw.getCurrentCount()} elements where its state names ${elements}`);
    this.hnsw = hnsw;
    this.live.clear();
    this.idOfLabel = sharedInt32(Math.max(elements, INITIAL_CAPACITY));
    this.printOfLabel = sharedFloat64(this.idOfLabel.length);
    for (let i = 0; i < live.length; i++) {
      this.live.set(live[i], labels[i]);
      this.idOfLabel[labels[i]] = live[i];
      this.printOfLabel[labels[i]] = prints[i];
    }
    let caughtUp = 0;
    const seen = new Set<number>();
    const ids = this.coveredSet(graph);
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      const id = (ids as NonNullable<typeof ids>).ids[i];
      const entity = this.entityAt(graph, id);
      const v = entity && !entity.deleted ? this.vectorOf(entity) : null;
      if (v === null) continue;
      seen.add(id);
      if (this.put(id, v)) caughtUp++;
    }
    for (const id of [...this.live.keys()]) if (!seen.has(id) && this.put(id, null)) caughtUp++;
    this.dirty = caughtUp > 0;
    this.population = { source: 'file', caughtUp, fileSeq: saved.seq };
    return true;
  }

  /**
   * Saves the HNSW graph and what describes it into the data directory (when there is one
   * and something changed since the last save), blocking until it is durable (close). The
   * caller brings the index up to date first and calls outside any transaction. Changes
   * held back by a background save are not in the HNSW graph, and not in the file either:
   * the file describes what it holds, and the next open catches them up.
   */
  save(seq: number): void {
    const dataDir = this.storage.dataDir;
    // A half-built graph is not saved: the next open builds it again (or catches up an older file).
    if (dataDir === undefined || this.graph === undefined || this.building !== undefined || (!this.dirty && this.held.size === 0)) return;
    this.generation++;
    this.dirty = false;
    try {
      saveIndexFiles(dataDir, HNSW_FILES, this.def, seq, encodeVectorState(this.live, this.printOfLabel, this.hnsw.getCurrentCount()), (file) => this.hnsw.writeIndexSync(file));
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /**
   * `save` without holding up the event loop for hnswlib's writer (which takes seconds on a
   * large index): it runs on a libuv thread, and changes that arrive meanwhile are held back
   * and applied when it is done. A save already running is waited for instead.
   */
  saveAsync(seq: number): Promise<void> {
    const dataDir = this.storage.dataDir;
    if (this.saving) return this.saving;
    if (dataDir === undefined || this.graph === undefined || this.building !== undefined || !this.dirty) return Promise.resolve();
    const generation = ++this.generation;
    const hnsw = this.hnsw;
    const elements = hnsw.getCurrentCount();
    this.dirty = false;
    const saving = (async (): Promise<void> => {
      try {
        const writeBody = async (file: string): Promise<void> => void (await hnsw.writeIndex(file));
        // What the files describe: the live elements with the fingerprints of what the HNSW
        // graph holds for them, encoded in slices (the live map does not change meanwhile:
        // changes are held back until the save is done).
        const state = await encodeVectorStateAsync(this.live, this.printOfLabel, elements, nextTurn);
        await saveIndexFilesAsync(dataDir, HNSW_FILES, this.def, seq, state, writeBody, () => this.generation === generation);
      } catch (err) {
        this.dirty = true;
        throw err;
      } finally {
        this.saving = undefined;
        this.applyHeld();
      }
    })();
    this.saving = saving;
    return saving;
  }

  /**
   * The vector the index answers with for entity `id` (null: none): read back from the HNSW
   * graph (for cosine, at unit length, as hnswlib keeps it), or the entity's current one while
   * a save or a build holds its change back (searches score it exactly then). For checks that
   * the index agrees with the graph exactly, without an approximate search.
   */
  indexedVector(id: number): Float32Array | null {
    const pending = this.held.get(id) ?? (this.building !== undefined && this.graph !== undefined ? this.entityAt(this.graph, id) : undefined);
    if (pending !== undefined) {
      const v = this.current(pending);
      return v === null ? null : Float32Array.from(v);
    }
    const label = this.live.get(id);
    return label === undefined ? null : Float32Array.from(this.hnsw.getPoint(label));
  }

  private entityAt(graph: Graph, id: number): Node | Rel | undefined {
    return this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
  }

  /** The ids of the index's label (or type), live: the entities it covers. */
  private coveredSet(graph: Graph): IdSet | undefined {
    return this.def.entity === 'node' ? graph.labelSet(this.label) : graph.typeSet(this.label);
  }

  /** Forgets the saved files (the index was dropped). */
  removeFiles(): void {
    if (this.storage.dataDir !== undefined) removeIndexFiles(this.storage.dataDir, this.def.name);
  }

  updateNode(node: Node): void {
    if (this.def.entity === 'node') this.change(node);
  }

  updateRel(rel: Rel): void {
    if (this.def.entity === 'relationship') this.change(rel);
  }

  private change(e: Node | Rel): void {
    if (this.building) {
      this.held.set(e.id, e);
      this.buildSlice(CHANGE_SLICE_MS);
    } else if (this.saving) this.held.set(e.id, e);
    else {
      this.put(e.id, this.current(e));
      this.rebuildIfWorn();
    }
  }

  /**
   * Rebuilds the HNSW graph once deleted elements outnumber live ones: searches have been
   * wading through them, and the pruning of neighbour lists since the last build may have
   * left live elements poorly linked. Amortized over that many removals, a rebuild costs a
   * few insertions per removal; one that would hold the thread long runs in the background.
   */
  private rebuildIfWorn(): void {
    const graph = this.graph;
    if (graph === undefined || this.deletedCount <= this.live.size) return;
    const ids = this.coveredIds(graph);
    if (ids.length * (100 + this.config.dimensions) <= VectorIndex.syncRebuildWork) this.build(graph);
    else this.buildInBackground(graph, ids, true);
  }

  /** The vector an entity should have in the index now (null: none). */
  private current(e: Node | Rel): Float32Array | null {
    const covered = !e.deleted && ('labels' in e ? e.labels.includes(this.label) : e.type === this.label);
    return covered ? this.vectorOf(e) : null;
  }

  dispose(): void {
    this.generation++;
    this.building = undefined;
    this.previous = undefined;
    this.removeFiles();
    this.held.clear();
    this.reset(1);
    this.graph = undefined;
  }

  /**
   * The indexed vector of an entity (its property, when it is a vector of the right size);
   * possibly a view of the store's memory: read it at once, never keep or change it.
   */
  vectorOf(entity: Node | Rel): Float32Array | null {
    const v = storedVector(entity, this.key, this.config.dimensions);
    // A zero vector has no direction: cosine similarity is undefined for it.
    if (v !== null && this.config.similarity === 'cosine' && isZero(v)) return null;
    return v;
  }

  /** Makes the index hold `vector` for entity `id` (null: nothing); false when it held that already. */
  private put(id: number, vector: Float32Array | null): boolean {
    const old = this.live.get(id);
    if (old === undefined && vector === null) return false;
    const print = vector === null ? 0 : fingerprintKey(fingerprint(vector));
    // The same vector again (a commit that touched the entity but not its vector): nothing to change.
    if (old !== undefined && vector !== null && this.printOfLabel[old] === print) return false;
    this.dirty = true;
    if (old !== undefined) {
      this.hnsw.markDelete(old);
      this.live.delete(id);
    }
    if (vector === null) return true;
    const label = this.hnsw.getCurrentCount();
    const capacity = this.hnsw.getMaxElements();
    // A file saved with no elements loads with room for none.
    if (label >= capacity) this.hnsw.resizeIndex(Math.max(INITIAL_CAPACITY, capacity * 2));
    if (label >= this.idOfLabel.length) {
      this.idOfLabel = grownInt32(this.idOfLabel, this.hnsw.getMaxElements());
      this.printOfLabel = grownFloat64(this.printOfLabel, this.idOfLabel.length);
    }
    this.hnsw.addPoint(this.plain(vector), label);
    this.live.set(id, label);
    this.idOfLabel[label] = id;
    this.printOfLabel[label] = print;
    return true;
  }

  /** `vector` as a plain array for hnswlib: the scratch array, refilled. */
  private plain(vector: Float32Array): number[] {
    const out = this.scratch;
    for (let i = 0; i < out.length; i++) out[i] = vector[i];
    return out;
  }

  /**
   * Up to `k` nearest entities by approximate search, best first; `accept` (if given) is
   * applied inside the search, so rejected entities do not use up the `k`. Entities whose
   * changes a background save holds back are scored exactly from their current state.
   * The search's ef is at least `k` and `minEf` (the index's `vector.hnsw.ef_search` unless
   * the query sets its own, which may be lower).
   */
  search(query: QueryVector, k: number, ef: number, accept?: (id: number) => boolean, minEf = this.baseEf): VectorHit[] {
    if (k <= 0) return [];
    const previous = this.previous;
    if (this.building && previous === undefined) return this.exactSearch(query, k, accept);
    const hnsw = previous?.hnsw ?? this.hnsw;
    const idOfLabel = previous?.idOfLabel ?? this.idOfLabel;
    const held = this.held;
    const admit =
      held.size === 0
        ? accept && ((label: number): boolean => accept(idOfLabel[label]))
        : (label: number): boolean => !held.has(idOfLabel[label]) && (!accept || accept(idOfLabel[label]));
    const out: VectorHit[] = [];
    if ((previous?.live ?? this.live.size) > 0) {
      const n = Math.min(k, hnsw.getMaxElements());
      hnsw.setEf(Math.max(ef, n, minEf));
      const { neighbors, distances } = hnsw.searchKnn(Array.isArray(query) ? query : this.plain(query), n, admit);
      for (let i = 0; i < neighbors.length; i++) {
        const score = scoreFromDistance(this.config.similarity, distances[i]);
        // Inputs are checked to keep float32 arithmetic finite; a score that is not cannot be ranked and is not answered.
        if (Number.isFinite(score)) out.push({ id: idOfLabel[neighbors[i]], score });
      }
    }
    if (held.size === 0) return out;
    this.scoreHeld(query, accept, out);
    return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
  }

  /** Adds the exact scores of the entities a background save holds back. */
  private scoreHeld(query: QueryVector, accept: ((id: number) => boolean) | undefined, into: VectorHit[]): void {
    const q = asFloat32(query);
    for (const e of this.held.values()) {
      if (accept && !accept(e.id)) continue;
      const v = this.current(e);
      const score = v === null ? null : similarityScore(this.config.similarity, q, v);
      if (score !== null) into.push({ id: e.id, score });
    }
  }

  /** Exact search over every indexed entity that `accept` admits: the fallback for very selective filters. */
  exactSearch(query: QueryVector, k: number, accept?: (id: number) => boolean): VectorHit[] {
    const graph = this.graph;
    if (!graph || k <= 0) return [];
    const q = asFloat32(query);
    const hits: VectorHit[] = [];
    // While building, the HNSW graph holds only part: every covered entity is scored instead.
    const ids: Iterable<number> = this.building ? this.coveredIds(graph) : this.live.keys();
    for (const id of ids) {
      if (this.held.has(id) || (accept && !accept(id))) continue;
      const entity = this.entityAt(graph, id);
      const v = entity ? this.current(entity) : null;
      if (v === null) continue;
      const score = similarityScore(this.config.similarity, q, v);
      if (score !== null) hits.push({ id, score });
    }
    this.scoreHeld(q, accept, hits);
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, k);
  }
}

function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

/** Exact scoring works on float32 vectors, as the index holds them. */
function asFloat32(v: QueryVector): Float32Array {
  return Array.isArray(v) ? Float32Array.from(v) : v;
}
