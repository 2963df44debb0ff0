/**
 * The HTTP door's JSON query routes (docs/TRANSACTIONS.md, "HTTP"):
 * - `POST /query` with `Content-Type: application/json` and `{"query", "params"}`: one query
 *   with parameters, answered with typed JSON cells (json-values.ts `plainJson`) and the
 *   write counters. A text body keeps SPEC's shape (app.ts), and so does a JSON-typed body
 *   that is not an object (query text never starts with `{`: clients that label text as JSON
 *   keep working). This module answers JSON bodies from a preHandler hook, before that
 *   route's handler, so the route stays app.ts's.
 * - Neo4j's transactional HTTP API: `POST /db/{name}/tx/commit` (statements in one
 *   transaction), `POST /db/{name}/tx` (begin: 201 and `Location`), `POST /db/{name}/tx/{id}`
 *   (more statements), `POST /db/{name}/tx/{id}/commit`, `DELETE /db/{name}/tx/{id}`
 *   (rollback); an open one expires when idle past the transaction time limit (`--tx-timeout`).
 *   Results in Neo4j's shape (`row`, `meta`, `graph`, `includeStats`), errors as Neo4j's
 *   `{code, message}`; any error rolls the transaction back, as Neo4j does.
 * - Neo4j's Query API, `POST /db/{name}/query/v2` and its transactions: query-api-routes.ts.
 * The Bearer key is checked by app.ts's hook for these paths too; a browser's request that may
 * not write (write-guard.ts) has its writing statements refused, as on POST /query.
 */

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../engine/database.js';
import type { Transaction } from '../../engine/transaction.js';
import type { QueryExecutor, QueryResult } from '../../engine/types.js';
import { ResourceLimitError } from '../../errors.js';
import { type Neo4jError, NEO4J_CODES, neo4jError } from '../neo4j-codes.js';
import type { ServerLimits } from '../limits.js';
import { runQuery } from '../query-runner.js';
import { type ErrorBody, errorBody } from '../wire-format.js';
import { GraphCollector, type JsonOut, neo4jMeta, neo4jRow, plainJson } from './json-values.js';
import { registerQueryApiRoutes } from './query-api-routes.js';
import { DATABASE_NAMES, invalidRequest, isPlainObject, jsonBody, OpenTransactions, send, statsJson } from './neo4j-http.js';
import { httpStatusFor } from './status-codes.js';
import type { HttpAuthorization } from './auth.js';
import { goneSignal } from './gone-signal.js';
import { isJsonType } from './request-body.js';

export interface TxRoutesOptions {
  limits: ServerLimits;
  /** Where single queries run (POST /query JSON): the database or the query router. */
  queries?: QueryExecutor;
}

/** Statements one request may carry. */
const MAX_STATEMENTS = 1000;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function startsWithBrace(body: unknown): boolean {
  if (!Buffer.isBuffer(body)) return false;
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b;
  }
  return false;
}


// ---------------------------------------------------------------- POST /query (JSON)

async function answerJsonQuery(request: FastifyRequest, reply: FastifyReply, queries: QueryExecutor, options: TxRoutesOptions, auth: HttpAuthorization): Promise<FastifyReply> {
  const fail = (body: ErrorBody): FastifyReply => send(reply, httpStatusFor(body.code), body as unknown as JsonOut);
  const body = jsonBody(request);
  if (typeof body === 'string') return fail(errorBody('BAD_REQUEST', body));
  if (typeof body.query !== 'string') return fail(errorBody('BAD_REQUEST', 'A JSON body needs "query": the query text (and optionally "params": an object)'));
  if (body.params !== undefined && body.params !== null && !isPlainObject(body.params)) return fail(errorBody('BAD_REQUEST', '"params" must be a JSON object of parameter values'));
  // The shared rule's grant goes with the query to every procedure it calls (../authorization.ts).
  const outcome = await runQuery(queries, body.query, options.limits, {
    params: (body.params ?? undefined) as Record<string, unknown> | undefined,
    signal: goneSignal(reply),
    ...auth.access(request),
  });
  if (!outcome.ok) return fail(outcome.error);
  const { result } = outcome;
  try {
    return send(reply, 200, {
      columns: result.columns,
      rows: result.records.map((row) => row.map(plainJson)),
      stats: { ...result.stats, containsUpdates: result.mutated } as unknown as JsonOut,
    });
  } catch (err) {
    return fail(errorBody('LIMIT_EXCEEDED', `The result could not be written: ${(err as Error).message}`));
  }
}

// ---------------------------------------------------------------- Neo4j errors

// ---------------------------------------------------------------- Neo4j's transactional HTTP API

interface Statement {
  statement: string;
  parameters: Record<string, unknown> | undefined;
  row: boolean;
  graph: boolean;
  includeStats: boolean;
}

