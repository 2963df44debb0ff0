/**
 * The graph's entities as the rest of the engine sees them: one canonical `Node` object per
 * node and one `Rel` object per relationship, owned by the store (`graph.ts`) and handed out
 * as Cypher values without copying. Adjacency lives on the node, grouped by relationship
 * type id, in typed arrays (`AdjList`) so that expansions walk integers, not objects.
 */

import type { Value } from '../../runtime/values.js';

/** Relationships of one node and one type in one direction: parallel arrays of relationship ids and neighbour node ids. */
export class AdjList {
  rels: Int32Array;
  nbrs: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.rels = new Int32Array(capacity);
    this.nbrs = new Int32Array(capacity);
  }

  push(relId: number, nbrId: number): void {
    if (this.length === this.rels.length) {
      const capacity = this.rels.length * 2;
      const rels = new Int32Array(capacity);
      const nbrs = new Int32Array(capacity);
      rels.set(this.rels);
      nbrs.set(this.nbrs);
      this.rels = rels;
      this.nbrs = nbrs;
    }
    this.rels[this.length] = relId;
    this.nbrs[this.length] = nbrId;
    this.length++;
  }

  /**
   * Removes one relationship id. Keeps insertion order (a shift, not a swap) so that
   * expansion order stays stable; lists are short for most nodes.
   */
  remove(relId: number): boolean {
    const n = this.length;
    const rels = this.rels;
    for (let i = n - 1; i >= 0; i--) {
      if (rels[i] === relId) {
        rels.copyWithin(i, i + 1, n);
        this.nbrs.copyWithin(i, i + 1, n);
        this.length = n - 1;
        return true;
      }
    }
    return false;
  }

  /** Index of `relId` in this list, or -1 (searched from the end, where recent ones are). */
  indexOf(relId: number): number {
    const rels = this.rels;
    for (let i = this.length - 1; i >= 0; i--) if (rels[i] === relId) return i;
    return -1;
  }

  /** Removes the entry at `index`, keeping the order of the rest. */
  removeAt(index: number): void {
    const n = this.length;
    this.rels.copyWithin(index, index + 1, n);
    this.nbrs.copyWithin(index, index + 1, n);
    this.length = n - 1;
  }

  /** Inserts an entry at `index` (0..length), shifting later ones up: the exact inverse of `removeAt`. */
  insertAt(index: number, relId: number, nbrId: number): void {
    const n = this.length;
    this.push(relId, nbrId);
    if (index >= n) return;
    this.rels.copyWithin(index + 1, index, n);
    this.nbrs.copyWithin(index + 1, index, n);
    this.rels[index] = relId;
    this.nbrs[index] = nbrId;
  }
}

export class Node {
  /** Set when the node is deleted; the object stays valid as a value (its id and last state). */
  deleted = false;
  /** Outgoing relationships by relationship type id (sparse array). */
  out: (AdjList | undefined)[] = [];
  /** Incoming relationships by relationship type id (sparse array). */
  in: (AdjList | undefined)[] = [];

  constructor(
    readonly id: number,
    /** Label names, in the order they were added, without duplicates. */
    public labels: string[],
    public props: Map<string, Value>,
  ) {}

  hasLabel(label: string): boolean {
    return this.labels.includes(label);
  }
}

export class Rel {
  deleted = false;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly typeId: number,
    readonly start: Node,
    readonly end: Node,
    public props: Map<string, Value>,
  ) {}

  /** The node at the other end from `node` (for a self-loop, the same node). */
  other(node: Node): Node {
    return this.start === node ? this.end : this.start;
  }
}
