/**
 * The compact graph every algorithm runs on: a CSR (compressed sparse row) projection of the
 * store, built once per call. Selected nodes get dense indices 0..n-1 in ascending node-id
 * order (so "smallest index" and "smallest node id" agree, which the algorithms' tie-breaking
 * relies on); row `v` lists the dense indices of v's neighbours in `targets[offsets[v] ..
 * offsets[v+1]]`, with a parallel `weights` column when a weight property is asked for.
 *
 * Selection: optional node labels (only nodes carrying one of them, and only relationships
 * between two such nodes), optional relationship types, and a direction: `out` follows relationships
 * from start to end, `in` from end to start, `both` each way (a self-loop is listed once).
 * Neighbour order within a row is the store's adjacency order (outgoing lists by type id,
 * then incoming ones), which is deterministic for a given store state.
 */

import { ArgumentError } from '../../src/errors.js';
import type { AdjacencyBlocks } from '../../src/store/adjacency.js';
import type { Graph } from '../../src/store/graph.js';
import { FloatBox } from '../../runtime/values.js';

export type Direction = 'out' | 'in' | 'both';

export interface Projection {
  /** Only nodes with one of these labels; all live nodes when absent. */
  labels?: readonly string[];
  /** Only relationships of these types; all types when absent. */
  types?: readonly string[];
  direction: Direction;
  /** Relationship property read into `weights`; none when absent. */
  weightProperty?: string;
  /** Weight of a relationship without the property. */
  defaultWeight?: number;
  /** Accept negative weights (Bellman-Ford); otherwise a negative weight is an error. */
  negativeWeights?: boolean;
}

export interface Csr {
  /** Number of selected nodes. */
  n: number;
  /** Dense index → node id (ascending). */
  ids: Int32Array;
  /** Node id → dense index, -1 when the node is not selected. */
  index: Int32Array;
  /** Row starts, length n + 1. */
  offsets: Int32Array;
  /** Neighbour dense indices, length offsets[n]. */
  targets: Int32Array;
  /** Edge weights parallel to `targets`, when a weight property was asked for. */
  weights?: Float64Array;
}

/** Ids of the selected nodes, ascending. */
function selectNodes(graph: Graph, labels: readonly string[] | undefined): Int32Array {
  if (labels !== undefined && labels.length > 1) {
    const union = new Set<number>();
    for (const l of labels) for (const id of selectNodes(graph, [l])) union.add(id);
    return Int32Array.from(union).sort();
  }
  if (labels !== undefined) {
    const set = labels.length === 0 ? undefined : graph.labelSet(labels[0]);
    if (set === undefined) return new Int32Array(0);
    const ids = set.ids.slice(0, set.length);
    // Uncommitted deletions may still sit in the set.
    let w = 0;
    for (let i = 0; i < ids.length; i++) {
      if (graph.hasLiveNode(ids[i])) ids[w++] = ids[i];
    }
    return ids.subarray(0, w).sort();
  }
  const bound = graph.nodes.length;
  let count = 0;
  for (let id = 0; id < bound; id++) if (graph.hasLiveNode(id)) count++;
  const ids = new Int32Array(count);
  let w = 0;
  for (let id = 0; id < bound; id++) if (graph.hasLiveNode(id)) ids[w++] = id;
  return ids;
}

