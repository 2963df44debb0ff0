/**
 * The write side of generated code: CREATE, MERGE's creation, SET, REMOVE and DELETE, with
 * openCypher's rules on what may be stored as a property and what may be deleted. All
 * changes go through the store's transactional mutation API.
 */

import { EMPTY_PROPS, Node, Rel } from '../../src/store/entities.js';
import { handOverProps, type Graph } from '../../src/store/graph.js';
import { Path, FloatBox, type Value } from '../values.js';
import { ValueTypeError, QuerySemanticError } from '../../src/errors.js';
import { describe } from '../types.js';
import { isExtendedValue } from '../types.js';

/** Property values must be scalars or homogeneous lists of scalars. */
function checkPropertyValue(v: Value, key: string): void {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return;
  if (v instanceof FloatBox || isExtendedValue(v) || v instanceof Float32Array) return;
  if (Array.isArray(v)) {
    for (const x of v) {
      if (x === null || Array.isArray(x) || x instanceof Map || x instanceof Node || x instanceof Rel || x instanceof Path) {
        throw new ValueTypeError(
          `Property '${key}' cannot hold a list containing ${describe(x)}; lists must hold simple values`,
          'InvalidPropertyType',
        );
      }
    }
    return;
  }
  throw new ValueTypeError(`Property '${key}' cannot hold ${describe(v)}; only simple values and lists of them`, 'InvalidPropertyType');
}

/**
 * The properties of a CREATE/MERGE creation: a fresh map of `map`'s entries without nulls,
 * handed over to the store (`handOverProps`), which keeps it instead of copying it again;
 * the store's shared empty map for no map at all.
 */
function propsFromMap(map: Value, forMerge: boolean): Map<string, Value> {
  if (map === null) return EMPTY_PROPS;
  if (!(map instanceof Map)) throw new ValueTypeError(`Properties must be a map, got ${describe(map)}`, 'InvalidArgumentType');
  const props = new Map<string, Value>();
  // `forEach`, not `for…of` with destructuring: a small write runs this in V8's interpreter and
  // baseline tiers for its first thousands of calls, where the iterator costs about 2.5×.
  map.forEach((v, k) => {
    if (v === null) {
      if (forMerge) {
        throw new QuerySemanticError(
          `Cannot MERGE with a null value for property '${k}': null can never be matched`,
          'MergeReadOwnWrites',
          undefined,
          'runtime',
        );
      }
      return;
    }
    checkPropertyValue(v, k);
    props.set(k, v);
  });
  return handOverProps(props);
}

export function createNode(g: Graph, labels: string[], props: Value, forMerge: boolean): Node {
  return g.createNode(labels, propsFromMap(props, forMerge));
}

export function createRel(g: Graph, type: string, from: Value, to: Value, props: Value, forMerge: boolean): Rel {
  if (!(from instanceof Node) || !(to instanceof Node)) {
    throw new ValueTypeError(
      `Cannot create a relationship from ${describe(from)} to ${describe(to)}: both ends must be nodes`,
      'InvalidArgumentType',
    );
  }
  return g.createRel(type, from, to, propsFromMap(props, forMerge));
}

/** A bound variable re-used in CREATE must be a node (a null cannot be connected). */
export function requireNodeForCreate(v: Value): void {
  if (v instanceof Node) return;
  throw new ValueTypeError(`Cannot use ${describe(v)} as a node in CREATE`, 'InvalidArgumentType');
}

/** Placeholder hook before MERGE matching; kept so generated code has one place to check merge inputs. */
export function checkMergeable(_slots: number): void {}

function entityOf(target: Value, what: string): Node | Rel | null {
  if (target === null) return null;
  if (target instanceof Node || target instanceof Rel) return target;
  throw new ValueTypeError(`${what} needs a node or relationship, got ${describe(target)}`, 'InvalidArgumentType');
}

export function setProperty(g: Graph, target: Value, key: string, value: Value): void {
  const e = entityOf(target, 'SET');
  if (e === null) return;
  checkPropertyValue(value, key);
  g.setProperty(e, key, value);
}

export function setDynamicProperty(g: Graph, target: Value, key: Value, value: Value): void {
  if (typeof key !== 'string') throw new ValueTypeError(`Property key must be a string, got ${describe(key)}`, 'InvalidArgumentType');
  setProperty(g, target, key, value);
}

/** `SET n = map` (replace) or `SET n += map` (merge); a node or relationship as the value copies its properties. */
export function setProperties(g: Graph, target: Value, value: Value, merge: boolean): void {
  const e = entityOf(target, 'SET');
  if (e === null) return;
  let map: Map<string, Value>;
  if (value === null) map = new Map();
  else if (value instanceof Node || value instanceof Rel) map = value.propertyMap();
  else if (value instanceof Map) map = value;
  else throw new ValueTypeError(`SET needs a map of properties, got ${describe(value)}`, 'InvalidArgumentType');
  for (const [k, v] of map) checkPropertyValue(v, k);
  if (merge) g.mergeProperties(e, map);
  else g.replaceProperties(e, map);
}

export function addLabels(g: Graph, target: Value, labels: string[]): void {
  if (target === null) return;
  if (!(target instanceof Node)) throw new ValueTypeError(`Labels can only be set on nodes, got ${describe(target)}`, 'InvalidArgumentType');
  for (const l of labels) g.addLabel(target, l);
}

export function removeLabels(g: Graph, target: Value, labels: string[]): void {
  if (target === null) return;
  if (!(target instanceof Node)) throw new ValueTypeError(`Labels can only be removed from nodes, got ${describe(target)}`, 'InvalidArgumentType');
  for (const l of labels) g.removeLabel(target, l);
}

export function removeProperty(g: Graph, target: Value, key: string): void {
  const e = entityOf(target, 'REMOVE');
  if (e === null) return;
  g.setProperty(e, key, null);
}

/** DELETE / DETACH DELETE of a node, relationship, path, or null (a no-op). */
export function deleteValue(g: Graph, v: Value, detach: boolean): void {
  if (v === null) return;
  if (v instanceof Node) {
    if (detach) g.detachDeleteNode(v);
    else g.deleteNode(v);
    return;
  }
  if (v instanceof Rel) {
    g.deleteRel(v);
    return;
  }
  if (v instanceof Path) {
    for (const r of v.rels) g.deleteRel(r);
    for (const n of v.nodes) {
      if (detach) g.detachDeleteNode(n);
      else g.deleteNode(n);
    }
    return;
  }
  throw new ValueTypeError(`DELETE needs a node, relationship or path, got ${describe(v)}`, 'InvalidArgumentType');
}
