/**
 * The body of one query worker thread: a Database of its own holding a replica of the
 * primary's graph, which runs the read-only queries the pool sends it. It is loaded by the
 * bootstrap in `worker-pool.ts` and talks only through `protocol.ts` messages.
 *
 * The replica changes only between queries (a message handler runs to its end before the
 * next), so every query reads one consistent state. Procedures that change what only the
 * primary has — its data directory, schema, replication and sync state, the server's
 * settings — refuse to run here with `PrimaryOnly`, and the pool sends such a query to the
 * primary instead; those that read what only it has — vector and full-text indexes, skills,
 * graph_rag, db.info — get their rows from it (`primary-calls.ts`) while the rest of the query
 * runs here. So the replica never builds vector and full-text indexes.
 *
 * A result is checked here before it is moved to the main thread: a read stops as soon as it
 * passes the door's row limit (`maxRows`), and no result nested too deep or too large crosses
 * (`result-bounds.ts`).
 *
 * A write query commits on the replica like on any database; its change records go back with
 * its result, and the primary applies them as its own commit (or refuses them when it has moved
 * on, and reloads this replica).
 */

import { parentPort, workerData } from 'node:worker_threads';
import { FileAccessPolicy } from '../../../runtime/graph/file-access.js';
import { ProcedureError, QueryCancelledError, TransactionConflictError } from '../../errors.js';
import type { ReadPin } from '../read-snapshots.js';
import { ReplicaApplier } from '../../replication/applier.js';
import { captureGraphImage, loadGraphImage } from '../../store/persist/graph-image.js';
import { EncodedCommit, encodeTransactionRecords, type LoggedChange } from '../../store/persist/record-codec.js';
import { followCommit } from './replica-commits.js';
import { Database } from '../database.js';
import { packPayloads, WORKER_RECORD_CHANGES } from './commit-slices.js';
import { CANCEL_WORDS, type ErrorData, errorData, type FromWorker, PRIMARY_ONLY, runsOnPrimary, servedByPrimary, type ToWorker, type WorkerData } from './protocol.js';
import { cancelRequested, type CancelToken, DEFAULT_MEMORY_LIMITS } from '../../../runtime/governor.js';
import { checkResultShape } from '../result-bounds.js';
import { PrimaryCalls } from './primary-calls.js';
import { PageSink } from './row-pages.js';
import { decodeParams, encodeRecords } from './value-transfer.js';
import { DoorSequences, type WorkerDoorConfig } from './door-protocol.js';
import type { WorkerDoor } from '../../server/http/worker-door.js';
import type { QueryParams, QueryResult } from '../types.js';
import { preloadLazyModules } from '../../lazy-module.js';

// Run from the TypeScript sources (tests, tsx), the worker's loader is one require() cannot
// follow, so the modules loaded on first use load now (src/lazy-module.ts).
if (import.meta.url.endsWith('.ts')) await preloadLazyModules();

const data = workerData as WorkerData;
const port = parentPort!;
const cancelWords = new Int32Array(data.cancel);
const maxResultCells = data.options.memoryLimits?.maxQueryCells ?? DEFAULT_MEMORY_LIMITS.maxQueryCells;

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  port.postMessage(message, transfer);
}

const primaryCalls = new PrimaryCalls(data.calls.port, data.calls.signal, post);

function openReplica(): Database {
  const o = data.options;
  const db = new Database({
    queryTimeoutMs: o.queryTimeoutMs,
    memoryLimits: o.memoryLimits,
    embeddingModel: o.embeddingModel,
    planCacheSize: o.planCacheSize,
    fileAccess: o.fileAccess === undefined ? undefined : FileAccessPolicy.fromPlain(o.fileAccess),
  });
  for (const def of db.procedures.list()) {
    if (servedByPrimary(def)) db.procedures.register(primaryCalls.served(def));
    // The mode stays, so that a read-only query calling a write procedure is refused as a write.
    if (!runsOnPrimary(def)) continue;
    db.procedures.register({
      ...def,
      invoke: () => {
        throw new ProcedureError(`${def.name} runs on the primary only`, PRIMARY_ONLY, 'runtime');
      },
    });
  }
  db.observeCommits((commit) => written?.push(commit));
  return db;
}

