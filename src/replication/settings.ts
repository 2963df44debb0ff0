/**
 * What a process is told about replication at start-up (from the CLI options or an
 * embedder): its role, its primary, the secret, synchronous or asynchronous mode.
 */

import type { ArchiveTarget } from './archive.js';

/** `fenced`: a former primary that heard of a newer term; it refuses writes (set by fencing, never by an option). */
export type ReplicationRole = 'standalone' | 'primary' | 'replica' | 'fenced';
export type ReplicationMode = 'async' | 'sync';

export interface ReplicationSettings {
  role: ReplicationRole;
  /** A replica's primary: its HTTP base URL. */
  primaryUrl?: string;
  /** The shared secret replication traffic carries (the primary's API key when it has one). */
  secret?: string;
  /** With no secret: serve the stream and take fence notices from other machines too (--replication-insecure); otherwise only from this one. */
  insecure?: boolean;
  mode: ReplicationMode;
  /** Copies a synchronous write needs before it is acknowledged, the primary's included. */
  factor: number;
  /** This replica's name (how its primary lists it). */
  name: string;
  /** How long a synchronous write waits for replica acknowledgements. */
  syncTimeoutMs: number;
  /** Batches the primary keeps for replicas that reconnect. */
  ringSize: number;
  /** Where progress and problems are reported (stderr in the CLI). */
  log: (line: string) => void;
  /** The WAL archive in object storage (--wal-archive), shipped by a primary or standalone instance. */
  archive?: ArchiveTarget;
  /** Data directory, for the registered-replica list and the role state; none for an in-memory database. */
  dataDir?: string;
  /** Forget the role a procedure kept in the data directory, and take `role` (--replication-reset-role). */
  resetRole?: boolean;
  /** This instance's HTTP base URL as others reach it, told to an old primary when this one is promoted. */
  advertiseUrl?: string;
}

export const DEFAULT_SYNC_TIMEOUT_MS = 10_000;
export const DEFAULT_RING_SIZE = 100_000;
