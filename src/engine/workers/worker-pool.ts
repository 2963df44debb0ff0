/**
 * `QueryWorkerPool`: queries on worker threads, so the main thread stays free for sockets and
 * probes, readers run in parallel, and any query can be stopped.
 *
 * Each worker holds a replica of the primary graph (`query-worker.ts`): it starts from a
 * graph image and then applies every commit the primary makes, posted from the primary's
 * commit observer before the writing call returns. A query is posted to an idle worker after
 * every commit before it, on the same port, so it sees every write acknowledged before it
 * started and never a half-applied one. A worker found out of step (`stale`, `broken`) gets
 * a fresh image and the query runs again.
 *
 * A write (`runWrite`) goes only to an idle worker and commits on its replica; the caller
 * applies the commit to the primary and then settles it. Until then the worker is given
 * nothing else: a query behind it would find its replica ahead of the primary. A write waits
 * ahead of the reads waiting: none is handed out until it has its worker, so a steady stream of
 * reads cannot keep every worker busy forever.
 *
 * A large commit (more than `SPREAD_CHARS` of payloads) is copied to one worker per turn of
 * the event loop, not to all of them in the commit's turn, so that the main thread is not held
 * for N copies at once; any message to a worker (a query above all) first posts the commits it
 * has not been sent yet, so the order on its port stays that of the commits.
 *
 * A worker is given up to `DEPTH` queries at once, so that it finds the next one waiting
 * when it finishes one instead of idling through a round trip to the main thread. A query
 * waiting behind another on a busy worker moves to a worker that becomes idle.
 *
 * Stopping: a caller's AbortSignal writes the query's ticket into its word of the worker's
 * cancel array, which the query's deadline checks read (runtime/governor.ts) and the worker
 * reads before starting it. A worker that does not stop within `STUCK_GRACE_MS` of its
 * cancel or deadline — code that never reaches a check — is terminated and replaced, and its
 * caller gets a clear error; a read has nothing to roll back.
 *
 * An explicit transaction's snapshot is pinned on one worker (`pinSnapshot`): that worker's
 * replica keeps the state (its own ReadSnapshots) and the transaction's reads go to that worker
 * alone, never moved to another; a reload or replacement of the worker loses its snapshots,
 * and their next reads fail with a retryable conflict.
 *
 * A worker's query may ask for the rows of a procedure only the primary can run
 * (`primary-calls.ts`): the pool hands the `call` to `primaryCalls` (the router's) and posts
 * the answer on that worker's call port, bumping the word the worker waits on.
 */

import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { GraphDbError, InternalError, ProcedureError, QueryCancelledError, QueryTimeoutError, TransactionConflictError } from '../../errors.js';
import type { RemotePin } from '../read-snapshots.js';
import type { Value } from '../../../runtime/values.js';
import { captureGraphImage, type GraphImage } from '../../store/persist/graph-image.js';
import { zeroStats } from '../../store/graph.js';
import type { Database } from '../database.js';
import type { PageHandler, QueryOptions, QueryParams, QueryResult, StreamingRead } from '../types.js';
import type { StreamRequest } from './row-pages.js';
import { type CallReply, CANCEL_WORDS, errorData, type FromWorker, PRIMARY_ONLY, type ToWorker, type WorkerData, type WorkerDatabaseOptions, WorkerQueryError, type WrittenData } from './protocol.js';

export { WorkerQueryError } from './protocol.js';
import { decodeFromTransfer, decodeRecords, encodeParams, encodeRecords } from './value-transfer.js';
import { DoorSequences, type WorkerDoorConfig } from './door-protocol.js';
import { moduleWorkerBootstrap, moduleWorkerEntry, type ModuleWorkerEntry } from './module-worker.js';

/** How long a worker may go on after its query's cancel or deadline before it is replaced. */
export const STUCK_GRACE_MS = 1000;
/** Queries given to one worker at once: the one it runs and the next. */
const DEPTH = 2;
/** Payload characters above which a commit is copied to one worker per turn (see the module comment). */
const SPREAD_CHARS = 256 * 1024;
/** Replacement workers that may fail to start in a row before the pool stops replacing them. */
const MAX_START_FAILURES = 3;

/** A write a worker ran on its replica: the primary applies `commit` as its own, then calls `settle`. */
export interface WorkerWrite {
  result: QueryResult;
  commit?: WrittenData['commit'];
  /** The error the caller gets once the commit is applied, when the result could not cross (too deep or too large). */
  resultError?: Error;
  /**
   * Frees the worker for other queries once the primary has applied the commit (`applied`),
   * or gives it a fresh image when the primary refused it (its replica holds a write the
   * primary does not). Only needed when there is a commit.
   */
  settle(applied: boolean): void;
}