/** The statements of a request body, or the error saying why they are not. */
function statementsOf(body: Record<string, unknown>): Statement[] | Neo4jError {
  const list = body.statements ?? [];
  if (!Array.isArray(list)) return invalidRequest('"statements" must be a list');
  if (list.length > MAX_STATEMENTS) return invalidRequest(`At most ${MAX_STATEMENTS} statements per request`);
  const out: Statement[] = [];
  for (const s of list) {
    if (!isPlainObject(s) || typeof s.statement !== 'string') return invalidRequest('Each statement needs "statement": the query text');
    if (s.parameters !== undefined && s.parameters !== null && !isPlainObject(s.parameters)) return invalidRequest('"parameters" must be an object');
    const contents = s.resultDataContents ?? ['row'];
    if (!Array.isArray(contents) || contents.some((c) => c !== 'row' && c !== 'graph' && c !== 'REST' && c !== 'rest')) {
      return invalidRequest('"resultDataContents" must be a list of "row" and "graph"');
    }
    out.push({
      statement: s.statement,
      parameters: (s.parameters ?? undefined) as Record<string, unknown> | undefined,
      row: contents.includes('row'),
      graph: contents.includes('graph'),
      includeStats: s.includeStats === true,
    });
  }
  return out;
}

function resultJson(s: Statement, r: QueryResult): JsonOut {
  const data = r.records.map((record) => {
    const entry: { [key: string]: JsonOut } = {};
    if (s.row) {
      entry.row = record.map(neo4jRow);
      entry.meta = record.map(neo4jMeta);
    }
    if (s.graph) {
      const g = new GraphCollector();
      for (const v of record) g.add(v);
      entry.graph = g.toJson();
    }
    return entry as JsonOut;
  });
  const out: { [key: string]: JsonOut } = { columns: r.columns, data };
  if (s.includeStats) out.stats = statsJson(r.stats, r.mutated);
  return out;
}

