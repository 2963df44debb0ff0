/**
 * What sync needs of the database it is attached to, and the options that switch it on, kept
 * in a module of its own so that the engine can name them without importing sync's
 * implementation (the module graph flows one way).
 */

import type { Graph } from '../store/graph.js';

/** The database as sync sees it: its graph, write transactions on it, and its WAL's sequence number. */
export interface SyncHost {
  readonly graph: Graph;
  /** With a data directory: `seq` is the sequence number of the last transaction in the WAL. */
  readonly storage?: { readonly seq: number } | undefined;
  writeTransaction<T>(fn: (graph: Graph) => T): T;
}
