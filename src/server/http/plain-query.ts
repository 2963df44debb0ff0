/**
 * The main thread's short way for the door's commonest request, a plain-text `POST /query`:
 * answered from node's request and response as a query worker's door answers it
 * (worker-door.ts), without fastify's routing, hooks and reply objects, which on a point
 * lookup cost more than the query. Every other request goes to the fastify app, as do these
 * when the server is closing (fastify then answers 503) and when a test injects them.
 *
 * What the answer is made of is the app's own: the key check and its 401, the caller's grant
 * and the cross-site write guard (auth.ts), the body limit's 413, strict UTF-8, the query run
 * with the door's limits and its client's gone-signal (query-runner.ts, gone-signal.ts), the
 * answer written on the next turn, the error objects and their status codes, CORS on every
 * answer and the thread header where the app sets one.
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { QueryExecutor } from '../../engine/types.js';
import { nextTurn } from '../../event-loop.js';
import type { ServerLimits } from '../limits.js';
import { runQuery } from '../query-runner.js';
import { type ErrorBody, errorBody, resultJson, toErrorBody } from '../wire-format.js';
import { bearerChecker, type HttpAuthorization, UNAUTHORIZED_BODY } from './auth.js';
import { THREAD_HEADER } from './door-relay.js';
import { connectionGoneSignal } from './gone-signal.js';
import { bodyWithin, isJsonType } from './request-body.js';
import { httpStatusFor } from './status-codes.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PlainQueryOptions {
  queries: QueryExecutor;
  limits: ServerLimits;
  auth: HttpAuthorization;
  apiKey: string | undefined;
  /** This thread's name for THREAD_HEADER, when the app sets it. */
  thread: string | undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the request is a plain-text POST /query (a trailing slash or a query string allowed, as the app's router allows them; not a JSON body, which has its own route). */
export function isPlainQuery(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path !== '/query' && path !== '/query/') return false;
  const type = req.headers['content-type'];
  return !isJsonType(type);
}

/** `app` (the fastify handler) with plain-text POST /query answered first, on `server`. */
export function plainQueryFirst(app: Handler, server: () => Server | undefined, options: PlainQueryOptions): Handler {
  const checkKey = options.apiKey === undefined ? undefined : bearerChecker(options.apiKey);
  const headers = (length: number): Record<string, string | number> => {
    const h: Record<string, string | number> = { 'Content-Type': JSON_TYPE, 'Content-Length': length, 'Access-Control-Allow-Origin': '*' };
    if (options.thread !== undefined) h[THREAD_HEADER] = options.thread;
    return h;
  };
  const send = (res: ServerResponse, status: number, text: string, extra?: Record<string, string>): void => {
    res.writeHead(status, extra === undefined ? headers(Buffer.byteLength(text)) : { ...headers(Buffer.byteLength(text)), ...extra });
    res.end(text);
  };
  const sendError = (res: ServerResponse, body: ErrorBody, status = httpStatusFor(body.code)): void => send(res, status, JSON.stringify(body));

  const readBody = (req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> => {
    const limit = options.limits.maxBodyBytes;
    return bodyWithin(req, limit, () => sendError(res, errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes`), 413));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      if (checkKey !== undefined && !checkKey(req.headers.authorization)) {
        req.resume();
        return send(res, 401, JSON.stringify(UNAUTHORIZED_BODY), { 'WWW-Authenticate': 'Bearer' });
      }
      const body = await readBody(req, res);
      if (body === undefined) return;
      let text: string;
      try {
        text = strictUtf8.decode(body);
      } catch {
        return sendError(res, errorBody('BAD_ENCODING', 'The request body is not valid UTF-8 text'));
      }
      const signal = connectionGoneSignal(req.socket);
      const outcome = await runQuery(options.queries, text, options.limits, { ...options.auth.access(req), signal });
      // Written on the next turn, after this turn's reads, as the app's route does (app.ts answerQuery).
      await nextTurn();
      if (!outcome.ok) return sendError(res, outcome.error);
      let json: string;
      try {
        json = resultJson(outcome.result);
      } catch (err) {
        return sendError(res, toErrorBody(err));
      }
      send(res, 200, json);
    } catch (err) {
      if (!res.headersSent) sendError(res, toErrorBody(err));
      else res.destroy();
    }
  };

  return (req, res) => {
    if (!isPlainQuery(req) || server()?.listening !== true) return app(req, res);
    void answer(req, res);
  };
}