/** The commits of the write query running now (undefined outside one). */
let written: EncodedCommit[] | undefined;

/** Runs a query that may write: its commit (on the replica) comes back with its result. */
function runWrite(replica: Database, m: Extract<ToWorker, { t: 'query' }>, params: QueryParams | undefined, cancel: CancelToken): void {
  const before = replica.graph.mutationSeq;
  const compiles = replica.compileCount;
  written = [];
  let r: QueryResult;
  let commits: EncodedCommit[];
  try {
    r = replica.executeSync(m.text, params, { timeoutMs: m.timeoutMs, cancel, allow: m.allow });
  } finally {
    commits = written;
    written = undefined;
  }
  // A query commits once; were it more, their records go back as one transaction. In payloads
  // small enough for the primary to parse each within one slice of its turn (commit-slices.ts).
  const changes = (): readonly LoggedChange[] => (commits.length === 1 ? commits[0].changes : commits.flatMap((c) => c.changes));
  const commit = commits.length === 0 ? undefined : { before, after: replica.graph.mutationSeq, packed: packPayloads(encodeTransactionRecords(changes(), WORKER_RECORD_CHANGES)) };
  const transfer = commit === undefined ? undefined : [commit.packed.bytes.buffer as ArrayBuffer];
  const compiled = replica.compileCount !== compiles;
  // The commit is made: a result that may not cross goes back without its rows, and with its error, so the primary still applies the commit.
  let resultError: ErrorData | undefined;
  let records: QueryResult['records'] = r.records;
  try {
    checkResultShape(records, maxResultCells);
  } catch (err) {
    resultError = errorData(err);
    records = [];
  }
  post({ t: 'result', ticket: m.ticket, columns: r.columns, records: encodeRecords(records), elapsedMs: r.elapsedMs, compiled, written: { stats: r.stats, mutated: r.mutated, commit, resultError } }, transfer);
}

let db: Database | undefined;
let applier: ReplicaApplier | undefined;
/** Set after a failed image or commit: nothing more is applied until a fresh image comes. */
let broken = false;
/** Commits that arrived while there was no usable replica: applied after the next image where it lacks them. */
let pending: Extract<ToWorker, { t: 'commit' }>[] = [];
/** Explicit transactions' snapshots of this replica, by the pool's pin id ('lost': the replica was not at the pin's state). */
const pins = new Map<number, ReadPin<Database> | 'lost'>();

/** A pinned read: on the state its pin holds (the replica's own frozen copy once a commit has been applied after it). */
function readPinned(replica: Database, m: Extract<ToWorker, { t: 'query' }>, params: QueryParams | undefined, cancel: CancelToken): QueryResult {
  const pin = pins.get(m.pin!);
  if (pin === undefined || pin === 'lost') throw new TransactionConflictError("The snapshot of this read transaction was lost (its query worker's replica was reloaded); retry the transaction");
  primaryCalls.snapshotSeq = pin.seq;
  try {
    return replica.readPinned(pin, m.text, params, { timeoutMs: m.timeoutMs, cancel, maxRows: m.maxRows, allow: m.allow });
  } finally {
    primaryCalls.snapshotSeq = undefined;
  }
}

function applyCommit(m: Extract<ToWorker, { t: 'commit' }>): void {
  followCommit(db!, applier!, m);
}

function fail(err: unknown): void {
  broken = true;
  post({ t: 'broken', message: err instanceof Error ? err.message : String(err) });
}

/** The HTTP door this worker serves (`--worker-doors`), loaded only when asked for. */
let door: WorkerDoor | undefined;
const sequences = new DoorSequences(data.sequences);

async function openDoor(config: WorkerDoorConfig): Promise<void> {
  try {
    if (door === undefined) {
      const { WorkerDoor } = await import('../../server/http/worker-door.js');
      const opening = new WorkerDoor(config, () => (broken ? undefined : db), sequences);
      await opening.listen();
      door = opening;
    }
    post({ t: 'door', open: true });
  } catch (err) {
    post({ t: 'door', open: false, error: err instanceof Error ? err.message : String(err) });
  }
}

