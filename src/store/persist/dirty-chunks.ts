/**
 * `DirtyChunks`: which chunks of the store of record (`CHUNK_IDS` ids each, graph-blocks.ts)
 * hold nodes or relationships changed since the last checkpoint. A checkpoint rewrites whole
 * chunks, so the chunk is all it needs to know; marking one costs a division and, unless the
 * change falls in the chunk marked last (a run of creates almost always does), one `Set.add`
 * on a set of a few entries, instead of growing a set by one entry per touched id on every
 * durable write.
 */

import type { LoggedChange } from './record-codec.js';
import { CHUNK_IDS } from './graph-blocks.js';

export class DirtyChunks {
  /** Chunk numbers (id / CHUNK_IDS) of changed nodes. */
  readonly nodes = new Set<number>();
  /** Chunk numbers of changed relationships. */
  readonly rels = new Set<number>();
  private lastNode = -1;
  private lastRel = -1;

  get empty(): boolean {
    return this.nodes.size === 0 && this.rels.size === 0;
  }

  markNode(id: number): void {
    const chunk = Math.floor(id / CHUNK_IDS);
    if (chunk === this.lastNode) return;
    this.lastNode = chunk;
    this.nodes.add(chunk);
  }

  markRel(id: number): void {
    const chunk = Math.floor(id / CHUNK_IDS);
    if (chunk === this.lastRel) return;
    this.lastRel = chunk;
    this.rels.add(chunk);
  }

  /** Marks the entities a transaction's changes touch (schema changes touch none). */
  markChanges(changes: readonly LoggedChange[]): void {
    for (const c of changes) {
      if (c.op === 'schema') continue;
      if (c.op === 'createRel' || c.op === 'deleteRel' || (c.op === 'setProperty' && c.entity === 'rel')) this.markRel(c.id);
      else this.markNode(c.id);
    }
  }

  /** Marks every chunk `other` marks. */
  addAll(other: DirtyChunks): void {
    for (const chunk of other.nodes) this.nodes.add(chunk);
    for (const chunk of other.rels) this.rels.add(chunk);
    this.lastNode = -1;
    this.lastRel = -1;
  }
}
