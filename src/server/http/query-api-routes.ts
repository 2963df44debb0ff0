/**
 * Neo4j 5's Query API on the HTTP door (docs/TRANSACTIONS.md, "HTTP"):
 * - `POST /db/{name}/query/v2`: one statement, its own transaction.
 * - `POST /db/{name}/query/v2/tx`: opens an explicit transaction (`accessMode: "READ"` makes it
 *   a read transaction), running the body's statement in it if there is one; answers 202 with
 *   `transaction: {id, expires}`. `POST …/tx/{id}` runs a statement in it and keeps it alive,
 *   `POST …/tx/{id}/commit` commits it (after the body's statement, if any), `DELETE …/tx/{id}`
 *   rolls it back. An error rolls the transaction back, as Neo4j does; an unknown or expired id
 *   is 404 `TransactionNotFound`.
 * Values are typed (`{"$type", "_value"}`) with `Accept: application/vnd.neo4j.query`, plain
 * JSON otherwise; parameters are taken either way. The transactions live with the Neo4j HTTP
 * API's (tx-routes.ts: one limit for both, closed with the server) under ids nobody can guess.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../engine/database.js';
import type { Transaction, TransactionMode } from '../../engine/transaction.js';
import type { QueryExecutor, QueryResult } from '../../engine/types.js';
import { ResourceLimitError, toGraphDbError } from '../../errors.js';
import { type Neo4jError, NEO4J_CODES, neo4jError } from '../neo4j-codes.js';
import type { ServerLimits } from '../limits.js';
import { runQuery, type RunOptions } from '../query-runner.js';
import type { HttpAuthorization } from './auth.js';
import { goneSignal } from './gone-signal.js';
import { fromQueryApiParam, type JsonOut, plainJson, queryApiValue } from './json-values.js';
import { httpStatusFor } from './status-codes.js';
import { DATABASE_NAMES, invalidRequest, isPlainObject, jsonBody, type OpenTransactions, send, statsJson } from './neo4j-http.js';

export interface QueryApiOptions {
  limits: ServerLimits;
  /** Where a statement on its own runs (the database or the query router). */
  queries: QueryExecutor;
  /** The Query API's open transactions. */
  open: OpenTransactions;
  /** Transactions open on the HTTP door, both APIs together (bounded by the connection limit). */
  openTotal(): number;
}

/** A request body: its statement (none: only open, keep alive or commit), parameters and options. */
export interface Body {
  statement: string | undefined;
  params: Record<string, unknown> | undefined;
  includeCounters: boolean;
  mode: TransactionMode;
}

/** A failure: the HTTP status and Neo4j's error. */
export interface Failure {
  status: number;
  error: Neo4jError;
}

/** Neo4j asks clients to send this header back on every request of a transaction (cluster routing); one server needs no routing. */
const AFFINITY = Buffer.from('graphdb').toString('base64');

export function parseBody(request: Pick<FastifyRequest, 'body'>, statementRequired: boolean): Body | Failure {
  const body = jsonBody(request);
  if (typeof body === 'string') return { status: 400, error: invalidRequest(body) };
  const { statement, parameters, accessMode } = body;
  if (statement !== undefined && typeof statement !== 'string') return { status: 400, error: invalidRequest('"statement" must be the query text') };
  if (statementRequired && typeof statement !== 'string') return { status: 400, error: invalidRequest('The body needs "statement": the query text') };
  if (parameters !== undefined && parameters !== null && !isPlainObject(parameters)) return { status: 400, error: invalidRequest('"parameters" must be an object') };
  if (accessMode !== undefined && (typeof accessMode !== 'string' || !/^(read|write)$/i.test(accessMode))) return { status: 400, error: invalidRequest('"accessMode" must be "READ" or "WRITE"') };
  let params: Record<string, unknown> | undefined;
  try {
    params = parameters === undefined || parameters === null ? undefined : (fromQueryApiParam(parameters) as Record<string, unknown>);
  } catch (err) {
    return { status: 400, error: { code: 'Neo.ClientError.Request.Invalid', message: (err as Error).message } };
  }
  return { statement: typeof statement === 'string' && statement.trim() !== '' ? statement : undefined, params, includeCounters: body.includeCounters === true, mode: typeof accessMode === 'string' && /^read$/i.test(accessMode) ? 'read' : 'write' };
}

