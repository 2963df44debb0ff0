/**
 * `QueryRouter`: where each query of a network door runs. Reads go to the query worker pool
 * (so the main thread stays free and they run in parallel); so do writes, one at a time,
 * each committed on its worker's replica and then applied by the primary Database on the main
 * thread as its own commit. Schema commands and procedures that touch state only the primary
 * holds run on the primary.
 *
 * Which is which is decided without compiling on the main thread, by a quick look at the text
 * (`query-kind.ts`). A text taken for a read goes to a worker as read-only; if the worker
 * finds it writes after all (`WriteInReadOnlyCall`) or calls a primary-only procedure
 * (`PrimaryOnly`), its text is remembered and it runs where it belongs, now and from then on.
 *
 * Writes take turns: while one runs on a worker no other write starts, here or there, so the
 * primary is still at the state the worker ran it against when its commit comes back (a
 * change made around the router — sync, a direct transaction — makes the primary refuse the
 * commit, and the query runs again on the primary). A read is not held up by a write: it sees
 * the state before the write until the write is applied, and every read that starts after a
 * write's acknowledgement sees it; neither is a read the primary must run (SHOW, dbms.*
 * listings), which waits only while a worker's write is being applied — a write in flight may
 * itself be waiting for an explicit transaction's writer slot.
 *
 * Explicit transactions keep their snapshots on the workers (`Database.remoteSnapshots`, set
 * here): their reads run there too.
 *
 * The primary applies a worker's commit a slice per turn of the event loop
 * (`Database.applyWorkerWrite`), so even a bulk write holds the main thread only a few
 * milliseconds at a stretch. Meanwhile nothing the router sends to the primary may run there
 * (it would first finish the apply at once, holding the main thread): reads go to the workers,
 * which are still at the state before the write, and anything else waits for the apply.
 *
 * A query whose text has proved short runs on the primary directly (one long run sends it back
 * to the workers, where it can be stopped). Proved short is no promise (a parameter or the data
 * may make the next run long), so such a run gets a deadline of its own on the main thread,
 * INLINE_SLICE_MS (WRITE_INLINE_SLICE_MS for a write): past it the run is stopped (a write rolls
 * back) and the query runs again on a worker with the time it has left. A read whose recent runs each took under
 * INLINE_MAX_MS, less than the two thread wake-ups a worker costs, and only while the main
 * thread is not saturated, when its time belongs to I/O; a write whose recent runs took under
 * WRITE_INLINE_MAX_MS, no longer than a slice of applying a worker's commit holds the main
 * thread (writes take turns anyway, and applying a small write's commit costs the main thread
 * about as much as running it), all but one (a pause of the process is not the query's).
 * While no worker is ready but one is starting or reloading its replica (a stuck query's
 * thread being replaced, say), queries wait for it, as they do while every worker is busy:
 * only a read or write proved short runs here meanwhile, under its slice. Run here instead, one
 * long read would hold every door until its time limit. Only once the pool has given up
 * starting workers (`servingWorkers` is 0) does everything run on the primary. While every
 * worker is busy, a write that only creates from given values
 * (`isPointWrite`) runs on the primary, which costs less than waiting; any other write waits
 * for the next worker to come free, ahead of the reads waiting then (a write of unknown length
 * on the main thread would hold up every door). A query
 * answered by a worker waits, like one on the primary, until every write it could have seen
 * (its own included) is durable.
 *
 * A query on a worker that calls a procedure reading what only the primary holds (vector and
 * full-text search, skills, graph_rag, db.info, db.indexes) stays there: the router runs just
 * that call on the primary for it (`servePrimaryCall`, `primary-calls.ts`).
 *
 * Every result is checked before a door serialises it (`result-bounds.ts`; a worker checks its
 * own before moving it here), and a read stops as soon as its result passes the door's row
 * limit (`QueryOptions.maxRows`), on whichever thread runs it.
 */

import { GraphDbError, ProcedureError, QueryTimeoutError } from '../../errors.js';
import { DEFAULT_MEMORY_LIMITS } from '../../../runtime/governor.js';
import type { Value } from '../../../runtime/values.js';
import type { Database } from '../database.js';
import { checkResultShape } from '../result-bounds.js';
import type { PageHandler, QueryExecutor, QueryOptions, QueryParams, QueryResult, StreamingRead } from '../types.js';
import { APPLY_SLICE_MS } from './commit-slices.js';
import { PRIMARY_ONLY, servedByPrimary } from './protocol.js';
import { classify, type Placement } from './query-kind.js';
import type { QueryWorkerPool, WorkerWrite } from './worker-pool.js';

