/**
 * The persisted form of the schema (property indexes and constraints): the whole
 * definition, small enough to write in full. The WAL logs it after every schema change
 * (as a `{"op":"schema",…}` entry), the store's meta and the snapshot header carry it,
 * and loading re-creates it after the entities are in (so constraints are checked
 * against the loaded data and indexes are built once).
 */

import type { ExtensionIndexDef, Schema } from '../schema.js';
import { ValueDecodeError } from './value-codec.js';
import { isJsonObject, type Json, type JsonObject } from './json.js';

export interface SchemaDef {
  indexes: { name: string; label: string; key: string }[];
  constraints: { name: string; label: string; key: string; kind: 'unique' | 'notNull' }[];
  /** Vector and full-text indexes (absent in files written before they existed). */
  extensions?: ExtensionIndexDef[];
}

export interface SchemaChange {
  op: 'schema';
  def: SchemaDef;
}

export function schemaDefinition(schema: Schema): SchemaDef {
  return {
    // Indexes a constraint owns come back with their constraint.
    indexes: schema.listIndexes().filter((i) => i.owner === undefined).map((i) => ({ name: i.name, label: i.label, key: i.key })),
    constraints: schema.listConstraints().map((c) => ({ name: c.name, label: c.label, key: c.key, kind: c.kind })),
    extensions: schema.listExtensionIndexes().map((e) => e.def),
  };
}

export function isEmptySchema(def: SchemaDef): boolean {
  return def.indexes.length === 0 && def.constraints.length === 0 && (def.extensions ?? []).length === 0;
}

/** Makes `schema` hold exactly `def`. */
export function applySchemaDefinition(schema: Schema, def: SchemaDef): void {
  for (const c of schema.listConstraints()) schema.dropConstraint(c.name, true);
  for (const i of schema.listIndexes()) if (i.owner === undefined) schema.dropIndex(i.name, true);
  for (const c of def.constraints) schema.createConstraint(c.name, c.label, c.key, c.kind, true);
  for (const i of def.indexes) schema.createIndex(i.name, i.label, i.key, true);
  // Extension indexes are costly to build: one whose definition is unchanged is kept as it is.
  const extensions = def.extensions ?? [];
  const wanted = new Map(extensions.map((e) => [e.name, JSON.stringify(e)]));
  for (const e of schema.listExtensionIndexes()) if (wanted.get(e.def.name) !== JSON.stringify(e.def)) schema.dropIndex(e.def.name, true);
  for (const e of extensions) schema.createExtensionIndex(e, true);
}

export function encodeSchemaDef(def: SchemaDef): JsonObject {
  return {
    indexes: def.indexes.map((i) => ({ ...i })),
    constraints: def.constraints.map((c) => ({ ...c })),
    extensions: (def.extensions ?? []).map((e) => ({ ...e, labelsOrTypes: [...e.labelsOrTypes], properties: [...e.properties], options: { ...e.options } })),
  };
}

function strField(o: Json, name: string): string {
  const v = isJsonObject(o) ? o[name] : undefined;
  if (typeof v !== 'string') throw new ValueDecodeError(`schema entry field '${name}' is not a string`);
  return v;
}

export function decodeSchemaDef(data: Json | undefined): SchemaDef {
  if (data === undefined || data === null) return { indexes: [], constraints: [], extensions: [] };
  if (!isJsonObject(data)) throw new ValueDecodeError('schema is not an object');
  const list = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
  return {
    indexes: list(data.indexes).map((i) => ({ name: strField(i, 'name'), label: strField(i, 'label'), key: strField(i, 'key') })),
    constraints: list(data.constraints).map((c) => {
      const kind = strField(c, 'kind');
      if (kind !== 'unique' && kind !== 'notNull') throw new ValueDecodeError(`unknown constraint kind '${kind}'`);
      return { name: strField(c, 'name'), label: strField(c, 'label'), key: strField(c, 'key'), kind };
    }),
    extensions: list(data.extensions).map(decodeExtensionDef),
  };
}

function decodeExtensionDef(e: Json): ExtensionIndexDef {
  const strings = (name: string): string[] => {
    const v = isJsonObject(e) ? e[name] : undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new ValueDecodeError(`schema entry field '${name}' is not a list of strings`);
    return v as string[];
  };
  const entity = strField(e, 'entity');
  if (entity !== 'node' && entity !== 'relationship') throw new ValueDecodeError(`unknown index entity '${entity}'`);
  const rawOptions = isJsonObject(e) ? e.options : undefined;
  if (!isJsonObject(rawOptions)) throw new ValueDecodeError(`schema entry field 'options' is not an object`);
  const options: ExtensionIndexDef['options'] = {};
  for (const [k, v] of Object.entries(rawOptions)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ValueDecodeError(`index option '${k}' is not a scalar`);
    options[k] = v;
  }
  return { type: strField(e, 'type'), name: strField(e, 'name'), entity, labelsOrTypes: strings('labelsOrTypes'), properties: strings('properties'), options };
}
