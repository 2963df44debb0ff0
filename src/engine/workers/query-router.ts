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
 * primary, now and from then on. A read answered by a worker waits, like a read on the
 * primary, until every write it could have seen is durable.
 */

import { GraphDbError } from '../../errors.js';
import type { Database } from '../database.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult } from '../types.js';
import { PRIMARY_ONLY } from './protocol.js';
import { mayNeedPrimary } from './query-kind.js';
import type { QueryWorkerPool } from './worker-pool.js';

/** How many query texts known to need the primary are remembered. */
const REMEMBERED_TEXTS = 4096;

export class QueryRouter implements QueryExecutor {
  private readonly primaryTexts = new Set<string>();

  constructor(
    readonly db: Database,
    readonly pool: QueryWorkerPool | undefined,
  ) {}

  async execute(query: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    const pool = this.pool;
    if (pool === undefined || pool.size === 0 || this.primaryTexts.has(query) || mayNeedPrimary(query, this.db.procedures)) {
      return this.db.execute(query, params, options);
    }
    let result: QueryResult;
    try {
      result = await pool.run(query, params, { timeoutMs: options.timeoutMs, signal: options.signal });
    } catch (err) {
      const needsPrimary = err instanceof GraphDbError && (err.detail === PRIMARY_ONLY || (err.detail === 'WriteInReadOnlyCall' && options.readOnly !== true));
      if (!needsPrimary) throw err;
      this.remember(query);
      return this.db.execute(query, params, options);
    }
    await this.db.storage?.readBarrier();
    return result;
  }

  private remember(query: string): void {
    if (this.primaryTexts.size >= REMEMBERED_TEXTS) this.primaryTexts.delete(this.primaryTexts.values().next().value as string);
    this.primaryTexts.add(query);
  }
}
