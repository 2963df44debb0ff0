/**
 * The browser engine (`graphdb/browser`'s in-page mode, and what the Web Worker runs): the
 * same `Database` as on Node, assembled without its Node-only parts (scripts/build-browser.mjs
 * swaps those modules for src/browser/platform), in memory or on an OPFS store
 * (opfs-store.ts), with results as plain JS values that cross `postMessage`.
 */
import { Database } from '../engine/database.js';
import type { QueryParams, QueryResult } from '../engine/types.js';
import { StorageError, toGraphDbError, TransactionStateError } from '../errors.js';
import type { Transaction } from '../engine/transaction.js';
import { importSnapshotFrom } from '../store/persist/snapshot-import.js';
import { readSnapshotDocument } from '../store/persist/snapshot-reader.js';
import type { Json } from '../store/persist/json.js';
import { toJs } from '../../runtime/format.js';
import { OpfsStore } from './opfs-store.js';
import type { BrowserStats, EngineCalls, ImportResult, PlainResult, SyncCycle, SyncTarget } from './types.js';
import { snapshotString } from './snapshot-text.js';
import { SyncHandle } from '../sync/attach.js';
import type { AutoSync } from '../sync/auto-sync.js';
import type { SyncHost } from '../sync/host.js';
import { SyncNode } from '../sync/sync-node.js';
import { MemorySyncLog, type SyncLog, type SyncLogRecord } from '../sync/sync-log.js';
import { PEER_ID_PATTERN } from '../sync/statements.js';
import { SyncPayloadError } from '../sync/errors.js';
import { OpfsSyncLog, storePeerId } from './opfs-sync-log.js';
import type { Skill } from '../skills/skill.js';

export type { BrowserStats, ImportResult, PlainResult, SyncCycle, SyncTarget } from './types.js';

export interface OpenStoreOptions {
  /** The OPFS store's name (letters, digits, '.', '_', '-'). */
  name: string;
  /** The store's size limit in bytes (default 50 MiB). */
  maxBytes?: number;
  /** Switch sync on (docs/SYNC.md): a peer id, or true for one generated and kept in the store. */
  sync?: boolean | { peerId?: string };
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
  private auto: { sync: AutoSync; target: SyncTarget } | undefined;
  /** Open explicit transactions by id. */
  private readonly transactions = new Map<number, Transaction>();
  private nextTransaction = 1;
  /** The skills as last stored in the OPFS store (JSON), to store them again only when they change. */
  private storedSkills = '';
  private readonly wakeOnline = (): void => void this.syncNowIfStarted();

  private constructor(
    readonly db: Database,
    private readonly store: OpfsStore | undefined,
  ) {}

  /** A database in this page's (or worker's) memory only; with `sync`, its sync state is in memory too. */
  static openInMemory(options: { sync?: OpenStoreOptions['sync'] } = {}): BrowserDatabase {
    const db = Database.openInMemory();
    if (options.sync) attachBrowserSync(db, undefined, syncPeer(options.sync), new MemorySyncLog(), []);
    return new BrowserDatabase(db, undefined);
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
    if (options.sync) {
      try {
        const peerId = await storePeerId(store.directory, syncPeer(options.sync), PEER_ID_PATTERN);
        const { log, records } = await OpfsSyncLog.open(store.directory);
        attachBrowserSync(db, store, peerId, log, records);
      } catch (err) {
        db.close();
        store.close();
        throw toGraphDbError(err);
      }
    }
    const browser = new BrowserDatabase(db, store);
    try {
      browser.loadSkills();
    } catch (err) {
      browser.close();
      throw toGraphDbError(err);
    }
    db.observeCommits(() => {
      if (store.wantsCheckpoint) setTimeout(() => void browser.checkpoint().catch(() => undefined), 0);
    });
    return browser;
  }

  async query(text: string, params?: QueryParams): Promise<PlainResult> {
    return plain(await this.db.query(text, params));
  }

  async mutate(text: string, params?: QueryParams): Promise<PlainResult> {
    try {
      return plain(await this.db.mutate(text, params));
    } finally {
      this.saveSkills();
    }
  }

  /** Runs every statement in one transaction: all commit, or none. */
  async batchMutate(statements: string[]): Promise<PlainResult[]> {
    try {
      return (await this.db.batchMutate(statements)).map(plain);
    } finally {
      this.saveSkills();
    }
  }

