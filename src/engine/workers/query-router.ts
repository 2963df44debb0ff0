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
 * reads run on the primary too. A read answered by a worker waits, like a read on the
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

export class QueryRouter implements QueryExecutor {
  /** Query texts and where they run (true: the primary), most recent last. */
  private readonly kinds = new Map<string, boolean>();

  constructor(
    readonly db: Database,
    readonly pool: QueryWorkerPool | undefined,
  ) {}

  async execute(query: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    const pool = this.pool;
    if (pool === undefined || pool.readyWorkers === 0 || this.needsPrimary(query)) {
      return this.db.execute(query, params, options);
    }
    let result: QueryResult;
    try {
      result = await pool.run(query, params, { timeoutMs: options.timeoutMs, signal: options.signal });
    } catch (err) {
      const needsPrimary = err instanceof GraphDbError && (err.detail === PRIMARY_ONLY || (err.detail === 'WriteInReadOnlyCall' && options.readOnly !== true));
      if (!needsPrimary) throw err;
      this.remember(query, true);
      return this.db.execute(query, params, options);
    }
    await this.db.storage?.readBarrier();
    return result;
  }

  private needsPrimary(query: string): boolean {
    let primary = this.kinds.get(query);
    if (primary === undefined) {
      primary = mayNeedPrimary(query, this.db.procedures);
      this.remember(query, primary);
    }
    return primary;
  }

  private remember(query: string, primary: boolean): void {
    this.kinds.delete(query);
    if (this.kinds.size >= REMEMBERED_TEXTS) this.kinds.delete(this.kinds.keys().next().value as string);
    this.kinds.set(query, primary);
  }
}
