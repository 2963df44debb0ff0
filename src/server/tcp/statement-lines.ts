/**
 * The TCP door's lines beyond SPEC's plain query text (docs/TRANSACTIONS.md, "TCP"), for one
 * session:
 * - `BEGIN` (or `BEGIN READ ONLY`), `COMMIT`, `ROLLBACK`: an explicit engine transaction;
 *   the lines between run inside it (on the primary). Answers: `{"transaction": "open",
 *   "mode": …}`, `{"transaction": "committed"}`, `{"transaction": "rolled back"}`, or the
 *   error object (TX_CONFLICT: retry the transaction). After an error inside, the
 *   transaction is rolled back and every line but COMMIT/ROLLBACK gets TX_STATE until one of
 *   them ends it; idle past the transaction time limit it is rolled back (the next line gets
 *   TX_TIMEOUT); a closed connection rolls it back.
 * - A JSON line `{"query": "...", "params": {...}}`: the query with parameters (query text
 *   never starts with `{`, so such a line cannot be a query).
 * Anything else (plain query text outside a transaction) is left to the session.
 */

import type { Database } from '../../engine/database.js';
import type { Transaction } from '../../engine/transaction.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult } from '../../engine/types.js';
import type { ServerLimits } from '../limits.js';
import { runQueryText } from '../query-runner.js';
import { errorBody, resultBody, toErrorBody } from '../wire-format.js';

const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)(\s+READ\s+(ONLY|WRITE))?\s*;?\s*$/i;
const COMMIT = /^\s*COMMIT\s*;?\s*$/i;
const ROLLBACK = /^\s*ROLLBACK\s*;?\s*$/i;

export class StatementLines {
  private tx: Transaction | undefined;

  constructor(
    private readonly db: Database | undefined,
    private readonly queries: QueryExecutor,
    private readonly limits: ServerLimits,
    /** What the client may do (../authorization.ts), for its queries and transactions alike. */
    private readonly allow?: QueryOptions['allow'],
  ) {}

  /** The answer to `line`, or undefined when it is plain query text for the session to run. */
  async answer(line: string, signal: AbortSignal): Promise<object | undefined> {
    const begin = BEGIN.exec(line);
    if (begin) return this.begin(/ONLY/i.test(begin[3] ?? ''));
    if (COMMIT.test(line)) return this.end(true);
    if (ROLLBACK.test(line)) return this.end(false);
    let query = line;
    let params: QueryParams | undefined;
    if (line.trimStart().startsWith('{')) {
      const parsed = parseJsonLine(line);
      if ('error' in parsed) return parsed;
      ({ query, params } = parsed);
    } else if (this.tx === undefined) {
      return undefined;
    }
    if (this.tx === undefined) {
      const outcome = await runQueryText(this.queries, query, this.limits, { params, signal, allow: this.allow });
      return outcome.ok ? outcome.body : outcome.error;
    }
    return this.inTransaction(this.tx, query, params, signal);
  }

  /** The connection closed: an open transaction rolls back. */
  close(): void {
    this.tx?.abort();
    this.tx = undefined;
  }

  private async begin(readOnly: boolean): Promise<object> {
    if (this.db === undefined) return errorBody('NOT_SUPPORTED', 'This server does not offer transactions on its TCP door');
    if (this.tx !== undefined) return errorBody('TX_STATE', 'A transaction is already open on this connection: COMMIT or ROLLBACK it first');
    try {
      this.tx = await this.db.beginTransaction({ mode: readOnly ? 'read' : 'write', allow: this.allow });
      return { transaction: 'open', mode: this.tx.mode };
    } catch (err) {
      return toErrorBody(err);
    }
  }

  private async end(commit: boolean): Promise<object> {
    const tx = this.tx;
    this.tx = undefined;
    if (tx === undefined) return errorBody('TX_STATE', 'No transaction is open on this connection (send BEGIN first)');
    try {
      if (commit) await tx.commit();
      else await tx.rollback();
      return { transaction: commit ? 'committed' : 'rolled back' };
    } catch (err) {
      tx.abort();
      return toErrorBody(err);
    }
  }

  private async inTransaction(tx: Transaction, query: string, params: QueryParams | undefined, signal: AbortSignal): Promise<object> {
    if (query.trim() === '') return errorBody('COMPILE_ERR', 'The query is empty: send the query text itself');
    let result: QueryResult;
    try {
      result = await tx.run(query, params, { timeoutMs: this.limits.queryTimeoutMs, signal });
    } catch (err) {
      // Timed out while idle: the transaction is gone; so is this connection's hold on it.
      if (!tx.isOpen && !tx.isFailed) this.tx = undefined;
      return toErrorBody(err);
    }
    if (result.records.length > this.limits.maxResultRows) {
      tx.abort();
      return errorBody('LIMIT_EXCEEDED', `The result has ${result.records.length} rows; the limit is ${this.limits.maxResultRows}. The transaction was rolled back`);
    }
    try {
      return resultBody(result);
    } catch (err) {
      return toErrorBody(err);
    }
  }
}

/** `{"query": "...", "params": {...}}`, or the error object saying what is wrong with it. */
function parseJsonLine(line: string): { query: string; params: QueryParams | undefined } | ReturnType<typeof errorBody> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    return errorBody('BAD_REQUEST', `The line starts with "{" but is not valid JSON: ${(err as Error).message}`);
  }
  const o = parsed as { query?: unknown; params?: unknown };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || typeof o.query !== 'string') {
    return errorBody('BAD_REQUEST', 'A JSON line needs "query": the query text (and optionally "params": an object)');
  }
  if (o.params !== undefined && o.params !== null && (typeof o.params !== 'object' || Array.isArray(o.params))) {
    return errorBody('BAD_REQUEST', '"params" must be a JSON object of parameter values');
  }
  return { query: o.query, params: (o.params ?? undefined) as QueryParams | undefined };
}
