/**
 * `PropertyStore`: the properties of one kind of entity (nodes, or relationships) as one
 * `PropertyColumn` per property key, indexed by the key's interned id and, inside a column,
 * by the entity's dense id. Entities hold no property objects of their own: `Node`/`Rel`
 * read through the store they were created in.
 *
 * An entity's keys come back in key-id order (the order in which the graph first saw each
 * key), which is stable across updates and rollbacks. Only `Graph` writes; it keeps the
 * change records and undo entries that make every write reversible.
 */

import type { Value } from '../entities.js';
import type { Interner } from '../interner.js';
import { PropertyColumn } from './property-column.js';

export class PropertyStore {
  /** Columns by property key id; undefined for keys this kind of entity never held. */
  readonly columns: (PropertyColumn | undefined)[] = [];

  constructor(private readonly keyNames: Interner) {}

  /** The column of `key`, or undefined when no entity of this kind ever held it. */
  column(key: string): PropertyColumn | undefined {
    const keyId = this.keyNames.get(key);
    return keyId === undefined ? undefined : this.columns[keyId];
  }

  /** The column of `key`, created (empty) when missing; generated code holds on to it across a scan. */
  columnFor(key: string): PropertyColumn {
    const keyId = this.keyNames.intern(key);
    return (this.columns[keyId] ??= new PropertyColumn());
  }

  get(id: number, key: string): Value | undefined {
    const keyId = this.keyNames.get(key);
    if (keyId === undefined) return undefined;
    const column = this.columns[keyId];
    return column === undefined ? undefined : column.get(id);
  }

  has(id: number, key: string): boolean {
    return this.get(id, key) !== undefined;
  }

  /** Stores a non-null value; returns the key's id. */
  set(id: number, key: string, value: Value): number {
    const keyId = this.keyNames.intern(key);
    (this.columns[keyId] ??= new PropertyColumn()).set(id, value);
    return keyId;
  }

  /** Removes `key` from entity `id` (a no-op when absent). */
  delete(id: number, key: string): void {
    this.column(key)?.delete(id);
  }

  /** Ids of the keys entity `id` holds, ascending. */
  keyIdsOf(id: number): number[] {
    const out: number[] = [];
    const columns = this.columns;
    for (let k = 0; k < columns.length; k++) if (columns[k]?.has(id) === true) out.push(k);
    return out;
  }

  /** Names of the keys entity `id` holds, in key-id order. */
  keysOf(id: number): string[] {
    return this.keyIdsOf(id).map((k) => this.keyNames.name(k)!);
  }

  /** A fresh map of entity `id`'s properties, in key-id order. */
  mapOf(id: number): Map<string, Value> {
    const out = new Map<string, Value>();
    const columns = this.columns;
    for (let k = 0; k < columns.length; k++) {
      const value = columns[k]?.get(id);
      if (value !== undefined) out.set(this.keyNames.name(k)!, value);
    }
    return out;
  }

  /** Removes every property of entity `id`. */
  clearEntity(id: number): void {
    for (const column of this.columns) column?.delete(id);
  }

  /** Approximate bytes the columns hold. */
  memoryBytes(): number {
    let bytes = 0;
    for (const column of this.columns) if (column !== undefined) bytes += column.memoryBytes();
    return bytes;
  }
}
