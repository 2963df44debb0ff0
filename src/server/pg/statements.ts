/**
 * Runs one statement for the PG layer — a SQL shim or a graph query — and describes
 * statements before they run (Describe of a prepared statement).
 *
 * A result is materialised whole (the engine returns whole results), then sent at the pace
 * the client asks for (Execute row limits). Command tags: `SELECT n` for anything that
 * returns columns; for writing queries without RETURN, `INSERT 0 n` (nodes and
 * relationships created), `DELETE n` (deleted) or `UPDATE n` (properties and labels
 * changed), whichever the query did first in that order; `SELECT 0` otherwise.
 */

import type { Database } from '../../engine/database.js';
import type { QueryExecutor, QueryOptions, QueryResult, QueryStats } from '../../engine/types.js';
import { parseStatement } from '../../frontend/parse-entry.js';
import type { Value } from '../../../runtime/values.js';
import { matchShim, type ShimContext, type ShimEffect } from './shims.js';
import { inferColumnTypes, Oid, type ColumnType } from './pg-types.js';

export interface Column {
  name: string;
  type: ColumnType;
}

export interface StatementResult {
  /** Undefined when the statement returns no rows at all (NoData); may be empty. */
  columns?: Column[];
  rows: Value[][];
  tag: string;
  effect?: ShimEffect;
  /** BEGIN READ ONLY. */
  readOnly?: boolean;
  mutated: boolean;
}

export interface RunContext {
  db: Database;
  /** Where a statement outside a transaction block runs: the database, or the query router (worker threads). */
  queries: QueryExecutor;
  /** The signal that stops the statement now running (a CancelRequest, the client gone). */
  currentSignal?: () => AbortSignal;
  shims: ShimContext;
  /** Per-query time limit in ms (undefined: the database's own). */
  timeoutMs?: number;
  /** What the client may do (../authorization.ts); `queries` already runs under it, a transaction block passes it on. */
  allow?: QueryOptions['allow'];
}

function commandTag(result: QueryResult): string {
  if (result.columns.length > 0) return `SELECT ${result.records.length}`;
  const s: QueryStats = result.stats;
  const created = s.nodesCreated + s.relationshipsCreated;
  const deleted = s.nodesDeleted + s.relationshipsDeleted;
  const updated = s.propertiesSet + s.labelsAdded + s.labelsRemoved;
  if (created > 0) return `INSERT 0 ${created}`;
  if (deleted > 0) return `DELETE ${deleted}`;
  if (updated > 0) return `UPDATE ${updated}`;
  return 'SELECT 0';
}

/** How a graph query is run: on its own by default, or inside a transaction block. */
export type Executor = (text: string, params: Map<string, Value>) => Promise<QueryResult>;

/** Runs a statement (shim or graph query) with the given parameters. */
export async function runStatement(text: string, params: Map<string, Value>, ctx: RunContext, execute?: Executor): Promise<StatementResult> {
  const shim = matchShim(text, ctx.shims);
  if (shim) return { columns: shim.columns, rows: shim.rows ?? [], tag: shim.tag, effect: shim.effect, readOnly: shim.readOnly, mutated: false };
  const result = execute
    ? await execute(text, params)
    : await ctx.queries.execute(text, params, { timeoutMs: ctx.timeoutMs, signal: ctx.currentSignal?.() });
  const columns =
    result.columns.length === 0
      ? undefined
      : inferColumnTypes(result.columns.length, result.records).map((type, i) => ({ name: result.columns[i], type }));
  return { columns, rows: result.records, tag: commandTag(result), mutated: result.mutated };
}

/** Column names of the final RETURN, read from the query's syntax tree (no `RETURN *`). */
function returnColumnsFromSyntax(text: string): string[] | undefined {
  try {
    const stmt = parseStatement(text);
    if (stmt.body.kind !== 'Query') return undefined;
    const part = stmt.body.parts[0];
    const last = part.clauses[part.clauses.length - 1];
    if (last?.kind !== 'Return' || last.star) return undefined;
    return last.items.map((it) => it.alias ?? it.text);
  } catch {
    return undefined;
  }
}

/**
 * The columns a prepared statement will return, before its parameters are known.
 *
 * A reading graph query is run once with every parameter null, which gives its columns and
 * usually their types. A writing query cannot be run just to describe it, so its columns
 * come from its final RETURN clause and are reported as text; so are those of a reading
 * query whose trial run fails. Portals bound from a described statement keep these types,
 * so what a driver was told and what it receives agree.
 */
export async function describeStatement(
  text: string,
  paramCount: number,
  mutating: boolean,
  ctx: RunContext,
): Promise<Column[] | undefined> {
  const shim = matchShim(text, ctx.shims);
  if (shim) return shim.columns;
  if (!mutating) {
    const nulls = new Map<string, Value>();
    for (let i = 1; i <= paramCount; i++) nulls.set(String(i), null);
    try {
      const trial = await runStatement(text, nulls, ctx);
      return trial.columns;
    } catch {
      // fall through to the syntax tree
    }
  }
  const names = returnColumnsFromSyntax(text);
  return names?.map((name) => ({ name, type: Oid.text }));
}