  /**
   * Skills live in a file beside the graph (src/skills/store.ts), which a page does not have:
   * the OPFS store keeps that file's text, read at open and rewritten after a write changed it.
   */
  private loadSkills(): void {
    const text = this.store?.readSkills() ?? '';
    if (text === '') return;
    let parsed: { skills?: Skill[] };
    try {
      parsed = JSON.parse(text) as { skills?: Skill[] };
    } catch (err) {
      throw new StorageError(`The browser store's skills.json cannot be read: ${err instanceof Error ? err.message : String(err)}`, 'SkillsFileUnreadable');
    }
    for (const skill of parsed.skills ?? []) this.db.skills.put(skill);
    this.db.skills.commit();
    this.storedSkills = text;
  }

  private saveSkills(): void {
    if (!this.store) return;
    const text = JSON.stringify({ version: 1, skills: this.db.skills.list() });
    if (text === this.storedSkills || (this.storedSkills === '' && this.db.skills.count() === 0)) return;
    this.store.writeSkills(text);
    this.storedSkills = text;
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

  async beginTransaction(options: { mode?: 'read' | 'write'; timeoutMs?: number } = {}): Promise<number> {
    const tx = await this.db.beginTransaction({ mode: options.mode, timeoutMs: options.timeoutMs });
    const id = this.nextTransaction++;
    this.transactions.set(id, tx);
    return id;
  }

  async transactionRun(id: number, text: string, params?: QueryParams): Promise<PlainResult> {
    return plain(await this.transaction(id).run(text, params));
  }

  async transactionCommit(id: number): Promise<void> {
    const tx = this.transaction(id);
    this.transactions.delete(id);
    try {
      await tx.commit();
    } finally {
      this.saveSkills();
    }
  }

  async transactionRollback(id: number): Promise<void> {
    const tx = this.transaction(id);
    this.transactions.delete(id);
    await tx.rollback();
  }

  private transaction(id: number): Transaction {
    const tx = this.transactions.get(id);
    if (!tx) throw new TransactionStateError(`There is no open transaction ${id} (it was committed, rolled back or timed out)`, 'TransactionEnded');
    return tx;
  }

  generatedSource(text: string): string {
    return this.db.generatedSource(text);
  }

  /** Writes not yet acknowledged by a sync peer (the offline queue; 0 without sync). */
  syncPending(): number {
    return this.db.syncPending();
  }

  /** One sync cycle with a server now: push the queue, pull its changes, compare fingerprints. */
  async syncWith(target: SyncTarget): Promise<SyncCycle> {
    return this.requireSync().syncWith(this.requireSync().transport(target.url, { apiKey: target.apiKey }));
  }

  /**
   * Syncs with `target` in the background from now on (with back-off while it is unreachable),
   * and at once whenever the browser comes back online.
   */
  startSync(target: SyncTarget): void {
    const handle = this.requireSync();
    void this.stopSync();
    this.auto = { sync: handle.start([target.url], { intervalMs: target.intervalMs ?? 5000, http: { apiKey: target.apiKey } }), target };
    globalThis.addEventListener?.('online', this.wakeOnline);
  }

  async stopSync(): Promise<void> {
    const auto = this.auto;
    this.auto = undefined;
    globalThis.removeEventListener?.('online', this.wakeOnline);
    await auto?.sync.stop();
  }

  private async syncNowIfStarted(): Promise<void> {
    const target = this.auto?.target;
    if (target) await this.syncWith(target).catch(() => undefined);
  }

  private requireSync(): SyncHandle {
    if (!this.db.sync) throw new SyncPayloadError('Sync is off for this database: open it with the `sync` option');
    return this.db.sync;
  }

  close(): void {
    void this.stopSync();
    this.db.close();
    this.store?.close();
  }
}

function syncPeer(setting: OpenStoreOptions['sync']): string | undefined {
  return typeof setting === 'object' ? setting.peerId : undefined;
}

/**
 * Switches sync on as `attachSync` does for a data directory, with the browser's log: its
 * commits are tagged with the OPFS log's sequence number, so a commit whose log record a
 * killed tab never wrote is dropped from the sync log when the store is opened again.
 */
function attachBrowserSync(db: Database, store: OpfsStore | undefined, peerId: string | undefined, log: SyncLog, records: readonly SyncLogRecord[]): void {
  if (peerId !== undefined && !PEER_ID_PATTERN.test(peerId)) throw new SyncPayloadError(`peer id ${JSON.stringify(peerId)} is not valid: use 1–64 letters, digits, _ or -`);
  const host: SyncHost = {
    get graph() {
      return db.graph;
    },
    storage: store && {
      get seq() {
        return store.lastSeq;
      },
    },
    writeTransaction: (fn) => db.writeTransaction(fn),
  };
  const handle = new SyncHandle(new SyncNode(host, peerId ?? crypto.randomUUID(), log, records));
  db.sync = handle;
  try {
    handle.node.reconcile();
  } catch (err) {
    db.sync = undefined;
    handle.close();
    throw err;
  }
}

export { OpfsStore };
