/**
 * `QueryRouter`: where each query of a network door runs. Reads go to the query worker pool
 * (so the main thread stays free and they run in parallel); writes, and reads of state only
 * the primary holds, run on the primary Database on the main thread, one at a time.
 *
 * Which is which is decided without compiling on the main thread: a quick look at the text
 * (`query-kind.ts`) sends anything that may write there at once, which also keeps a
 * session's order (a write runs before the read sent after it starts). The rest goes to a
 * worker as read-only; if the worker finds it writes after all (`WriteInReadOnlyCall`) or
 * calls a primary-only procedure (`PrimaryOnly`), its text is remembered and it runs on the
 * primary, now and from then on. While no worker is ready (all reloading, or failing to start)
 * reads run on the primary too, and so does a read that has proved short: each of its text's
 * recent runs took under INLINE_MAX_MS, less than the two thread wake-ups a worker costs (one
 * long run sends it back to the workers, where it can be stopped) — unless the main thread is
 * saturated, when its time belongs to I/O. A read answered by a worker waits, like a read on the
 * primary, until every write it could have seen is durable.
 */

import { GraphDbError } from '../../errors.js';
import type { Database } from '../database.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult } from '../types.js';
import { PRIMARY_ONLY } from './protocol.js';
import { mayNeedPrimary } from './query-kind.js';
import type { QueryWorkerPool } from './worker-pool.js';

/** How many query texts the router remembers the place of. */
const REMEMBERED_TEXTS = 4096;
/**
 * A read whose every recent run took less than this runs on the main thread: handing it to a
 * worker costs a thread wake-up each way (30–70 µs measured here), more than running it.
 */
const INLINE_MAX_MS = 0.5;
/**
 * Short reads run inline only while the main thread was busy less than this share of the
 * last BUSY_WINDOW_MS: when it is saturated (sockets, parsing) they go to the workers anyway,
 * so that probes and the other connections' I/O are not kept waiting behind them.
 */
const INLINE_MAX_BUSY = 0.5;
const BUSY_WINDOW_MS = 50;
/** Recent runs a read is judged by: all of them short, and at least RUNS_BEFORE_INLINE. */
const RECENT_RUNS = 8;
const RUNS_BEFORE_INLINE = 3;

/** What the router knows of one query text. */
interface TextInfo {
  /** Runs on the primary: it may write, or reads what only the primary holds. */
  primary: boolean;
  /** Durations of its recent runs in ms, oldest first (the first run on each side, which compiles, left out). */
  recent: number[];
  ranOnWorker: boolean;
  compiledHere: boolean;
}

export class QueryRouter implements QueryExecutor {
  /** Query texts and what is known of them, most recent last. */
  private readonly texts = new Map<string, TextInfo>();
  /** The main thread's event-loop utilisation at the start of the current window, and whether it was busy in the last one. */
  private loopSample = performance.eventLoopUtilization();
  private loopBusy = false;

  constructor(
    readonly db: Database,
    readonly pool: QueryWorkerPool | undefined,
  ) {}

  async execute(query: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    const pool = this.pool;
    const info = this.info(query);
    if (pool === undefined || pool.readyWorkers === 0 || info.primary) return this.db.execute(query, params, options);
    if (info.recent.length >= RUNS_BEFORE_INLINE && Math.max(...info.recent) < INLINE_MAX_MS && !this.mainThreadBusy()) {
      // A short read: cheaper here than the round trip (a run that turns out long sends the text back to the workers).
      if (!info.compiledHere) {
        // Compiled apart, so that every run here is measured without its compilation.
        info.compiledHere = true;
        try {
          this.db.isMutating(query, options.timeoutMs);
        } catch {
          // The run below reports it.
        }
      }
      const result = await this.db.execute(query, params, { ...options, readOnly: true }).catch((err: unknown) => this.onPrimaryRefusal(err, query, params, info, options));
      measured(info, result.elapsedMs);
      return result;
    }
    let result: QueryResult;
    try {
      result = await pool.run(query, params, { timeoutMs: options.timeoutMs, signal: options.signal });
    } catch (err) {
      return this.onPrimaryRefusal(err, query, params, info, options);
    }
    if (info.ranOnWorker) measured(info, result.elapsedMs);
    info.ranOnWorker = true;
    await this.db.storage?.readBarrier();
    return result;
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
    const needsPrimary = err instanceof GraphDbError && (err.detail === PRIMARY_ONLY || (err.detail === 'WriteInReadOnlyCall' && options.readOnly !== true));
    if (!needsPrimary) throw err;
    info.primary = true;
    return this.db.execute(query, params, options);
  }

  private info(query: string): TextInfo {
    let info = this.texts.get(query);
    if (info === undefined) {
      info = { primary: mayNeedPrimary(query, this.db.procedures), recent: [], ranOnWorker: false, compiledHere: false };
      if (this.texts.size >= REMEMBERED_TEXTS) this.texts.delete(this.texts.keys().next().value as string);
      this.texts.set(query, info);
    }
    return info;
  }
}

function measured(info: TextInfo, ms: number): void {
  info.recent.push(ms);
  if (info.recent.length > RECENT_RUNS) info.recent.shift();
}