/** How many query texts the router remembers the place of. */
const REMEMBERED_TEXTS = 4096;
/**
 * A query whose every recent run took less than this runs on the main thread: handing it to a
 * worker costs a thread wake-up each way (30–70 µs measured here), more than running it.
 */
const INLINE_MAX_MS = 0.5;
/**
 * A write whose every recent run took less than this runs on the main thread: it holds it no
 * longer than a slice of applying a worker's commit would (`APPLY_SLICE_MS`), and costs it less
 * than that commit (decoding, applying), which costs about as much as the run itself.
 */
const WRITE_INLINE_MAX_MS = APPLY_SLICE_MS;
/**
 * Short reads run inline only while the main thread was busy less than this share of the
 * last BUSY_WINDOW_MS: when it is saturated (sockets, parsing) they go to the workers anyway,
 * so that probes and the other connections' I/O are not kept waiting behind them.
 */
const INLINE_MAX_BUSY = 0.5;
const BUSY_WINDOW_MS = 50;
/** Recent runs a query is judged by: all of them short, and at least RUNS_BEFORE_INLINE. */
const RECENT_RUNS = 8;
const RUNS_BEFORE_INLINE = 3;
/**
 * How long a read that proved short may hold the main thread before it is stopped there and
 * run on a worker instead (40 times INLINE_MAX_MS: a slow turn of a short read is not cut).
 */
const INLINE_SLICE_MS = 20;
/** The same for a write that proved short (10 times WRITE_INLINE_MAX_MS); it rolls back before it moves. */
const WRITE_INLINE_SLICE_MS = 50;
/** Rows per page of a streamed read, and how many pages its worker may run ahead of the consumer. */
const STREAM_PAGE_ROWS = 1000;
const STREAM_WINDOW = 4;
/**
 * How long a BEGIN waits for a worker that can hold its snapshot (one starting, replacing a
 * stopped one, or the only one busy with a write): about what starting a worker takes on a
 * loaded machine. Past it the snapshot stays on the primary and the reads run on the main thread.
 */
const BEGIN_WAITS_FOR_WORKER_MS = 10_000;
/** A procedure name as the primary-call text writes it (names are registered ones; this keeps the text a plain CALL). */
const PROCEDURE_NAME = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** What the router knows of one query text. */
interface TextInfo {
  /** Where it runs: as a read or a write on the workers, or on the primary. */
  place: Placement;
  /** Durations of its recent runs in ms, oldest first (runs that compiled it, here or on any worker, left out). */
  recent: number[];
  compiledHere: boolean;
  /** A write that only creates from given values (`isPointWrite`): it need not wait for a worker. */
  point: boolean;
  /** For a text placed on the primary: whether it only reads (`readsOnly`). */
  primaryRead?: boolean;
}

export class QueryRouter implements QueryExecutor {
  /** Query texts and what is known of them, most recent last. */
  private readonly texts = new Map<string, TextInfo>();
  /** The main thread's event-loop utilisation at the start of the current window, and whether it was busy in the last one. */
  private loopSample = performance.eventLoopUtilization();
  private loopBusy = false;
  /** Settles when the write running on a worker has been applied by the primary, or has failed. */
  private writeInFlight: Promise<void> | undefined;

  constructor(
    readonly db: Database,
    readonly pool: QueryWorkerPool | undefined,
  ) {
    // A served database: a large CREATE INDEX must not hold every door while it fills.
    db.fillIndexesInBackground();
    if (pool !== undefined) {
      pool.primaryCalls = (name, args, timeoutMs, atSeq) => this.servePrimaryCall(name, args, timeoutMs, atSeq);
      // Explicit transactions read on the workers too (docs/TRANSACTIONS.md): their snapshots are kept there.
      db.remoteSnapshots = { pin: () => pool.pinSnapshot(), whenPinnable: () => pool.whenPinnable(BEGIN_WAITS_FOR_WORKER_MS) };
    }
  }

  async execute(query: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    const result = await this.place(query, params, options);
    // Worker results were checked there, before they crossed; this covers those made here (cheap: a walk of the rows).
    if (!this.fromWorker.has(result)) checkResultShape(result.records, DEFAULT_MEMORY_LIMITS.maxQueryCells);
    return result;
  }

