/**
 * An explicit PG transaction (`BEGIN` … `COMMIT` / `ROLLBACK`) of one session.
 *
 * The engine runs each query as its own transaction on the event loop, and other sessions'
 * queries run between this session's messages, so a store transaction cannot stay open
 * while the client thinks. Instead the block buffers its writing statements (text and
 * parameters). Every statement inside the block runs, as a preview, after the buffered
 * writes in one engine transaction that is then rolled back: so it sees the block's own
 * earlier writes and the graph as other sessions have committed it, and it reports the
 * rows and counts it would produce. Nothing is visible to others before COMMIT. COMMIT
 * runs the buffered writes again, in order, as one transaction — all of them apply or
 * none does (if one fails now, e.g. because a concurrent commit broke a constraint, COMMIT
 * reports the error and nothing of the block remains). ROLLBACK drops the buffer.
 *
 * As in PostgreSQL, after an error inside the block every statement but COMMIT/ROLLBACK
 * fails with 25P02 until the block ends, and COMMIT of a failed block rolls back.
 * Index and constraint changes are refused inside a block. A block holds at most
 * MAX_BLOCK_WRITES writes.
 */

import type { Database } from '../../engine/database.js';
import type { QueryOptions, QueryResult } from '../../engine/types.js';
import type { Value } from '../../../runtime/values.js';
import { PgError, SqlState } from './errors.js';

export const MAX_BLOCK_WRITES = 1000;

interface BufferedWrite {
  query: string;
  params: Map<string, Value>;
}

export class TransactionBlock {
  private writes: BufferedWrite[] = [];
  /** Set after an error inside the block: the block can only end. */
  failed = false;

  constructor(
    private readonly db: Database,
    /** Accounts the bytes of buffered query text against the session's budget (throws when over). */
    private readonly budget: { reserve(bytes: number): void; release(bytes: number): void },
    /** What the client may do (src/server/authorization.ts), passed with every statement. */
    private readonly allow?: QueryOptions['allow'],
  ) {}

  /** Runs `query` inside the block (as a preview), buffering it when it writes. */
  async run(query: string, params: Map<string, Value>, timeoutMs: number | undefined): Promise<QueryResult> {
    if (this.failed) {
      throw new PgError(SqlState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    }
    try {
      const mutating = this.db.isMutating(query);
      if (mutating && this.writes.length >= MAX_BLOCK_WRITES) {
        throw new PgError(SqlState.programLimitExceeded, `a transaction block may hold at most ${MAX_BLOCK_WRITES} writing statements; COMMIT and begin another`);
      }
      const results = await this.db.executeInTransaction([...this.writes, { query, params }], { commit: false, timeoutMs, allow: this.allow });
      const result = results[results.length - 1];
      if (mutating || result.mutated) {
        this.budget.reserve(query.length);
        this.writes.push({ query, params });
      }
      return result;
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  /** Applies the buffered writes as one transaction; returns false when the block had failed (rolled back). */
  async commit(timeoutMs: number | undefined): Promise<boolean> {
    const writes = this.discard();
    if (this.failed) return false;
    if (writes.length > 0) await this.db.executeInTransaction(writes, { commit: true, timeoutMs, allow: this.allow });
    return true;
  }

  /** Drops the buffered writes; returns them. */
  discard(): BufferedWrite[] {
    const writes = this.writes;
    for (const w of writes) this.budget.release(w.query.length);
    this.writes = [];
    return writes;
  }
}
