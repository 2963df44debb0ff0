/**
 * The persisted form of `ChangeRecord`s (the WAL payload and the unit of replay): one
 * JSON-compatible object per record, properties and values through `value-codec.ts`.
 * Decoding checks the shape of every field, so a record that passed its checksum but was
 * written by something else still cannot put garbage into the graph.
 */

import type { ChangeRecord } from '../changes.js';
import { decodeProps, decodeValue, encodeProps, encodeValue, ValueDecodeError } from './value-codec.js';
import { isJsonObject, type Json, type JsonObject } from './json.js';
import { decodeSchemaDef, encodeSchemaDef, type SchemaChange } from './schema-def.js';

/** What one WAL transaction holds: graph changes, and the schema definition after a schema change. */
export type LoggedChange = ChangeRecord | SchemaChange;

export function encodeChange(record: LoggedChange): JsonObject {
  switch (record.op) {
    case 'schema':
      return { op: record.op, def: encodeSchemaDef(record.def) };
    case 'createNode':
      return { op: record.op, id: record.id, labels: record.labels, props: encodeProps(record.props) };
    case 'createRel':
      return { op: record.op, id: record.id, type: record.type, start: record.start, end: record.end, props: encodeProps(record.props) };
    case 'deleteNode':
    case 'deleteRel':
      return { op: record.op, id: record.id };
    case 'setProperty':
      return { op: record.op, entity: record.entity, id: record.id, key: record.key, value: encodeValue(record.value) };
    case 'addLabel':
    case 'removeLabel':
      return { op: record.op, id: record.id, label: record.label };
  }
}

function id(o: JsonObject, field: string): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new ValueDecodeError(`field '${field}' is not an id`);
  return v;
}

function str(o: JsonObject, field: string): string {
  const v = o[field];
  if (typeof v !== 'string') throw new ValueDecodeError(`field '${field}' is not a string`);
  return v;
}

function strings(o: JsonObject, field: string): string[] {
  const v = o[field];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new ValueDecodeError(`field '${field}' is not a list of strings`);
  return v as string[];
}

/** The change a persisted record stands for; throws ValueDecodeError when malformed. */
export function decodeChange(data: Json): LoggedChange {
  if (!isJsonObject(data)) throw new ValueDecodeError('change is not an object');
  const op = data.op;
  switch (op) {
    case 'schema':
      return { op, def: decodeSchemaDef(data.def) };
    case 'createNode':
      return { op, id: id(data, 'id'), labels: strings(data, 'labels'), props: decodeProps(data.props) };
    case 'createRel':
      return { op, id: id(data, 'id'), type: str(data, 'type'), start: id(data, 'start'), end: id(data, 'end'), props: decodeProps(data.props) };
    case 'deleteNode':
    case 'deleteRel':
      return { op, id: id(data, 'id') };
    case 'setProperty': {
      const entity = data.entity;
      if (entity !== 'node' && entity !== 'rel') throw new ValueDecodeError(`field 'entity' is not 'node' or 'rel'`);
      if (!('value' in data)) throw new ValueDecodeError(`field 'value' is missing`);
      return { op, entity, id: id(data, 'id'), key: str(data, 'key'), value: decodeValue(data.value) };
    }
    case 'addLabel':
    case 'removeLabel':
      return { op, id: id(data, 'id'), label: str(data, 'label') };
  }
  throw new ValueDecodeError(`unknown change op ${JSON.stringify(op ?? null)}`);
}

/** One transaction's records as the WAL payload text. */
export function encodeTransaction(records: readonly LoggedChange[]): string {
  return JSON.stringify(records.map(encodeChange));
}

export function decodeTransaction(text: string): LoggedChange[] {
  let data: Json;
  try {
    data = JSON.parse(text) as Json;
  } catch (err) {
    throw new ValueDecodeError(`payload is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(data)) throw new ValueDecodeError('payload is not a list of changes');
  return data.map(decodeChange);
}