export function registerTxRoutes(app: FastifyInstance, db: Database, options: TxRoutesOptions, auth: HttpAuthorization): void {
  const queries = options.queries ?? db;
  const open = new OpenTransactions();
  // The Query API's transactions have ids no other client can guess, as Neo4j's do.
  const queryApiOpen = new OpenTransactions(() => randomUUID());
  const openTotal = (): number => open.size + queryApiOpen.size;
  app.addHook('onClose', async () => {
    open.closeAll();
    queryApiOpen.closeAll();
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || pathOf(request.url) !== '/query' || !isJsonType(request.headers['content-type'])) return;
    // Query text never starts with `{`: a JSON-typed body that is not an object is SPEC's text body, as before.
    if (!startsWithBrace(request.body)) return;
    await answerJsonQuery(request, reply, queries, options, auth);
    return reply;
  });

  const limits = options.limits;
  const baseUrl = (request: FastifyRequest, name: string): string => `${request.protocol}://${request.headers.host ?? request.hostname}/db/${name}/tx`;
  const expiry = (tx: Transaction): JsonOut => ({ expires: tx.timeoutMs > 0 ? new Date(Date.now() + tx.timeoutMs).toUTCString() : 'never' });

  /** Runs the request's statements in `tx`; the first error ends it (rolled back) and is reported. */
  const runAll = async (request: FastifyRequest, reply: FastifyReply, tx: Transaction, statements: Statement[]): Promise<{ results: JsonOut[]; errors: Neo4jError[] }> => {
    const results: JsonOut[] = [];
    if (statements.length === 0) tx.touch();
    // The transaction runs under the grant of the request that began it; a web page's request may still not write in it.
    const refusal = auth.access(request).writeRefused;
    for (const s of statements) {
      try {
        if (refusal && db.txWrites(s.statement)) throw Object.assign(new Error(refusal.message), { neo4j: { code: NEO4J_CODES.CROSS_SITE_WRITE, message: refusal.message } });
        // A client that goes away stops its statement (on a worker) and ends the transaction.
        const r = await tx.run(s.statement, s.parameters, { timeoutMs: limits.queryTimeoutMs, signal: goneSignal(reply) });
        if (r.records.length > limits.maxResultRows) throw new ResourceLimitError(`The result has ${r.records.length} rows; the limit is ${limits.maxResultRows}`);
        results.push(resultJson(s, r));
      } catch (err) {
        tx.abort();
        const known = (err as { neo4j?: Neo4jError }).neo4j;
        return { results, errors: [known ?? neo4jError(err)] };
      }
    }
    return { results, errors: [] };
  };

  const checkName = (name: string, reply: FastifyReply): boolean => {
    if (DATABASE_NAMES.has(name)) return true;
    void send(reply, 404, { results: [], errors: [{ code: 'Neo.ClientError.Database.DatabaseNotFound', message: `Database does not exist: ${name} (this server has one database, neo4j)` }] } as JsonOut);
    return false;
  };

  const parse = (request: FastifyRequest, reply: FastifyReply): Statement[] | undefined => {
    const body = jsonBody(request);
    const statements = typeof body === 'string' ? invalidRequest(body) : statementsOf(body);
    if (Array.isArray(statements)) return statements;
    void send(reply, 400, { results: [], errors: [statements as unknown as JsonOut] });
    return undefined;
  };

  const begin = async (request: FastifyRequest, reply: FastifyReply): Promise<Transaction | undefined> => {
    try {
      // This door holds at most as many open transactions as it takes connections.
      if (openTotal() >= limits.maxConnections) throw new ResourceLimitError(`At most ${limits.maxConnections} transactions may be open on the HTTP door; commit or roll back one first`);
      // Its statements run under the grant of the request that began it (the key, when set, guards every later one).
      return await db.beginTransaction({ mode: 'write', allow: auth.grant(request) });
    } catch (err) {
      void send(reply, 200, { results: [], errors: [neo4jError(err) as unknown as JsonOut] });
      return undefined;
    }
  };

  const commitAnswer = async (tx: Transaction, outcome: { results: JsonOut[]; errors: Neo4jError[] }): Promise<JsonOut> => {
    if (outcome.errors.length === 0) {
      try {
        await tx.commit();
      } catch (err) {
        outcome.errors.push(neo4jError(err));
      }
    }
    return { results: outcome.results, errors: outcome.errors as unknown as JsonOut, lastBookmarks: [] };
  };

  // One transaction, committed at once.
  app.post('/db/:name/tx/commit', async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!checkName(name, reply)) return reply;
    const statements = parse(request, reply);
    if (!statements) return reply;
    const tx = await begin(request, reply);
    if (!tx) return reply;
    return send(reply, 200, await commitAnswer(tx, await runAll(request, reply, tx, statements)));
  });

  // Begin, with statements to run at once.
  app.post('/db/:name/tx', async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!checkName(name, reply)) return reply;
    const statements = parse(request, reply);
    if (!statements) return reply;
    const tx = await begin(request, reply);
    if (!tx) return reply;
    const id = open.add(tx);
    const { results, errors } = await runAll(request, reply, tx, statements);
    if (errors.length > 0) {
      open.remove(id);
      return send(reply, 200, { results, errors: errors as unknown as JsonOut });
    }
    const url = `${baseUrl(request, name)}/${id}`;
    reply.header('Location', url);
    return send(reply, 201, { results, errors: [], commit: `${url}/commit`, transaction: expiry(tx) });
  });

  const notFound = (reply: FastifyReply, id: string): FastifyReply =>
    send(reply, 404, { results: [], errors: [{ code: 'Neo.ClientError.Transaction.TransactionNotFound', message: `Unrecognized transaction id. Transaction may have timed out and been rolled back. (${id})` }] });

  // More statements in an open transaction (keeps it alive).
  app.post('/db/:name/tx/:id', async (request, reply) => {
    const { name, id } = request.params as { name: string; id: string };
    if (!checkName(name, reply)) return reply;
    const tx = open.get(id);
    if (!tx) return notFound(reply, id);
    const statements = parse(request, reply);
    if (!statements) return reply;
    const { results, errors } = await runAll(request, reply, tx, statements);
    if (errors.length > 0) {
      open.remove(id);
      return send(reply, 200, { results, errors: errors as unknown as JsonOut });
    }
    return send(reply, 200, { results, errors: [], commit: `${baseUrl(request, name)}/${id}/commit`, transaction: expiry(tx) });
  });

  app.post('/db/:name/tx/:id/commit', async (request, reply) => {
    const { name, id } = request.params as { name: string; id: string };
    if (!checkName(name, reply)) return reply;
    const tx = open.get(id);
    if (!tx) return notFound(reply, id);
    const statements = parse(request, reply);
    if (!statements) return reply;
    open.remove(id);
    return send(reply, 200, await commitAnswer(tx, await runAll(request, reply, tx, statements)));
  });

  app.delete('/db/:name/tx/:id', async (request, reply) => {
    const { name, id } = request.params as { name: string; id: string };
    if (!checkName(name, reply)) return reply;
    const tx = open.get(id);
    if (!tx) return notFound(reply, id);
    open.remove(id);
    // At once, even while a statement runs: it is stopped (where it can be) and the writer slot freed.
    tx.abort();
    return send(reply, 200, { results: [], errors: [] });
  });

  registerQueryApiRoutes(app, db, { limits, queries, open: queryApiOpen, openTotal }, auth);
}
