/**
 * The browser engine (`graphdb/browser`'s in-page mode, and what the Web Worker runs): the
 * same `Database` as on Node, assembled without its Node-only parts (scripts/build-browser.mjs
 * swaps those modules for src/browser/platform), in memory or on an OPFS store
 * (opfs-store.ts), with results as plain JS values that cross `postMessage`.
 */
import { Database } from '../engine/database.js';
import type { QueryParams, QueryResult } from '../engine/types.js';
import { StorageError, toGraphDbError } from '../errors.js';
import { importSnapshotFrom } from '../store/persist/snapshot-import.js';
import { readSnapshotDocument } from '../store/persist/snapshot-reader.js';
import type { Json } from '../store/persist/json.js';
import { toJs } from '../../runtime/format.js';
import { OpfsStore } from './opfs-store.js';
import type { BrowserStats, EngineCalls, ImportResult, PlainResult } from './types.js';
import { snapshotString } from './snapshot-text.js';

export type { BrowserStats, ImportResult, PlainResult } from './types.js';

export interface OpenStoreOptions {
  /** The OPFS store's name (letters, digits, '.', '_', '-'). */
  name: string;
  /** The store's size limit in bytes (default 50 MiB). */
  maxBytes?: number;
}

function plain(r: QueryResult): PlainResult {
  return {
    columns: r.columns,
    rows: r.records.map((rec) => Object.fromEntries(r.columns.map((c, i) => [c, toJs(rec[i])]))),
    stats: r.stats,
    mutated: r.mutated,
    elapsedMs: r.elapsedMs,
  };
}

export class BrowserDatabase implements EngineCalls {
  private constructor(
    readonly db: Database,
    private readonly store: OpfsStore | undefined,
  ) {}

  /** A database in this page's (or worker's) memory only. */
  static openInMemory(): BrowserDatabase {
    return new BrowserDatabase(Database.openInMemory(), undefined);
  }

  /** A database on the OPFS store `name`, recovered from what is there (dedicated workers only). */
  static async open(options: OpenStoreOptions): Promise<BrowserDatabase> {
    const db = Database.openInMemory();
    let store: OpfsStore;
    try {
      store = await OpfsStore.open(options.name, db.graph, db.schema, options.maxBytes);
    } catch (err) {
      db.close();
      throw toGraphDbError(err);
    }
    db.commitSink = (commit) => store.append(commit);
    const browser = new BrowserDatabase(db, store);
    db.observeCommits(() => {
      if (store.wantsCheckpoint) setTimeout(() => void browser.checkpoint().catch(() => undefined), 0);
    });
    return browser;
  }

  async query(text: string, params?: QueryParams): Promise<PlainResult> {
    return plain(await this.db.query(text, params));
  }

  async mutate(text: string, params?: QueryParams): Promise<PlainResult> {
    return plain(await this.db.mutate(text, params));
  }

  /** Runs every statement in one transaction: all commit, or none. */
  async batchMutate(statements: string[]): Promise<PlainResult[]> {
    return (await this.db.batchMutate(statements)).map(plain);
  }

  fingerprint(): string {
    return this.db.fingerprint();
  }

  stats(): BrowserStats {
    const out: BrowserStats = { ...this.db.stats(), fingerprint: this.fingerprint() };
    if (this.store) out.store = { name: this.store.name, bytes: this.store.size, maxBytes: this.store.maxBytes, recovery: this.store.recovery };
    return out;
  }

  /** The graph as the JSON snapshot that the REPL's `:restore` and a data directory's graphdb.snapshot.json load. */
  exportSnapshot(): string {
    return snapshotString(this.db.graph, this.db.schema, 0);
  }

  /** Adds a snapshot's nodes and relationships (new ids) and its indexes and constraints, in one transaction: all or nothing. */
  async importSnapshot(text: string): Promise<ImportResult> {
    let data: Json;
    try {
      data = JSON.parse(text) as Json;
    } catch (err) {
      throw new StorageError(`The snapshot to import is not valid JSON (${err instanceof Error ? err.message : String(err)})`, 'SnapshotDamaged');
    }
    return importSnapshotFrom('The snapshot to import', (sink) => readSnapshotDocument(data, 'The snapshot to import', sink), (fn) => this.db.writeTransaction(fn));
  }

  /** Folds the store's log into a new snapshot now (it also happens on its own as the log grows). */
  async checkpoint(): Promise<void> {
    if (this.store && !this.db.graph.inTransaction) await this.store.checkpoint(this.db.graph, this.db.schema);
  }

  close(): void {
    this.db.close();
    this.store?.close();
  }
}

export { OpfsStore };
