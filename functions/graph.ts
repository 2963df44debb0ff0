/**
 * Functions on graph values: id, elementId, labels, type, keys, properties, length,
 * nodes, relationships, startNode, endNode; plus timestamp() and randomUUID().
 */

import { randomUUID } from 'node:crypto';
import { EntityNotFoundError } from '../src/errors.js';
import { Node, Rel } from '../src/store/entities.js';
import { Path, type Value } from '../runtime/values.js';
import { nullSafe1, pure, withContext } from './define.js';
import { codePointLength } from './string.js';
import { badArg, type FunctionDef } from './types.js';

/** The element id of a node (`n:<id>`) or relationship (`r:<id>`); stable for the entity's life. */
export function elementIdOf(v: Node | Rel): string {
  return (v instanceof Node ? 'n:' : 'r:') + v.id;
}

/** Parses an element id back into its kind and numeric id; undefined when malformed. */
export function parseElementId(s: string): { kind: 'node' | 'relationship'; id: number } | undefined {
  const m = /^([nr]):(\d{1,15})$/.exec(s);
  if (!m) return undefined;
  return { kind: m[1] === 'n' ? 'node' : 'relationship', id: Number(m[2]) };
}

function live<T extends Node | Rel>(v: T): T {
  if (v.deleted) {
    throw new EntityNotFoundError(`The ${v instanceof Node ? 'node' : 'relationship'} with id ${v.id} has been deleted`, 'DeletedEntityAccess');
  }
  return v;
}

function keys(v: Value): Value {
  if (v instanceof Node || v instanceof Rel) return live(v).propKeys();
  if (v instanceof Map) return [...v.keys()];
  throw badArg('keys', v, 'a node, relationship or map');
}

function properties(v: Value): Value {
  if (v instanceof Node || v instanceof Rel) return live(v).propertyMap();
  if (v instanceof Map) return v;
  throw badArg('properties', v, 'a node, relationship or map');
}

function length(v: Value): Value {
  if (v instanceof Path) return v.rels.length;
  if (typeof v === 'string') return codePointLength(v);
  throw badArg('length', v, 'a path');
}

function entityId(fn: string, v: Value): Node | Rel {
  if (v instanceof Node || v instanceof Rel) return v;
  throw badArg(fn, v, 'a node or relationship');
}

function rel(fn: string, v: Value): Rel {
  if (v instanceof Rel) return v;
  throw badArg(fn, v, 'a relationship');
}

function path(fn: string, v: Value): Path {
  if (v instanceof Path) return v;
  throw badArg(fn, v, 'a path');
}

export const graphFunctions: FunctionDef[] = [
  pure('id', 'graph', [1, 1], 'The internal id of a node or relationship', nullSafe1((v) => entityId('id', v).id)),
  pure('elementId', 'graph', [1, 1], 'The element id (a string) of a node or relationship', nullSafe1((v) => elementIdOf(entityId('elementId', v)))),
  pure('element_id', 'graph', [1, 1], 'GQL spelling of elementId: the element id of a node or relationship', nullSafe1((v) => elementIdOf(entityId('element_id', v)))),
  pure('labels', 'graph', [1, 1], 'The labels of a node', nullSafe1((v) => {
    if (v instanceof Node) return [...live(v).labels];
    throw badArg('labels', v, 'a node');
  })),
  pure('type', 'graph', [1, 1], 'The type of a relationship', nullSafe1((v) => rel('type', v).type)),
  pure('keys', 'graph', [1, 1], 'The property keys of a node, relationship or map', nullSafe1(keys)),
  pure('properties', 'graph', [1, 1], 'The properties of a node or relationship as a map', nullSafe1(properties)),
  pure('length', 'graph', [1, 1], 'Number of relationships in a path', nullSafe1(length)),
  pure('nodes', 'graph', [1, 1], 'The nodes of a path', nullSafe1((v) => [...path('nodes', v).nodes])),
  pure('relationships', 'graph', [1, 1], 'The relationships of a path', nullSafe1((v) => [...path('relationships', v).rels])),
  pure('startNode', 'graph', [1, 1], 'The start node of a relationship', nullSafe1((v) => rel('startNode', v).start)),
  pure('endNode', 'graph', [1, 1], 'The end node of a relationship', nullSafe1((v) => rel('endNode', v).end)),
  withContext('timestamp', 'scalar', [0, 0], 'Milliseconds since the epoch, fixed for the statement', (ctx) => Math.trunc(ctx.statementTime)),
  pure('randomUUID', 'scalar', [0, 0], 'A random UUID string', () => randomUUID()),
];
