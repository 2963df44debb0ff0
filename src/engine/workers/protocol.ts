/**
 * The messages between the main thread's query worker pool (`worker-pool.ts`) and one query
 * worker (`query-worker.ts`). The worker holds a replica of the primary graph: it starts
 * from a graph image, then applies every commit's change records in commit order. Commits
 * and queries travel on the same port, so a query always finds every commit posted before
 * it already applied; `seq` (the primary's mutation sequence when the query was sent) lets
 * the worker prove it, and a worker that finds itself elsewhere answers `stale`. A worker
 * keeps the commits that arrive before its image and applies those the image lacks.
 *
 * A write runs on a worker too: it commits on the replica, and its records come back for the
 * primary to apply as its own commit. The primary's commit then reaches every worker like any
 * other; the one that ran it already holds it and skips it by sequence.
 */

import type { MessagePort } from 'node:worker_threads';
import { GraphDbError, type ErrorKind, type ErrorPhase, type SourcePosition } from '../../errors.js';
import type { MergedBase } from '../../store/graph.js';
import type { GraphImage } from '../../store/persist/graph-image.js';
import type { PackedPayloads } from './commit-slices.js';
import type { Transferable } from './value-transfer.js';
import type { QueryOptions, QueryStats } from '../types.js';
import type { StreamRequest } from './row-pages.js';
import type { WorkerDatabaseOptions } from './worker-options.js';
import type { WorkerDoorConfig } from './door-protocol.js';

export type { WorkerDatabaseOptions } from './worker-options.js';

/** Words of a worker's cancel array: query `ticket` is stopped by writing `ticket` into word `ticket % CANCEL_WORDS`. */
export const CANCEL_WORDS = 64;

export interface WorkerData {
  options: WorkerDatabaseOptions;
  /** CANCEL_WORDS Int32 words (runtime/governor.ts CancelToken). */
  cancel: SharedArrayBuffer;
  /** Where the primary answers the worker's procedure calls (`primary-calls.ts`): the replies, and a word it bumps after each. */
  calls: { port: MessagePort; signal: SharedArrayBuffer };
  /** The primary's committed and durable sequences (`DoorSequences`), for the HTTP door a worker may serve. */
  sequences: SharedArrayBuffer;
}

/** The primary's answer to a worker's `call`, on the worker's call port: the procedure's rows, or its error. */
export interface CallReply {
  id: number;
  rows?: Transferable[][];
  error?: ErrorData;
}

export type ToWorker =
  | { t: 'image'; image: GraphImage }
  /**
   * One commit: `before`/`after` are the primary's mutation sequence around it; `payloads` its
   * records in WAL encoding; `merged` the adjacency bases its merge made, which a replica at
   * `after` adopts in place of merging its own (shared memory, not copied).
   */
  | { t: 'commit'; before: number; after: number; payloads: string[]; merged: MergedBase[] }
  /** A query; with `write` it may change the replica, and its commit comes back for the primary to apply. */
  | { t: 'query'; ticket: number; text: string; params: { plain: boolean; value: Transferable }; timeoutMs: number | undefined; seq: number; write: boolean; maxRows?: number; allow?: QueryOptions['allow']; pin?: number; stream?: StreamRequest }
  /**
   * Keep the replica's state as it is now for an explicit transaction's reads (`pin` on later
   * queries names it), if it is at `seq`; else the pin is lost and its queries fail with a
   * retryable conflict.
   */
  | { t: 'pin'; id: number; seq: number }
  | { t: 'unpin'; id: number }
  /** Send an image of your replica (to start or reload another worker without stalling the main thread). */
  | { t: 'capture' }
  /** Drop the replica: an image follows, and commits until then are kept for after it. */
  | { t: 'reset' }
  /** Serve the HTTP door on the shared port (`door-protocol.ts`), or stop serving it. */
  | { t: 'door'; config: WorkerDoorConfig }
  | { t: 'door-close' };

/** What a write query did on the worker's replica: its counters and, when it changed anything, its commit. */
export interface WrittenData {
  stats: QueryStats;
  mutated: boolean;
  /** The commit, already applied to the replica: `before`/`after` are the replica's mutation sequence around it, `packed` its records in WAL encoding (transferred, not copied). */
  commit?: { before: number; after: number; packed: PackedPayloads };
  /** Why the result's rows did not come (too deep or too large to cross): the caller gets this error once the commit is applied. */
  resultError?: ErrorData;
}

