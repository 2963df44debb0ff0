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
 * The value at `id` of a column generated code resolved once per execution (undefined when
 * no entity ever held the key): null where the entity does not hold it. Generated code calls
 * it only in read-only queries, for an entity it has just bound from its id (a scan, an index
 * seek or an expansion), so the entity is live and its object is never loaded.
 */
export function valueAt(column: PropertyColumnSource | undefined, id: number): Value {
  if (column === undefined) return null;
  const p = column.get(id);
  return p === undefined ? null : p;
}
