/**
 * How much memory the in-memory graph holds, for `stats()`, `:stats` and `/status`. Column
 * and adjacency buffers are counted exactly; JavaScript objects (entities, adjacency deltas, id sets,
 * strings in dictionaries) are estimated from V8's object layout with compressed pointers,
 * so the figure is a close approximation, not a heap measurement. The whole process's heap
 * and resident size are reported beside it, because the graph shares them with everything
 * else in the process.
 */

import type { EngineMemory } from '../engine/types.js';
import type { Graph } from './graph.js';

/** Estimated bytes of one `Node` object and its slot in the node table. */
const NODE_BYTES = 48;
/** Estimated bytes of one `Rel` object, its table slot and its type-set entry. */
const REL_BYTES = 52;

export interface StoreMemory {
  /** Property columns of nodes and relationships (typed buffers exactly, dictionaries estimated). */
  propertyBytes: number;
  /** Node and relationship objects (or a bulk load's arrays), adjacency lists, label and type sets (estimated). */
  structureBytes: number;
  /** The two together. */
  totalBytes: number;
  /** Of `structureBytes`, what query workers' replicas share instead of copying: the adjacency bases and an unchanged bulk load's arrays. */
  sharedBytes: number;
}

export function storeMemory(graph: Graph): StoreMemory {
  const propertyBytes = graph.nodeProps.memoryBytes() + graph.relProps.memoryBytes();
  // Entities a bulk load left unmade cost their slots in the load's arrays, not an object
  // (nor a table slot: the tables allocate a page on its first object).
  const bulk = graph.bulk;
  let structureBytes = (graph.nodeCount - (bulk?.unmadeNodes ?? 0)) * NODE_BYTES + (graph.relCount - (bulk?.unmadeRels ?? 0)) * REL_BYTES;
  if (bulk !== undefined) structureBytes += bulk.memoryBytes();
  let sharedBytes = bulk !== undefined && graph.unchangedSinceBulkLoad ? bulk.arrayBytes() : 0;
  for (const blocks of [graph.adjOut, graph.adjIn]) {
    for (const block of blocks) {
      if (block === undefined) continue;
      structureBytes += block.memoryBytes();
      sharedBytes += block.baseBytes();
    }
  }
  structureBytes += graph.deadRels.bits.byteLength;
  for (const set of graph.labelSets) if (set !== undefined) structureBytes += set.memoryBytes();
  for (const set of graph.typeSets) if (set !== undefined) structureBytes += set.memoryBytes();
  return { propertyBytes, structureBytes, totalBytes: propertyBytes + structureBytes, sharedBytes };
}

/** The memory figures of `stats()`: the graph's estimate and the process's heap and RSS. */
export function engineMemory(graph: Graph): EngineMemory {
  const store = storeMemory(graph);
  const usage = process.memoryUsage();
  return { storeBytes: store.totalBytes, propertyBytes: store.propertyBytes, heapUsedBytes: usage.heapUsed, rssBytes: usage.rss };
}