  /**
   * A read streamed from a worker in pages (`QueryExecutor.stream`); anything else, and any
   * read while no worker is ready (which waits for one as `execute` does), runs as `execute`
   * does and comes whole. The pages are handed
   * on only once every write the read could see is durable, as a whole result would be.
   */
  stream(query: string, params: QueryParams | undefined, options: QueryOptions, onPage: PageHandler): StreamingRead {
    const pool = this.pool;
    const info = this.info(query);
    // A read proved short runs as execute runs it (on this thread when that is cheaper): its result is small anyway.
    if (pool === undefined || pool.readyWorkers === 0 || info.place !== 'read' || this.db.applyPending || (this.provedShort(info, query, options) && !this.mainThreadBusy())) {
      return { result: this.execute(query, params, options), taken: () => undefined };
    }
    let gate: Promise<void> | undefined;
    const opened = (): Promise<void> => (gate ??= Promise.resolve(this.db.storage?.readBarrier()));
    const read = pool.stream(query, params, { timeoutMs: options.timeoutMs, signal: options.signal, allow: options.allow }, (columns, rows) => {
      void opened().then(() => onPage(columns, rows));
    }, STREAM_PAGE_ROWS, STREAM_WINDOW);
    const result = read.result.then(
      async (r) => {
        this.fromWorker.add(r);
        // Only a run that sent no page measures the query (a paged one waited for its consumer).
        if (gate === undefined && !pool.compiledOnWorker(r)) measured(info, r.elapsedMs);
        await opened();
        return r;
      },
      (err: unknown) => {
        // Refused before any row went out (it writes, or needs the primary): it runs where it belongs, whole.
        if (gate === undefined && err instanceof GraphDbError && (err.detail === PRIMARY_ONLY || (err.detail === 'WriteInReadOnlyCall' && options.readOnly !== true))) {
          return this.onPrimaryRefusal(err, query, params, info, options);
        }
        throw err;
      },
    );
    return { result, taken: read.taken };
  }

  /** Results a worker made (already checked there). */
  private readonly fromWorker = new WeakSet<QueryResult>();

  private async place(query: string, params: QueryParams | undefined, options: QueryOptions): Promise<QueryResult> {
    const info = this.info(query);
    // A read-only request runs as a read: one that would write is refused, not rerouted.
    if (info.place === 'read' || (options.readOnly === true && info.place === 'write')) return this.read(query, params, options, info);
    if (info.place === 'write') return this.write(query, params, options, info);
    // A read on the primary (SHOW, dbms.* listings, a read-only request) does not wait behind a write in flight, which may
    // itself be waiting for an explicit transaction's writer slot: only for a worker's write being applied (which it would
    // otherwise finish at once, holding the main thread).
    const reads = options.readOnly === true || this.readsOnly(query, info);
    // Waited for here, not in a helper: the write must start in the same turn of the event loop that finds no write running.
    while (this.writeInFlight !== undefined && (!reads || this.db.applyPending)) await this.writeInFlight;
    return this.db.execute(query, params, reads ? { ...options, readOnly: true } : options);
  }

  private async read(query: string, params: QueryParams | undefined, options: QueryOptions, info: TextInfo): Promise<QueryResult> {
    const pool = this.pool;
    if (pool === undefined || pool.servingWorkers === 0 || info.place !== 'read') {
      // On the primary: after a worker's write being applied there (it sees all of it), not in the middle.
      while (this.writeInFlight !== undefined && this.db.applyPending) await this.writeInFlight;
      return this.db.execute(query, params, options);
    }
    // While a worker's write is being applied the workers answer (from the state before it): the primary would finish it first.
    let timeoutMs = options.timeoutMs;
    if (!this.db.applyPending && this.provedShort(info, query, options) && !this.mainThreadBusy()) {
      // A short read: cheaper here than the round trip (a run that turns out long is cut at its slice and runs again on a worker).
      const slice = sliceOf(timeoutMs, INLINE_SLICE_MS);
      try {
        const result = await this.db.execute(query, params, { ...options, readOnly: true, timeoutMs: slice.ms });
        measured(info, result.elapsedMs);
        return result;
      } catch (err) {
        if (!(slice.cut && err instanceof QueryTimeoutError)) return this.onPrimaryRefusal(err, query, params, info, options);
        measured(info, slice.ms);
        timeoutMs = slice.left();
      }
    }
    let result: QueryResult;
    try {
      result = await pool.run(query, params, { timeoutMs, signal: options.signal, maxRows: options.maxRows, allow: options.allow });
    } catch (err) {
      return this.onPrimaryRefusal(err, query, params, info, options);
    }
    this.fromWorker.add(result);
    if (!pool.compiledOnWorker(result)) measured(info, result.elapsedMs);
    await this.db.storage?.readBarrier();
    return result;
  }

