/**
 * The persisted form of `ChangeRecord`s (the WAL payload and the unit of replay): one
 * JSON-compatible object per record, properties and values through `value-codec.ts`.
 * Decoding checks the shape of every field, so a record that passed its checksum but was
 * written by something else still cannot put garbage into the graph.
 *
 * A transaction too large for one record (a `:restore`, a huge UNWIND … CREATE) is split
 * over consecutive records; every record of such a group but the last starts with the
 * marker entry `{"op":"more"}` ("the transaction goes on in the next record"). Replay
 * commits a group only at its last record, so a group cut short by a crash is dropped
 * whole (it was never acknowledged: the acknowledgement waits for the last record).
 */

import type { ChangeRecord } from '../changes.js';
import { decodeProps, decodeValue, encodeProps, encodePropsText, encodeValue, encodeValueText, jsonString, ValueDecodeError } from './value-codec.js';
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

/**
 * `JSON.stringify(encodeChange(record))`, the same text, built directly: every committed change
 * is encoded once on the writing thread, and walking fresh objects through JSON.stringify was
 * the largest single cost of a small durable write (about 3 µs of 17).
 */
export function encodeChangeText(record: LoggedChange): string {
  switch (record.op) {
    case 'createNode': {
      let labels = '[';
      for (const label of record.labels) labels += (labels.length > 1 ? ',' : '') + jsonString(label);
      return '{"op":"createNode","id":' + record.id + ',"labels":' + labels + '],"props":' + encodePropsText(record.props) + '}';
    }
    case 'createRel':
      return (
        '{"op":"createRel","id":' + record.id + ',"type":' + jsonString(record.type) + ',"start":' + record.start + ',"end":' + record.end +
        ',"props":' + encodePropsText(record.props) + '}'
      );
    case 'deleteNode':
    case 'deleteRel':
      return '{"op":"' + record.op + '","id":' + record.id + '}';
    case 'setProperty':
      return (
        '{"op":"setProperty","entity":"' + record.entity + '","id":' + record.id + ',"key":' + jsonString(record.key) + ',"value":' + encodeValueText(record.value) + '}'
      );
    case 'addLabel':
    case 'removeLabel':
      return '{"op":"' + record.op + '","id":' + record.id + ',"label":' + jsonString(record.label) + '}';
    case 'schema':
      return JSON.stringify(encodeChange(record));
  }
}

/** One transaction's records as the WAL payload text. */
export function encodeTransaction(records: readonly LoggedChange[]): string {
  let text = '[';
  for (let i = 0; i < records.length; i++) text += (i > 0 ? ',' : '') + encodeChangeText(records[i]);
  return text + ']';
}

/** Most changes in one WAL record; a larger transaction becomes a group of records. */
export const RECORD_MAX_CHANGES = 10_000;
/** Payload size (UTF-16 units, about bytes) after which a record of a group is closed. */
const RECORD_MAX_CHARS = 8 * 1024 * 1024;
const MORE_MARKER = '{"op":"more"}';

/**
 * One transaction as one or more WAL payloads (a group, see above), of at most `maxChanges`
 * changes each. Each payload stays far below V8's string limit, so a transaction of any size
 * can be logged.
 */
export function encodeTransactionRecords(records: readonly LoggedChange[], maxChanges = RECORD_MAX_CHANGES): string[] {
  if (records.length <= maxChanges) {
    const one = encodeTransaction(records);
    if (one.length <= RECORD_MAX_CHARS) return [one];
  }
  const payloads: string[] = [];
  let parts: string[] = [];
  let chars = 0;
  for (const record of records) {
    const text = encodeChangeText(record);
    if (parts.length > 0 && (parts.length >= maxChanges || chars + text.length > RECORD_MAX_CHARS)) {
      payloads.push(`[${MORE_MARKER},${parts.join(',')}]`);
      parts = [];
      chars = 0;
    }
    parts.push(text);
    chars += text.length + 1;
  }
  payloads.push(`[${parts.join(',')}]`);
  return payloads;
}

/**
 * A committed transaction's records with their WAL encoding, made at most once (or handed in by
 * whoever already made it: a query worker that ran the write), so the WAL and the query
 * workers share one encoding of each commit.
 */
export class EncodedCommit {
  constructor(
    readonly changes: readonly LoggedChange[],
    private payloads?: string[],
  ) {}

  get encoded(): string[] {
    return (this.payloads ??= encodeTransactionRecords(this.changes));
  }
}

/** A decoded WAL payload: its changes, and whether the transaction goes on in the next record. */
export interface DecodedRecord {
  changes: LoggedChange[];
  continues: boolean;
}

export function decodeRecord(text: string): DecodedRecord {
  const { entries, continues } = parseRecord(text);
  return { changes: entries.map(decodeChange), continues };
}

/**
 * A WAL payload parsed but not decoded: its changes' JSON (the group marker left out), for a
 * caller that decodes them a few at a time (`decodeChange`).
 */
export function parseRecord(text: string): { entries: Json[]; continues: boolean } {
  let data: Json;
  try {
    data = JSON.parse(text) as Json;
  } catch (err) {
    throw new ValueDecodeError(`payload is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(data)) throw new ValueDecodeError('payload is not a list of changes');
  const first = data[0];
  const continues = isJsonObject(first ?? null) && (first as JsonObject).op === 'more';
  return { entries: continues ? data.slice(1) : data, continues };
}

/** The changes of a payload (a group's continuation marker, if any, left out). */
export function decodeTransaction(text: string): LoggedChange[] {
  return decodeRecord(text).changes;
}
