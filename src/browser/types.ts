/**
 * The shapes `graphdb/browser` hands to a page: plain data that crosses `postMessage`. Kept
 * free of engine imports so the page client (index.ts) and its type declarations stand alone;
 * engine.ts builds these from the engine's own types, so tsc catches any drift.
 */

/** What a query changed. */
export interface QueryCounters {
  nodesCreated: number;
  nodesDeleted: number;
  relationshipsCreated: number;
  relationshipsDeleted: number;
  labelsAdded: number;
  labelsRemoved: number;
  propertiesSet: number;
}

/** A query's result with plain JS values: one object per row, keyed by column. */
export interface PlainResult {
  columns: string[];
  rows: Record<string, unknown>[];
  stats: QueryCounters;
  mutated: boolean;
  elapsedMs: number;
}

/** How the OPFS store came back when opened. */
export interface RecoveryReport {
  snapshotGeneration: number;
  walRecordsReplayed: number;
  /** Bytes cut off the end of the log: a record a killed tab had not finished writing. */
  tornBytes: number;
}

export interface BrowserStats {
  nodes: number;
  relationships: number;
  labels: number;
  relationshipTypes: number;
  propertyKeys: number;
  memory: { storeBytes: number; propertyBytes: number; heapUsedBytes: number; rssBytes: number };
  fingerprint: string;
  /** The store's name and bytes, when persisted. */
  store?: { name: string; bytes: number; maxBytes: number; recovery: RecoveryReport };
}

/** What `importSnapshot` added. */
export interface ImportResult {
  nodes: number;
  relationships: number;
  schemaAdded: string[];
  schemaSkipped: string[];
}

/** A sync cycle's outcome (docs/SYNC.md). */
export interface SyncCycle {
  peer: string;
  pushedStatements: number;
  pulledStatements: number;
  localFingerprint: string;
  remoteFingerprint: string;
  /** Fingerprints equal after the cycle. */
  consistent: boolean;
}

/** A graphdb server to sync with: its HTTP address and API key (sync routes are administration). */
export interface SyncTarget {
  url: string;
  apiKey?: string;
  /** Time between the cycles of `startSync` (default 5000 ms). */
  intervalMs?: number;
}

type Params = Record<string, unknown>;

/** The engine's calls, as the page client makes them of a worker or of the in-page engine. */
export interface EngineCalls {
  query(text: string, params?: Params): Promise<PlainResult>;
  mutate(text: string, params?: Params): Promise<PlainResult>;
  batchMutate(statements: string[]): Promise<PlainResult[]>;
  stats(): BrowserStats;
  fingerprint(): string;
  exportSnapshot(): string;
  importSnapshot(text: string): Promise<ImportResult>;
  checkpoint(): Promise<void>;
  /** Opens an explicit transaction (docs/TRANSACTIONS.md); answers its id. */
  beginTransaction(options?: { mode?: 'read' | 'write'; timeoutMs?: number }): Promise<number>;
  transactionRun(id: number, text: string, params?: Params): Promise<PlainResult>;
  transactionCommit(id: number): Promise<void>;
  transactionRollback(id: number): Promise<void>;
  /** The JavaScript a query compiles to. */
  generatedSource(text: string): string;
  syncPending(): number;
  syncWith(target: SyncTarget): Promise<SyncCycle>;
  startSync(target: SyncTarget): void;
  stopSync(): Promise<void>;
  close(): void;
}
