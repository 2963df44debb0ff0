/**
 * Runs one query for a network door: applies the server's query time limit and result
 * size limit, and turns the outcome into the wire shapes (result body or error object).
 * Never throws: whatever goes wrong becomes an error object, so no client input can
 * escape a door as an exception.
 */

import type { QueryExecutor, QueryOptions, QueryParams, QueryResult, QueryStats } from '../engine/types.js';
import { GraphDbError } from '../errors.js';
import type { ServerLimits } from './limits.js';
import { type ErrorBody, errorBody, type ResultBody, resultBody, toErrorBody } from './wire-format.js';

export type QueryOutcome = { ok: true; body: ResultBody; mutated: boolean; stats: QueryStats } | { ok: false; error: ErrorBody };
export type QueryResultOutcome = { ok: true; result: QueryResult } | { ok: false; error: ErrorBody };

export interface RunOptions {
  params?: QueryParams;
  readOnly?: boolean;
  /** With readOnly: the error a query that would write gets (instead of the engine's own). */
  writeRefused?: ErrorBody;
  /** Stops the query (the client went away). */
  signal?: AbortSignal;
  /** What the caller may do (../authorization.ts); undefined: everything. */
  allow?: QueryOptions['allow'];
}

/** Runs `text` (see runQuery) and renders its result as the SPEC's result body. */
export async function runQueryText(...args: Parameters<typeof runQuery>): Promise<QueryOutcome> {
  const outcome = await runQuery(...args);
  if (!outcome.ok) return outcome;
  const { result } = outcome;
  try {
    return { ok: true, body: resultBody(result), mutated: result.mutated, stats: result.stats };
  } catch (err) {
    return { ok: false, error: toErrorBody(err) };
  }
}

/** Runs `text` within the limits; the engine's result itself, for a door that renders it (HTTP writes the JSON text straight from it). */
export async function runQuery(
  queries: QueryExecutor,
  text: string,
  limits: Pick<ServerLimits, 'queryTimeoutMs' | 'maxResultRows'>,
  options: RunOptions = {},
): Promise<QueryResultOutcome> {
  if (text.trim() === '') {
    return { ok: false, error: errorBody('COMPILE_ERR', 'The query is empty: send the query text itself') };
  }
  try {
    // A read stops where it runs as soon as it passes the row limit; a write's result is checked here (its changes stand).
    const result = await queries.execute(text, options.params, { timeoutMs: limits.queryTimeoutMs, readOnly: options.readOnly, signal: options.signal, maxRows: limits.maxResultRows, allow: options.allow });
    if (result.records.length > limits.maxResultRows) {
      return {
        ok: false,
        error: errorBody(
          'LIMIT_EXCEEDED',
          `The result has ${result.records.length} rows; the limit is ${limits.maxResultRows}. Add LIMIT or aggregate` +
            (result.mutated ? ' (the query\'s changes were applied)' : ''),
        ),
      };
    }
    return { ok: true, result };
  } catch (err) {
    if (options.writeRefused && err instanceof GraphDbError && err.detail === 'WriteInReadOnlyCall') return { ok: false, error: options.writeRefused };
    return { ok: false, error: toErrorBody(err) };
  }
}
