/**
 * Property reads of generated code straight from the store's columns. A query resolves one
 * `PropertyRef` per property key it reads, once per execution (in the generated prologue);
 * each read then checks that the entity lives in the store the ref last resolved and reads
 * the column at the entity's id — no name lookup and no allocation per row (except for an
 * integral float, which comes back as a fresh `FloatBox`). The ref re-resolves itself when
 * a node and a relationship alternate at one site, when the graph was cleared, and until
 * the key's column exists (a write in the same query may create it).
 */

import { Node, Rel, type PropertyColumnSource, type PropertySource } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { property } from '../ops.js';
import type { Value } from '../values.js';

export class PropertyRef {
  store: PropertySource | undefined = undefined;
  column: PropertyColumnSource | undefined = undefined;

  constructor(readonly key: string) {}
}

/** A fresh handle for reading `key` in one query execution. */
export function propertyRef(key: string): PropertyRef {
  return new PropertyRef(key);
}

/** `v.key` as `rt.property` computes it, through `ref`'s column when `v` is a live entity. */
export function propertyAt(v: Value, ref: PropertyRef): Value {
  if ((v instanceof Node || v instanceof Rel) && !v.deleted) {
    let column = ref.column;
    if (v.store !== ref.store || column === undefined) {
      ref.store = v.store;
      column = ref.column = v.store.column(ref.key);
      if (column === undefined) {
        // No column: the key is unused in this store, or the entity is detached (a virtual node).
        const p = v.prop(ref.key);
        return p === undefined ? null : p;
      }
    }
    const p = column.get(v.id);
    return p === undefined ? null : p;
  }
  return property(v, ref.key);
}

/**
 * Property `ref.key` of node `id`, read straight from the graph's node columns. Generated
 * code calls it only in read-only queries, for a node it has just bound from an id (a scan or
 * an expansion), so the node is live and lives in `g`: the object itself is never loaded.
 */
export function nodePropertyAt(g: Graph, ref: PropertyRef, id: number): Value {
  return columnValue(g.nodeProps, ref, id);
}

/** `nodePropertyAt` for a relationship an expansion has just bound from its id. */
export function relPropertyAt(g: Graph, ref: PropertyRef, id: number): Value {
  return columnValue(g.relProps, ref, id);
}

function columnValue(store: PropertySource, ref: PropertyRef, id: number): Value {
  let column = ref.column;
  if (ref.store !== store || column === undefined) {
    ref.store = store;
    column = ref.column = store.column(ref.key);
    if (column === undefined) return null;
  }
  const p = column.get(id);
  return p === undefined ? null : p;
}