async function closeDoor(): Promise<void> {
  const closing = door;
  door = undefined;
  await closing?.close();
  post({ t: 'door', open: false });
}

function handle(m: ToWorker): void {
  handleMessage(m);
  // A door's requests waiting for the replica to reach the committed state look again.
  if (m.t === 'commit' || m.t === 'image' || m.t === 'reset') door?.replicaMoved();
}

function handleMessage(m: ToWorker): void {
  switch (m.t) {
    case 'door':
      void openDoor(m.config);
      return;
    case 'door-close':
      void closeDoor();
      return;
    case 'image': {
      db?.close();
      db = undefined;
      pins.clear();
      broken = false;
      try {
        const fresh = openReplica();
        fresh.graph.adoptsMerges = true;
        loadGraphImage(fresh.graph, fresh.schema, m.image, true);
        db = fresh;
        applier = new ReplicaApplier(fresh);
        // The applier skips the commits the image already holds.
        const late = pending;
        pending = [];
        for (const c of late) applyCommit(c);
        post({ t: 'ready', seq: fresh.graph.mutationSeq });
      } catch (err) {
        fail(err);
      }
      return;
    }
    case 'commit': {
      if (broken || applier === undefined) {
        pending.push(m);
        return;
      }
      try {
        applyCommit(m);
      } catch (err) {
        fail(err);
      }
      return;
    }
    case 'reset':
      db?.close();
      db = undefined;
      pins.clear();
      applier = undefined;
      broken = false;
      pending = [];
      return;
    case 'capture': {
      if (db === undefined || broken) {
        post({ t: 'image', image: undefined });
        return;
      }
      const image = captureGraphImage(db.graph, db.schema);
      post({ t: 'image', image });
      return;
    }
    case 'pin':
      pins.set(m.id, db === undefined || broken || db.graph.mutationSeq !== m.seq ? 'lost' : db.pin());
      return;
    case 'unpin': {
      const pin = pins.get(m.id);
      pins.delete(m.id);
      if (pin !== undefined && pin !== 'lost') db?.unpin(pin);
      return;
    }
    case 'query': {
      // A pinned read reads its snapshot, wherever the replica is now.
      if (m.pin === undefined && (db === undefined || broken || db.graph.mutationSeq !== m.seq)) {
        post({ t: 'stale', ticket: m.ticket });
        return;
      }
      const cancel = { words: cancelWords, index: m.ticket % CANCEL_WORDS, ticket: m.ticket };
      try {
        // Cancelled (or moved to another worker) while it waited behind the query before it.
        if (cancelRequested(cancel)) throw new QueryCancelledError();
        const params = decodeParams(m.params) as QueryParams | undefined;
        if (db === undefined) throw new TransactionConflictError("The snapshot of this read transaction was lost (its query worker's replica was reloaded); retry the transaction");
        if (m.write) return runWrite(db, m, params, cancel);
        const compiles = db.compileCount;
        const sink = m.stream === undefined ? undefined : new PageSink(m.stream, maxResultCells, (columns, rows) => post({ t: 'page', ticket: m.ticket, columns, records: encodeRecords(rows) }));
        // A transaction's reads are not streamed (their results are built whole), so a pinned read takes no sink.
        const r = m.pin !== undefined ? readPinned(db, m, params, cancel) : db.executeSync(m.text, params, { timeoutMs: m.timeoutMs, readOnly: true, cancel, maxRows: m.maxRows, allow: m.allow, sink });
        checkResultShape(r.records, maxResultCells);
        post({ t: 'result', ticket: m.ticket, columns: r.columns, records: encodeRecords(r.records), elapsedMs: r.elapsedMs, compiled: db.compileCount !== compiles });
      } catch (err) {
        post({ t: 'error', ticket: m.ticket, error: errorData(err) });
      }
    }
  }
}

port.on('message', handle);
