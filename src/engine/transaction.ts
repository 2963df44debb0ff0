/**
 * Explicit transactions (`Database.beginTransaction`, `Database.transaction`); the model is
 * in docs/TRANSACTIONS.md. A transaction owns its state machine, its idle timer, its place in
 * the writer slot and its pinned snapshot; the Database (`TransactionHost`) runs its
 * statements and its commit.
 *
 * - A read transaction reads the state it was pinned at, whatever commits meanwhile
 *   (read-snapshots.ts).
 * - A write transaction reads like one until its first writing statement, then takes the
 *   writer slot; if it read anything and something committed since it was pinned, its reads
 *   are run again there and must answer the same (read-validation.ts), or it fails with
 *   TransactionConflictError (retryable); if it read nothing, it starts from the graph as it
 *   then is. Its reads before the slot run on a query worker when the database has them
 *   (read-snapshots.ts `RemotePin`). From then on each statement runs
 *   in a store transaction over the committed graph plus the transaction's own change records
 *   so far, which is rolled back when the statement ends, keeping its new records: between
 *   statements the live graph is always the committed state, so no reader, replica, index or
 *   observer ever sees an uncommitted write. COMMIT applies the records as one store
 *   transaction, checked, logged as one WAL record and durable before it resolves.
 * - Any error inside a transaction ends it (rolled back); only `rollback()` is then accepted
 *   quietly, and `commit()` reports the failure.
 */

import type { ChangeRecord } from '../store/changes.js';
import { QueryCancelledError, QuerySemanticError, TransactionConflictError, TransactionStateError, TransactionTimedOutError, toGraphDbError } from '../errors.js';
import type { QueryOptions, QueryParams, QueryResult } from './types.js';
import type { ReadPin } from './read-snapshots.js';
import { keepRead, type KeptReads, readsStillHold } from './read-validation.js';
import type { WriterSlot } from './writer-slot.js';

export type TransactionMode = 'read' | 'write';

export interface TransactionOptions {
  /** 'read': a stable snapshot, writes refused. 'write' (default): serializable, may write. */
  mode?: TransactionMode;
  /**
   * Milliseconds the transaction may stay idle (no statement running) before it is rolled
   * back; also how long its first write waits for the writer slot. Default: the database's
   * `transactionTimeoutMs` (60 s); 0 means no limit.
   */
  timeoutMs?: number;
  /** What its statements may do (a door's grant, src/server/authorization.ts); default: everything. */
  allow?: QueryOptions['allow'];
}

export interface StatementOptions {
  /** PROFILE answers its own rows, with the profile in `QueryResult.profile` (QueryOptions.profileRows). */
  profileRows?: boolean;
  /** Time limit of this statement (default: the database's query limit). */
  timeoutMs?: number;
  /** What it may do: the transaction's grant (TransactionOptions.allow), which overrides any given here. */
  allow?: QueryOptions['allow'];
  /**
   * Stops this statement (a PG CancelRequest, a client gone): it fails with CANCELLED and the
   * transaction with it (rolled back, its writer slot freed). A statement on a query worker
   * stops at its next check, one waiting for the writer slot stops waiting; one running on the
   * main thread cannot be reached until it ends, and is stopped before it starts.
   */
  signal?: AbortSignal;
}

/** What the Database does for a transaction (implemented by `Database`; not for other callers). */
export interface TransactionHost {
  readonly writerSlot: WriterSlot;
  /** Whether `query` would write, schema commands included (compiles it; compile errors are thrown). */
  txWrites(query: string): boolean;
  /** The graph's mutation sequence now, a worker's write being applied finished first. */
  currentSeq(): number;
  /** Runs a read-only statement on the live graph now, on the main thread (a kept read run again at the writer slot). */
  txReadLive(query: string, params: QueryParams | undefined, options: StatementOptions): QueryResult;
  /** Runs a read-only statement on the state `pin` holds, durable reads included. */
  txRead(pin: ReadPin, query: string, params: QueryParams | undefined, options: StatementOptions): Promise<QueryResult>;
  /** Runs a statement over the committed graph plus `records`; returns its result and all the records since. */
  txWrite(baseline: number, records: readonly ChangeRecord[], query: string, params: QueryParams | undefined, options: StatementOptions): { result: QueryResult; records: readonly ChangeRecord[] };
  /** Applies `records` now as one checked, logged, visible commit (or throws: a conflict when the graph moved since `baseline`); `durable` settles once it is durable. */
  txCommit(baseline: number, records: readonly ChangeRecord[]): { durable: Promise<void> };
  /** Waits until what a reader could have seen is durable. */
  txReadBarrier(): Promise<void>;
  pin(): ReadPin;
  unpin(pin: ReadPin): void;
  /** The transaction has ended (committed, rolled back, failed, timed out). */
  ended(tx: Transaction): void;
}