/** The status an engine error is answered with: 500 for the server's own failures, else 400 (as Neo4j's Query API). */
function statusOf(code: string): number {
  return httpStatusFor(code) === 500 ? 500 : 400;
}

export function isFailure(v: unknown): v is Failure {
  return isPlainObject(v) && 'error' in v && 'status' in v;
}

/** Whether the client asked for typed values (`Accept: application/vnd.neo4j.query`). */
export function wantsTypedValues(accept: string | string[] | undefined): boolean {
  return /application\/vnd\.neo4j\.query/i.test(String(accept ?? ''));
}

/** The body of a successful answer: the statement's fields and values (typed or plain), its counters when asked for. */
function answerJson(typed: boolean, body: Body, r: QueryResult | undefined): Record<string, JsonOut> {
  const out: Record<string, JsonOut> = {};
  if (r !== undefined) {
    const each = typed ? queryApiValue : plainJson;
    out.data = { fields: r.columns, values: r.records.map((row) => row.map(each)) };
    if (body.includeCounters) out.counters = statsJson(r.stats, r.mutated);
  }
  out.bookmarks = [];
  return out;
}

/**
 * One statement in its own transaction (`POST /db/{name}/query/v2`), through `queries`: the
 * status and JSON answered. Shared by the main thread's route and a query worker's door
 * (worker-door.ts), so both answer alike.
 */
export async function answerAutoCommit(queries: QueryExecutor, limits: ServerLimits, body: Body, typed: boolean, options: RunOptions): Promise<{ status: number; json: JsonOut }> {
  const outcome = await runQuery(queries, body.statement ?? '', limits, { ...options, params: body.params });
  if (!outcome.ok) {
    const error: Neo4jError = { code: NEO4J_CODES[outcome.error.code] ?? 'Neo.DatabaseError.General.UnknownError', message: outcome.error.message };
    return { status: statusOf(outcome.error.code), json: { errors: [error as unknown as JsonOut] } };
  }
  return { status: 202, json: answerJson(typed, body, outcome.result) };
}

