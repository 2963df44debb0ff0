/**
 * `ChangeRecord`: the deterministic description of one committed change to the graph, as
 * the store emits it on commit and as the WAL, snapshots and sync consume it. Records carry
 * ids, names and final values only (never query text), so replaying them in order with
 * `Graph.applyChange` rebuilds the same graph, including ids.
 *
 * Compound writes decompose: `detachDeleteNode` becomes `deleteRel`… then `deleteNode`;
 * `replaceProperties`/`mergeProperties` become one `setProperty` per key; a `setProperty`
 * whose value is `null` removes the key.
 */

import type { Value } from '../../runtime/values.js';

export type EntityKind = 'node' | 'rel';

export interface CreateNodeChange {
  op: 'createNode';
  id: number;
  labels: string[];
  props: Map<string, Value>;
}

export interface CreateRelChange {
  op: 'createRel';
  id: number;
  type: string;
  start: number;
  end: number;
  props: Map<string, Value>;
}

export interface DeleteNodeChange {
  op: 'deleteNode';
  id: number;
}

export interface DeleteRelChange {
  op: 'deleteRel';
  id: number;
}

export interface SetPropertyChange {
  op: 'setProperty';
  entity: EntityKind;
  id: number;
  key: string;
  /** The new value; `null` means the key was removed. */
  value: Value;
}

export interface AddLabelChange {
  op: 'addLabel';
  id: number;
  label: string;
}

export interface RemoveLabelChange {
  op: 'removeLabel';
  id: number;
  label: string;
}

export type ChangeRecord =
  | CreateNodeChange
  | CreateRelChange
  | DeleteNodeChange
  | DeleteRelChange
  | SetPropertyChange
  | AddLabelChange
  | RemoveLabelChange;