export type TransactionState = 'open' | 'failed' | 'committed' | 'rolledBack' | 'timedOut';
type State = TransactionState;

let nextId = 1;

export class Transaction {
  readonly id = nextId++;
  readonly mode: TransactionMode;
  /** Idle limit in ms; 0 means none. */
  readonly timeoutMs: number;
  private current: State = 'open';
  private failure: Error | undefined;
  /** Where it reads until it holds the writer slot. */
  private pin: ReadPin | undefined;
  /** Its change records so far (a write transaction holding the slot). */
  private records: readonly ChangeRecord[] = [];
  private holdsSlot = false;
  /** Whether it ran a statement before taking the slot (on its snapshot). */
  private hasRead = false;
  /** A write transaction's reads before the slot, checked again there when the graph has moved (read-validation.ts). */
  private kept: KeptReads = { reads: [], cells: 0 };
  private readonly allow: QueryOptions['allow'];
  private baseline = -1;
  /** Calls run one after another: a statement sent before the previous one answered waits for it. */
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = false;
  /** Stops the statement running when the transaction is ended from outside (`abort`). */
  private readonly stop = new AbortController();
  /** Called once it has been rolled back for idling past its limit (a door ends its session). */
  onTimedOut: (() => void) | undefined;

  constructor(
    private readonly host: TransactionHost,
    options: Required<Omit<TransactionOptions, 'allow'>> & Pick<TransactionOptions, 'allow'>,
  ) {
    this.mode = options.mode;
    this.timeoutMs = options.timeoutMs;
    this.allow = options.allow;
    this.pin = host.pin();
    this.armIdleTimer();
  }

  /** Where it stands: open; failed (an error, rolled back); committed; rolled back; rolled back for idling (timedOut). */
  get state(): TransactionState {
    return this.current;
  }

  /** Whether it can still run statements and commit. */
  get isOpen(): boolean {
    return this.current === 'open';
  }

  /** Whether it failed (an error inside it): it has been rolled back, and only `rollback()` is accepted quietly. */
  get isFailed(): boolean {
    return this.current === 'failed';
  }

  /** Whether it holds the writer slot (it has written). */
  get isWriting(): boolean {
    return this.holdsSlot;
  }

  /** Change records it would commit now. */
  get pendingChanges(): number {
    return this.records.length;
  }

  /** Runs one statement inside the transaction. An error ends the transaction (rolled back). */
  run(query: string, params?: QueryParams, options: StatementOptions = {}): Promise<QueryResult> {
    const statement = this.allow === undefined ? options : { ...options, allow: this.allow };
    return this.serially(async () => {
      if (statement.signal === undefined) return this.runNow(query, params, { ...statement, signal: this.stop.signal });
      // Stopped by the caller's signal or by `abort()`, whichever comes first (AbortSignal.any is not in every Node 20).
      const either = new AbortController();
      const stop = (): void => either.abort();
      for (const s of [statement.signal, this.stop.signal]) {
        if (s.aborted) either.abort();
        else s.addEventListener('abort', stop, { once: true });
      }
      try {
        return await this.runNow(query, params, { ...statement, signal: either.signal });
      } finally {
        statement.signal.removeEventListener('abort', stop);
        this.stop.signal.removeEventListener('abort', stop);
      }
    });
  }

  /** Commits: resolves once the transaction is durable. Rejects (and rolls back) on a conflict or a failed check. */
  commit(): Promise<void> {
    return this.serially(() => this.commitNow());
  }

  /** Rolls back; a transaction that already ended (failed, timed out, rolled back) is left as it is. */
  rollback(): Promise<void> {
    return this.serially(async () => {
      if (this.current === 'committed') throw new TransactionStateError('The transaction has already been committed', 'TransactionEnded');
      if (this.current === 'open') this.end('rolledBack');
    });
  }

  /** Restarts its idle timer (a client keeping it alive without running a statement). */
  touch(): void {
    this.armIdleTimer();
  }

