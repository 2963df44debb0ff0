/**
 * Undo entries of an open transaction: what `Graph.rollback()` needs to reverse each
 * primitive change exactly (positions in adjacency lists and id sets included), so that a
 * rollback restores not only the same content but the same scan and expansion order.
 * Entries are undone strictly in reverse order; each relies on the state its successors'
 * undo leaves behind.
 */

import type { Value } from '../../runtime/values.js';
import type { Node, Rel } from './entities.js';

export type UndoEntry =
  | { kind: 'createNode'; node: Node }
  | { kind: 'createRel'; rel: Rel }
  /** `labelPositions[i]` is where the node sat in the set of `node.labels[i]`. */
  | { kind: 'deleteNode'; node: Node; labelPositions: number[] }
  | { kind: 'deleteRel'; rel: Rel; outIndex: number; inIndex: number; typePosition: number }
  /** `old` undefined: the key was absent. `index`: the key's position in the map when it was removed. */
  | { kind: 'setProperty'; entity: Node | Rel; key: string; old: Value | undefined; index: number }
  | { kind: 'replaceProperties'; entity: Node | Rel; old: Map<string, Value> }
  | { kind: 'addLabel'; node: Node; label: string }
  /** `index`: position in `node.labels`; `setPosition`: position in the label's id set. */
  | { kind: 'removeLabel'; node: Node; label: string; index: number; setPosition: number };
