/**
 * The HTTP door as a fastify application over one Database (SPEC "HTTP API"): the query
 * routes, status and probes, CORS on every response (errors included), the Bearer-key
 * check, what each request may run (auth.ts, after the shared rule of ../authorization.ts),
 * the cross-site write guard (write-guard.ts), the connection limits (node-server.ts), and the translation of every failure (bad body, limits, unknown route, engine
 * error) into a status code and the SPEC's error object. Listening is `server.ts`'s job.
 */

import type { Server } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import { computeInfo } from '../../../procedures/algo/compute.js';
import { PRODUCT_NAME, packageVersion } from '../../version.js';
import { nextTurn } from '../../event-loop.js';
import type { ServerLimits } from '../limits.js';
import { runQuery } from '../query-runner.js';
import { type ErrorBody, errorBody, resultJson, toErrorBody } from '../wire-format.js';
import { bearerChecker, type HttpAuthorization, httpAuthorization, isOpenPath, type QueryAccess, UNAUTHORIZED_BODY } from './auth.js';
import { registerCors } from './cors.js';
import { methodsFor, routeList } from './routes.js';
import { httpStatusFor } from './status-codes.js';
import { keepAliveMs, limitedServerFactory } from './node-server.js';
import { plainQueryFirst } from './plain-query.js';
import { registerSyncRoutes } from '../../sync/http-routes.js';
import { registerMcpRoute } from '../../mcp/http-endpoint.js';
import { registerReplicationRoutes } from '../../replication/http-routes.js';
import { registerTxRoutes } from './tx-routes.js';
import { goneSignal } from './gone-signal.js';
import { registerConsoleRoutes } from './console-routes.js';
import { registerPageRoutes } from './page-routes.js';
import { THREAD_HEADER } from './door-relay.js';

export interface HttpAppOptions {
  /** When set, every route but the probes requires `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Browser origins (`https://app.example`) whose POSTs may write without a key (write-guard.ts). */
  allowOrigins?: readonly string[];
  limits: ServerLimits;
  /** Where queries run (default: the database itself): the query router sends reads to worker threads. */
  queries?: QueryExecutor;
  /** While query workers serve the door too: this thread's name in every answer's THREAD_HEADER. */
  thread?: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function sendError(reply: FastifyReply, body: ErrorBody, status = httpStatusFor(body.code)): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(body);
}

async function answerQuery(queries: QueryExecutor, limits: ServerLimits, text: string, reply: FastifyReply, access: QueryAccess): Promise<FastifyReply> {
  const signal = goneSignal(reply);
  // A caller that may not write runs its query read-only; the grant goes with it to the procedures it calls.
  const outcome = await runQuery(queries, text, limits, { ...access, signal });
  // Written on the next turn, after the reads of this one: interleaving a write with each read made
  // the kernel's share of an answer (the write that wakes the client) about twice as costly, and
  // under load the door answered a third fewer queries. The answers of a turn go out together.
  await nextTurn();
  if (!outcome.ok) return sendError(reply, outcome.error);
  let json: string;
  try {
    json = resultJson(outcome.result);
  } catch (err) {
    // Too long for a string: LIMIT_EXCEEDED.
    return sendError(reply, toErrorBody(err));
  }
  return reply.code(200).type(JSON_TYPE).send(json);
}

function registerQueryRoutes(app: FastifyInstance, db: Database, options: HttpAppOptions, auth: HttpAuthorization): void {
  const { limits } = options;
  const queries = options.queries ?? db;
  app.post('/query', async (request, reply) => {
    const raw = request.body;
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      return sendError(reply, errorBody('BAD_ENCODING', 'The request body is not valid UTF-8 text'));
    }
    return answerQuery(queries, limits, text, reply, auth.access(request));
  });

  app.get('/query', async (request, reply) => {
    const q = (request.query as Record<string, string | string[] | undefined>).q;
    if (q === undefined) {
      return sendError(reply, errorBody('BAD_REQUEST', 'Missing query parameter q: GET /query?q=<url-encoded query>'));
    }
    if (Array.isArray(q)) return sendError(reply, errorBody('BAD_REQUEST', 'Give the query parameter q only once'));
    return answerQuery(queries, limits, q, reply, auth.access(request, true));
  });
}

