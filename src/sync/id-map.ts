/**
 * Global element id ↔ local store id, for nodes and relationships apart. Kept by sync (and
 * persisted in its log), never on the store's entities: the store's ids are its own business
 * and differ between peers; the global id (`<peer>:<n>`, minted by the peer that created the
 * element) is the name every peer agrees on.
 */

import type { ElementKind } from './statements.js';

/** One change of the map, as the sync log records it (`null`: unmapped). */
export type IdMapChange = [kind: 'n' | 'r', gid: string, localId: number | null];

export class IdMap {
  private readonly nodeByGid = new Map<string, number>();
  private readonly relByGid = new Map<string, number>();
  private readonly gidByNode = new Map<number, string>();
  private readonly gidByRel = new Map<number, string>();
  /** Changes since the last `drain`, for the log. */
  private changes: IdMapChange[] = [];
  /** What undoes the changes since the last `drain` (earlier mappings), and what undoes those drained last. */
  private undo: [ElementKind, string, number | undefined][] = [];
  private drainedUndo: [ElementKind, string, number | undefined][] = [];

  nodeGid(localId: number): string | undefined {
    return this.gidByNode.get(localId);
  }

  relGid(localId: number): string | undefined {
    return this.gidByRel.get(localId);
  }

  local(kind: ElementKind, gid: string): number | undefined {
    return (kind === 'node' ? this.nodeByGid : this.relByGid).get(gid);
  }

  set(kind: ElementKind, gid: string, localId: number | undefined): void {
    if (this.assign(kind, gid, localId)) this.changes.push([kind === 'node' ? 'n' : 'r', gid, localId ?? null]);
  }

  /** Changes the mapping without logging it; false when it was already so. */
  private assign(kind: ElementKind, gid: string, localId: number | undefined, undo = this.undo): boolean {
    const [byGid, byLocal] = kind === 'node' ? [this.nodeByGid, this.gidByNode] : [this.relByGid, this.gidByRel];
    const old = byGid.get(gid);
    if (old === localId) return false;
    undo.push([kind, gid, old]);
    if (old !== undefined) byLocal.delete(old);
    if (localId === undefined) byGid.delete(gid);
    else {
      const previousOwner = byLocal.get(localId);
      if (previousOwner !== undefined) {
        byGid.delete(previousOwner);
        undo.push([kind, previousOwner, localId]);
      }
      byGid.set(gid, localId);
      byLocal.set(localId, gid);
    }
    return true;
  }

  /** Forgets a local id (the element was deleted). */
  unmapLocal(kind: ElementKind, localId: number): void {
    const gid = (kind === 'node' ? this.gidByNode : this.gidByRel).get(localId);
    if (gid !== undefined) this.set(kind, gid, undefined);
  }

  apply(change: IdMapChange): void {
    this.set(change[0] === 'n' ? 'node' : 'rel', change[1], change[2] ?? undefined);
  }

  drain(): IdMapChange[] {
    const out = this.changes;
    this.changes = [];
    this.drainedUndo = this.undo;
    this.undo = [];
    return out;
  }

  /** Takes back the changes of the last `drain` (their commit failed), without logging anything. */
  revertLastDrain(): void {
    const steps = this.drainedUndo;
    this.drainedUndo = [];
    const scratch: [ElementKind, string, number | undefined][] = [];
    for (let i = steps.length - 1; i >= 0; i--) this.assign(steps[i][0], steps[i][1], steps[i][2], scratch);
  }

  /** Every mapping, for a compacted log. */
  all(): IdMapChange[] {
    return [
      ...[...this.nodeByGid].map(([g, id]): IdMapChange => ['n', g, id]),
      ...[...this.relByGid].map(([g, id]): IdMapChange => ['r', g, id]),
    ];
  }
}
