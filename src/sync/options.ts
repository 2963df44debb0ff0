/**
 * The options of sync (`sync` option of `Database.open`/`openInMemory`), a leaf module so
 * that `src/engine/types.ts` can name them without importing sync's implementation.
 */

export interface SyncNodeOptions {
  /** Compact the log once this many entries every known peer has acknowledged. */
  compactAfter?: number;
  /** Most feed entries in one payload. */
  batchEntries?: number;
  /** The clock's physical time (tests). */
  now?: () => number;
}

export interface SyncOptions extends SyncNodeOptions {
  /** This peer's id (letters, digits, `_`, `-`); generated and kept when absent. */
  peerId?: string;
}
