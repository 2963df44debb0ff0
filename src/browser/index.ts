/**
 * `graphdb/browser`: graphdb in a web page. `GraphDB.open({ name })` starts the engine in a
 * Web Worker (graphdb-worker.js beside this module) on the OPFS store `name`, or in memory
 * without a name; `{ worker: false }` runs it in the page itself, in memory (small uses: the
 * page waits while a query runs). Every method returns a promise; errors are `GraphDBError`
 * with the engine's stable `code`. See docs/BROWSER.md.
 */
import { GraphDBError, toWire } from './client-error.js';
import { callEngine } from './dispatch.js';
import type { Backend, Operation, Reply, Request } from './protocol.js';
import { OwnerRelay, RelayBackend } from './relay.js';
import type { BrowserStats, EngineCalls, ImportResult, PlainResult, SyncCycle, SyncTarget } from './types.js';

export { GraphDBError } from './client-error.js';
export type { BrowserStats, ImportResult, PlainResult, QueryCounters, RecoveryReport, SyncCycle, SyncTarget } from './types.js';

export interface GraphDBOptions {
  /** The OPFS store to open (created when missing); without it the graph lives in memory. */
  name?: string;
  /** The store's size limit in bytes (default 50 MiB). */
  maxBytes?: number;
  /** Run in a Web Worker (default true); false runs the engine in the page, in memory only. */
  worker?: boolean;
  /** Switch sync on: a peer id, or true for one generated (and kept in the store). */
  sync?: boolean | { peerId?: string };
  /** When another tab owns the store: go through that tab (the default), or fail with STORE_LOCKED (false). */
  viaOwner?: boolean;
  /** Where graphdb-worker.js is served, when not beside this module. */
  workerUrl?: string | URL;
}

type Params = Record<string, unknown>;

class WorkerBackend implements Backend {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<Reply>) => {
      const reply = event.data;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new GraphDBError(reply.error));
    };
    // A worker script that does not load gives an error event without a message.
    worker.onerror = (event) => this.failAll(event.message ? `The graphdb worker failed: ${event.message}` : 'The graphdb worker could not be started (is graphdb-worker.js served beside graphdb.js, or given as workerUrl?)');
  }

  call(op: Operation, args: unknown[]): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args } satisfies Request);
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll('The database is closed');
  }

  private failAll(message: string): void {
    for (const waiter of this.pending.values()) waiter.reject(new GraphDBError({ name: 'GraphDBError', code: 'CLOSED', detail: 'WorkerEnded', message }));
    this.pending.clear();
  }
}

export class GraphDB {
  private constructor(
    private readonly backend: Backend,
    private readonly relay?: OwnerRelay,
    /** True when this tab reaches the store through the tab that owns it. */
    readonly throughOwner = false,
  ) {}

  static async open(options: GraphDBOptions = {}): Promise<GraphDB> {
    if (options.worker === false) {
      if (options.name !== undefined) {
        throw new GraphDBError({ name: 'GraphDBError', code: 'STORAGE_ERR', detail: 'NeedsWorker', message: 'A persisted store needs the worker mode (OPFS synchronous access exists only in workers); leave out `name` or `worker: false`' });
      }
      const { BrowserDatabase } = await import('./engine.js');
      await (await import('../lazy-module.js')).preloadLazyModules();
      const db: EngineCalls = BrowserDatabase.openInMemory({ sync: options.sync });
      return new GraphDB({
        async call(op, args) {
          try {
            return await inPage(db, op, args);
          } catch (err) {
            throw new GraphDBError(toWire(err));
          }
        },
        terminate: () => db.close(),
      });
    }
    const url = options.workerUrl ?? new URL('./graphdb-worker.js', import.meta.url);
    const backend = new WorkerBackend(new Worker(url, { type: 'module', name: 'graphdb' }));
    try {
      await backend.call('open', [{ name: options.name, maxBytes: options.maxBytes, sync: options.sync }]);
    } catch (err) {
      backend.terminate();
      if (options.name !== undefined && options.viaOwner !== false && err instanceof GraphDBError && err.code === 'STORE_LOCKED') {
        const relayed = await RelayBackend.connect(options.name);
        if (relayed) return new GraphDB(relayed, undefined, true);
      }
      throw err;
    }
    return new GraphDB(backend, options.name === undefined ? undefined : new OwnerRelay(options.name, backend));
  }

