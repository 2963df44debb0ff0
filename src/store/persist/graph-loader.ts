/**
 * `GraphLoader`: puts many entities into a `Graph` at their stored ids (LMDB load,
 * snapshot load, WAL replay), in transactions of bounded size so that the undo log and
 * change list of a huge load never hold a second copy of the graph.
 */

import type { ChangeRecord } from '../changes.js';
import type { Graph } from '../graph.js';

const CHUNK = 10_000;

export class GraphLoader {
  private inChunk = 0;

  constructor(private readonly graph: Graph) {}

  apply(change: ChangeRecord): void {
    if (this.inChunk === 0) this.graph.begin();
    try {
      this.graph.applyChange(change);
    } catch (err) {
      this.graph.rollback();
      this.inChunk = 0;
      throw err;
    }
    if (++this.inChunk >= CHUNK) this.flush();
  }

  /** Commits the open chunk. */
  flush(): void {
    if (this.inChunk === 0) return;
    this.graph.commit();
    this.inChunk = 0;
  }
}
