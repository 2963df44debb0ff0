/**
 * One vector index: an HNSW graph (hnswlib-node) over the vectors that one property holds
 * on the nodes of one label (or the relationships of one type). hnswlib labels are the
 * entities' own ids, which the store never reuses. The index follows the schema's change
 * feed: each changed entity is re-read from its current state, so creations, updates,
 * removals, deletions and rollbacks all land the same way. Removal marks the element
 * deleted; when deleted elements outnumber live ones the graph is rebuilt from the store.
 *
 * On a data directory the graph is saved to a file at checkpoints and on close
 * (persistence.ts), and `populate` at open loads that file and catches it up with the
 * recovered store, element by element, instead of rebuilding it.
 */

import hnswlib from 'hnswlib-node';
import type { Graph } from '../store/graph.js';
import type { Node, Rel } from '../store/entities.js';
import type { ExtensionIndex, ExtensionIndexDef } from '../store/schema.js';
import { indexableVector } from './vectors.js';
import { scoreFromDistance, similarityScore, type Similarity } from './similarity.js';
import { fingerprint, loadIndexFiles, removeIndexFiles, saveIndexFiles } from './persistence.js';

/** Where vector indexes keep their files: set once the database knows its data directory. */
export interface VectorStorage {
  dataDir?: string;
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

export class VectorIndex implements ExtensionIndex {
  readonly label: string;
  readonly key: string;
  private hnsw!: hnswlib.HierarchicalNSW;
  /** Ids that are live in the HNSW graph, and ids marked deleted in it (which hnswlib still counts). */
  private readonly live = new Set<number>();
  private readonly deleted = new Set<number>();
  private graph: Graph | undefined;
  /** Whether the HNSW graph changed since it was last saved or loaded. */
  private dirty = true;
  population: PopulationReport = { source: 'built', caughtUp: 0 };
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
    return this.live.size;
  }

  get entity(): 'node' | 'relationship' {
    return this.def.entity;
  }

  private reset(capacity: number): void {
    this.hnsw = new hnswlib.HierarchicalNSW(SPACE[this.config.similarity], this.config.dimensions);
    this.hnsw.initIndex(capacity, this.config.m, this.config.efConstruction, RANDOM_SEED);
    this.live.clear();
    this.deleted.clear();
  }

  /** Fills the index from the graph: from its saved file when there is a sound one, else by building. */
  populate(graph: Graph): void {
    this.graph = graph;
    if (this.storage.dataDir !== undefined && this.restore(graph, this.storage.dataDir)) return;
    this.build(graph);
    this.population = { source: 'built', caughtUp: 0 };
  }

  /** Builds the HNSW graph from every indexable entity of the graph. */
  private build(graph: Graph): void {
    this.graph = graph;
    this.dirty = true;
    const ids = this.def.entity === 'node' ? graph.labelSet(this.label) : graph.typeSet(this.label);
    const count = ids?.length ?? 0;
    this.reset(Math.max(INITIAL_CAPACITY, Math.ceil(count * 1.25)));
    if (!ids) return;
    for (let i = 0; i < ids.length; i++) {
      const id = ids.ids[i];
      const entity = this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
      if (entity) this.put(id, this.vectorOf(entity));
    }
  }

  /**
   * Loads the saved file and catches it up with the graph: an entity whose vector's
   * fingerprint differs from the saved one is re-added, a saved element whose entity is gone
   * (or no longer holds a vector) is removed. False when there is no sound file.
   */
  private restore(graph: Graph, dataDir: string): boolean {
    const saved = loadIndexFiles(dataDir, this.def);
    if (!saved) return false;
    const hnsw = new hnswlib.HierarchicalNSW(SPACE[this.config.similarity], this.config.dimensions);
    try {
      hnsw.readIndexSync(saved.file);
    } catch {
      return false;
    }
    this.hnsw = hnsw;
    this.live.clear();
    this.deleted.clear();
    const savedPrint = new Map<number, number>();
    for (let i = 0; i < saved.live.length; i++) {
      this.live.add(saved.live[i]);
      savedPrint.set(saved.live[i], saved.fingerprints[2 * i] * 0x100000000 + saved.fingerprints[2 * i + 1]);
    }
    for (const id of saved.deleted) this.deleted.add(id);
    let caughtUp = 0;
    const seen = new Set<number>();
    const ids = this.def.entity === 'node' ? graph.labelSet(this.label) : graph.typeSet(this.label);
    for (let i = 0; i < (ids?.length ?? 0); i++) {
      const id = (ids as NonNullable<typeof ids>).ids[i];
      const entity = this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
      const v = entity && !entity.deleted ? this.vectorOf(entity) : null;
      if (v === null) continue;
      seen.add(id);
      const [hi, lo] = fingerprint(v);
      if (savedPrint.get(id) === hi * 0x100000000 + lo) continue;
      this.put(id, v);
      caughtUp++;
    }
    for (const id of [...this.live]) {
      if (seen.has(id)) continue;
      this.put(id, null);
      caughtUp++;
    }
    this.dirty = caughtUp > 0;
    this.population = { source: 'file', caughtUp, fileSeq: saved.seq };
    return true;
  }

