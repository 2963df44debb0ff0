/**
 * What the Database and the procedures know of replication: the hook a `Database` calls
 * (a guard before every write, an observer of every commit) and the controls the
 * `graphdb.replication.*` procedures use. Kept apart from the manager, which needs the
 * Database, so the engine can name these types without an import cycle.
 */

import type { LoggedChange } from '../store/persist/record-codec.js';

export interface ReplicationStatusRow {
  name: string;
  address: string;
  role: string;
  state: string;
  mode: string;
  appliedSeq: number;
  lagRecords: number;
  lagMs: number;
  lastError: string | null;
}

export interface ReplicationHook {
  /** Throws READ_ONLY on a replica and on a fenced primary. */
  beforeWrite(): void;
  /** A committed transaction; in synchronous mode, the promise its acknowledgement waits for. */
  committed(changes: readonly LoggedChange[]): Promise<void> | undefined;

  readonly role: 'standalone' | 'primary' | 'replica' | 'fenced';
  /** The replication term (epoch) this instance is at: it only grows. */
  readonly term: number;
  readonly mode: 'async' | 'sync';
  readonly factor: number;
  readonly writesEnabled: boolean;
  status(): ReplicationStatusRow[];
  tailingFacts(): [string, string, string][];
  archiveFacts(): [string, string, string][];
  promote(): string;
  demote(primaryUrl: string): string;
  register(name: string, address: string): void;
  unregister(name: string): boolean;
  /** This instance serves Bolt at host:port (a replica tells its primary). */
  announceBolt(address: string): void;
  /** On a primary: the Bolt addresses of the replicas streaming now. */
  boltReaders(): string[];
}
