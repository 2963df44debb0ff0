/**
 * The persisted form of a whole node or relationship, shared by the LMDB store and the
 * snapshot file, with conversions from the live graph and into replayable `ChangeRecord`s.
 */

import type { CreateNodeChange, CreateRelChange } from '../changes.js';
import type { Node, Rel } from '../entities.js';
import { decodeProps, encodeProps, ValueDecodeError, type EncodedProps } from './value-codec.js';
import { isJsonObject, type Json } from './json.js';

export interface StoredNode {
  id: number;
  labels: string[];
  props: EncodedProps;
}

export interface StoredRel {
  id: number;
  type: string;
  start: number;
  end: number;
  props: EncodedProps;
}

export function storeNode(node: Node): StoredNode {
  return { id: node.id, labels: [...node.labels], props: encodeProps(node.propertyMap()) };
}

export function storeRel(rel: Rel): StoredRel {
  return { id: rel.id, type: rel.type, start: rel.start.id, end: rel.end.id, props: encodeProps(rel.propertyMap()) };
}

function field(data: Json, name: string): Json | undefined {
  return isJsonObject(data) ? data[name] : undefined;
}

function idField(data: Json, name: string): number {
  const v = field(data, name);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new ValueDecodeError(`'${name}' is not an id`);
  return v;
}

/** A stored node (as read from disk) as the change that recreates it. */
export function nodeChange(data: Json): CreateNodeChange {
  const labels = field(data, 'labels') ?? [];
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string')) throw new ValueDecodeError(`'labels' is not a list of strings`);
  return { op: 'createNode', id: idField(data, 'id'), labels: labels as string[], props: decodeProps(field(data, 'props') ?? []) };
}

/** A stored relationship (as read from disk) as the change that recreates it. */
export function relChange(data: Json): CreateRelChange {
  const type = field(data, 'type');
  if (typeof type !== 'string') throw new ValueDecodeError(`'type' is not a string`);
  return {
    op: 'createRel',
    id: idField(data, 'id'),
    type,
    start: idField(data, 'start'),
    end: idField(data, 'end'),
    props: decodeProps(field(data, 'props') ?? []),
  };
}