export interface RunOptions {
  timeoutMs?: number;
  /** What the caller may do (QueryOptions.allow), enforced on the worker as on the primary. */
  allow?: QueryOptions['allow'];
  /** Stops the query (cancel request, client gone). */
  signal?: AbortSignal;
  /** A read stops, on its worker, once its result passes this many rows (LIMIT_EXCEEDED). */
  maxRows?: number;
}

/**
 * Runs a procedure that reads what only the primary holds, for a query on a worker
 * (`primary-calls.ts`): its rows, within `timeoutMs` (the query's remaining time).
 */
/** `atSeq`: the call reads a transaction's snapshot, the committed state at that sequence (refused once the primary has moved on). */
export type PrimaryCallHandler = (name: string, args: Value[], timeoutMs: number | undefined, atSeq?: number) => Promise<Value[][]>;

interface Job {
  ticket: number;
  /** May change the graph: its commit comes back for the primary, and nothing queues behind it on its worker. */
  write: boolean;
  text: string;
  params: ReturnType<typeof encodeParams>;
  timeoutMs: number | undefined;
  allow: QueryOptions['allow'];
  signal: AbortSignal | undefined;
  maxRows: number | undefined;
  /** A streamed read: its pages go to `onPage` as they come (`row-pages.ts`). */
  stream?: { request: StreamRequest; onPage: PageHandler; paged: boolean };
  resolve(result: QueryResult, written?: WrittenData): void;
  reject(err: Error): void;
  started: number;
  /** Runs again after a fresh image this many more times at most. */
  retries: number;
  slot?: Slot;
  /** A read of an explicit transaction on the snapshot its worker holds: it runs there or nowhere. */
  pin?: WorkerPin;
  stuckTimer?: NodeJS.Timeout;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  /** CANCEL_WORDS words: a query's ticket written into word `ticket % CANCEL_WORDS` stops it. */
  cancel: Int32Array;
  ready: boolean;
  /** The queries posted to the worker, in order: the first is running (or about to). */
  jobs: Job[];
  /** Set once the worker is being replaced: its messages no longer count. */
  retired: boolean;
  /** Workers waiting for the image this one was asked to capture, in the order asked. */
  imageFor: Slot[];
  /** Holds a write's commit the primary has not applied yet: it runs nothing else until then. */
  held: boolean;
  /** Commits not posted to the worker yet, in order: any message to it posts them first (`send`). */
  unposted: ToWorker[];
  /** Where the answers to the worker's procedure calls go, and the word bumped after each (`primary-calls.ts`). */
  calls: MessagePort;
  callSignal: Int32Array;
  /** Explicit transactions' snapshots this worker's replica holds (`pinSnapshot`). */
  pins: Set<WorkerPin>;
  /** Names the worker in the HTTP door's answers (`worker-<id>`). */
  id: number;
  /** Settles the worker's answer to a `door` or `door-close` message. */
  doorAnswer?: (open: boolean, error?: string) => void;
  /** Whether the worker serves the HTTP door, or has been asked to (once only: each asking costs a copy of the socket). */
  doorOpen: boolean;
  doorAsked: boolean;
}

/** A snapshot on one worker: `lost` once that worker's replica is reloaded or the worker replaced. */
interface WorkerPin {
  id: number;
  seq: number;
  slot: Slot;
  lost: boolean;
}

const LOST_SNAPSHOT = "The snapshot of this read transaction was lost (its query worker was replaced or reloaded); retry the transaction";

/** The query worker's bootstrap (module-worker.ts); a process run from the sources prefers a current build (compiledWorkerEntry). */
const BOOTSTRAP = moduleWorkerBootstrap('a query worker');

/** The directories whose TypeScript a query worker runs (relative to the repository root). */
const WORKER_SOURCES = ['src', 'codegen', 'runtime', 'procedures', 'functions'];

/**
 * For a process run from the TypeScript sources (vitest, tsx) in the repository at `root`: the
 * compiled worker in dist/ when the last build is newer than every source file, so it is the
 * same code. A worker then starts on about a fifth of the CPU that loading the sources through
 * tsx takes. Undefined when there is no such build (never built, or a source edited since).
 */
export function compiledWorkerEntry(root: string): string | undefined {
  const entry = join(root, 'dist', 'src', 'engine', 'workers', 'query-worker.js');
  // `npm run build`'s tsc rewrites its record whenever it compiles anything.
  const record = join(root, 'dist', 'tsconfig.tsbuildinfo');
  if (!existsSync(entry) || !existsSync(record)) return undefined;
  const builtAt = statSync(record).mtimeMs;
  const editedSince = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? editedSince(join(dir, e.name)) : e.name.endsWith('.ts') && statSync(join(dir, e.name)).mtimeMs > builtAt));
  if (WORKER_SOURCES.some((dir) => existsSync(join(root, dir)) && editedSince(join(root, dir)))) return undefined;
  return pathToFileURL(entry).href;
}

