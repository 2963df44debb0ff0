/**
 * The states open transactions read from (docs/TRANSACTIONS.md). A transaction that reads is
 * *pinned* at the graph's mutation sequence when it begins. While nothing has changed since,
 * it reads the live graph itself, at no cost. The first time the graph is about to change
 * after that (`Graph.beforeChange`, at the start of any write), the state is kept for every
 * pin that has none yet: one frozen copy of the graph, built from a graph image
 * (store/persist/graph-image.ts, the query workers' replica format: entity arrays made once,
 * typed columns and sets lent copy-on-write, adjacency bases shared), which those pins then
 * read until they end. So a snapshot costs nothing when reads and writes do not overlap, and
 * one image per overlapping write otherwise, shared by all the transactions pinned then.
 */

import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { QueryOptions, QueryParams, QueryResult } from './types.js';
import { ProcedureError } from '../errors.js';
import { runsOnPrimary, servedByPrimary } from './workers/protocol.js';

/** Where one transaction reads; `S` is the frozen copy (a Database: generic so that this module needs no import of it). */
export interface ReadPin<S = unknown> {
  /** The graph's mutation sequence when it was pinned. */
  readonly seq: number;
  /** The frozen copy of the graph at `seq`, once the live graph has moved on ('lost' when making it failed). */
  snapshot: S | 'lost' | undefined;
  /** Set when the snapshot is held by a query worker instead (`RemoteSnapshots`): statements run there. */
  remote?: RemotePin;
}

/** What a remote read runs with: the statement's limit, grant and stop signal. */
export interface RemoteReadOptions {
  timeoutMs?: number;
  allow?: QueryOptions['allow'];
  signal?: AbortSignal;
}

/**
 * A snapshot pinned on a query worker's replica (workers/worker-pool.ts): the worker keeps the
 * state it had at `seq` (its own ReadSnapshots), so a read transaction's statements run off the
 * main thread and still read one state. Lost with its worker (replaced, reloaded): the next
 * read fails with a retryable conflict.
 */
export interface RemotePin {
  readonly seq: number;
  read(query: string, params: QueryParams | undefined, options: RemoteReadOptions): Promise<QueryResult>;
  release(): void;
}

/** Pins snapshots on query workers (the router sets one on the primary Database when it has a pool). */
export interface RemoteSnapshots {
  /** A snapshot of the state the workers hold now; undefined when no worker can hold one (none ready). */
  pin(): RemotePin | undefined;
  /**
   * Settles once `pin()` would find a worker (or none is left to wait for, or a bounded wait
   * has passed): BEGIN waits for it, so that a worker starting or replacing another, or the
   * only one running a write, does not leave a transaction's reads on the main thread.
   */
  whenPinnable?(): Promise<void>;
}

export class ReadSnapshots<S> {
  private readonly pins = new Set<ReadPin<S>>();

  /** `capture` makes a frozen copy of the live graph as it is now. */
  constructor(private readonly capture: () => S) {}

  /** Pins a reader at `seq` (the live graph's mutation sequence now, with no write open). */
  pin(seq: number): ReadPin<S> {
    const pin: ReadPin<S> = { seq, snapshot: undefined };
    this.pins.add(pin);
    return pin;
  }

  unpin(pin: ReadPin<S>): void {
    this.pins.delete(pin);
  }

  /** Open pins (for tests and stats). */
  get size(): number {
    return this.pins.size;
  }

  /** Before the live graph changes: every pin still reading it gets a frozen copy of it (one for all). */
  beforeChange(): void {
    let snapshot: S | 'lost' | undefined;
    for (const pin of this.pins) {
      if (pin.snapshot !== undefined) continue;
      if (snapshot === undefined) {
        try {
          snapshot = this.capture();
        } catch {
          // The write goes on; the readers pinned here fail their next read with a retryable conflict.
          snapshot = 'lost';
        }
      }
      pin.snapshot = snapshot;
    }
  }
}

/**
 * Makes the procedures that read what only the primary has (vector and full-text indexes,
 * skills, the data directory, replication state) refuse to run on a frozen copy, which lacks
 * them, rather than answer from nothing.
 */
export function refusePrimaryOnly(procedures: ProcedureRegistry): void {
  for (const def of procedures.list()) {
    // Both kinds: a frozen copy has no worker to serve it and none of what the primary alone holds.
    if (!runsOnPrimary(def) && !servedByPrimary(def)) continue;
    procedures.register({
      ...def,
      invoke: () => {
        throw new ProcedureError(
          `${def.name} cannot run in a read transaction once other writes have committed since it began (it reads a frozen copy of the graph); run it outside the transaction`,
          'NotInSnapshot',
          'runtime',
        );
      },
    });
  }
}