  private async write(query: string, params: QueryParams | undefined, options: QueryOptions, info: TextInfo): Promise<QueryResult> {
    const pool = this.pool;
    while (this.writeInFlight !== undefined) await this.writeInFlight;
    // A replica refuses writes: it says so at once, with no replica's worth of work thrown away.
    const refused = this.db.replication?.writesEnabled === false;
    if (pool === undefined || pool.servingWorkers === 0 || refused) return this.db.execute(query, params, options);
    // With every worker busy, a few CREATEs run here; any other write waits for a worker (runWrite queues it first).
    if (info.point && pool.idleWorkers === 0) return this.db.execute(query, params, options);
    if (this.provedShort(info, query, options, true)) {
      // Writes take turns anyway: a short one costs the main thread less run here than applied from a worker (cut at its slice, it rolls back and goes there).
      const slice = sliceOf(options.timeoutMs, WRITE_INLINE_SLICE_MS);
      try {
        const result = await this.db.execute(query, params, { ...options, timeoutMs: slice.ms });
        measured(info, result.elapsedMs);
        return result;
      } catch (err) {
        if (!(slice.cut && err instanceof QueryTimeoutError)) throw err;
        // Twice: a write forgives one long run. Then in turn again (another write may have started meanwhile), now on a worker.
        measured(info, slice.ms);
        measured(info, slice.ms);
        return this.write(query, params, { ...options, timeoutMs: slice.left() }, info);
      }
    }
    let done!: () => void;
    this.writeInFlight = new Promise<void>((resolve) => (done = resolve));
    let outcome: WorkerWrite | undefined;
    let durable: Promise<void> | undefined;
    try {
      try {
        outcome = await pool.runWrite(query, params, { timeoutMs: options.timeoutMs, signal: options.signal, allow: options.allow });
      } catch (err) {
        if (!(err instanceof GraphDbError && err.detail === PRIMARY_ONLY)) throw err;
        info.place = 'primary';
        return this.db.execute(query, params, options);
      }
      const commit = outcome.commit;
      if (commit !== undefined) {
        let applied: { durable: Promise<void> } | undefined;
        try {
          // In slices: the main thread answers the doors between them.
          applied = await this.db.applyWorkerWrite(commit.before, commit.packed);
        } finally {
          outcome.settle(applied !== undefined);
        }
        // The graph moved since the worker ran it (a change made around the router): it runs here instead.
        if (applied === undefined) return this.db.execute(query, params, options);
        durable = applied.durable;
      }
    } finally {
      this.writeInFlight = undefined;
      done();
    }
    if (!pool.compiledOnWorker(outcome.result)) measured(info, outcome.result.elapsedMs);
    await (durable ?? this.db.storage?.readBarrier());
    if (outcome.resultError !== undefined) throw outcome.resultError;
    this.fromWorker.add(outcome.result);
    return outcome.result;
  }

  /**
   * The rows of `name(args)` run on the primary for a query on a worker, read-only and within
   * the query's remaining time; after a worker's write being applied (it would finish it at once).
   */
  private async servePrimaryCall(name: string, args: Value[], timeoutMs: number | undefined, atSeq?: number): Promise<Value[][]> {
    const def = this.db.procedures.get(name);
    if (def === undefined || !servedByPrimary(def) || !PROCEDURE_NAME.test(name)) {
      throw new ProcedureError(`${name} is not a procedure the primary serves to query workers`, 'ProcedureNotFound', 'runtime');
    }
    while (this.writeInFlight !== undefined && this.db.applyPending) await this.writeInFlight;
    if (atSeq !== undefined && (this.db.applyPending || this.db.committedSeq !== atSeq)) {
      // The same rule as a transaction's primary-only read (Database.primaryOnlyRead): the primary's indexes are its current state only.
      throw new ProcedureError(
        `${name} reads what only the primary holds, which cannot read the snapshot of a transaction once other writes have committed since it began; run it outside the transaction`,
        'NotInSnapshot',
        'runtime',
      );
    }
    const params: Record<string, Value> = {};
    for (let i = 0; i < args.length; i++) params[`a${i}`] = args[i];
    const text = `CALL ${name}(${args.map((_, i) => `$a${i}`).join(', ')})`;
    // Only read procedures are served, so the caller's grant (checked at the call on its worker) covers it; read is all this run may do.
    return (await this.db.execute(text, params, { readOnly: true, timeoutMs, allow: ['read'] })).records;
  }

