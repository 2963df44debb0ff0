/**
 * An explicit PG transaction (`BEGIN` … `COMMIT` / `ROLLBACK`) of one session, on the
 * engine's own transaction (src/engine/transaction.ts, docs/TRANSACTIONS.md): statements
 * inside run in that transaction (its reads on a query worker), see its own writes and one stable snapshot
 * of everyone else's, and nothing of it is visible to others before COMMIT, which applies it
 * as one durable whole — no replay. `BEGIN READ ONLY` is a read transaction (writes refused
 * with 25006). A write that finds the graph changed since the block's snapshot fails with
 * 40001 (serialization_failure; retry the block). As in PostgreSQL, after an error every
 * statement but COMMIT/ROLLBACK fails with 25P02 until the block ends, and COMMIT of a failed
 * block rolls back. A CancelRequest stops the running statement (57014; it fails the block,
 * which is rolled back and its writer slot freed). Index and constraint changes are refused inside a block. Idle past the
 * transaction time limit the block is rolled back and the session ended with 25P03; a
 * closed connection rolls its block back.
 */

import type { Database } from '../../engine/database.js';
import type { Transaction } from '../../engine/transaction.js';
import type { QueryOptions, QueryResult } from '../../engine/types.js';
import type { Value } from '../../../runtime/values.js';
import { GraphDbError } from '../../errors.js';
import { PgError, SqlState } from './errors.js';

export class TransactionBlock {
  /** Set after an error inside the block: the block can only end. */
  private failedHere = false;

  private constructor(
    private readonly tx: Transaction,
    readonly readOnly: boolean,
  ) {}

  /** Begins a block; `onIdleTimeout` is called when it was rolled back for being idle too long. */
  static async begin(db: Database, readOnly: boolean, onIdleTimeout: () => void, allow?: QueryOptions['allow']): Promise<TransactionBlock> {
    // The client's grant (src/server/authorization.ts) goes with every statement of the block.
    const tx = await db.beginTransaction({ mode: readOnly ? 'read' : 'write', allow });
    tx.onTimedOut = onIdleTimeout;
    return new TransactionBlock(tx, readOnly);
  }

  get failed(): boolean {
    return this.failedHere || this.tx.isFailed;
  }

  /** Runs `query` inside the block. */
  async run(query: string, params: Map<string, Value>, timeoutMs: number | undefined, signal?: AbortSignal): Promise<QueryResult> {
    if (this.failed) {
      throw new PgError(SqlState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    }
    try {
      return await this.tx.run(query, params, { timeoutMs, signal });
    } catch (err) {
      this.failedHere = true;
      if (this.readOnly && err instanceof GraphDbError && err.detail === 'WriteInReadOnlyCall') {
        throw new PgError(SqlState.readOnlySqlTransaction, 'cannot execute a writing query in a read-only transaction', 'ERROR', `graphdb code ${err.code}`);
      }
      throw err;
    }
  }

  /** Commits (durable when it resolves); false when the block had failed and was rolled back. A conflict rejects (40001). */
  async commit(): Promise<boolean> {
    if (this.failed) {
      this.tx.abort();
      return false;
    }
    await this.tx.commit();
    return true;
  }

  /** Rolls the block back (ROLLBACK, DISCARD ALL, the connection closing). */
  discard(): void {
    this.tx.abort();
  }
}
