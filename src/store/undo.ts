/**
 * Undo entries of an open transaction: what `Graph.rollback()` needs to reverse each
 * primitive change exactly (positions in adjacency lists and id sets included), so that a
 * rollback restores not only the same content but the same scan and expansion order.
 * Entries are undone strictly in reverse order; each relies on the state its successors'
 * undo leaves behind.
 *
 * Creations are by far the most frequent entries (a load is nothing else), so they are
 * plain numbers rather than objects: a whole bulk load adds no undo allocation beyond the
 * log array itself. See `createdNodeEntry` / `createdRelEntry`.
 */

import type { Value } from '../../runtime/values.js';
import type { Node, Rel } from './entities.js';

/**
 * A creation: `n >= 0` is "node `n` was created", `n < 0` is "relationship `-n - 1` was
 * created" (see `createdNodeEntry` / `createdRelEntry`). The entity itself is found in the
 * graph's table, where it stays until the entry is undone.
 */
export type CreationEntry = number;

export type UndoEntry =
  | CreationEntry
  /** `labelPositions[i]` is where the node sat in the set of `node.labels[i]`. */
  | { kind: 'deleteNode'; node: Node; labelPositions: number[] }
  /** The relationship's adjacency entries stay in place (tombstoned), so only its type-set position is kept. */
  | { kind: 'deleteRel'; rel: Rel; typePosition: number }
  /** `old` undefined: the key was absent. */
  | { kind: 'setProperty'; entity: Node | Rel; key: string; old: Value | undefined }
  /** `old`: every property the entity held before the replacement. */
  | { kind: 'replaceProperties'; entity: Node | Rel; old: Map<string, Value> }
  | { kind: 'addLabel'; node: Node; label: string }
  /** `index`: position in `node.labels`; `setPosition`: position in the label's id set. */
  | { kind: 'removeLabel'; node: Node; label: string; index: number; setPosition: number }
  /** The node's shared `labels` was replaced by a private copy before a change (copy-on-write). */
  | { kind: 'ownLabels'; node: Node; shared: string[] };

/** The undo entry of creating node `id`. */
export function createdNodeEntry(id: number): CreationEntry {
  return id;
}

/** The undo entry of creating relationship `id`. */
export function createdRelEntry(id: number): CreationEntry {
  return -id - 1;
}