export function registerQueryApiRoutes(app: FastifyInstance, db: Database, options: QueryApiOptions, auth: HttpAuthorization): void {
  const { limits, queries, open } = options;

  const fail = (reply: FastifyReply, f: Failure): FastifyReply => send(reply, f.status, { errors: [f.error as unknown as JsonOut] });
  const answer = (request: FastifyRequest, body: Body, r: QueryResult | undefined): Record<string, JsonOut> => answerJson(wantsTypedValues(request.headers.accept), body, r);

  const transactionJson = (id: string, tx: Transaction): JsonOut => ({ id, expires: tx.timeoutMs > 0 ? new Date(Date.now() + tx.timeoutMs).toISOString() : 'never' });

  const unknownName = (reply: FastifyReply, name: string): FastifyReply | undefined =>
    DATABASE_NAMES.has(name) ? undefined : fail(reply, { status: 404, error: { code: 'Neo.ClientError.Database.DatabaseNotFound', message: `Database does not exist: ${name}` } });

  const notFound = (reply: FastifyReply, id: string): FastifyReply =>
    fail(reply, { status: 404, error: { code: 'Neo.ClientError.Transaction.TransactionNotFound', message: `Unrecognized transaction id. Transaction may have timed out and been rolled back. (${id})` } });

  /** Runs the body's statement in `tx`; an error ends the transaction (rolled back) and is the failure answered. */
  const runIn = async (request: FastifyRequest, reply: FastifyReply, tx: Transaction, body: Body): Promise<QueryResult | undefined | Failure> => {
    if (body.statement === undefined) return undefined;
    try {
      // The transaction runs under the grant of the request that opened it; a web page's request may still not write in it.
      const refusal = auth.access(request).writeRefused;
      if (refusal && db.txWrites(body.statement)) {
        tx.abort();
        return { status: 403, error: { code: NEO4J_CODES.CROSS_SITE_WRITE, message: refusal.message } };
      }
      // A client that goes away stops its statement (on a worker) and ends the transaction.
      const r = await tx.run(body.statement, body.params, { timeoutMs: limits.queryTimeoutMs, signal: goneSignal(reply) });
      if (r.records.length > limits.maxResultRows) throw new ResourceLimitError(`The result has ${r.records.length} rows; the limit is ${limits.maxResultRows}`);
      return r;
    } catch (err) {
      tx.abort();
      return { status: statusOf(toGraphDbError(err).code), error: neo4jError(err) };
    }
  };

  /** The open transaction a `/tx/{id}` route names, or the reply already sent (an unknown database or id). */
  const openNamed = (request: FastifyRequest, reply: FastifyReply): { id: string; tx: Transaction } | FastifyReply => {
    const { name, id } = request.params as { name: string; id: string };
    const wrong = unknownName(reply, name);
    if (wrong) return wrong;
    const tx = open.get(id);
    return tx ? { id, tx } : notFound(reply, id);
  };

  /** Runs the body's statement (if any) in the open transaction `id` and answers 202 with it; a failure ends the transaction. */
  const runAndAnswerOpen = async (request: FastifyRequest, reply: FastifyReply, id: string, tx: Transaction, body: Body): Promise<FastifyReply> => {
    const r = await runIn(request, reply, tx, body);
    if (isFailure(r)) {
      open.remove(id);
      return fail(reply, r);
    }
    if (r === undefined) tx.touch();
    reply.header('neo4j-cluster-affinity', AFFINITY);
    return send(reply, 202, { ...answer(request, body, r), transaction: transactionJson(id, tx) });
  };

  // One statement in its own transaction.
  app.post('/db/:name/query/v2', async (request, reply) => {
    const { name } = request.params as { name: string };
    const wrong = unknownName(reply, name);
    if (wrong) return wrong;
    const body = parseBody(request, true);
    if (isFailure(body)) return fail(reply, body);
    const { status, json } = await answerAutoCommit(queries, limits, body, wantsTypedValues(request.headers.accept), { signal: goneSignal(reply), ...auth.access(request) });
    return send(reply, status, json);
  });

  // Open a transaction, running the body's statement in it if there is one.
  app.post('/db/:name/query/v2/tx', async (request, reply) => {
    const { name } = request.params as { name: string };
    const wrong = unknownName(reply, name);
    if (wrong) return wrong;
    const body = parseBody(request, false);
    if (isFailure(body)) return fail(reply, body);
    let tx: Transaction;
    try {
      if (options.openTotal() >= limits.maxConnections) throw new ResourceLimitError(`At most ${limits.maxConnections} transactions may be open on the HTTP door; commit or roll back one first`);
      // Its statements run under the grant of the request that opened it (the key, when set, guards every later one).
      tx = await db.beginTransaction({ mode: body.mode, allow: auth.grant(request) });
    } catch (err) {
      return fail(reply, { status: statusOf(toGraphDbError(err).code), error: neo4jError(err) });
    }
    return runAndAnswerOpen(request, reply, open.add(tx), tx, body);
  });

  // A statement in an open transaction (an empty body only keeps it alive).
  app.post('/db/:name/query/v2/tx/:id', async (request, reply) => {
    const named = openNamed(request, reply);
    if (!('tx' in named)) return named;
    const body = parseBody(request, false);
    if (isFailure(body)) return fail(reply, body);
    return runAndAnswerOpen(request, reply, named.id, named.tx, body);
  });

  // Commit, after the body's statement if there is one.
  app.post('/db/:name/query/v2/tx/:id/commit', async (request, reply) => {
    const named = openNamed(request, reply);
    if (!('tx' in named)) return named;
    const { id, tx } = named;
    const body = parseBody(request, false);
    if (isFailure(body)) return fail(reply, body);
    open.remove(id);
    const r = await runIn(request, reply, tx, body);
    if (isFailure(r)) return fail(reply, r);
    try {
      await tx.commit();
    } catch (err) {
      return fail(reply, { status: statusOf(toGraphDbError(err).code), error: neo4jError(err) });
    }
    return send(reply, 202, answer(request, body, r));
  });

  // Roll back, stopping a statement it is running.
  app.delete('/db/:name/query/v2/tx/:id', async (request, reply) => {
    const named = openNamed(request, reply);
    if (!('tx' in named)) return named;
    open.remove(named.id);
    named.tx.abort();
    return send(reply, 200, { bookmarks: [] });
  });
}