/** compiledWorkerEntry of this repository, looked up once per process. */
let compiledEntry: { href: string | undefined } | undefined;

function workerEntry(): ModuleWorkerEntry {
  if (fileURLToPath(import.meta.url).endsWith('.ts')) {
    compiledEntry ??= { href: compiledWorkerEntry(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')) };
    if (compiledEntry.href !== undefined) return { entry: compiledEntry.href };
  }
  return moduleWorkerEntry(import.meta.url, 'query-worker');
}

export class QueryWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextTicket = 1;
  private nextPin = 1;
  /** BEGINs waiting for a worker that can hold their snapshot (`whenPinnable`). */
  private readonly pinWaiters = new Set<() => void>();
  /** The primary's mutation sequence after the last commit posted to the workers. */
  private postedSeq: number;
  private readonly stopObserving: () => void;
  private closed = false;
  private readonly entry = workerEntry();
  /** Set while a turn is scheduled to post unposted commits (`spreadCommits`). */
  private spreading = false;
  /** Results of runs that compiled their text on the worker (`compiledOnWorker`). */
  private readonly compiledRuns = new WeakSet<QueryResult>();
  /** Workers in a row that stopped before they were ever ready: past MAX_START_FAILURES no more are started. */
  private startFailures = 0;
  /** Serves the workers' calls of procedures only the primary can run (set by the router); without it such calls are refused (PrimaryOnly). */
  primaryCalls: PrimaryCallHandler | undefined;
  /** The primary's committed and durable sequences, shared with every worker (for the doors they serve). */
  private readonly sequences = new DoorSequences(new SharedArrayBuffer(DoorSequences.BYTES));
  /** While the workers serve the HTTP door: the settings each worker (a replacement too) is given, by its name. */
  private doorSettings: ((thread: string) => Promise<WorkerDoorConfig>) | undefined;
  private nextId = 1;

  private constructor(
    private readonly db: Database,
    private readonly options: WorkerDatabaseOptions,
    private readonly log: (line: string) => void,
  ) {
    this.postedSeq = db.graph.mutationSeq;
    this.sequences.publishCommitted(db.committedSeq);
    this.publishDurable(db.committedSeq);
    this.stopObserving = db.observeCommits((commit) => {
      const after = db.committedSeq;
      // Before the commit reaches any worker: a worker's door that sees it applied knows it is committed.
      this.sequences.publishCommitted(after);
      this.publishDurable(after);
      const payloads = commit.encoded;
      const message: ToWorker = { t: 'commit', before: this.postedSeq, after, payloads, merged: db.graph.takeMergedBases(after) };
      this.postedSeq = after;
      let chars = 0;
      for (const p of payloads) chars += p.length;
      let copies = chars > SPREAD_CHARS ? 1 : Infinity;
      for (const slot of this.slots) {
        if (slot.retired) continue;
        // The worker holding a write holds this commit already when it is that write's (it skips it by sequence): no copy of its records.
        // (Any other commit while it holds one makes the primary refuse that write, and the worker is reloaded.)
        const own: ToWorker | undefined = slot.held ? { ...message, payloads: [] } : undefined;
        if (slot.unposted.length === 0 && (own !== undefined || copies-- > 0)) slot.worker.postMessage(own ?? message);
        else slot.unposted.push(own ?? message);
      }
      this.spreadCommits();
    });
  }

  /** Publishes `seq` as durable once every commit up to it is on disk. */
  private publishDurable(seq: number): void {
    const barrier = this.db.storage?.readBarrier();
    if (barrier === undefined) this.sequences.publishDurable(seq);
    else barrier.then(() => this.sequences.publishDurable(seq), () => undefined);
  }

  /** Posts the commits left unposted to one more worker on each later turn of the event loop, until none is left. */
  private spreadCommits(): void {
    if (this.spreading || !this.slots.some((s) => s.unposted.length > 0)) return;
    this.spreading = true;
    setImmediate(() => {
      this.spreading = false;
      const slot = this.slots.find((s) => s.unposted.length > 0);
      if (slot !== undefined) this.send(slot);
      this.spreadCommits();
    });
  }

  /** Posts `message` to `slot`'s worker after the commits it has not been sent yet (with none, only those). */
  private send(slot: Slot, message?: ToWorker): void {
    if (slot.retired) slot.unposted = [];
    for (const commit of slot.unposted.splice(0)) slot.worker.postMessage(commit);
    if (message !== undefined) slot.worker.postMessage(message);
  }

  /**
   * Whether `result` (of `run`, or of `runWrite` as its `result`) came from a run that compiled
   * its text on the worker: each worker compiles each text once, and such a run says nothing of
   * how long the query takes.
   */
  compiledOnWorker(result: QueryResult): boolean {
    return this.compiledRuns.has(result);
  }

  /** Starts `workers` threads, each with a replica of `db`, and resolves once all are ready. */
  static async start(db: Database, workers: number, log: (line: string) => void = () => undefined): Promise<QueryWorkerPool> {
    const pool = new QueryWorkerPool(db, db.replicaOptions(), log);
    const image = captureGraphImage(db.graph, db.schema);
    const ready = Array.from({ length: workers }, () => pool.spawn(image));
    try {
      await Promise.all(ready);
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Workers holding a loaded replica (a replacement is not ready until its image is in). */
  get readyWorkers(): number {
    return this.slots.filter((s) => s.ready && !s.retired).length;
  }

  /**
   * Workers ready or on their way (starting, or reloading their replica): a query queued now
   * will be served by one of them. Zero only once the pool has given up replacing its workers.
   */
  get servingWorkers(): number {
    // Asked for every routed query: counted without making an array.
    let n = 0;
    for (const s of this.slots) if (!s.retired) n++;
    return n;
  }

  /** Workers free to start a query at once. */
  get idleWorkers(): number {
    let n = 0;
    for (const s of this.slots) if (this.takes(s) && s.jobs.length === 0) n++;
    return n;
  }

  /** Runs a read-only query on a worker (WriteInReadOnlyCall and PrimaryOnly errors tell the caller to use the primary). */
  run(text: string, params: QueryParams | undefined, options: RunOptions = {}): Promise<QueryResult> {
    return this.submit(text, params, options, false, (result) => result);
  }

  /**
   * Settles once a worker could take a snapshot (`pinSnapshot` would not answer undefined), the
   * pool has no worker left to wait for, or `maxWaitMs` has passed.
   */
  whenPinnable(maxWaitMs: number): Promise<void> {
    if (this.pinnable()) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.pinWaiters.delete(waiter);
        resolve();
      }, maxWaitMs);
      this.pinWaiters.add(waiter);
    });
  }

  /** Whether a BEGIN waiting in `whenPinnable` may go on: a worker can hold its snapshot, or none ever will. */
  private pinnable(): boolean {
    return this.closed || this.servingWorkers === 0 || this.slots.some((s) => this.takes(s));
  }

  /**
   * Pins a snapshot of the state the workers hold now (the primary's committed state) on the
   * least busy worker, for an explicit transaction's reads (`RemotePin.read` runs them there,
   * whatever commits meanwhile: the worker's replica keeps a frozen copy once it moves on).
   * Undefined when no worker can take it now.
   */
  pinSnapshot(): RemotePin | undefined {
    if (this.closed) return undefined;
    let slot: Slot | undefined;
    for (const s of this.slots) if (this.takes(s) && (slot === undefined || s.jobs.length + s.pins.size < slot.jobs.length + slot.pins.size)) slot = s;
    if (slot === undefined) return undefined;
    const pin: WorkerPin = { id: this.nextPin++, seq: this.db.committedSeq, slot, lost: false };
    slot.pins.add(pin);
    this.send(slot, { t: 'pin', id: pin.id, seq: pin.seq });
    return {
      seq: pin.seq,
      read: (text, params, options) => this.runPinned(pin, text, params, options),
      release: () => {
        if (!slot.pins.delete(pin) || pin.lost || slot.retired) return;
        this.send(slot, { t: 'unpin', id: pin.id });
      },
    };
  }

  /**
   * Runs a read-only query on a worker handing its rows to `onPage` a page at a time while it
   * runs; the worker stays at most `window` untaken pages ahead (`taken` counts one taken).
   */
  stream(text: string, params: QueryParams | undefined, options: RunOptions, onPage: PageHandler, pageRows: number, window: number): StreamingRead {
    const credit = new SharedArrayBuffer(4);
    const word = new Int32Array(credit);
    const stream = { request: { pageRows, window, credit }, onPage, paged: false };
    return {
      result: this.submit(text, params, options, false, (result) => result, undefined, stream),
      taken: () => {
        Atomics.add(word, 0, 1);
        Atomics.notify(word, 0);
      },
    };
  }

  /** Runs a read on `pin`'s snapshot, on its worker (after whatever that worker is running). */
  private runPinned(pin: WorkerPin, text: string, params: QueryParams | undefined, options: RunOptions): Promise<QueryResult> {
    if (pin.lost || pin.slot.retired) return Promise.reject(new TransactionConflictError(LOST_SNAPSHOT));
    return this.submit(text, params, options, false, (result) => result, pin);
  }

  /** The snapshots a worker held are gone with its replica: their transactions' next reads conflict. */
  private losePins(slot: Slot): void {
    for (const pin of slot.pins) pin.lost = true;
    slot.pins.clear();
  }

  /**
   * Runs a query that may write on a worker, against the primary's state when it was sent.
   * The caller must apply its commit to the primary before anything else changes it, then
   * `settle` it (a PrimaryOnly error tells the caller to run it on the primary instead).
   */
  runWrite(text: string, params: QueryParams | undefined, options: RunOptions = {}): Promise<WorkerWrite> {
    return this.submit(text, params, options, true, (result, written, slot) => {
      if (written === undefined) throw new InternalError('A query worker answered a write without its outcome');
      const commit = written.commit;
      if (commit !== undefined) slot.held = true;
      let settled = false;
      return {
        result: { ...result, stats: written.stats, mutated: written.mutated },
        commit,
        resultError: written.resultError === undefined ? undefined : new WorkerQueryError(written.resultError),
        settle: (applied) => {
          if (commit === undefined || settled) return;
          settled = true;
          slot.held = false;
          if (!applied) this.reload(slot, true);
          this.pump();
        },
      };
    });
  }

  private submit<T>(text: string, params: QueryParams | undefined, options: RunOptions, write: boolean, outcome: (result: QueryResult, written: WrittenData | undefined, slot: Slot) => T, pin?: WorkerPin, stream?: Job['stream']): Promise<T> {
    if (this.closed) return Promise.reject(new InternalError('The query worker pool is closed'));
    if (options.signal?.aborted) return Promise.reject(new QueryCancelledError());
    let encoded: ReturnType<typeof encodeParams>;
    try {
      encoded = encodeParams(params);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        ticket: this.nextTicket++,
        write,
        text,
        params: encoded,
        timeoutMs: options.timeoutMs ?? this.options.queryTimeoutMs,
        allow: options.allow,
        signal: options.signal,
        maxRows: options.maxRows,
        stream,
        resolve: (result, written) => {
          try {
            resolve(outcome(result, written, job.slot!));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        },
        reject,
        started: performance.now(),
        retries: 2,
        pin,
      };
      if (job.signal) {
        job.onAbort = () => this.cancel(job);
        job.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (pin !== undefined) {
        // Straight to the worker that holds the snapshot, behind what it has (it never moves: `rebalance` skips it).
        this.post(job, pin.slot);
      } else if (write) {
        // Ahead of the waiting reads, behind any waiting write.
        let at = 0;
        while (at < this.queue.length && this.queue[at].write) at++;
        this.queue.splice(at, 0, job);
      } else {
        this.queue.push(job);
      }
      this.pump();
    });
  }

  // ---------------------------------------------------------------- the HTTP door on the workers

  /**
   * Has every worker (and every replacement, while this holds) serve the HTTP door, with the
   * settings `settings` gives for its name. Resolves with the number of workers serving it;
   * a worker that cannot is logged and left to answer the pool's queries only.
   */
  async openDoors(settings: (thread: string) => Promise<WorkerDoorConfig>): Promise<number> {
    this.doorSettings = settings;
    // A worker still loading its replica serves the door too: its door relays every request until the replica is in.
    const opened = await Promise.all(this.slots.filter((s) => !s.retired).map((s) => this.openDoor(s)));
    return opened.filter(Boolean).length;
  }

  /** Stops every worker serving the door (each closes its own copy of the socket). */
  async closeDoors(): Promise<void> {
    this.doorSettings = undefined;
    await Promise.all(
      this.slots.filter((s) => s.doorOpen && !s.retired).map((slot) => this.askDoor(slot, { t: 'door-close' }).then(() => undefined)),
    );
  }

  private async openDoor(slot: Slot): Promise<boolean> {
    const settings = this.doorSettings;
    if (settings === undefined || slot.retired || slot.doorAsked) return slot.doorOpen;
    slot.doorAsked = true;
    try {
      const config = await settings(`worker-${slot.id}`);
      const answer = await this.askDoor(slot, { t: 'door', config });
      if (answer.error !== undefined) this.log(`graphdb: query worker ${slot.id} cannot serve the HTTP door (${answer.error}); the other threads do`);
      return answer.open;
    } catch (err) {
      this.log(`graphdb: query worker ${slot.id} cannot serve the HTTP door (${err instanceof Error ? err.message : String(err)}); the other threads do`);
      return false;
    }
  }

  /** Posts a door message and waits for the worker's answer (none comes from a worker that stops: it counts as closed). */
  private askDoor(slot: Slot, message: ToWorker): Promise<{ open: boolean; error?: string }> {
    return new Promise((resolve) => {
      const gone = (): void => resolve({ open: false, error: 'the worker stopped' });
      slot.worker.once('exit', gone);
      slot.doorAnswer = (open, error) => {
        slot.worker.off('exit', gone);
        resolve({ open, error });
      };
      this.send(slot, message);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopObserving();
    for (const go of this.pinWaiters) go();
    this.pinWaiters.clear();
    for (const job of this.queue.splice(0)) this.finish(job, new QueryCancelledError('The server is shutting down; the query was not run'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        slot.retired = true;
        for (const job of slot.jobs.splice(0)) this.finish(job, new QueryCancelledError('The server is shutting down; the query was stopped'));
        slot.calls.close();
        return slot.worker.terminate();
      }),
    );
  }

  // ---------------------------------------------------------------- workers

  /** A new worker, loaded from `image`, or else from an idle worker's replica (or, when none is idle, a capture here). */
  private spawn(image?: GraphImage): Promise<void> {
    const cancel = new SharedArrayBuffer(4 * CANCEL_WORDS);
    const calls = new MessageChannel();
    const callSignal = new SharedArrayBuffer(4);
    const data: WorkerData & { entry: string; tsx?: string } = { options: this.options, cancel, calls: { port: calls.port2, signal: callSignal }, sequences: this.sequences.buffer, ...this.entry };
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: data, transferList: [calls.port2] });
    const slot: Slot = {
      worker,
      cancel: new Int32Array(cancel),
      ready: false,
      jobs: [],
      retired: false,
      imageFor: [],
      held: false,
      unposted: [],
      calls: calls.port1,
      callSignal: new Int32Array(callSignal),
      pins: new Set(),
      id: this.nextId++,
      doorOpen: false,
      doorAsked: false,
    };
    this.slots.push(slot);
    let started = false;
    const ready = new Promise<void>((resolve, reject) => {
      slot.worker.once('exit', (code) => {
        if (!started) this.startFailures++;
        reject(new InternalError(`A query worker stopped while starting (exit code ${code})`));
      });
      worker.on('message', (m: FromWorker) => {
        if (m.t === 'ready') {
          if (!started) this.startFailures = 0;
          started = true;
          resolve();
        } else if (m.t === 'broken' && !slot.ready) reject(new InternalError(`A query worker could not load the graph: ${m.message}`));
      });
    });
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m));
    worker.on('error', (err) => this.onExit(slot, err));
    worker.on('exit', () => this.onExit(slot, undefined));
    if (image) this.send(slot, { t: 'image', image });
    else this.sendImage(slot, true);
    // A replacement serves the door too.
    if (this.doorSettings !== undefined) void this.openDoor(slot);
    return ready;
  }

  /**
   * Gives `slot` a fresh image of the graph: captured by an idle worker from its replica when
   * there is one and `fromReplica` allows (a replacement: the replicas are in step), so that the
   * main thread is not held for the copy; else captured here (a reload after a replica was
   * found out of step: the others may be too). The commits posted to `slot` meanwhile wait in
   * it and are applied after the image.
   */
  private sendImage(slot: Slot, fromReplica: boolean): void {
    const donor = fromReplica ? this.slots.find((s) => s !== slot && s.ready && !s.retired && s.jobs.length === 0 && s.imageFor.length === 0) : undefined;
    if (donor === undefined) {
      this.send(slot, { t: 'image', image: captureGraphImage(this.db.graph, this.db.schema) });
      return;
    }
    donor.imageFor.push(slot);
    this.send(donor, { t: 'capture' });
  }

  /** A donor's image (or its refusal) reaches the worker that waits for it. */
  private forwardImage(donor: Slot, image: GraphImage | undefined): void {
    const recipient = donor.imageFor.shift();
    if (recipient === undefined || recipient.retired) return;
    this.send(recipient, { t: 'image', image: image ?? captureGraphImage(this.db.graph, this.db.schema) });
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (slot.retired) return;
    switch (m.t) {
      case 'ready':
        slot.ready = true;
        this.pump();
        return;
      case 'broken':
        this.log(`graphdb: a query worker's replica fell out of step (${m.message}); reloading it`);
        this.reload(slot);
        return;
      case 'image':
        this.forwardImage(slot, m.image);
        return;
      case 'door': {
        const answer = slot.doorAnswer;
        slot.doorAnswer = undefined;
        slot.doorOpen = m.open;
        answer?.(m.open, m.error);
        return;
      }
      case 'call':
        this.serveCall(slot, m);
        return;
      case 'page': {
        const job = slot.jobs.find((j) => j.ticket === m.ticket);
        if (job?.stream === undefined) return;
        job.stream.paged = true;
        job.stream.onPage(m.columns, decodeRecords(m.records));
        return;
      }
    }
    const at = slot.jobs.findIndex((j) => j.ticket === m.ticket);
    // A query that moved to another worker, or was given up, answers here to nobody.
    if (at < 0) return;
    const [job] = slot.jobs.splice(at, 1);
    switch (m.t) {
      case 'result': {
        const result: QueryResult = { columns: m.columns, records: decodeRecords(m.records), stats: zeroStats(), mutated: false, elapsedMs: m.elapsedMs };
        if (m.compiled) this.compiledRuns.add(result);
        this.finish(job, undefined, result, m.written);
        break;
      }
      case 'error':
        // A lost snapshot is the retryable conflict it was on the worker (drivers and db.transaction() retry it).
        this.finish(job, m.error.code === 'TX_CONFLICT' ? new TransactionConflictError(m.error.message) : new WorkerQueryError(m.error));
        break;
      case 'stale':
        this.reload(slot);
        this.retry(job, 'The query workers could not catch up with the graph; try again');
        break;
    }
    this.pump();
  }

  /** Answers a worker's procedure call (through the handler the router set), on the worker's call port. */
  private serveCall(slot: Slot, m: Extract<FromWorker, { t: 'call' }>): void {
    const reply = (answer: CallReply): void => {
      slot.calls.postMessage(answer);
      Atomics.add(slot.callSignal, 0, 1);
      Atomics.notify(slot.callSignal, 0);
    };
    const handler = this.primaryCalls;
    if (handler === undefined) {
      reply({ id: m.id, error: errorData(new ProcedureError(`${m.name} runs on the primary only`, PRIMARY_ONLY, 'runtime')) });
      return;
    }
    let rows: Promise<Value[][]>;
    try {
      rows = handler(m.name, decodeFromTransfer(m.args) as Value[], m.timeoutMs, m.atSeq);
    } catch (err) {
      rows = Promise.reject(err);
    }
    rows.then(
      (records) => {
        try {
          reply({ id: m.id, rows: encodeRecords(records) });
        } catch (err) {
          reply({ id: m.id, error: errorData(err) });
        }
      },
      (err: unknown) => reply({ id: m.id, error: errorData(err) }),
    );
  }

  /** Queries that were waiting on a worker that is gone, back at the head of the queue in their order. */
  private requeue(waiting: Job[]): void {
    for (const job of waiting.reverse()) this.retry(job, 'The query workers kept failing; try again');
  }

  /** Puts a query that did not run back at the head of the queue (a few times at most). */
  private retry(job: Job, why: string): void {
    clearTimeout(job.stuckTimer);
    job.slot = undefined;
    if (job.pin !== undefined) {
      this.finish(job, new TransactionConflictError(LOST_SNAPSHOT));
      return;
    }
    // A streamed read that has handed out pages cannot start again: its consumer has those rows.
    if (job.stream?.paged !== true && job.retries-- > 0) this.queue.unshift(job);
    else this.finish(job, new InternalError(why));
  }

  /** A worker that stopped (crash, out of memory, terminated): its query fails, and it is replaced. */
  private onExit(slot: Slot, err: Error | undefined): void {
    for (const waiting of slot.imageFor.splice(0)) if (!waiting.retired) this.sendImage(waiting, false);
    if (slot.retired) return;
    slot.retired = true;
    this.losePins(slot);
    const [running, ...waiting] = slot.jobs.splice(0);
    if (running) this.finish(running, new InternalError(`The query worker running this query stopped${err ? `: ${err.message}` : ''}`));
    this.requeue(waiting);
    this.replace(slot);
    this.pump();
  }

  /**
   * Gives `slot`'s worker a fresh image of the graph (once, however many of its queries found
   * it stale): from another worker's replica when only this one is out of step (`fromReplica`).
   */
  private reload(slot: Slot, fromReplica = false): void {
    if (!slot.ready || slot.retired) return;
    slot.ready = false;
    this.losePins(slot);
    this.send(slot, { t: 'reset' });
    this.sendImage(slot, fromReplica);
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.calls.close();
    void slot.worker.terminate();
    if (this.closed) return;
    if (this.startFailures >= MAX_START_FAILURES) {
      this.log(`graphdb: query workers failed to start ${this.startFailures} times in a row; going on with ${this.readyWorkers} (reads run on the main thread when none is left)`);
      return;
    }
    this.spawn().catch((err: unknown) => {
      this.log(`graphdb: a replacement query worker failed to start: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  // ---------------------------------------------------------------- jobs

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.pickSlot(this.queue[0].write);
      if (slot === undefined) break;
      this.post(this.queue.shift()!, slot);
    }
    this.rebalance();
    if (this.pinWaiters.size > 0 && this.pinnable()) {
      const waiters = [...this.pinWaiters];
      this.pinWaiters.clear();
      for (const go of waiters) go();
    }
  }

  /** An idle worker, else (not for a write, which must not wait behind a read) the least busy one with room for another query; never one holding or running a write. */
  private pickSlot(write: boolean): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (!this.takes(s) || s.jobs.length >= (write ? 1 : DEPTH)) continue;
      if (best === undefined || s.jobs.length < best.jobs.length) best = s;
    }
    return best;
  }

  /** Whether `slot` can be given a query: loaded, and not busy with a write (a query behind a write would find its replica ahead of the primary). */
  private takes(slot: Slot): boolean {
    return slot.ready && !slot.retired && !slot.held && !slot.jobs.some((j) => j.write);
  }

  /** Moves queries waiting behind a running one to workers that have become idle. */
  private rebalance(): void {
    for (const idle of this.slots) {
      if (!this.takes(idle) || idle.jobs.length > 0) continue;
      // A pinned read stays with the worker that holds its snapshot.
      const busy = this.slots.find((s) => s !== idle && s.jobs.length > 1 && s.jobs[s.jobs.length - 1].pin === undefined);
      if (busy === undefined) return;
      const job = busy.jobs.pop()!;
      // Not started there (its worker is still on the query before it): it skips it when it gets to it.
      Atomics.store(busy.cancel, job.ticket % CANCEL_WORDS, job.ticket);
      clearTimeout(job.stuckTimer);
      this.post(job, idle);
    }
  }

  private post(job: Job, slot: Slot): void {
    slot.jobs.push(job);
    job.slot = slot;
    const elapsed = performance.now() - job.started;
    const timeoutMs = job.timeoutMs === undefined || job.timeoutMs === 0 ? job.timeoutMs : Math.max(1, job.timeoutMs - elapsed);
    this.send(slot, { t: 'query', ticket: job.ticket, text: job.text, params: job.params, timeoutMs, seq: this.db.committedSeq, write: job.write, maxRows: job.maxRows, allow: job.allow, pin: job.pin?.id, stream: job.stream?.request });
    if (timeoutMs !== undefined && timeoutMs > 0) {
      job.stuckTimer = setTimeout(() => this.stuck(job, new QueryTimeoutError(job.timeoutMs!)), timeoutMs + STUCK_GRACE_MS);
      job.stuckTimer.unref();
    }
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.finish(job, new QueryCancelledError());
      return;
    }
    const slot = job.slot;
    if (slot === undefined) return;
    Atomics.store(slot.cancel, job.ticket % CANCEL_WORDS, job.ticket);
    const at = slot.jobs.indexOf(job);
    if (at > 0) {
      // Waiting behind another query: its worker will skip it.
      slot.jobs.splice(at, 1);
      this.finish(job, new QueryCancelledError());
      return;
    }
    clearTimeout(job.stuckTimer);
    job.stuckTimer = setTimeout(() => this.stuck(job, new QueryCancelledError()), STUCK_GRACE_MS);
    job.stuckTimer.unref();
  }

  /** The query did not stop in time: its worker is terminated and replaced (a query still waiting behind another just fails). */
  private stuck(job: Job, why: GraphDbError): void {
    const slot = job.slot;
    if (slot === undefined) return;
    const at = slot.jobs.indexOf(job);
    if (at < 0) return;
    if (at > 0) {
      Atomics.store(slot.cancel, job.ticket % CANCEL_WORDS, job.ticket);
      slot.jobs.splice(at, 1);
      this.finish(job, why);
      return;
    }
    this.log(`graphdb: a query did not stop within ${STUCK_GRACE_MS} ms of its ${why instanceof QueryTimeoutError ? 'time limit' : 'cancellation'}; replacing its worker thread`);
    slot.retired = true;
    this.losePins(slot);
    const [, ...waiting] = slot.jobs.splice(0);
    const message = `${why.message}; it was running code that does not check for that, so its worker thread was stopped and replaced`;
    this.finish(job, why instanceof QueryTimeoutError ? new QueryTimeoutError(job.timeoutMs ?? 0, message) : new QueryCancelledError(message));
    this.requeue(waiting);
    this.replace(slot);
    this.pump();
  }

  private finish(job: Job, err: Error | undefined, result?: QueryResult, written?: WrittenData): void {
    clearTimeout(job.stuckTimer);
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (err) job.reject(err);
    else job.resolve(result!, written);
    job.slot = undefined;
  }
}

