/**
 * The options of sync (`sync` option of `Database.open`/`openInMemory`), a leaf module so
 * that `src/engine/types.ts` can name them without importing sync's implementation.
 */

/** The subset a scoped peer exchanges: node `labels` and relationship `types` (empty: no restriction of that kind). */
export interface ScopeFilter {
  labels: string[];
  types: string[];
}

export interface SyncNodeOptions {
  /** Exchange only this subset of the graph (docs/SYNC.md, "Scopes"). */
  scope?: ScopeFilter;
  /** Compact the log once this many entries every known peer has acknowledged. */
  compactAfter?: number;
  /** Most feed entries in one payload. */
  batchEntries?: number;
  /** The clock's physical time (tests). */
  now?: () => number;
}

export interface SyncOptions extends Omit<SyncNodeOptions, 'scope'> {
  /** A scope named in the data directory's `graphdb.sync.scopes.json`, or the subset itself. */
  scope?: string | ScopeFilter;
  /** This peer's id (letters, digits, `_`, `-`); generated and kept when absent. */
  peerId?: string;
}
