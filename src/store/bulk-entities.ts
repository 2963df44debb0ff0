/**
 * The entities a bulk load (opening a data directory) put in the graph, kept as the arrays
 * they came in rather than as one JavaScript object each. `Graph` makes the `Node` or `Rel`
 * object of such an entity on first use (`Graph.nodeAt`/`relAt`) and caches it in its
 * tables, so identity holds (one object per entity) while an open costs a few typed arrays
 * instead of millions of objects, and entities a workload never touches cost 4–12 bytes.
 *
 * The arrays are never written after the load, so other threads' graphs may hold the same ones
 * (the query workers' replicas do: graph-image.ts): a committed deletion of a bulk entity is
 * marked in this graph's own bitset of dropped ids instead, so it is never made again.
 */

import { bitGet, bitSet, sharedInt16, sharedInt8, wordsFor } from './columns/buffers.js';

/**
 * Entity id → index into a short list (label lists, relationship types), -1 for none: in the
 * narrowest signed array that holds every index, since a graph has few of either and one
 * entry per relationship in 32 bits cost 42 MB of snb-200k's 10.4 M relationships.
 */
export type IndexArray = Int32Array | Int16Array | Int8Array;

/** `array` (indexes below `distinct`, or -1) in the narrowest `IndexArray` that holds them: a shared copy, or `array` itself when it is that already. */
export function narrowIndexes(array: IndexArray, distinct: number): IndexArray {
  if (!(array instanceof Int32Array) || distinct > 32767) return array;
  const narrow = distinct <= 127 ? sharedInt8(array.length) : sharedInt16(array.length);
  narrow.set(array);
  return narrow;
}

export class BulkEntities {
  constructor(
    /** Label lists, shared (copy-on-write) by every node made from them. */
    readonly labelLists: readonly string[][],
    /** Node id → index into `labelLists`; -1: no node (never was, or its deletion committed). */
    readonly nodeLabels: IndexArray,
    /** Type index → the graph's relationship type id. */
    readonly typeIds: readonly number[],
    /** Relationship id → type index; -1: no relationship. */
    readonly relType: IndexArray,
    readonly relStart: Int32Array,
    readonly relEnd: Int32Array,
    /** Live entities whose object has not been made yet (for the memory estimate; the graph counts them down). */
    public unmadeNodes: number,
    public unmadeRels: number,
  ) {
    this.droppedNodes = new Uint32Array(wordsFor(nodeLabels.length));
    this.droppedRels = new Uint32Array(wordsFor(relType.length));
  }

  /** Ids whose deletion committed (their slots in the arrays stay as loaded). */
  private readonly droppedNodes: Uint32Array;
  private readonly droppedRels: Uint32Array;

  /**
   * The labels bulk node `id` was loaded with (a shared list: read-only), unless its deletion
   * committed. Once the node's object is made, the object's labels are the ones to read.
   */
  labelsOf(id: number): string[] | undefined {
    const list = id < this.nodeLabels.length ? this.nodeLabels[id] : -1;
    return list < 0 || bitGet(this.droppedNodes, id) ? undefined : this.labelLists[list];
  }

  /** The graph's type id of bulk relationship `id`, or -1 when there is none. */
  typeIdOf(id: number): number {
    const type = id < this.relType.length ? this.relType[id] : -1;
    return type < 0 || bitGet(this.droppedRels, id) ? -1 : this.typeIds[type];
  }

  /** A committed deletion: the entity is gone for good. */
  dropNode(id: number): void {
    if (id >= this.nodeLabels.length) return;
    bitSet(this.droppedNodes, id);
  }

  dropRel(id: number): void {
    if (id >= this.relType.length) return;
    bitSet(this.droppedRels, id);
  }

  /** Bytes of the arrays and the dropped sets (the label lists are negligible). */
  memoryBytes(): number {
    return this.arrayBytes() + this.droppedNodes.byteLength + this.droppedRels.byteLength;
  }

  /** Bytes of the loaded arrays alone (what other threads' graphs may share). */
  arrayBytes(): number {
    return this.nodeLabels.byteLength + this.relType.byteLength + this.relStart.byteLength + this.relEnd.byteLength;
  }
}
