/**
 * One vector index: an HNSW graph (hnswlib-node) over the vectors that one property holds
 * on the nodes of one label (or the relationships of one type). hnswlib labels are the
 * entities' own ids, which the store never reuses. The index follows the schema's change
 * feed: each changed entity is re-read from its current state, so creations, updates,
 * removals, deletions and rollbacks all land the same way. Removal marks the element
 * deleted; when deleted elements outnumber live ones the graph is rebuilt from the store.
 */

import hnswlib from 'hnswlib-node';
import type { Graph } from '../store/graph.js';
import type { Node, Rel } from '../store/entities.js';
import type { ExtensionIndex, ExtensionIndexDef } from '../store/schema.js';
import { indexableVector } from './vectors.js';
import { scoreFromDistance, similarityScore, type Similarity } from './similarity.js';

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

  constructor(
    readonly def: ExtensionIndexDef,
    readonly config: VectorIndexConfig,
  ) {
    this.label = def.labelsOrTypes[0];
    this.key = def.properties[0];
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

  populate(graph: Graph): void {
    this.graph = graph;
    const ids = this.def.entity === 'node' ? graph.labelSet(this.label) : graph.typeSet(this.label);
    const count = ids?.length ?? 0;
    this.reset(Math.max(INITIAL_CAPACITY, Math.ceil(count * 1.25)));
    if (!ids) return;
    for (let i = 0; i < ids.length; i++) {
      const id = ids.ids[i];
      const entity = this.def.entity === 'node' ? graph.nodes[id] : graph.rels[id];
      if (entity) this.put(id, this.vectorOf(entity));
    }
  }

  updateNode(node: Node): void {
    if (this.def.entity === 'node') this.put(node.id, node.deleted || !node.labels.includes(this.label) ? null : this.vectorOf(node));
  }

  updateRel(rel: Rel): void {
    if (this.def.entity === 'relationship') this.put(rel.id, rel.deleted || rel.type !== this.label ? null : this.vectorOf(rel));
  }

  dispose(): void {
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
        this.hnsw.markDelete(id);
        this.deleted.add(id);
        if (this.deleted.size > 1024 && this.deleted.size > this.live.size && this.graph) this.populate(this.graph);
      }
      return;
    }
    const values = Array.from(vector);
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

  /**
   * Up to `k` nearest entities by approximate search, best first; `accept` (if given) is
   * applied inside the search, so rejected entities do not use up the `k`.
   */
  search(query: Float32Array, k: number, ef: number, accept?: (id: number) => boolean): VectorHit[] {
    if (this.live.size === 0 || k <= 0) return [];
    const n = Math.min(k, this.hnsw.getMaxElements());
    this.hnsw.setEf(Math.max(ef, n, MIN_EF));
    const result = this.hnsw.searchKnn(Array.from(query), n, accept);
    const out: VectorHit[] = [];
    for (let i = 0; i < result.neighbors.length; i++) {
      out.push({ id: result.neighbors[i], score: scoreFromDistance(this.config.similarity, result.distances[i]) });
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
      const entity = this.def.entity === 'node' ? graph.nodes[id] : graph.rels[id];
      const v = entity ? this.vectorOf(entity) : null;
      if (v === null) continue;
      const score = similarityScore(this.config.similarity, query, v);
      if (score !== null) hits.push({ id, score });
    }
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, k);
  }
}
