/**
 * The HTTP door as a query worker serves it (`--worker-doors`): the worker accepts on its own
 * copy of the HTTP port's listening socket (../listener-copies.ts) and answers reads sent as
 * plain-text `POST /query` or as a Query API statement on its own (`POST /db/{name}/query/v2`)
 * on its replica itself, with no hand-off to the main thread; every other request — a query
 * that writes, JSON bodies of /query, GET /query, transactions, the console, /mcp, probes —
 * goes to the main thread's app unchanged (`door-relay.ts`), so every
 * route works on every connection. Answers are made by the same modules as the main thread's
 * door (key check, limits, error objects, result JSON), and say which thread made them
 * (THREAD_HEADER).
 *
 * Read-your-writes, as the router keeps it for its workers: the main thread publishes the
 * primary's committed mutation sequence, and the durable one, in shared memory
 * (`DoorSequences`). A read starts only on a replica at exactly the committed sequence — a
 * replica behind waits for the commits on their way, one ahead (holding a write of the pool's
 * that the primary has not applied yet) waits for the primary — and its answer goes out only
 * once that state is durable. A replica that does not get there in time relays the request.
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Database } from '../../engine/database.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult } from '../../engine/types.js';
import { placement, type Placement } from '../../engine/workers/query-kind.js';
import { PRIMARY_ONLY } from '../../engine/workers/protocol.js';
import { GraphDbError } from '../../errors.js';
import { nextTurn } from '../../event-loop.js';
import type { DoorSequences, WorkerDoorConfig } from '../../engine/workers/door-protocol.js';
import { runQuery } from '../query-runner.js';
import { type ErrorBody, errorBody, resultJson, toErrorBody } from '../wire-format.js';
import { bearerChecker, type HttpAuthorization, httpAuthorization, type QueryAccess, UNAUTHORIZED_BODY } from './auth.js';
import { writeJson } from './json-values.js';
import { DATABASE_NAMES } from './neo4j-http.js';
import { answerAutoCommit, isFailure, parseBody, wantsTypedValues } from './query-api-routes.js';
import { MainRelay, THREAD_HEADER } from './door-relay.js';
import { limitedServerFactory } from './node-server.js';
import { bodyWithin, isJsonType } from './request-body.js';
import { httpStatusFor } from './status-codes.js';

/** How long answers in flight may take once the door closes, before their connections are cut. */
const CLOSE_GRACE_MS = 1000;

/** Query texts whose place a door remembers (the whole memory is dropped when it fills: texts repeat, and a look is cheap). */
const REMEMBERED_TEXTS = 4096;

/** How long a request waits for the replica to reach the committed state before it is relayed instead. */
const CATCH_UP_MS = 1000;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}


const QUERY_API = /^\/db\/([^/]+)\/query\/v2$/;