  /**
   * Ends it now, from outside — the database closing, a client gone, a door's cancel of the
   * whole transaction (Neo4j's DELETE, Bolt's RESET, a TCP disconnect): the statement it is
   * running is stopped (where it can be reached: see StatementOptions.signal), it is rolled
   * back, and its writer slot is freed at once.
   */
  abort(): void {
    this.stop.abort();
    if (this.current === 'open') this.end('rolledBack');
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private requireOpen(): void {
    if (this.current === 'open') return;
    if (this.current === 'timedOut') throw new TransactionTimedOutError(this.timeoutMs);
    if (this.current === 'failed') {
      throw new TransactionStateError(
        `The transaction failed earlier (${this.failure?.message ?? 'an error'}) and has been rolled back; only ROLLBACK is possible`,
        'TransactionFailed',
      );
    }
    throw new TransactionStateError(`The transaction has already been ${this.current === 'committed' ? 'committed' : 'rolled back'}`, 'TransactionEnded');
  }

  private async runNow(query: string, params: QueryParams | undefined, options: StatementOptions): Promise<QueryResult> {
    this.requireOpen();
    this.busy = true;
    this.disarmIdleTimer();
    try {
      if (options.signal?.aborted) throw new QueryCancelledError();
      if (this.mode === 'write' && !this.holdsSlot && this.host.txWrites(query)) await this.takeSlot(options.signal);
      if (!this.holdsSlot) {
        this.hasRead = true;
        const result = await this.host.txRead(this.pin!, query, params, options);
        if (this.mode === 'write') this.kept = keepRead(this.kept, query, params, options.allow, result);
        return result;
      }
      const { result, records } = this.host.txWrite(this.baseline, this.records, query, params, options);
      this.records = records;
      // No read barrier here: what it read is provisional until COMMIT, whose durability implies
      // that of every commit it read; waiting would hold the writer slot through a log flush.
      return result;
    } catch (err) {
      const error = toGraphDbError(err);
      this.fail(error);
      throw error;
    } finally {
      this.busy = false;
      this.armIdleTimer();
    }
  }

  /** Takes the writer slot (waiting at most the idle limit); conflicts when the graph moved since the pin. */
  private async takeSlot(signal: AbortSignal | undefined): Promise<void> {
    await this.host.writerSlot.take(this.timeoutMs, signal);
    // Ended while it waited (the database closed): give the slot straight back.
    if (this.current !== 'open') {
      this.host.writerSlot.release();
      this.requireOpen();
    }
    this.holdsSlot = true;
    const pin = this.pin!;
    this.pin = undefined;
    this.host.unpin(pin);
    // What it read before (its snapshot) must still hold: certain when nothing has committed since, else its reads
    // are run again now (the slot held) and must answer the same. Having read nothing, it starts from the graph as it is now.
    const now = this.host.currentSeq();
    if (this.hasRead && now !== pin.seq && !readsStillHold(this.kept, (r, timeoutMs) => this.host.txReadLive(r.query, r.params, { timeoutMs, allow: r.allow }))) {
      throw new TransactionConflictError();
    }
    this.kept = 'unchecked';
    this.baseline = now;
  }

  private async commitNow(): Promise<void> {
    if (this.current === 'failed') {
      throw new TransactionStateError(
        `The transaction failed earlier (${this.failure?.message ?? 'an error'}) and was rolled back; nothing of it was committed`,
        'TransactionFailed',
      );
    }
    this.requireOpen();
    this.busy = true;
    this.disarmIdleTimer();
    try {
      if (this.records.length > 0) {
        const { durable } = this.host.txCommit(this.baseline, this.records);
        // Visible now: the slot goes to the next writer while this one's log write is flushed
        // (its own commit is logged after this one, so it is never durable before it), which
        // lets transactions share a group commit; this one is answered once durable.
        this.end('committed');
        await durable;
      } else {
        await this.host.txReadBarrier();
        this.end('committed');
      }
    } catch (err) {
      const error = toGraphDbError(err);
      if (this.current === 'open') this.end('rolledBack');
      throw error;
    } finally {
      this.busy = false;
    }
  }

  private fail(error: Error): void {
    if (this.current !== 'open') return;
    this.failure = error;
    this.end('failed');
  }

  /** Frees what it holds: the slot, the pin, its records, its idle timer, its place among the open. */
  private end(state: State): void {
    this.current = state;
    this.disarmIdleTimer();
    this.records = [];
    this.kept = 'unchecked';
    if (this.pin !== undefined) this.host.unpin(this.pin);
    this.pin = undefined;
    if (this.holdsSlot) this.host.writerSlot.release();
    this.holdsSlot = false;
    this.host.ended(this);
  }

  private armIdleTimer(): void {
    if (this.current !== 'open' || this.timeoutMs <= 0 || this.busy) return;
    this.disarmIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.current !== 'open' || this.busy) return;
      this.end('timedOut');
      this.onTimedOut?.();
    }, this.timeoutMs);
    this.idleTimer.unref();
  }

  private disarmIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/** The error a statement that changes skills or the schema gets inside an explicit transaction. */
export function notInTransaction(what: string, detail: string): QuerySemanticError {
  return new QuerySemanticError(`${what} cannot run inside an explicit transaction; run it on its own`, detail, undefined, 'runtime');
}