  query(text: string, params?: Params): Promise<PlainResult> {
    return this.backend.call('query', [text, params]) as Promise<PlainResult>;
  }

  mutate(text: string, params?: Params): Promise<PlainResult> {
    return this.backend.call('mutate', [text, params]) as Promise<PlainResult>;
  }

  batchMutate(statements: string[]): Promise<PlainResult[]> {
    return this.backend.call('batchMutate', [statements]) as Promise<PlainResult[]>;
  }

  stats(): Promise<BrowserStats> {
    return this.backend.call('stats', []) as Promise<BrowserStats>;
  }

  fingerprint(): Promise<string> {
    return this.backend.call('fingerprint', []) as Promise<string>;
  }

  /** The graph as graphdb's JSON snapshot (what the REPL's `:restore` loads). */
  exportSnapshot(): Promise<string> {
    return this.backend.call('exportSnapshot', []) as Promise<string>;
  }

  importSnapshot(text: string): Promise<ImportResult> {
    return this.backend.call('importSnapshot', [text]) as Promise<ImportResult>;
  }

  checkpoint(): Promise<void> {
    return this.backend.call('checkpoint', []) as Promise<void>;
  }

  /**
   * An explicit transaction (docs/TRANSACTIONS.md): `run` its statements, then `commit` (its
   * writes are stored before that resolves) or `rollback`. 'read' mode reads a stable snapshot.
   */
  async beginTransaction(options: { mode?: 'read' | 'write'; timeoutMs?: number } = {}): Promise<GraphDBTransaction> {
    const id = (await this.backend.call('beginTransaction', [options])) as number;
    return new GraphDBTransaction(this.backend, id);
  }

  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: GraphDBTransaction) => Promise<T>, options: { mode?: 'read' | 'write'; timeoutMs?: number } = {}): Promise<T> {
    const tx = await this.beginTransaction(options);
    let result: T;
    try {
      result = await work(tx);
    } catch (err) {
      await tx.rollback().catch(() => undefined);
      throw err;
    }
    await tx.commit();
    return result;
  }

  /** The JavaScript a query compiles to (what the web console's "Source" view shows). */
  generatedSource(text: string): Promise<string> {
    return this.backend.call('generatedSource', [text]) as Promise<string>;
  }

  /** Writes no sync peer has acknowledged yet: the offline queue (kept in the store across reloads). */
  syncPending(): Promise<number> {
    return this.backend.call('syncPending', []) as Promise<number>;
  }

  /** One sync cycle with a graphdb server now (push the queue, pull, compare fingerprints). */
  syncWith(target: SyncTarget): Promise<SyncCycle> {
    return this.backend.call('syncWith', [target]) as Promise<SyncCycle>;
  }

  /** Syncs with the server in the background (with back-off while offline, and at once on coming back online). */
  startSync(target: SyncTarget): Promise<void> {
    return this.backend.call('startSync', [target]) as Promise<void>;
  }

  stopSync(): Promise<void> {
    return this.backend.call('stopSync', []) as Promise<void>;
  }

  /** Closes the store (releasing it for another tab) and ends the worker. */
  async close(): Promise<void> {
    this.relay?.close();
    try {
      await this.backend.call('close', []);
    } finally {
      this.backend.terminate();
    }
  }
}

async function inPage(db: EngineCalls, op: Operation, args: unknown[]): Promise<unknown> {
  if (op === 'open') return undefined;
  if (op === 'close') return db.close();
  return callEngine(db, op, args);
}

/** An open explicit transaction (`GraphDB.beginTransaction`). */
export class GraphDBTransaction {
  constructor(
    private readonly backend: Backend,
    readonly id: number,
  ) {}

  run(text: string, params?: Params): Promise<PlainResult> {
    return this.backend.call('transactionRun', [this.id, text, params]) as Promise<PlainResult>;
  }

  commit(): Promise<void> {
    return this.backend.call('transactionCommit', [this.id]) as Promise<void>;
  }

  rollback(): Promise<void> {
    return this.backend.call('transactionRollback', [this.id]) as Promise<void>;
  }
}
