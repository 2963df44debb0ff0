/**
 * `apoc.convert.*` (JSON text in and out, values as maps, lists and sets, lenient scalar
 * conversions) and `apoc.util.*` (hex digests of values, validatePredicate).
 */

import { createHash } from 'node:crypto';
import { Node, Rel } from '../../src/store/entities.js';
import { ArgumentError } from '../../src/errors.js';
import { FloatBox, Path, type Value } from '../../runtime/values.js';
import { formatValue } from '../../runtime/format.js';
import { groupKey } from '../../runtime/groupkey.js';
import { pure } from '../define.js';
import { badArg, listArg, strArg, type FunctionDef } from '../types.js';
import { jsonPath, parseJsonText, toJsonText } from './json.js';
import { activeLimits } from '../../runtime/governor.js';

function fromJson(fn: string, text: Value, path: Value, want: 'map' | 'list'): Value {
  if (text === null) return null;
  let v = parseJsonText(strArg(fn, text), `${fn}()`);
  if (path !== null && path !== undefined && path !== '') v = jsonPath(v, strArg(fn, path));
  if (v === null) return null;
  if (want === 'map' && !(v instanceof Map)) throw badArg(fn, text, 'JSON text of an object');
  if (want === 'list' && !Array.isArray(v)) throw badArg(fn, text, 'JSON text of an array');
  return v;
}

function plainText(v: Value): string {
  return typeof v === 'string' ? v : v === null ? '' : formatValue(v);
}

function digest(algorithm: string, fn: string): FunctionDef {
  return pure(fn, 'hashing', [1, 1], `The ${algorithm.toUpperCase()} hex digest of the values of a list, as text, concatenated`, (xs = null) => {
    if (xs === null) return null;
    const h = createHash(algorithm);
    for (const v of listArg(fn, xs)) h.update(plainText(v), 'utf8');
    return h.digest('hex');
  });
}

export const apocConvertFunctions: FunctionDef[] = [
  pure('apoc.convert.toJson', 'conversion', [1, 1], 'JSON text of a value (nodes and relationships with id, labels/type and properties)', (v = null) => toJsonText(v, activeLimits().maxStringLength, 'apoc.convert.toJson()')),
  pure('apoc.convert.fromJsonMap', 'conversion', [1, 2], 'The map in JSON text (optionally at a $.path)', (t = null, p = null) => fromJson('apoc.convert.fromJsonMap', t, p, 'map')),
  pure('apoc.convert.fromJsonList', 'conversion', [1, 2], 'The list in JSON text (optionally at a $.path)', (t = null, p = null) => fromJson('apoc.convert.fromJsonList', t, p, 'list')),
  pure('apoc.convert.toMap', 'conversion', [1, 1], 'A map as is; a node or relationship as its properties', (v = null) => {
    if (v === null) return null;
    if (v instanceof Map) return v;
    if (v instanceof Node || v instanceof Rel) return new Map(v.propertyMap());
    throw badArg('apoc.convert.toMap', v, 'a map, node or relationship');
  }),
  pure('apoc.convert.toList', 'conversion', [1, 1], 'A list as is; a path as its nodes and relationships in order; any other value as a one-element list', (v = null) => {
    if (v === null) return null;
    if (Array.isArray(v)) return v;
    if (v instanceof Path) return v.nodes.flatMap((n, i): Value[] => (i < v.rels.length ? [n, v.rels[i]] : [n]));
    return [v];
  }),
  pure('apoc.convert.toSet', 'conversion', [1, 1], 'The distinct values of a list', (v = null) => {
    if (v === null) return null;
    const seen = new Set<unknown>();
    return listArg('apoc.convert.toSet', v).filter((x) => {
      const k = groupKey(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }),
  pure('apoc.convert.toBoolean', 'conversion', [1, 1], "A boolean from a boolean, a number (0 is false) or text ('true', 'yes', '1' …); else null", (v = null) => {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number' || typeof v === 'bigint') return Number(v) !== 0;
    if (v instanceof FloatBox) return v.value !== 0;
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(s)) return true;
      if (['false', 'no', 'n', '0', ''].includes(s)) return false;
    }
    return null;
  }),
  pure('apoc.convert.toInteger', 'conversion', [1, 1], 'An integer from a number, boolean or numeric text; else null', (v = null) => {
    if (v === null) return null;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') return Math.trunc(v);
    if (v instanceof FloatBox) return Math.trunc(v.value);
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Math.trunc(Number(v));
    return null;
  }),
  pure('apoc.convert.toFloat', 'conversion', [1, 1], 'A float from a number, boolean or numeric text; else null', (v = null) => {
    if (v === null) return null;
    const n = typeof v === 'boolean' ? Number(v) : typeof v === 'number' || typeof v === 'bigint' ? Number(v) : v instanceof FloatBox ? v.value : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isNaN(n)) return null;
    return Number.isInteger(n) ? new FloatBox(n) : n;
  }),
  digest('md5', 'apoc.util.md5'),
  digest('sha1', 'apoc.util.sha1'),
  digest('sha256', 'apoc.util.sha256'),
  digest('sha384', 'apoc.util.sha384'),
  digest('sha512', 'apoc.util.sha512'),
  pure('apoc.util.validatePredicate', 'scalar', [2, 3], 'Raises an error with the message (%s filled from the list) when the predicate is true; else true', (pred = null, msg = null, params = null) => {
    if (pred !== true) return true;
    const values = params === null ? [] : listArg('apoc.util.validatePredicate', params);
    let i = 0;
    const text = strArg('apoc.util.validatePredicate', msg).replace(/%[sd]/g, () => plainText(values[i++] ?? null));
    throw new ArgumentError(text, 'ValidationFailed');
  }),
];