  /**
   * Saves the HNSW graph and what describes it into the data directory (when there is one
   * and something changed since the last save). The caller brings the index up to date
   * first and calls outside any transaction, so the index matches the graph at `seq`.
   */
  save(seq: number): void {
    const dataDir = this.storage.dataDir;
    const graph = this.graph;
    if (dataDir === undefined || graph === undefined || !this.dirty) return;
    const live: number[] = [];
    const fingerprints: number[] = [];
    for (const id of this.live) {
      const entity = this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
      const v = entity ? this.vectorOf(entity) : null;
      // An element without a vector in the graph cannot happen; if it did, a zero fingerprint makes the next load re-check it.
      const [hi, lo] = v ? fingerprint(v) : [0, 0];
      live.push(id);
      fingerprints.push(hi, lo);
    }
    saveIndexFiles(dataDir, this.def, { seq, live, fingerprints, deleted: [...this.deleted] }, (file) => this.hnsw.writeIndexSync(file));
    this.dirty = false;
  }

  /** Forgets the saved files (the index was dropped). */
  removeFiles(): void {
    if (this.storage.dataDir !== undefined) removeIndexFiles(this.storage.dataDir, this.def.name);
  }

  updateNode(node: Node): void {
    if (this.def.entity === 'node') this.put(node.id, node.deleted || !node.labels.includes(this.label) ? null : this.vectorOf(node));
  }

  updateRel(rel: Rel): void {
    if (this.def.entity === 'relationship') this.put(rel.id, rel.deleted || rel.type !== this.label ? null : this.vectorOf(rel));
  }

  dispose(): void {
    this.removeFiles();
    this.reset(1);
    this.graph = undefined;
  }

  /** The indexed vector of an entity (its property, when it is a vector of the right size). */
  vectorOf(entity: Node | Rel): Float32Array | null {
    const v = indexableVector(entity.prop(this.key), this.config.dimensions);
    // A zero vector has no direction: cosine similarity is undefined for it.
    if (v !== null && this.config.similarity === 'cosine' && v.every((x) => x === 0)) return null;
    return v;
  }

  private put(id: number, vector: Float32Array | null): void {
    if (vector === null) {
      if (this.live.delete(id)) {
        this.dirty = true;
        this.hnsw.markDelete(id);
        this.deleted.add(id);
        if (this.deleted.size > 1024 && this.deleted.size > this.live.size && this.graph) this.build(this.graph);
      }
      return;
    }
    this.dirty = true;
    const values = this.plain(vector);
    if (this.live.has(id)) {
      this.hnsw.addPoint(values, id); // replaces the element's vector
      return;
    }
    if (this.deleted.delete(id)) {
      this.hnsw.addPoint(values, id); // revives the deleted element with the new vector
      this.live.add(id);
      return;
    }
    const capacity = this.hnsw.getMaxElements();
    if (this.hnsw.getCurrentCount() >= capacity) this.hnsw.resizeIndex(capacity * 2);
    this.hnsw.addPoint(values, id);
    this.live.add(id);
  }

  /** `vector` as a plain array for hnswlib: the scratch array, refilled. */
  private plain(vector: Float32Array): number[] {
    const out = this.scratch;
    for (let i = 0; i < out.length; i++) out[i] = vector[i];
    return out;
  }

  /**
   * Up to `k` nearest entities by approximate search, best first; `accept` (if given) is
   * applied inside the search, so rejected entities do not use up the `k`.
   */
  search(query: Float32Array, k: number, ef: number, accept?: (id: number) => boolean): VectorHit[] {
    if (this.live.size === 0 || k <= 0) return [];
    const n = Math.min(k, this.hnsw.getMaxElements());
    this.hnsw.setEf(Math.max(ef, n, MIN_EF));
    const { neighbors, distances } = this.hnsw.searchKnn(this.plain(query), n, accept);
    const out = new Array<VectorHit>(neighbors.length);
    for (let i = 0; i < neighbors.length; i++) {
      out[i] = { id: neighbors[i], score: scoreFromDistance(this.config.similarity, distances[i]) };
    }
    return out;
  }

  /** Exact search over every indexed entity that `accept` admits: the fallback for very selective filters. */
  exactSearch(query: Float32Array, k: number, accept?: (id: number) => boolean): VectorHit[] {
    const graph = this.graph;
    if (!graph || k <= 0) return [];
    const hits: VectorHit[] = [];
    for (const id of this.live) {
      if (accept && !accept(id)) continue;
      const entity = this.def.entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
      const v = entity ? this.vectorOf(entity) : null;
      if (v === null) continue;
      const score = similarityScore(this.config.similarity, query, v);
      if (score !== null) hits.push({ id, score });
    }
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, k);
  }
}