/** An engine error as plain data, rebuilt on the main thread with the same code and text. */
export interface ErrorData {
  code: string;
  kind: string;
  detail: string;
  phase: 'compile' | 'runtime';
  message: string;
  position?: { line: number; column: number };
}

export type FromWorker =
  | { t: 'ready'; seq: number }
  /** `compiled`: the run compiled the text (a plan-cache miss on this worker), so `elapsedMs` includes that. */
  | { t: 'result'; ticket: number; columns: string[]; records: Transferable[][]; elapsedMs: number; compiled: boolean; written?: WrittenData }
  | { t: 'error'; ticket: number; error: ErrorData }
  /** One page of a streamed read (`row-pages.ts`), while it runs; its `result` follows the last. */
  | { t: 'page'; ticket: number; columns: string[]; records: Transferable[][] }
  /** The worker's graph is not at the query's sequence: it needs a fresh image, then the query again. */
  | { t: 'stale'; ticket: number }
  /** An image or commit could not be applied: the worker needs a fresh image. */
  | { t: 'broken'; message: string }
  /** The answer to `capture`: none when the replica is not usable. */
  | { t: 'image'; image: GraphImage | undefined }
  /** A running query needs the rows of a procedure only the primary can run (`primary-calls.ts`); the answer comes on the call port. */
  | { t: 'call'; id: number; name: string; args: Transferable; timeoutMs: number | undefined; atSeq?: number }
  /** The answer to `door` (`error`: why it does not serve) and to `door-close`. */
  | { t: 'door'; open: boolean; error?: string };

/** An engine error as plain data (anything else as an internal error). */
export function errorData(err: unknown): ErrorData {
  if (err instanceof GraphDbError) {
    return { code: err.code, kind: err.kind, detail: err.detail, phase: err.phase, message: err.message, position: err.position };
  }
  return { code: 'INTERNAL_ERR', kind: 'InternalError', detail: 'Internal', phase: 'runtime', message: `Internal error: ${err instanceof Error ? err.message : String(err)}` };
}

/** An engine error raised on another thread, with the code, kind and text it had there. */
export class WorkerQueryError extends GraphDbError {
  readonly code: string;
  readonly kind: ErrorKind;
  constructor(data: ErrorData) {
    super(data.message, data.detail, data.phase as ErrorPhase);
    this.code = data.code;
    this.kind = data.kind as ErrorKind;
    if (data.position) (this as { position?: SourcePosition }).position = data.position;
  }
}

/** Why the worker refuses a query the primary must run (it reads or writes state a replica does not have). */
export const PRIMARY_ONLY = 'PrimaryOnly';

/** Read procedures that read state only the primary holds (besides every `dbms` procedure). */
export const PRIMARY_ONLY_PROCEDURES = /^(db\.index\.(vector|fulltext)\.|graphdb\.rag\.|skills\.|db\.info$|db\.indexes$|db\.awaitIndex|graphdb\.embed\.info$)/;

/**
 * Write procedures that change nothing but the graph, inside the query's transaction: on a
 * worker they commit on its replica like any write query, and the primary applies the commit
 * (its vector and full-text indexes follow there). So an algorithm's `.write` form computes off
 * the main thread, and `graphdb.embed.nodes` embeds there. Other write procedures (schema,
 * tokens, files, batches committing on their own, skills, observation rules, settings) run on the primary.
 */
export const GRAPH_WRITE_PROCEDURES = /^(algo\.\w+\.write$|apoc\.(create|merge|refactor)\.|graphdb\.embed\.nodes$)/;

/**
 * Whether a query calling the procedure must run on the primary: it writes what a replica
 * cannot. A read never needs to: one that reads what only the primary holds is served to the
 * worker by the primary (`servedByPrimary`), the rest of the query staying on the worker.
 */
export function runsOnPrimary(def: { name: string; mode: string }): boolean {
  if (def.mode === 'read') return false;
  return !(def.mode === 'write' && GRAPH_WRITE_PROCEDURES.test(def.name));
}

/** Whether a read procedure reads what only the primary holds: on a worker, its rows come from the primary (`primary-calls.ts`). */
export function servedByPrimary(def: { name: string; mode: string }): boolean {
  return def.mode === 'read' && PRIMARY_ONLY_PROCEDURES.test(def.name);
}