/** Type ids to follow: the named types that exist, or every type. */
export function selectTypes(graph: Graph, types: readonly string[] | undefined): Int32Array {
  if (types === undefined) return Int32Array.from(graph.typeSets.keys());
  const ids: number[] = [];
  for (const t of types) {
    const id = graph.typeId(t);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return Int32Array.from(ids);
}

/** Upper bound on the entries node `id` has in `blocks` for the chosen types (row lengths only: no entry is read). */
function boundRow(blocks: AdjacencyBlocks, typeIds: Int32Array, id: number): number {
  let count = 0;
  for (let k = 0; k < typeIds.length; k++) {
    const block = blocks[typeIds[k]];
    if (block === undefined) continue;
    const row = block.baseRow(id);
    if (row >= 0) count += block.offsets[row + 1] - block.offsets[row];
    count += block.delta[id]?.rels.length ?? 0;
  }
  return count;
}

/**
 * Writes the selected live neighbours of node `id` (dense index `v`) from `blocks` at
 * `targets[e..]` (their relationship ids into `relOf`); returns the next free slot. Reads
 * each block's CSR row, then its delta, skipping tombstoned relationships.
 */
function fillRow(blocks: AdjacencyBlocks, dead: Uint32Array, typeIds: Int32Array, index: Int32Array, id: number, v: number, skipSelf: boolean, targets: Int32Array, relOf: Int32Array | undefined, e: number): number {
  for (let k = 0; k < typeIds.length; k++) {
    const block = blocks[typeIds[k]];
    if (block === undefined) continue;
    for (let seg = 0; seg < 2; seg++) {
      let rels: ArrayLike<number>;
      let nbrs: ArrayLike<number>;
      let lo: number;
      let hi: number;
      if (seg === 0) {
        const row = block.baseRow(id);
        if (row < 0) continue;
        rels = block.rels;
        nbrs = block.nbrs;
        lo = block.offsets[row];
        hi = block.offsets[row + 1];
      } else {
        const list = block.delta[id];
        if (list === undefined) continue;
        rels = list.rels;
        nbrs = list.nbrs;
        lo = 0;
        hi = list.rels.length;
      }
      for (let i = lo; i < hi; i++) {
        const r = rels[i];
        if ((dead[r >>> 5] & (1 << (r & 31))) !== 0) continue;
        const u = index[nbrs[i]];
        if (u < 0 || (skipSelf && u === v)) continue;
        if (relOf !== undefined) relOf[e] = r;
        targets[e++] = u;
      }
    }
  }
  return e;
}

/**
 * Weight per edge: the relationship's `property`, a finite non-negative number, or
 * `fallback` when missing. Properties are read in relationship-id order (close to allocation
 * order, so memory is walked mostly forwards), once per relationship, then spread to edges.
 */
function readWeights(graph: Graph, relOf: Int32Array, property: string, fallback: number, negative: boolean): Float64Array {
  const props = graph.relProps;
  const byRel = new Float64Array(graph.rels.length).fill(-1);
  for (let e = 0; e < relOf.length; e++) byRel[relOf[e]] = 0;
  for (let id = 0; id < byRel.length; id++) {
    if (byRel[id] !== 0) continue;
    const value = props.get(id, property);
    let w: number;
    if (typeof value === 'number') w = value;
    else if (value === undefined || value === null) w = fallback;
    else if (value instanceof FloatBox) w = value.value;
    else w = typeof value === 'bigint' ? Number(value) : NaN;
    if (!((negative || w >= 0) && Math.abs(w) < Infinity)) {
      throw new ArgumentError(`Relationship property \`${property}\` must be a finite${negative ? '' : ', non-negative'} number to be used as a weight`);
    }
    byRel[id] = w;
  }
  const weights = new Float64Array(relOf.length);
  for (let e = 0; e < relOf.length; e++) weights[e] = byRel[relOf[e]];
  return weights;
}

/**
 * Builds the CSR of `graph` as `projection` selects it from the store's adjacency blocks: a
 * first pass sums row lengths (an upper bound on the row sizes, without touching the
 * entries), the second filters and writes the entries in node order.
 */
export function buildCsr(graph: Graph, projection: Projection): Csr {
  const ids = selectNodes(graph, projection.labels);
  const n = ids.length;
  const index = new Int32Array(graph.nodes.length).fill(-1);
  for (let v = 0; v < n; v++) index[ids[v]] = v;
  const typeIds = selectTypes(graph, projection.types);
  const useOut = projection.direction !== 'in';
  const useIn = projection.direction !== 'out';
  const dead = graph.deadRels.bits;

  let bound = 0;
  for (let v = 0; v < n; v++) {
    if (useOut) bound += boundRow(graph.adjOut, typeIds, ids[v]);
    if (useIn) bound += boundRow(graph.adjIn, typeIds, ids[v]);
  }

  const offsets = new Int32Array(n + 1);
  const buffer = new Int32Array(bound);
  const key = projection.weightProperty;
  const relOf = key === undefined ? undefined : new Int32Array(bound);
  let e = 0;
  for (let v = 0; v < n; v++) {
    offsets[v] = e;
    if (useOut) e = fillRow(graph.adjOut, dead, typeIds, index, ids[v], v, false, buffer, relOf, e);
    if (useIn) e = fillRow(graph.adjIn, dead, typeIds, index, ids[v], v, useOut, buffer, relOf, e);
  }
  offsets[n] = e;
  const targets = e === bound ? buffer : buffer.slice(0, e);
  const weights = key === undefined || relOf === undefined ? undefined : readWeights(graph, relOf.subarray(0, e), key, projection.defaultWeight ?? 1, projection.negativeWeights === true);
  return { n, ids, index, offsets, targets, weights };
}

const simpleUndirectedOf = new WeakMap<Csr, Csr>();

/**
 * The undirected simple graph of `csr` (which must list every edge from both ends, as
 * `direction: 'both'` does): self-loops and parallel edges dropped, each row sorted
 * ascending. Built by transposing, which fills rows in ascending source order. Remembered
 * per projection object, as the transpose is (simple.ts): on a cached projection a repeated
 * k-core, triangle count or lcc call skips the build, which on kron-17 cost about as much
 * as the k-core kernel itself. Nothing writes to a CSR's arrays once built.
 */
export function simpleUndirected(csr: Csr): Csr {
  const hit = simpleUndirectedOf.get(csr);
  if (hit !== undefined) return hit;
  const simple = buildSimpleUndirected(csr);
  simpleUndirectedOf.set(csr, simple);
  return simple;
}

function buildSimpleUndirected(csr: Csr): Csr {
  const { n, offsets, targets } = csr;
  const counts = new Int32Array(n + 1);
  for (let e = 0; e < targets.length; e++) counts[targets[e] + 1]++;
  for (let v = 0; v < n; v++) counts[v + 1] += counts[v];
  const sorted = new Int32Array(targets.length);
  const fill = counts.slice(0, n);
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) sorted[fill[targets[e]]++] = v;
  }
  // Compact: drop self-loops and repeats (rows are sorted, so repeats are adjacent).
  const out = new Int32Array(n + 1);
  let w = 0;
  for (let v = 0; v < n; v++) {
    out[v] = w;
    let last = -1;
    for (let e = counts[v]; e < counts[v + 1]; e++) {
      const u = sorted[e];
      if (u === v || u === last) continue;
      sorted[w++] = u;
      last = u;
    }
  }
  out[n] = w;
  return { n, ids: csr.ids, index: csr.index, offsets: out, targets: sorted.slice(0, w) };
}

/**
 * The CSRs built most recently, reused while the graph is unchanged: `Graph.version` grows
 * with every mutation and rollback, so an equal version means identical content. Repeated
 * algorithm calls on a stable graph (dashboards, benchmarks) then skip the build, which
 * costs more than a BFS itself. A few projections are kept per graph, newest first.
 */
const cache = new WeakMap<Graph, { version: number; entries: { key: string; csr: Csr }[] }>();
const CACHE_ENTRIES = 4;

export function cachedCsr(graph: Graph, projection: Projection): Csr {
  const key = JSON.stringify([projection.labels ?? null, projection.types ?? null, projection.direction, projection.weightProperty ?? null, projection.defaultWeight ?? null, projection.negativeWeights === true]);
  let slot = cache.get(graph);
  if (slot === undefined || slot.version !== graph.version) {
    slot = { version: graph.version, entries: [] };
    cache.set(graph, slot);
  }
  const hit = slot.entries.find((e) => e.key === key);
  if (hit) return hit.csr;
  const csr = buildCsr(graph, projection);
  slot.entries.unshift({ key, csr });
  if (slot.entries.length > CACHE_ENTRIES) slot.entries.length = CACHE_ENTRIES;
  return csr;
}
