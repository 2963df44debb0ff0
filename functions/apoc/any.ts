/**
 * `apoc.any.*`: reading properties from whatever holds them — a node, a relationship (stored
 * or virtual, such as apoc.meta.graph returns) or a map — with one call.
 */

import { Node, Rel } from '../../src/store/entities.js';
import type { Value } from '../../runtime/values.js';
import { pure } from '../define.js';
import { badArg, listArg, strArg, type FunctionDef } from '../types.js';

const C = 'any';

function propertiesOf(fn: string, v: Value): Map<string, Value> {
  if (v instanceof Map) return v;
  if (v instanceof Node || v instanceof Rel) return v.propertyMap();
  throw badArg(fn, v, 'a node, a relationship or a map');
}

export const apocAnyFunctions: FunctionDef[] = [
  pure('apoc.any.property', C, [2, 2], 'The value of a property of a node, relationship or map (null when absent)', (thing = null, key = null) => {
    if (thing === null || key === null) return null;
    const k = strArg('apoc.any.property', key);
    if (thing instanceof Node || thing instanceof Rel) return thing.prop(k) ?? null;
    return propertiesOf('apoc.any.property', thing).get(k) ?? null;
  }),
  pure('apoc.any.properties', C, [1, 2], 'The properties of a node, relationship or map as a map, only the given keys when a list is passed', (thing = null, keys = null) => {
    if (thing === null) return null;
    const all = propertiesOf('apoc.any.properties', thing);
    if (keys === null) return new Map(all);
    const wanted = listArg('apoc.any.properties', keys).map((k) => strArg('apoc.any.properties', k));
    return new Map(wanted.filter((k) => all.has(k)).map((k) => [k, all.get(k) as Value]));
  }),
];