function registerInfoRoutes(app: FastifyInstance, db: Database): void {
  const compute = computeInfo(); // chosen at start-up, before the first query needs it
  // Counts at the last commit and a memory estimate taken as things are: like the probes, /status never finishes a worker's write being applied.
  app.get('/status', async () => {
    const { nodes, relationships } = db.committedCounts();
    return { name: PRODUCT_NAME, version: packageVersion(), nodes, relationships, skills: db.skills.count(), memory: db.memoryNow(), compute };
  });
  const live = async (): Promise<{ status: string }> => ({ status: 'ok' });
  // The counts at the last commit: a probe must not finish a worker's write being applied (it would hold the main thread).
  const ready = async (): Promise<{ status: string; nodes: number; relationships: number }> => ({ status: 'ready', ...db.committedCounts() });
  app.get('/health', live);
  app.get('/livez', live);
  app.get('/ready', ready);
  app.get('/readyz', ready);
}

function registerAuth(app: FastifyInstance, apiKey: string): void {
  const check = bearerChecker(apiKey);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // Preflights carry no credentials (browsers never send them), so they stay open.
    if (request.method === 'OPTIONS' || isOpenPath(pathOf(request.url))) return;
    if (!check(request.headers.authorization)) {
      return reply.code(401).type(JSON_TYPE).header('WWW-Authenticate', 'Bearer').send(UNAUTHORIZED_BODY);
    }
  });
}

function registerFailureHandlers(app: FastifyInstance, limits: ServerLimits): void {
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = methodsFor(path);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, errorBody('METHOD_NOT_ALLOWED', `${request.method} is not served on ${path}; use ${allowed.join(', ')}`));
    }
    return sendError(
      reply,
      errorBody('NOT_FOUND', `No route ${request.method} ${path}; routes: ${routeList()}`),
    );
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return sendError(reply, errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limits.maxBodyBytes} bytes`), 413);
    }
    if (status >= 400 && status < 500) return sendError(reply, errorBody('BAD_REQUEST', error.message), status);
    return sendError(reply, errorBody('INTERNAL_ERR', `Internal error: ${error.message}`), 500);
  });
}

/** A schema compiler factory for a server whose routes declare no schemas: compiling one is a programming error. */
function refuseSchemas(): () => never {
  return () => {
    throw new Error('graphdb HTTP routes declare no JSON schemas (the schema compilers are not loaded); check the body in the handler instead');
  };
}

/** The fastify application, ready to `listen` (or `inject` in tests). */
export async function buildHttpApp(db: Database, options: HttpAppOptions): Promise<FastifyInstance> {
  const { limits } = options;
  const auth = httpAuthorization(options.apiKey, options.allowOrigins);
  // Plain-text POST /query is answered before fastify sees it (plain-query.ts), by the same rules.
  let server: Server | undefined;
  const plain = { queries: options.queries ?? db, limits, auth, apiKey: options.apiKey, thread: options.thread };
  const app = Fastify({
    logger: false,
    bodyLimit: limits.maxBodyBytes,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    // No route declares a JSON schema (bodies are parsed and checked by the handlers), so fastify's
    // default compilers, Ajv and fast-json-stringify (two thirds of the modules fastify loads),
    // are never needed: these take their place and refuse a schema should one be added.
    schemaController: { compilersFactory: { buildValidator: refuseSchemas, buildSerializer: refuseSchemas } },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: keepAliveMs(limits),
    serverFactory: (handler) => (server = limitedServerFactory(limits)(plainQueryFirst(handler, () => server, plain))),
    // Requests the HTTP parser itself rejects (malformed, headers too large) still get CORS and the error shape.
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) return socket.destroy();
      const tooLarge = (err as NodeJS.ErrnoException).code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : 400;
      const body = JSON.stringify(errorBody('BAD_REQUEST', tooLarge ? 'Request headers are too large' : 'Malformed HTTP request'));
      socket.end(
        `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
          'Connection: close\r\nAccess-Control-Allow-Origin: *\r\n' +
          `Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    },
  });

  registerCors(app);
  const thread = options.thread;
  if (thread !== undefined) {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header(THREAD_HEADER, thread);
      done();
    });
  }
  if (options.apiKey !== undefined) registerAuth(app, options.apiKey);

  // The query body is raw text whatever Content-Type the client claims (curl -d sends a form type).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  registerTxRoutes(app, db, options, auth);
  registerQueryRoutes(app, db, options, auth);
  registerPageRoutes(app, { limits, queries: options.queries ?? db }, auth);
  registerInfoRoutes(app, db);
  registerSyncRoutes(app, db, auth);
  registerMcpRoute(app, db, { ...options, auth });
  registerReplicationRoutes(app, db, auth);
  registerConsoleRoutes(app, db, limits);
  registerFailureHandlers(app, limits);
  return app;
}
