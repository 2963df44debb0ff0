/**
 * Paged query answers over HTTP (docs/CONSOLE.md, "Paged answers"), the console's row cap
 * with "load more":
 * - `POST /query/pages` with `{"query", "params", "pageSize"}`: runs the query like a JSON
 *   `POST /query` (its own transaction, the caller's grant, typed cells) and answers the first
 *   `pageSize` rows with `cursor` (null when nothing is left) and `remaining`;
 * - `GET /query/pages/{cursor}?rows=N`: the next N rows (default: the page size it was opened with);
 *   the cursor closes after its last row;
 * - `DELETE /query/pages/{cursor}`: closes it early.
 * The rest of an answer waits in result-cursors.ts. The Bearer key is checked by app.ts's hook
 * as on every data route; only the query's own request may write (write-guard.ts).
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { QueryExecutor } from '../../engine/types.js';
import type { ServerLimits } from '../limits.js';
import { runQuery } from '../query-runner.js';
import { type ErrorBody, errorBody } from '../wire-format.js';
import type { HttpAuthorization } from './auth.js';
import { goneSignal } from './gone-signal.js';
import { type JsonOut, plainJson, writeJson } from './json-values.js';
import { type CursorLimits, DEFAULT_CURSOR_LIMITS, ResultCursors } from './result-cursors.js';
import { httpStatusFor } from './status-codes.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Rows a page holds when the request does not say. */
export const DEFAULT_PAGE_ROWS = 1000;
/** The most rows one page may ask for. */
export const MAX_PAGE_ROWS = 10_000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function send(reply: FastifyReply, status: number, body: JsonOut | ErrorBody): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(writeJson(body as JsonOut));
}

function fail(reply: FastifyReply, body: ErrorBody): FastifyReply {
  return send(reply, httpStatusFor(body.code), body);
}

/** A page size from a request (a number or a query string's text), or the error saying why it is not one. */
function pageRows(value: unknown, fallback: number): number | ErrorBody {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PAGE_ROWS) {
    return errorBody('BAD_REQUEST', `A page holds 1 to ${MAX_PAGE_ROWS} rows (an integer)`);
  }
  return n;
}

interface PagedRequest {
  query: string;
  params: Record<string, unknown> | undefined;
  pageSize: number;
}

function pagedRequest(raw: unknown): PagedRequest | ErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(strictUtf8.decode(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0)));
  } catch {
    return errorBody('BAD_REQUEST', 'POST /query/pages takes a JSON body {"query": "...", "params": {...}, "pageSize": 1000}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return errorBody('BAD_REQUEST', 'POST /query/pages takes a JSON object');
  const body = parsed as Record<string, unknown>;
  if (typeof body.query !== 'string') return errorBody('BAD_REQUEST', 'POST /query/pages needs "query": the query text');
  const params = body.params ?? undefined;
  if (params !== undefined && (typeof params !== 'object' || Array.isArray(params))) return errorBody('BAD_REQUEST', '"params" must be a JSON object of parameter values');
  const pageSize = typeof body.pageSize === 'string' ? errorBody('BAD_REQUEST', '"pageSize" must be a number') : pageRows(body.pageSize, DEFAULT_PAGE_ROWS);
  if (typeof pageSize !== 'number') return pageSize;
  return { query: body.query, params: params as Record<string, unknown> | undefined, pageSize };
}

function noCursor(id: string): ErrorBody {
  return errorBody('CURSOR_NOT_FOUND', `No open result cursor ${JSON.stringify(id)}: it was read to its end, closed, idle too long, or pushed out by newer ones; run the query again`);
}

export interface PageRoutesOptions {
  limits: ServerLimits;
  /** Where queries run: the database or the query router. */
  queries: QueryExecutor;
  cursorLimits?: CursorLimits;
}

/** Registers `POST /query/pages`, `GET /query/pages/:cursor` and `DELETE /query/pages/:cursor`. */
export function registerPageRoutes(app: FastifyInstance, options: PageRoutesOptions, auth: HttpAuthorization): void {
  const cursors = new ResultCursors(options.cursorLimits ?? DEFAULT_CURSOR_LIMITS);
  app.addHook('onClose', async () => cursors.closeAll());

  app.post('/query/pages', async (request, reply) => {
    const req = pagedRequest(request.body);
    if (!('query' in req)) return fail(reply, req);
    const outcome = await runQuery(options.queries, req.query, options.limits, { params: req.params, signal: goneSignal(reply), ...auth.access(request) });
    if (!outcome.ok) return fail(reply, outcome.error);
    const { result } = outcome;
    const first = result.records.slice(0, req.pageSize);
    const remaining = result.records.length - first.length;
    let cursor: string | null = null;
    if (remaining > 0) cursor = cursors.add(result.records, first.length, req.pageSize);
    return send(reply, 200, {
      columns: result.columns,
      rows: first.map((row) => row.map(plainJson)),
      stats: { ...result.stats, containsUpdates: result.mutated } as unknown as JsonOut,
      cursor,
      remaining,
    });
  });

  app.get('/query/pages/:cursor', async (request, reply) => {
    const id = (request.params as { cursor: string }).cursor;
    const asked = (request.query as Record<string, unknown>).rows;
    const rows = asked === undefined ? undefined : pageRows(asked, DEFAULT_PAGE_ROWS);
    if (typeof rows === 'object') return fail(reply, rows);
    const page = cursors.next(id, rows);
    if (page === undefined) return fail(reply, noCursor(id));
    return send(reply, 200, { rows: page.rows.map((row) => row.map(plainJson)), cursor: page.remaining > 0 ? id : null, remaining: page.remaining });
  });

  app.delete('/query/pages/:cursor', async (request, reply) => {
    const id = (request.params as { cursor: string }).cursor;
    if (!cursors.close(id)) return fail(reply, noCursor(id));
    return send(reply, 200, { closed: true });
  });
}
