/**
 * A graph's whole content as sealed binary blocks in memory — the blocks the store of
 * record keeps (`graph-blocks.ts`), plus the counters, the property key names and the
 * schema — so that another thread can build an identical copy with one bulk load. The query
 * workers' replicas (src/engine/workers) start from one. The blocks sit end to end in one
 * SharedArrayBuffer, which `postMessage` hands to other threads without a copy — and
 * without a transfer, whose detaching would slow every typed-array access of both threads
 * (V8 drops its "no buffer was ever detached" assumption for good).
 *
 * The structure is not encoded: the entities travel as arrays (`EntityArrays`: labels or type
 * and ends by id) and the adjacency as the graph's CSR bases (`Graph.adjacencyImage`), all on
 * SharedArrayBuffers and never written once made, so every replica loaded from one image
 * holds the same ones, and need not build them. So do the property columns of typed kinds
 * (`Graph.lendColumns`) and the label and type sets (`Graph.lendSets`): lent as they are, each
 * copied by whichever graph changes it first. A graph unchanged since its bulk load (a
 * server just opened) hands over its own entity arrays, so then the process holds one copy.
 * The blocks are the property blocks of the other columns (lists, maps, mixed values).
 */

import { StorageError } from '../../errors.js';
import { narrowIndexes } from '../bulk-entities.js';
import type { AdjacencyImage, EntityArrays, Graph, LentColumns, LentSets } from '../graph.js';
import type { PropertyColumn } from '../columns/property-column.js';
import type { Schema } from '../schema.js';
import { assembleGraph, captureChunkProps, chunkCount, liveEntityArrays, propBlocks } from './graph-blocks.js';
import type { Json } from './json.js';
import { graphCounters, restoreCounters, type GraphCounters } from './graph-counters.js';
import { keyNames } from './record-store.js';
import { applySchemaDefinition, decodeSchemaDef, encodeSchemaDef, schemaDefinition } from './schema-def.js';

export interface GraphImage extends GraphCounters {
  /** Property key names by the index the blocks name them with. */
  keys: string[];
  /** The schema definition (indexes, constraints), encoded. */
  schema: Json;
  /** Every block, end to end. */
  data: Uint8Array;
  /** Each block's key and its end offset in `data` (it starts where the previous one ends). */
  blocks: [string, number][];
  /** The entities, on shared memory. */
  entities: EntityArrays;
  /** The columns of typed kinds, lent (`Graph.lendColumns`); the blocks hold the others. */
  columns: LentColumns;
  /** The label and type sets, lent (`Graph.lendSets`). */
  sets: LentSets;
  /** The adjacency, its bases shared with the captured graph. */
  adjacency: AdjacencyImage;
}

/** `graph`'s entities as arrays: its bulk load's own when it has not changed since, else made now. */
function entityArrays(graph: Graph): EntityArrays {
  const unchanged = graph.entityArraysIfUnchanged();
  if (unchanged !== undefined) return unchanged;
  // Narrowed here, once, so that the replicas' loads keep these very arrays rather than each narrowing a copy.
  const { arrays } = liveEntityArrays(graph);
  return { ...arrays, nodeLabels: narrowIndexes(arrays.nodeLabels, arrays.labelLists.length), relType: narrowIndexes(arrays.relType, arrays.typeNames.length) };
}

/**
 * `entities` with each relationship-end array that equals, element for element, a whole buffer
 * the adjacency bases view replaced by that buffer. The bases of a bulk load view the load's
 * end columns (each type's rows of the start-ordered relationships), so while the
 * relationships are as loaded (only nodes written since, say) a capture that makes its entity
 * arrays anew finds them there, and an image then carries each once: 83 MB less in
 * snb-200k's. Both are never written once made, so sharing them changes nothing.
 */