/** The routes a worker answers itself: plain-text POST /query, and the Query API's statement on its own (for a database name it knows). */
function servedRoute(req: IncomingMessage): 'query' | 'query-api' | undefined {
  if (req.method !== 'POST') return undefined;
  const path = pathOf(req.url ?? '/');
  if (path === '/query') return isJsonType(req.headers['content-type']) ? undefined : 'query';
  const api = QUERY_API.exec(path);
  return api !== null && DATABASE_NAMES.has(api[1]) ? 'query-api' : undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** One worker's door: its server on the shared port, and the replica it reads. */
export class WorkerDoor {
  private readonly server: Server;
  private readonly relay: MainRelay;
  /** Where each recent text runs: `placement`'s look, or 'write' once a run showed the main thread must answer it. */
  private readonly places = new Map<string, Placement>();
  /** Wakes the requests waiting for the replica to move (`replicaMoved`). */
  private moved: (() => void)[] = [];
  private readonly checkKey: ((header: string | undefined) => boolean) | undefined;
  private readonly auth: HttpAuthorization;

  constructor(
    private readonly config: WorkerDoorConfig,
    private readonly replica: () => Database | undefined,
    private readonly sequences: DoorSequences,
  ) {
    this.relay = new MainRelay(config.relayPort, config.thread);
    this.checkKey = config.apiKey === undefined ? undefined : bearerChecker(config.apiKey);
    this.auth = httpAuthorization(config.apiKey, config.allowOrigins);
    this.server = limitedServerFactory(config.limits)((req, res) => void this.answer(req, res));
  }

  /** Starts accepting on the shared socket. */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ fd: this.config.fd }, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /**
   * Stops accepting (closing this worker's descriptor); idle connections end at once, and
   * answers in flight get a moment, as on the main thread's door (server.ts).
   */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const cut = setTimeout(() => this.server.closeAllConnections(), CLOSE_GRACE_MS);
      this.server.close(() => {
        clearTimeout(cut);
        this.relay.close();
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  /** The replica applied a commit or a new image. */
  replicaMoved(): void {
    for (const wake of this.moved.splice(0)) wake();
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const route = servedRoute(req);
      if (route === undefined) return this.relay.forward(req, res);
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (this.checkKey !== undefined && !this.checkKey(req.headers.authorization)) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return this.send(res, 401, JSON.stringify(UNAUTHORIZED_BODY));
      }
      const body = await this.readBody(req, res);
      if (body === undefined) return;
      if (route === 'query') await this.answerQuery(req, res, body);
      else await this.answerQueryApi(req, res, body);
    } catch (err) {
      if (!res.headersSent) this.sendError(res, toErrorBody(err));
      else res.destroy();
    }
  }

  /** The request body within the limit, or undefined when the answer (413) has gone already. */
  private readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
    const limit = this.config.limits.maxBodyBytes;
    return bodyWithin(req, limit, () => {
      res.shouldKeepAlive = false;
      this.sendError(res, errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes`), 413);
    });
  }

  private async answerQuery(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      return this.sendError(res, errorBody('BAD_ENCODING', 'The request body is not valid UTF-8 text'));
    }
    const outcome = await this.onReplica(req, text, (executor, access) => runQuery(executor, text, this.config.limits, { ...access }));
    if (outcome === undefined) return this.relay.forward(req, res, body);
    if (!outcome.ok) return this.sendError(res, outcome.error);
    let json: string;
    try {
      json = resultJson(outcome.result);
    } catch (err) {
      return this.sendError(res, toErrorBody(err));
    }
    this.send(res, 200, json);
  }

  /** Neo4j's Query API, one statement on its own (query-api-routes.ts `answerAutoCommit`); a body it refuses is answered by the main thread. */
  private async answerQueryApi(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const parsed = parseBody({ body }, true);
    if (isFailure(parsed)) return this.relay.forward(req, res, body);
    const typed = wantsTypedValues(req.headers.accept);
    const answer = await this.onReplica(req, parsed.statement ?? '', (executor, access) => answerAutoCommit(executor, this.config.limits, parsed, typed, { ...access }));
    if (answer === undefined) return this.relay.forward(req, res, body);
    this.send(res, answer.status, writeJson(answer.json));
  }

  /**
   * Runs `text` through `answer` on the replica at the committed state, once that state is
   * durable and on a later turn (as the main thread's door writes its answers); undefined when
   * the main thread must answer instead (not a read, the replica not there in time, or a
   * query that turned out to write or to need the primary).
   */
  private async onReplica<T>(req: IncomingMessage, text: string, answer: (executor: QueryExecutor, access: QueryAccess) => Promise<T>): Promise<T | undefined> {
    const db = await this.atCommitted(Date.now() + CATCH_UP_MS);
    if (db === undefined || this.placeOf(text, db) !== 'read') return undefined;
    const access = this.auth.access(req);
    const seq = db.graph.mutationSeq;
    const run = this.replicaExecutor(db, access.readOnly);
    const out = await answer(run.executor, access);
    if (run.relay()) {
      this.remember(text, 'write');
      return undefined;
    }
    // Nobody is told of a state a crash could still take away: the answer waits for it to be durable (else the main thread answers).
    if (seq > this.sequences.durable && !(await this.sequences.durableAt(seq, Date.now() + CATCH_UP_MS))) return undefined;
    // Written on a later turn, after this turn's reads, as the main thread's door does (app.ts answerQuery).
    await nextTurn();
    return out;
  }

  private placeOf(text: string, db: Database): Placement {
    let place = this.places.get(text);
    if (place === undefined) this.remember(text, (place = placement(text, db.procedures)));
    return place;
  }

  private remember(text: string, place: Placement): void {
    if (this.places.size >= REMEMBERED_TEXTS) this.places.clear();
    this.places.set(text, place);
  }

  /**
   * Runs on the replica, read-only. A query that turns out to write (for a caller who may
   * write) or to need the primary is not answered here: `relay()` then says so.
   */
  private replicaExecutor(db: Database, callerReadOnly: boolean): { executor: QueryExecutor; relay(): boolean } {
    let relay = false;
    const execute = async (text: string, params: QueryParams | undefined, options: QueryOptions = {}): Promise<QueryResult> => {
      try {
        return db.executeSync(text, params, { timeoutMs: options.timeoutMs, maxRows: options.maxRows, allow: options.allow, readOnly: true });
      } catch (err) {
        if (err instanceof GraphDbError && (err.detail === PRIMARY_ONLY || (err.detail === 'WriteInReadOnlyCall' && !callerReadOnly))) relay = true;
        throw err;
      }
    };
    return { executor: { execute }, relay: () => relay };
  }

  /** The replica once it is at the primary's committed state, or undefined when it is not there by `deadline`. */
  private async atCommitted(deadline: number): Promise<Database | undefined> {
    for (;;) {
      const db = this.replica();
      if (db !== undefined && db.graph.mutationSeq === this.sequences.committed) return db;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.moved.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private sendError(res: ServerResponse, body: ErrorBody, status = httpStatusFor(body.code)): void {
    this.send(res, status, JSON.stringify(body));
  }

  private send(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text), 'Access-Control-Allow-Origin': '*', [THREAD_HEADER]: this.config.thread });
    res.end(text);
  }
}
