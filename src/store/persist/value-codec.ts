/**
 * The tagged encoding of Cypher values into JSON-compatible data, used by every persisted
 * form (WAL, LMDB store, snapshot). Values JSON can carry exactly stay plain: null,
 * booleans, strings, safe integers, finite non-integral floats and lists. Everything else
 * is an object with a `$` tag:
 *
 * | value                      | encoding                                   |
 * |----------------------------|--------------------------------------------|
 * | integer beyond ±2^53       | `{"$":"int","v":"<decimal digits>"}`       |
 * | integral float, NaN, ±Inf  | `{"$":"float","v":"<String(number)>"}` (`-0` kept) |
 * | map                        | `{"$":"map","v":[[key, value], …]}`        |
 * | vector (Float32Array)      | `{"$":"vector","v":[numbers]}`             |
 * | extended value (temporal…) | `{"$":"x:<tag>","v":<codec's own JSON>}`   |
 *
 * Extended types (runtime/temporal, spatial) register a codec with `registerValueCodec`;
 * decoding a tag nobody registered is a StorageError, never a silent drop. Nodes,
 * relationships and paths are not storable values.
 */

import { FloatBox, type ExtendedValue, type Value } from '../../../runtime/values.js';
import { Node, Rel } from '../entities.js';
import { StorageError } from '../../errors.js';
import { isJsonObject, type Json } from './json.js';

/** How one extended value type (matched by its `cypherType`) is persisted. */
export interface ExtendedValueCodec {
  /** The value's `cypherType`, e.g. `DATE`. */
  cypherType: string;
  /** Short stable tag written to disk (`x:<tag>`); never change it once data exists. */
  tag: string;
  encode(value: ExtendedValue): Json;
  decode(data: Json): ExtendedValue;
}

const byType = new Map<string, ExtendedValueCodec>();
const byTag = new Map<string, ExtendedValueCodec>();

/** Registers the persisted form of an extended value type (call once per type, at module load). */
export function registerValueCodec(codec: ExtendedValueCodec): void {
  if (byType.has(codec.cypherType) || byTag.has(codec.tag)) {
    throw new Error(`A value codec for ${codec.cypherType} (tag ${codec.tag}) is already registered`);
  }
  byType.set(codec.cypherType, codec);
  byTag.set(codec.tag, codec);
}

function floatText(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

function isExtended(value: object): value is ExtendedValue {
  return typeof (value as Partial<ExtendedValue>).cypherType === 'string' && typeof (value as Partial<ExtendedValue>).hashKey === 'function';
}

/** The persisted form of a value; throws StorageError for values that cannot be stored. */
export function encodeValue(value: Value): Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // A plain integral number is an integer (so -0 is 0); non-integral finite floats round-trip through JSON.
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      return { $: 'float', v: floatText(value) };
    case 'bigint':
      return { $: 'int', v: value.toString() };
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value instanceof FloatBox) return { $: 'float', v: floatText(value.value) };
  if (value instanceof Map) return { $: 'map', v: [...value].map(([k, v]): Json => [k, encodeValue(v)]) };
  if (value instanceof Float32Array) return { $: 'vector', v: Array.from(value) };
  if (value instanceof Node || value instanceof Rel) {
    throw new StorageError('A node or relationship cannot be stored as a property value', 'UnstorableValue');
  }
  if (isExtended(value)) {
    const codec = byType.get(value.cypherType);
    if (!codec) throw new StorageError(`Values of type ${value.cypherType} cannot be stored yet (no codec registered)`, 'UnstorableValue');
    return { $: 'x:' + codec.tag, v: codec.encode(value) };
  }
  throw new StorageError('A path cannot be stored as a property value', 'UnstorableValue');
}

/** Characters a JSON string may hold as they are: no quote, backslash, control character or surrogate half. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const PLAIN_JSON_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** `JSON.stringify(text)`, without its cost for the common plain text (keys, labels, short strings). */
export function jsonString(text: string): string {
  return text.length <= 64 && PLAIN_JSON_TEXT.test(text) ? '"' + text + '"' : JSON.stringify(text);
}

/**
 * `JSON.stringify(encodeValue(value))`, the same text, built directly for the scalars a small
 * write mostly carries (V8's JSON.stringify spends about 0.3 µs per object it walks, several
 * times the cost of the text; the WAL encodes every committed property this way).
 */
export function encodeValueText(value: Value): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isFinite(value)) return value === 0 ? '0' : String(value);
      break;
    case 'bigint':
      return '{"$":"int","v":"' + value.toString() + '"}';
  }
  if (value === null) return 'null';
  return JSON.stringify(encodeValue(value));
}

/** `JSON.stringify(encodeProps(props))`, built directly (see encodeValueText). */
export function encodePropsText(props: ReadonlyMap<string, Value>): string {
  let text = '[';
  for (const [k, v] of props) text += (text.length > 1 ? ',[' : '[') + jsonString(k) + ',' + encodeValueText(v) + ']';
  return text + ']';
}

/** A decoding failure; the caller adds the file and offset. */
export class ValueDecodeError extends Error {}

function tagText(data: Json | undefined, tag: string): string {
  if (typeof data !== 'string') throw new ValueDecodeError(`'${tag}' value is not a string`);
  return data;
}

/** The value a persisted form stands for; throws ValueDecodeError on malformed data. */
export function decodeValue(data: Json): Value {
  if (data === null || typeof data === 'string' || typeof data === 'boolean' || typeof data === 'number') return data;
  if (Array.isArray(data)) return data.map(decodeValue);
  const tag = data.$;
  const v = data.v;
  switch (tag) {
    case 'int': {
      const text = tagText(v, tag);
      if (!/^-?\d+$/.test(text)) throw new ValueDecodeError(`bad integer '${text}'`);
      return BigInt(text);
    }
    case 'float': {
      const x = Number(tagText(v, tag));
      return Number.isInteger(x) || Object.is(x, -0) ? new FloatBox(x) : x;
    }
    case 'map': {
      if (!Array.isArray(v)) throw new ValueDecodeError('map value is not a list of pairs');
      return new Map(v.map((pair) => decodePair(pair)));
    }
    case 'vector':
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw new ValueDecodeError('vector value is not a list of numbers');
      return Float32Array.from(v as number[]);
  }
  if (typeof tag === 'string' && tag.startsWith('x:')) {
    const codec = byTag.get(tag.slice(2));
    if (!codec) throw new ValueDecodeError(`unknown value type '${tag.slice(2)}' (written by a newer graphdb?)`);
    return codec.decode(v ?? null);
  }
  throw new ValueDecodeError(`unknown value tag ${JSON.stringify(tag ?? null)}`);
}

function decodePair(pair: Json): [string, Value] {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') throw new ValueDecodeError('property entry is not a [key, value] pair');
  return [pair[0], decodeValue(pair[1])];
}

/** Properties as `[[key, value], …]` (keeps key order exactly, including integer-like keys). */
export type EncodedProps = [string, Json][];

export function encodeProps(props: ReadonlyMap<string, Value>): EncodedProps {
  const out: EncodedProps = [];
  for (const [k, v] of props) out.push([k, encodeValue(v)]);
  return out;
}

export function decodeProps(data: Json | undefined): Map<string, Value> {
  if (isJsonObject(data ?? null)) {
    // Tolerated on input (hand-written or foreign snapshots): a plain object of properties.
    return new Map(Object.entries(data as Record<string, Json>).map(([k, v]) => [k, decodeValue(v)]));
  }
  if (!Array.isArray(data)) throw new ValueDecodeError('properties are not a list of [key, value] pairs');
  return new Map(data.map((pair) => decodePair(pair)));
}