function shareRelEnds(entities: EntityArrays, adjacency: AdjacencyImage): EntityArrays {
  const buffers = new Set<ArrayBufferLike>();
  for (const { out, in: inward } of adjacency.types) for (const base of [out, inward]) buffers.add(base.nbrs.buffer);
  const shared = (ends: Int32Array): Int32Array => {
    if (buffers.has(ends.buffer)) return ends;
    for (const buffer of buffers) {
      if (buffer.byteLength !== ends.byteLength || ends.byteOffset !== 0) continue;
      const candidate = new Int32Array(buffer as ArrayBuffer);
      if (sameInts(candidate, ends)) return candidate;
    }
    return ends;
  };
  return { ...entities, relStart: shared(entities.relStart), relEnd: shared(entities.relEnd) };
}

function sameInts(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Captures `graph` and `schema` as they are now (synchronously: the caller holds no transaction open). */
export function captureGraphImage(graph: Graph, schema: Schema): GraphImage {
  const sealed: Uint8Array[] = [];
  const blocks: [string, number][] = [];
  let end = 0;
  const adjacency = graph.adjacencyImage();
  const entities = shareRelEnds(entityArrays(graph), adjacency);
  const columns = graph.lendColumns();
  // The columns not lent (lists, maps, mixed values) go as property blocks, chunk by chunk.
  const unlent = (store: readonly (PropertyColumn | undefined)[]): (PropertyColumn | undefined)[] => store.map((column) => (column?.isBorrowed ? undefined : column));
  for (const [kind, store, idLimit, ids] of [
    ['node', unlent(graph.nodeProps.columns), graph.nextNodeId, entities.nodeLabels],
    ['rel', unlent(graph.relProps.columns), graph.nextRelId, entities.relType],
  ] as const) {
    if (store.every((column) => column === undefined)) continue;
    for (let c = 0; c < chunkCount(idLimit); c++) {
      for (const [key, block] of propBlocks(captureChunkProps(kind, c, idLimit, ids, store))) {
        if (block === null) continue;
        sealed.push(block);
        end += block.length;
        blocks.push([key, end]);
      }
    }
  }
  // A copy into a buffer of its own: sealed blocks may share Node's small-buffer pool.
  const data = new Uint8Array(new SharedArrayBuffer(end));
  let at = 0;
  for (const block of sealed) {
    data.set(block, at);
    at += block.length;
  }
  return {
    ...graphCounters(graph),
    keys: keyNames(graph),
    schema: encodeSchemaDef(schemaDefinition(schema)),
    data,
    blocks,
    entities,
    columns,
    sets: graph.lendSets(),
    adjacency,
  };
}

function* imageBlocks(image: GraphImage): Generator<[string, Uint8Array]> {
  let start = 0;
  for (const [key, end] of image.blocks) {
    yield [key, image.data.subarray(start, end)];
    start = end;
  }
}

/**
 * Fills the empty `graph` and `schema` from `image`; the graph then has the captured counters
 * (and fingerprint). `withoutExtensions` leaves out the vector and full-text indexes (a copy
 * that never answers their queries need not build them).
 */
export function loadGraphImage(graph: Graph, schema: Schema, image: GraphImage, withoutExtensions = false): void {
  const damaged = (key: string, why: string): StorageError => new StorageError(`The graph image's block ${key} ${why}`, 'ImageDamaged');
  assembleGraph(graph, image.keys, imageBlocks(image), image, damaged, { entities: image.entities, adjacency: image.adjacency, columns: image.columns, sets: image.sets });
  if (graph.nodeCount !== image.nodeCount || graph.relCount !== image.relCount) {
    throw damaged('(all)', `should hold ${image.nodeCount} nodes and ${image.relCount} relationships, but holds ${graph.nodeCount} and ${graph.relCount}`);
  }
  restoreCounters(graph, image);
  const def = decodeSchemaDef(image.schema);
  applySchemaDefinition(schema, withoutExtensions ? { ...def, extensions: [] } : def);
}
