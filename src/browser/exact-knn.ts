/**
 * The browser build's stand-in for hnswlib-node (native, so not loadable in a page): the same
 * `HierarchicalNSW` surface the vector index uses (src/vector/hnsw-index.ts), answered by an
 * exact scan instead of a navigable graph. Within the browser store's 50 MB limit an index
 * holds at most tens of thousands of vectors, which a scan ranks in milliseconds, and exact
 * results need no tuning; `ef` and `M` are accepted and ignored. Distances follow hnswlib's
 * spaces: `l2` squared Euclidean, `ip` 1 − a·b, `cosine` 1 − cos θ (vectors normalised on entry).
 */
import { BrowserUnsupportedError } from '../errors.js';

type Space = 'l2' | 'ip' | 'cosine';

export class HierarchicalNSW {
  private vectors: Float32Array;
  private readonly deleted = new Set<number>();
  private count = 0;
  private capacity = 0;

  constructor(
    private readonly space: Space,
    private readonly dim: number,
  ) {
    this.vectors = new Float32Array(0);
  }

  initIndex(maxElements: number, ..._ignored: unknown[]): void {
    this.capacity = maxElements;
    this.vectors = new Float32Array(maxElements * this.dim);
    this.count = 0;
    this.deleted.clear();
  }

  getCurrentCount(): number {
    return this.count;
  }

  getMaxElements(): number {
    return this.capacity;
  }

  resizeIndex(maxElements: number): void {
    const grown = new Float32Array(maxElements * this.dim);
    grown.set(this.vectors.subarray(0, Math.min(this.vectors.length, grown.length)));
    this.vectors = grown;
    this.capacity = maxElements;
  }

  setEf(_ef: number): void {}

  addPoint(point: number[] | Float32Array, label: number): void {
    if (label >= this.capacity) throw new RangeError(`label ${label} is beyond the index's capacity ${this.capacity}`);
    const at = label * this.dim;
    let norm = 1;
    if (this.space === 'cosine') {
      let sum = 0;
      for (let i = 0; i < this.dim; i++) sum += point[i] * point[i];
      norm = Math.sqrt(sum) || 1;
    }
    for (let i = 0; i < this.dim; i++) this.vectors[at + i] = point[i] / norm;
    this.deleted.delete(label);
    if (label >= this.count) this.count = label + 1;
  }

  markDelete(label: number): void {
    this.deleted.add(label);
  }

  getPoint(label: number): number[] {
    return Array.from(this.vectors.subarray(label * this.dim, (label + 1) * this.dim));
  }

  searchKnn(query: number[] | Float32Array, k: number, filter?: (label: number) => boolean): { neighbors: number[]; distances: number[] } {
    let q: ArrayLike<number> = query;
    if (this.space === 'cosine') {
      let sum = 0;
      for (let i = 0; i < this.dim; i++) sum += query[i] * query[i];
      const norm = Math.sqrt(sum) || 1;
      q = Array.from({ length: this.dim }, (_, i) => query[i] / norm);
    }
    const hits: { label: number; distance: number }[] = [];
    for (let label = 0; label < this.count; label++) {
      if (this.deleted.has(label) || (filter && !filter(label))) continue;
      hits.push({ label, distance: this.distance(q, label * this.dim) });
    }
    hits.sort((a, b) => a.distance - b.distance || a.label - b.label);
    const top = hits.slice(0, k);
    return { neighbors: top.map((h) => h.label), distances: top.map((h) => h.distance) };
  }

  private distance(q: ArrayLike<number>, at: number): number {
    const v = this.vectors;
    let sum = 0;
    if (this.space === 'l2') {
      for (let i = 0; i < this.dim; i++) {
        const d = q[i] - v[at + i];
        sum += d * d;
      }
      return sum;
    }
    for (let i = 0; i < this.dim; i++) sum += q[i] * v[at + i];
    return 1 - sum;
  }

  readIndexSync(): never {
    throw new BrowserUnsupportedError('Reading a vector index file');
  }

  writeIndexSync(): never {
    throw new BrowserUnsupportedError('Writing a vector index file');
  }

  writeIndex(): Promise<never> {
    return Promise.reject(new BrowserUnsupportedError('Writing a vector index file'));
  }
}
