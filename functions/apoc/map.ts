/**
 * `apoc.map.*`: building maps from pairs and parallel lists, merging, setting and removing
 * keys, picking values, dropping nulls and empty values, and flattening nested maps.
 */

import { Node, Rel } from '../../src/store/entities.js';
import type { Value } from '../../runtime/values.js';
import { pure } from '../define.js';
import { badArg, listArg, strArg, type FunctionDef } from '../types.js';

const C = 'map';

function mapArg(fn: string, v: Value): Map<string, Value> {
  if (v instanceof Map) return v;
  if (v instanceof Node || v instanceof Rel) return v.propertyMap();
  throw badArg(fn, v, 'a map');
}

function stringsArg(fn: string, v: Value): string[] {
  return listArg(fn, v).map((k) => strArg(fn, k));
}

function flattenInto(out: Map<string, Value>, prefix: string, m: Map<string, Value>, sep: string): void {
  for (const [k, v] of m) {
    if (v instanceof Map) flattenInto(out, `${prefix}${k}${sep}`, v, sep);
    else out.set(`${prefix}${k}`, v);
  }
}

export const apocMapFunctions: FunctionDef[] = [
  pure('apoc.map.merge', C, [2, 2], 'The entries of both maps; the second wins on shared keys', (a = null, b = null) => {
    if (a === null) return b === null ? new Map() : new Map(mapArg('apoc.map.merge', b));
    return new Map([...mapArg('apoc.map.merge', a), ...(b === null ? [] : mapArg('apoc.map.merge', b))]);
  }),
  pure('apoc.map.mergeList', C, [1, 1], 'The entries of all maps in a list; later maps win', (xs = null) => {
    if (xs === null) return new Map();
    const out = new Map<string, Value>();
    for (const m of listArg('apoc.map.mergeList', xs)) if (m !== null) for (const [k, v] of mapArg('apoc.map.mergeList', m)) out.set(k, v);
    return out;
  }),
  pure('apoc.map.fromPairs', C, [1, 1], 'A map from a list of [key, value] pairs', (xs = null) => {
    if (xs === null) return new Map();
    const out = new Map<string, Value>();
    for (const p of listArg('apoc.map.fromPairs', xs)) {
      const pair = listArg('apoc.map.fromPairs', p);
      if (pair.length < 2) throw badArg('apoc.map.fromPairs', p, 'a [key, value] pair');
      out.set(strArg('apoc.map.fromPairs', pair[0]), pair[1]);
    }
    return out;
  }),
  pure('apoc.map.fromLists', C, [2, 2], 'A map from a list of keys and a list of values of the same length', (ks = null, vs = null) => {
    if (ks === null || vs === null) return new Map();
    const keys = stringsArg('apoc.map.fromLists', ks);
    const values = listArg('apoc.map.fromLists', vs);
    if (keys.length !== values.length) throw badArg('apoc.map.fromLists', vs, `a list as long as the keys (${keys.length})`);
    return new Map(keys.map((k, i) => [k, values[i]]));
  }),
  pure('apoc.map.fromValues', C, [1, 1], 'A map from a flat list [key1, value1, key2, value2, …]', (xs = null) => {
    if (xs === null) return new Map();
    const l = listArg('apoc.map.fromValues', xs);
    const out = new Map<string, Value>();
    for (let i = 0; i + 1 < l.length; i += 2) out.set(strArg('apoc.map.fromValues', l[i]), l[i + 1]);
    return out;
  }),
  pure('apoc.map.setKey', C, [3, 3], 'The map with one key set (null for a null key)', (m = null, k = null, v = null) =>
    k === null ? null : new Map([...(m === null ? [] : mapArg('apoc.map.setKey', m)), [strArg('apoc.map.setKey', k), v]]),
  ),
  pure('apoc.map.setEntry', C, [3, 3], 'The map with one key set (alias of setKey)', (m = null, k = null, v = null) =>
    k === null ? null : new Map([...(m === null ? [] : mapArg('apoc.map.setEntry', m)), [strArg('apoc.map.setEntry', k), v]]),
  ),
  pure('apoc.map.setPairs', C, [2, 2], 'The map with the keys of [key, value] pairs set', (m = null, pairs = null) => {
    const out = new Map(m === null ? [] : mapArg('apoc.map.setPairs', m));
    for (const p of pairs === null ? [] : listArg('apoc.map.setPairs', pairs)) {
      const pair = listArg('apoc.map.setPairs', p);
      out.set(strArg('apoc.map.setPairs', pair[0] ?? null), pair[1] ?? null);
    }
    return out;
  }),
  pure('apoc.map.removeKey', C, [2, 3], 'The map without one key', (m = null, k = null) => {
    if (m === null) return new Map();
    const out = new Map(mapArg('apoc.map.removeKey', m));
    out.delete(strArg('apoc.map.removeKey', k));
    return out;
  }),
  pure('apoc.map.removeKeys', C, [2, 3], 'The map without the listed keys', (m = null, ks = null) => {
    if (m === null) return new Map();
    const drop = new Set(ks === null ? [] : stringsArg('apoc.map.removeKeys', ks));
    return new Map([...mapArg('apoc.map.removeKeys', m)].filter(([k]) => !drop.has(k)));
  }),
  pure('apoc.map.clean', C, [3, 3], 'The map without the listed keys and without entries whose value is in the listed values (or null)', (m = null, ks = null, vs = null) => {
    if (m === null) return new Map();
    const dropKeys = new Set(ks === null ? [] : stringsArg('apoc.map.clean', ks));
    const dropValues = new Set((vs === null ? [] : listArg('apoc.map.clean', vs)).map((v) => (typeof v === 'string' ? v : String(v))));
    return new Map(
      [...mapArg('apoc.map.clean', m)].filter(([k, v]) => v !== null && !dropKeys.has(k) && !dropValues.has(typeof v === 'string' ? v : String(v))),
    );
  }),
  pure('apoc.map.get', C, [2, 4], 'The value at a key; a missing key gives the default (third argument), or an error when the fourth is true', (m = null, k = null, dflt = null, fail = true) => {
    if (k === null) return null;
    const key = strArg('apoc.map.get', k);
    const map = m === null ? new Map<string, Value>() : mapArg('apoc.map.get', m);
    if (map.has(key)) return map.get(key) ?? null;
    if (dflt !== null || fail === false) return dflt;
    throw badArg('apoc.map.get', k, `a key of the map (it has ${[...map.keys()].join(', ') || 'no keys'})`);
  }),
  pure('apoc.map.submap', C, [2, 4], 'The map restricted to the listed keys (missing keys: the default, or an error)', (m = null, ks = null, dflts = null, fail = true) => {
    const map = m === null ? new Map<string, Value>() : mapArg('apoc.map.submap', m);
    const keys = ks === null ? [] : stringsArg('apoc.map.submap', ks);
    const defaults = dflts === null ? [] : listArg('apoc.map.submap', dflts);
    const out = new Map<string, Value>();
    keys.forEach((k, i) => {
      if (map.has(k)) out.set(k, map.get(k) ?? null);
      else if (fail === false || defaults[i] !== undefined) out.set(k, defaults[i] ?? null);
      else throw badArg('apoc.map.submap', k, 'a key of the map');
    });
    return out;
  }),
  pure('apoc.map.values', C, [1, 3], 'The values at the listed keys (all values when no keys are given)', (m = null, ks = null, addNulls = false) => {
    if (m === null) return [];
    const map = mapArg('apoc.map.values', m);
    if (ks === null) return [...map.values()];
    return stringsArg('apoc.map.values', ks)
      .filter((k) => addNulls === true || map.has(k))
      .map((k) => map.get(k) ?? null);
  }),
  pure('apoc.map.groupBy', C, [2, 2], 'A map from each value of a key to the (last) map in the list with that value', (xs = null, k = null) => {
    if (xs === null) return new Map();
    const key = strArg('apoc.map.groupBy', k);
    const out = new Map<string, Value>();
    for (const m of listArg('apoc.map.groupBy', xs)) {
      if (m === null) continue;
      const v = mapArg('apoc.map.groupBy', m).get(key);
      if (v !== undefined && v !== null) out.set(typeof v === 'string' ? v : String(v), m);
    }
    return out;
  }),
  pure('apoc.map.flatten', C, [1, 2], "Nested maps flattened to dotted keys (or another delimiter)", (m = null, sep = '.') => {
    if (m === null) return new Map();
    const out = new Map<string, Value>();
    flattenInto(out, '', mapArg('apoc.map.flatten', m), sep === null ? '.' : strArg('apoc.map.flatten', sep));
    return out;
  }),
];