  /** Whether every recent run of the text was short (compiling it here first, apart, so that the runs here are measured without it). */
  private provedShort(info: TextInfo, query: string, options: QueryOptions, write = false): boolean {
    if (info.recent.length < RUNS_BEFORE_INLINE) return false;
    // A write forgives one long run among its recent ones (a pause of the process, not of the query): it would go to a worker, and wait there behind the others.
    if (write ? secondLongest(info.recent) >= WRITE_INLINE_MAX_MS : Math.max(...info.recent) >= INLINE_MAX_MS) return false;
    if (!info.compiledHere) {
      info.compiledHere = true;
      try {
        this.db.isMutating(query, options.timeoutMs);
      } catch {
        // The run reports it.
      }
    }
    return true;
  }

  /** Whether a text placed on the primary changes nothing (compiled here once; one that does not compile is taken for a write, and its run reports the error). */
  private readsOnly(query: string, info: TextInfo): boolean {
    if (info.primaryRead === undefined) {
      try {
        info.primaryRead = !this.db.txWrites(query);
      } catch {
        return false;
      }
    }
    return info.primaryRead;
  }

  /** Whether the event loop was busy more than INLINE_MAX_BUSY of the last window (sampled at most once per window). */
  private mainThreadBusy(): boolean {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, this.loopSample);
    if (window.idle + window.active >= BUSY_WINDOW_MS) {
      this.loopBusy = window.utilization > INLINE_MAX_BUSY;
      this.loopSample = now;
    }
    return this.loopBusy;
  }

  /** A read-only attempt refused because the query writes or needs the primary: it runs there from now on (unless the caller asked for a read). */
  private async onPrimaryRefusal(err: unknown, query: string, params: QueryParams | undefined, info: TextInfo, options: QueryOptions): Promise<QueryResult> {
    if (!(err instanceof GraphDbError)) throw err;
    if (err.detail === PRIMARY_ONLY) info.place = 'primary';
    else if (err.detail === 'WriteInReadOnlyCall' && options.readOnly !== true) info.place = 'write';
    else throw err;
    return this.execute(query, params, options);
  }

  private info(query: string): TextInfo {
    let info = this.texts.get(query);
    if (info === undefined) {
      info = { ...classify(query, this.db.procedures), recent: [], compiledHere: false };
      if (this.texts.size >= REMEMBERED_TEXTS) this.texts.delete(this.texts.keys().next().value as string);
      this.texts.set(query, info);
    }
    return info;
  }
}

/**
 * The time limit of a run on the main thread: the slice, or the query's own limit when that
 * is shorter (`cut` false: its timeout is the query's). `left` is what remains of the query's
 * limit once the slice is spent (undefined: the default, 0: none).
 */
function sliceOf(timeoutMs: number | undefined, sliceMs: number): { ms: number; cut: boolean; left(): number | undefined } {
  if (timeoutMs !== undefined && timeoutMs > 0 && timeoutMs <= sliceMs) return { ms: timeoutMs, cut: false, left: () => timeoutMs };
  const started = performance.now();
  return { ms: sliceMs, cut: true, left: () => (timeoutMs === undefined || timeoutMs === 0 ? timeoutMs : Math.max(1, timeoutMs - (performance.now() - started))) };
}

/** The second longest of `runs` (at least two). */
function secondLongest(runs: readonly number[]): number {
  let first = -Infinity;
  let second = -Infinity;
  for (const ms of runs) {
    if (ms > first) [first, second] = [ms, first];
    else if (ms > second) second = ms;
  }
  return second;
}

function measured(info: TextInfo, ms: number): void {
  info.recent.push(ms);
  if (info.recent.length > RECENT_RUNS) info.recent.shift();
}
