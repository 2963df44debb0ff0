/**
 * How many query workers a default start-up gives: each worker holds a replica of the graph,
 * so a graph that is large beside the machine's memory gets fewer workers than cores (or
 * none), instead of a process that runs out of memory as its replicas grow. A replica starts
 * out sharing nearly everything with the primary, but each property column or label set that
 * writes change becomes a copy of its own in every thread (copy-on-write), so the budget counts
 * those as copied — where a server taking writes ends up — and only what stays shared for good
 * (the adjacency bases, re-shared at every merge, and an unchanged open's entity arrays) as
 * shared. An explicit `--workers N` is taken as given.
 */

import { freemem, totalmem } from 'node:os';
import type { Database } from '../database.js';
import { storeMemory } from '../../store/memory.js';

/** Share of the available memory the replicas may take: the rest stays for the primary's growth and for queries. */
const REPLICA_SHARE = 0.5;
/**
 * A replica's resident size relative to the store's own estimate of what it copies (`storeMemory`:
 * the total less the shared adjacency bases): measured at 1.4× (100k–300k-node graphs) and
 * 1.5–1.7× (1M nodes, 5M relationships), rounded.
 */
const REPLICA_PER_STORE_BYTE = 1.5;
/** What a worker with an empty graph costs: its V8 isolate, the engine's modules and compiled code. */
const WORKER_BASE_BYTES = 48 * 1024 * 1024;

export interface WorkerBudget {
  /** Workers to start. */
  workers: number;
  /** Bytes one replica is expected to take. */
  replicaBytes: number;
  /** Bytes of memory the process may still use. */
  availableBytes: number;
}

/** Bytes of memory still available to this process: the smaller of the machine's free memory and what its cgroup limit leaves. */
export function availableMemory(): number {
  const free = freemem();
  const limit = process.constrainedMemory();
  if (limit > 0 && limit < totalmem()) return Math.max(0, Math.min(free, limit - process.memoryUsage.rss()));
  return free;
}

/** At most `wanted` workers, as many as the replicas of a graph of `storeBytes` fit in REPLICA_SHARE of `availableBytes`. */
export function workersThatFit(wanted: number, storeBytes: number, availableBytes: number): WorkerBudget {
  const replicaBytes = WORKER_BASE_BYTES + Math.ceil(storeBytes * REPLICA_PER_STORE_BYTE);
  const fit = Math.floor((availableBytes * REPLICA_SHARE) / replicaBytes);
  return { workers: Math.max(0, Math.min(wanted, fit)), replicaBytes, availableBytes };
}

/** The default worker count for `db` (at most `wanted`), and a line saying why when memory made it fewer. */
export function defaultWorkers(db: Database, wanted: number, availableBytes = availableMemory()): { workers: number; note?: string } {
  const store = storeMemory(db.graph);
  const budget = workersThatFit(wanted, store.totalBytes - store.sharedBytes, availableBytes);
  if (budget.workers >= wanted) return { workers: wanted };
  const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;
  return {
    workers: budget.workers,
    note:
      `graphdb: ${budget.workers} query worker thread${budget.workers === 1 ? '' : 's'} instead of ${wanted}: each holds a replica of the graph ` +
      `(about ${mb(budget.replicaBytes)}) and ${mb(budget.availableBytes)} of memory is available; --workers N chooses the number`,
  };
}
