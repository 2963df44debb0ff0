/**
 * One Bolt connection: the handshake, then Bolt's server state machine over whole messages
 * (CONNECTED → AUTHENTICATION → READY ⇄ STREAMING, READY → TX_READY ⇄ TX_STREAMING, FAILED,
 * INTERRUPTED, DEFUNCT). Messages run one at a time in arrival order. A RESET is seen as
 * soon as it arrives: it stops the query in progress (its abort signal) and every message
 * queued before it is answered IGNORED, then the RESET itself SUCCESS. After a FAILURE every
 * message but RESET and GOODBYE is IGNORED, as the protocol requires.
 *
 * Auto-commit RUNs go through the door's executor (the query router: reads on the query
 * workers, where they can be stopped); BEGIN opens an engine transaction (docs/TRANSACTIONS.md).
 * A result is held once computed and sent in PULL-sized batches, waiting for the socket to
 * drain between batches. Authentication follows the other doors: with an API key, the
 * `basic` scheme with the key as password (any user name); without, `none` (or any basic).
 */

import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { NEO4J_COMPATIBLE_VERSION } from '../../../procedures/dbms/index.js';
import type { Database } from '../../engine/database.js';
import type { Transaction } from '../../engine/transaction.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult, QueryStats } from '../../engine/types.js';
import type { ServerLimits } from '../limits.js';
import { neo4jError } from '../neo4j-codes.js';
import { secretMatcher } from '../secret-compare.js';
import { grantFor, isLoopback, type PageOrigin } from '../authorization.js';
import { drainedOrClosed } from '../running.js';
import { ChunkReader, chunked } from './chunking.js';
import { showDatabases } from './databases.js';
import { explainPlan, explainText, PROFILE, profilePlan } from './plan.js';
import { planNotifications } from './notifications.js';
import { LiveRows } from './live-rows.js';
import { zeroStats } from '../../store/graph.js';
import { atLeast, type BoltVersion, HANDSHAKE_BYTES, negotiate } from './handshake.js';
import { failure, ignored, mapField, type Meta, meta, record, REQUEST, success } from './messages.js';
import { Packer, type PackValue, PackStreamError, Structure, unpack } from './packstream.js';
import { BoltValueError, fromPack, toPack, type ValueDialect } from './values.js';

/** The version string drivers and tools read: the Neo4j 5 that dbms.components() names too. */
export const SERVER_AGENT = `Neo4j/${NEO4J_COMPATIBLE_VERSION}`;
const DATABASES = new Set(['neo4j', 'graphdb', 'system']);
/** Records sent between two yields to the event loop. */
const BATCH = 1000;
/** Answers gathered before they go to the socket in one write (they go sooner when the client has asked nothing more). */
const FLUSH_BYTES = 64 * 1024;
const ROUTING_TTL_SECONDS = 300;
const BOOKMARK_PREFIX = 'graphdb:seq:';
const BOOKMARK = /^graphdb:seq:(\d+)$/;
/** How long a bookmark is waited for when neither the client nor the server sets a time limit. */
const BOOKMARK_WAIT_MS = 30_000;
const BOOKMARK_POLL_MS = 10;
/** An index or constraint change (SHOW … is a read and runs in the transaction). */
/** Statements whose answer is a plan made from the whole result: never streamed. */
const PLAN_STATEMENT = /^\s*(EXPLAIN|PROFILE)\b/i;
/** A schema command, or a call of one of Neo4j's index-creating procedures (LangChain's vector set-up sends one through executeQuery). */
const SCHEMA_CHANGE = /^\s*(?:(CREATE|DROP)\s+(OR\s+REPLACE\s+)?([A-Za-z]+\s+)?(INDEX|CONSTRAINT)\b|CALL\s+db\.index\.vector\.create(Node|Relationship)Index\s*\()/i;

type State = 'connected' | 'authentication' | 'ready' | 'failed' | 'defunct';

interface OpenResult {
  columns: string[];
  /** EXPLAIN's plan and PROFILE's profile, and the notifications they raise, sent in the summary. */
  plan?: Map<string, PackValue>;
  profile?: Map<string, PackValue>;
  notifications?: PackValue[];
  /** Rows at hand: the whole result, or the page being sent of a streamed one. */
  records: QueryResult['records'];
  next: number;
  /** A streamed result's source of further pages (until it has given its last). */
  live?: LiveRows;
  stats: QueryStats;
  mutated: boolean;
  qid: number;
  inTx: boolean;
}

class ProtocolError extends Error {}

/** A failure with a Neo4j code of its own (not one of graphdb's errors). */
class BoltFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let connections = 0;

export interface BoltSessionOptions {
  queries: QueryExecutor;
  db: Database | undefined;
  limits: ServerLimits;
  apiKey: string | undefined;
  /** Whether the connection comes from a web page (Bolt over WebSocket, ./websocket.ts); plain Bolt: 'none'. */
  page?: PageOrigin;
  /** When the TCP connection was made: the time to authenticate counts from there (a WebSocket upgrade spends part of it). */
  connectedAt?: number;
}

export class BoltSession {
  private readonly id = `bolt-${++connections}`;
  private version: BoltVersion | undefined;
  private dialect: ValueDialect = { elementIds: true, utcDateTimes: true };
  private pending = Buffer.alloc(0);
  private reader: ChunkReader;
  private readonly queue: Structure[] = [];
  private state: State = 'connected';
  private running = false;
  private closed = false;
  /** RESETs received and not yet answered: messages before them are IGNORED. */
  private resets = 0;
  private current: AbortController | undefined;
  private tx: Transaction | undefined;
  private txTimeoutMs: number | undefined;
  /** Statements run in the open transaction so far, and whether its first was a schema change. */
  private txStatements = 0;
  private schemaOnly = false;
  /** Results not yet wholly pulled or discarded, by qid (several only inside a transaction). */
  private readonly results = new Map<number, OpenResult>();
  private lastQid = -1;
  private nextQid = 0;
  private readonly keyCheck: ((given: string) => boolean) | undefined;
  /** What this client may do (../authorization.ts): with a key, everything once it has logged on (nothing runs before). */
  private readonly allow: QueryOptions['allow'];
  /** A web page of another origin on a server without a key may only read (as on the HTTP door). */
  private readonly readsOnly: boolean;
  private startTimer: NodeJS.Timeout | undefined;
  private readonly packer = new Packer();
  /**
   * Answers not yet written: a driver pipelines RUN and PULL, and their SUCCESS, RECORDs and
   * summary leave in one write, not one per message (a syscall and, with no Nagle, a packet each).
   */
  private out: Buffer[] = [];
  private outBytes = 0;

  /**
   * `link` carries the Bolt bytes: the TCP (or TLS) socket itself, or the stream of a
   * WebSocket's binary frames on it; `peer` is that socket (addresses, idle time).
   */
  constructor(
    private readonly link: Duplex,
    private readonly peer: Socket,
    private readonly opts: BoltSessionOptions,
  ) {
    this.reader = new ChunkReader(opts.limits.maxMessageBytes);
    this.keyCheck = opts.apiKey === undefined ? undefined : secretMatcher(opts.apiKey);
    const keyRequired = opts.apiKey !== undefined;
    // Plain Bolt is no browser protocol (its handshake is binary); over WebSocket a page says where it comes from.
    this.allow = grantFor({ keyRequired, keyGiven: keyRequired, page: opts.page ?? 'none', local: isLoopback(peer.remoteAddress), readOnlyRoute: false });
    this.readsOnly = !(this.allow ?? []).includes('write');
    const spent = opts.connectedAt === undefined ? 0 : Date.now() - opts.connectedAt;
    this.startTimer = setTimeout(() => this.destroy(), Math.max(0, opts.limits.headersTimeoutMs - spent));
    this.startTimer.unref();
    if (opts.limits.idleTimeoutMs > 0) {
      peer.setTimeout(opts.limits.idleTimeoutMs, () => {
        if (!this.running) this.destroy();
      });
    }
    link.on('data', (chunk: Buffer) => this.onData(chunk));
    link.on('end', () => this.destroy());
    link.on('error', () => link.destroy());
    const closed = (): void => {
      if (this.closed) return;
      this.closed = true;
      this.state = 'defunct';
      this.queue.length = 0;
      this.current?.abort();
      this.dropResults();
      this.tx?.abort();
      this.tx = undefined;
      clearTimeout(this.startTimer);
    };
    link.on('close', closed);
    if (peer !== link) peer.on('close', closed);
  }

  /** Server shutdown: the message in progress finishes, then the connection closes. */
  shutdown(): void {
    this.queue.length = 0;
    if (!this.running) this.destroy();
    else this.state = 'defunct';
  }

  private destroy(): void {
    this.state = 'defunct';
    if (!this.closed) this.flush();
    this.link.end();
    setTimeout(() => {
      this.link.destroy();
      this.peer.destroy();
    }, 2000).unref();
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'defunct') return;
    if (this.version === undefined) {
      this.pending = Buffer.concat([this.pending, chunk]);
      if (this.pending.length < HANDSHAKE_BYTES) return;
      const outcome = negotiate(this.pending);
      if (!outcome.ok) {
        if (outcome.answer) this.link.write(outcome.answer);
        this.destroy();
        return;
      }
      this.version = outcome.version;
      this.dialect = { elementIds: outcome.version.major >= 5, utcDateTimes: outcome.version.major >= 5 };
      this.link.write(outcome.answer);
      chunk = this.pending.subarray(HANDSHAKE_BYTES);
      this.pending = Buffer.alloc(0);
      if (chunk.length === 0) return;
    }
    for (const event of this.reader.push(chunk)) {
      if (event.kind === 'tooLarge') {
        this.fatal('Neo.ClientError.Request.Invalid', `A message is larger than the limit of ${this.opts.limits.maxMessageBytes} bytes; closing the connection`);
        return;
      }
      let message: PackValue;
      try {
        message = unpack(event.bytes);
      } catch (err) {
        this.fatal('Neo.ClientError.Request.InvalidFormat', `The message cannot be decoded: ${err instanceof PackStreamError ? err.message : String(err)}`);
        return;
      }
      if (!(message instanceof Structure)) {
        this.fatal('Neo.ClientError.Request.InvalidFormat', 'A Bolt message must be a structure');
        return;
      }
      if (message.tag === REQUEST.RESET) {
        this.resets++;
        this.current?.abort();
        // A statement running in the transaction stops too, and the transaction rolls back now (its writer slot freed).
        this.tx?.abort();
        for (const r of this.results.values()) r.live?.stop();
      }
      this.queue.push(message);
    }
    void this.pump();
  }

  /** A protocol violation: FAILURE, then the connection closes (the state is DEFUNCT). */
  private fatal(code: string, message: string): void {
    this.queue.length = 0;
    if (!this.closed) this.emit(chunked(this.pack(failure(code, message))));
    this.destroy();
  }

  private pack(s: Structure): Buffer {
    this.packer.pack(s);
    return this.packer.take();
  }

  private async send(s: Structure): Promise<void> {
    if (this.closed) return;
    if (this.emit(chunked(this.pack(s)))) return;
    await drainedOrClosed(this.link);
  }

  /** Queues `bytes` for the socket; false when the caller must wait for it to drain (it was written, and the socket is full). */
  private emit(bytes: Buffer): boolean {
    this.out.push(bytes);
    this.outBytes += bytes.length;
    if (this.outBytes >= FLUSH_BYTES || this.link.writableNeedDrain) return this.flush();
    return true;
  }

  /** Writes the answers queued so far in one write; false when the socket is full. */
  private flush(): boolean {
    if (this.out.length === 0) return !this.link.writableNeedDrain;
    const bytes = this.out.length === 1 ? this.out[0] : Buffer.concat(this.out, this.outBytes);
    this.out = [];
    this.outBytes = 0;
    if (this.closed) return true;
    return this.link.write(bytes);
  }

  /** Sends what is queued before a wait that may be long (a query running, the next page of one). */
  private async flushed(): Promise<void> {
    if (!this.flush() && !this.closed) await drainedOrClosed(this.link);
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const message = this.queue.shift();
        if (message === undefined || this.state === 'defunct') break;
        try {
          await this.handle(message);
        } catch (err) {
          if (err instanceof ProtocolError) this.fatal('Neo.ClientError.Request.Invalid', err.message);
          else this.fatal('Neo.DatabaseError.General.UnknownError', err instanceof Error ? err.message : String(err));
        }
        // The client waits for nothing it has not asked: with no message left, the answers go now.
        if (this.queue.length === 0) await this.flushed();
      }
    } finally {
      this.running = false;
    }
  }

  private async handle(m: Structure): Promise<void> {
    if (m.tag === REQUEST.GOODBYE) {
      this.destroy();
      return;
    }
    if (m.tag === REQUEST.RESET) {
      this.resets--;
      this.reset();
      await this.send(success());
      return;
    }
    if (this.resets > 0) {
      await this.send(ignored());
      return;
    }
    if (this.state === 'connected') {
      if (m.tag !== REQUEST.HELLO) throw new ProtocolError('The first message must be HELLO');
      await this.hello(mapField(m.fields, 0));
      return;
    }
    if (this.state === 'authentication') {
      if (m.tag !== REQUEST.LOGON) throw new ProtocolError('Authenticate with LOGON first');
      await this.logon(mapField(m.fields, 0));
      return;
    }
    if (this.state === 'failed') {
      await this.send(ignored());
      return;
    }
    try {
      await this.dispatch(m);
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      const e =
        err instanceof BoltValueError ? { code: 'Neo.ClientError.Statement.TypeError', message: err.message }
        : err instanceof BoltFailure ? { code: err.code, message: err.message }
        : neo4jError(err);
      await this.fail(e.code, e.message);
    }
  }

  /** FAILURE: the state is FAILED until RESET; an open transaction is rolled back (any error ends it). */
  private async fail(code: string, message: string): Promise<void> {
    this.state = 'failed';
    this.dropResults();
    this.tx?.abort();
    await this.send(failure(code, message));
  }

  /** Forgets every open result, stopping the queries still streaming theirs. */
  private dropResults(): void {
    for (const r of this.results.values()) r.live?.stop();
    this.results.clear();
  }

  private reset(): void {
    this.dropResults();
    this.current = undefined;
    this.tx?.abort();
    this.tx = undefined;
    if (this.state !== 'defunct' && this.state !== 'connected' && this.state !== 'authentication') this.state = 'ready';
  }

  private async dispatch(m: Structure): Promise<void> {
    switch (m.tag) {
      case REQUEST.RUN: return this.run(m.fields);
      case REQUEST.PULL: return this.stream(mapField(m.fields, 0), true);
      case REQUEST.DISCARD: return this.stream(mapField(m.fields, 0), false);
      case REQUEST.BEGIN: return this.begin(mapField(m.fields, 0));
      case REQUEST.COMMIT: return this.commit();
      case REQUEST.ROLLBACK: return this.rollback();
      case REQUEST.ROUTE: return this.route(mapField(m.fields, 0), m.fields[2]);
      case REQUEST.TELEMETRY: return this.send(success());
      case REQUEST.LOGOFF:
        if (this.version === undefined || !atLeast(this.version, 5, 1)) throw new ProtocolError('LOGOFF needs Bolt 5.1 or later');
        this.reset();
        this.state = 'authentication';
        return this.send(success());
      case REQUEST.HELLO:
      case REQUEST.LOGON:
        throw new ProtocolError('The connection is already authenticated');
      default:
        throw new ProtocolError(`Unknown message 0x${m.tag.toString(16)}`);
    }
  }

  // ---------------------------------------------------------------- start-up

  private async hello(extra: Meta): Promise<void> {
    const v = this.version as BoltVersion;
    const patches = extra.get('patch_bolt');
    const utcPatch = v.major === 4 && Array.isArray(patches) && patches.includes('utc');
    if (utcPatch) this.dialect = { ...this.dialect, utcDateTimes: true };
    const hints = meta({ 'connection.recv_timeout_seconds': this.opts.limits.idleTimeoutMs > 0 ? Math.floor(this.opts.limits.idleTimeoutMs / 1000) : undefined });
    const answer = success(meta({ server: SERVER_AGENT, connection_id: this.id, hints, patch_bolt: utcPatch ? ['utc'] : undefined }));
    if (atLeast(v, 5, 1)) {
      this.state = 'authentication';
      await this.send(answer);
      return;
    }
    if (!this.authenticates(extra)) return this.refuseAuth();
    this.state = 'ready';
    clearTimeout(this.startTimer);
    await this.send(answer);
  }

  private async logon(auth: Meta): Promise<void> {
    if (!this.authenticates(auth)) return this.refuseAuth();
    this.state = 'ready';
    clearTimeout(this.startTimer);
    await this.send(success());
  }

  /** The one rule of the doors: with a key, `basic` with the key as password (any user); without, anything. */
  private authenticates(auth: Meta): boolean {
    if (this.keyCheck === undefined) return true;
    const credentials = auth.get('credentials');
    return auth.get('scheme') === 'basic' && typeof credentials === 'string' && this.keyCheck(credentials);
  }

  private refuseAuth(): void {
    this.fatal('Neo.ClientError.Security.Unauthorized', 'The client is unauthorized due to authentication failure: the server requires its API key as the password (scheme basic, any user name)');
  }

  // ---------------------------------------------------------------- queries

  private checkDb(extra: Meta): void {
    const db = extra.get('db');
    if (db !== undefined && db !== null && (typeof db !== 'string' || !DATABASES.has(db.toLowerCase()))) {
      throw new BoltFailure('Neo.ClientError.Database.DatabaseNotFound', `Database does not exist. Database name: '${String(db)}' (graphdb serves neo4j, also called graphdb)`);
    }
  }

  /** The statement time limit: the server's, or the client's tx_timeout when that is shorter. */
  private timeoutMs(extra: Meta): number {
    const server = this.opts.limits.queryTimeoutMs;
    const asked = extra.get('tx_timeout') ?? this.txTimeoutMs;
    const client = typeof asked === 'number' && asked > 0 ? asked : typeof asked === 'bigint' && asked > 0n ? Number(asked) : 0;
    if (client === 0) return server;
    return server === 0 ? client : Math.min(server, client);
  }

  private async run(fields: readonly PackValue[]): Promise<void> {
    if (this.tx === undefined && this.results.size > 0) throw new ProtocolError('RUN while a result is still open: PULL or DISCARD it first');
    const [text, rawParams] = fields;
    if (typeof text !== 'string') throw new ProtocolError('RUN needs the query text');
    const extra = mapField(fields, 2);
    const params = paramsOf(rawParams);
    const started = Date.now();
    const listing = showDatabases(text, this.address());
    if (listing !== undefined) {
      this.open(listing, this.tx !== undefined);
    } else if (this.tx !== undefined && this.txStatements++ === 0 && SCHEMA_CHANGE.test(text)) {
      // Drivers run everything in transactions (executeQuery, LangChain's index set-up), and
      // Neo4j accepts a schema change as a transaction's only statement; graphdb applies
      // schema changes on their own, so it runs now, committed whatever the transaction does.
      this.open(await this.opts.queries.execute(text, params, { timeoutMs: this.timeoutMs(extra), allow: this.allow }), true);
      this.schemaOnly = true;
    } else if (this.tx !== undefined) {
      if (this.schemaOnly) throw new BoltFailure('Neo.ClientError.Transaction.ForbiddenDueToTransactionType', 'A transaction that changed the schema can run no other statement; commit it and start another');
      const tx = this.tx;
      const result = await tx.run(text, params, { timeoutMs: this.timeoutMs(extra), profileRows: PROFILE.test(text) });
      if (result.records.length > this.opts.limits.maxResultRows) {
        tx.abort();
        throw new BoltFailure('Neo.ClientError.Request.Invalid', `The result has ${result.records.length} rows; the limit is ${this.opts.limits.maxResultRows}. The transaction was rolled back`);
      }
      this.open(result, true, text, await this.notificationsFor(text, result));
    } else {
      this.checkDb(extra);
      await this.awaitBookmarks(extra);
      const controller = new AbortController();
      this.current = controller;
      const options: QueryOptions = { timeoutMs: this.timeoutMs(extra), readOnly: extra.get('mode') === 'r' || this.readsOnly ? true : undefined, signal: controller.signal, allow: this.allow };
      const stream = this.opts.queries.stream?.bind(this.opts.queries);
      let result: QueryResult | undefined;
      let live: LiveRows | undefined;
      try {
        if (stream !== undefined && !PLAN_STATEMENT.test(text)) {
          // Streamed from a worker: RUN answers at the first page, PULLs take the rest as it comes.
          live = new LiveRows(stream, text, params, options, controller);
          result = await live.opened();
        } else if (PROFILE.test(text) && this.opts.db !== undefined) {
          // PROFILE answers its rows and the profile: graphdb's engine does that where it runs on this thread.
          result = await this.opts.db.execute(text, params, { ...options, profileRows: true });
        } else {
          result = await this.opts.queries.execute(text, params, options);
        }
      } finally {
        if (this.current === controller) this.current = undefined;
      }
      // A RESET came meanwhile (the query could not be stopped where it ran): the RUN is void.
      if (controller.signal.aborted) {
        live?.stop();
        await this.send(ignored());
        return;
      }
      if (result === undefined) {
        const streamed = live as LiveRows;
        this.openLive(streamed.columns ?? [], streamed);
        const r = this.results.get(this.lastQid) as OpenResult;
        await this.send(success(meta({ fields: r.columns, t_first: Date.now() - started })));
        return;
      }
      if (result.records.length > this.opts.limits.maxResultRows) {
        throw new BoltFailure('Neo.ClientError.Request.Invalid', `The result has ${result.records.length} rows; the limit is ${this.opts.limits.maxResultRows}. Add LIMIT or aggregate` + (result.mutated ? " (the query's changes were applied)" : ''));
      }
      this.open(result, false, text, await this.notificationsFor(text, result));
    }
    const r = this.results.get(this.lastQid) as OpenResult;
    await this.send(success(meta({ fields: r.columns, t_first: Date.now() - started, qid: r.inTx ? r.qid : undefined })));
  }

  private open(result: QueryResult, inTx: boolean, text = '', notifications?: PackValue[]): void {
    const qid = this.nextQid++;
    const plan = explainPlan(text, result);
    const profile = profilePlan(result);
    const [columns, records] = plan === undefined ? [result.columns, result.records] : [[], []];
    this.results.set(qid, { columns, records, plan, profile, notifications, next: 0, stats: result.stats, mutated: result.mutated, qid, inTx });
    this.lastQid = qid;
  }

  /** EXPLAIN's and PROFILE's notifications (a Cartesian product, unknown labels and types); none for other statements. */
  private async notificationsFor(text: string, result: QueryResult): Promise<PackValue[] | undefined> {
    const planText = result.profile ?? explainText(text, result);
    if (planText === undefined) return undefined;
    const names = async (q: string): Promise<Set<string>> => new Set((await this.opts.queries.execute(q, undefined, { readOnly: true, allow: ['read'] })).records.map((r) => String(r[0])));
    const known = { labels: await names('CALL db.labels() YIELD label RETURN label'), types: await names('CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType') };
    const notes = planNotifications(text, planText, known);
    return notes.length === 0 ? undefined : notes;
  }

  private openLive(columns: string[], live: LiveRows): void {
    const qid = this.nextQid++;
    this.results.set(qid, { columns, records: [], next: 0, live, stats: zeroStats(), mutated: false, qid, inTx: false });
    this.lastQid = qid;
  }

  private async stream(extra: Meta, send: boolean): Promise<void> {
    const asked = extra.get('qid');
    const qid = typeof asked === 'number' && asked !== -1 ? asked : this.lastQid;
    const r = this.results.get(qid);
    if (r === undefined) throw new ProtocolError(`${send ? 'PULL' : 'DISCARD'} without an open result${asked !== undefined && asked !== -1 ? ` of qid ${String(asked)}` : ''}`);
    const nField = extra.get('n');
    const n = typeof nField === 'number' && nField >= 0 ? nField : Infinity;
    const started = Date.now();
    let left = n;
    while (left > 0) {
      if (r.next >= r.records.length) {
        const live = r.live;
        if (live === undefined) break;
        if (!send && left === Infinity) {
          // DISCARD of the rest: the query stops.
          live.stop();
          r.live = undefined;
          break;
        }
        let page: QueryResult['records'] | undefined;
        try {
          await this.flushed();
          page = await live.next();
        } catch (err) {
          if (this.resets > 0) {
            await this.send(ignored());
            return;
          }
          throw err;
        }
        if (this.closed || !this.results.has(r.qid)) return;
        r.records = page ?? [];
        r.next = 0;
        if (page === undefined) r.live = undefined;
        continue;
      }
      const from = r.next;
      const stop = Math.min(r.records.length, r.next + Math.min(left, BATCH));
      if (send) {
        for (; r.next < stop; r.next++) {
          const row = r.records[r.next];
          const ok = this.emit(chunked(this.pack(record(row.map((v) => toPack(v, this.dialect))))));
          if (!ok) await drainedOrClosed(this.link);
          if (this.closed || !this.results.has(r.qid)) return;
        }
      }
      r.next = stop;
      left -= stop - from;
      // Between batches the loop turns (other connections, a RESET); not after the last.
      if (!send || left === 0 || (r.next >= r.records.length && r.live === undefined)) continue;
      await this.flushed();
      await yieldToLoop();
      if (this.closed || !this.results.has(r.qid)) return;
      if (this.resets > 0) {
        // A RESET is waiting: the rest of this result is dropped.
        await this.send(ignored());
        return;
      }
    }
    if (r.next < r.records.length || r.live !== undefined) {
      await this.send(success(meta({ has_more: true })));
      return;
    }
    this.results.delete(r.qid);
    const summary = meta({
      type: queryType(r),
      t_last: Date.now() - started,
      db: 'neo4j',
      stats: statsOf(r.stats, r.mutated),
      plan: r.plan,
      profile: r.profile,
      notifications: r.notifications,
      bookmark: r.inTx || !r.mutated ? undefined : this.bookmark(),
    });
    await this.send(success(summary));
  }

  /**
   * The bookmark of what is committed now: graphdb's mutation sequence, the count of changes
   * ever applied, which is also a replica's position (docs/REPLICATION.md), so a replica
   * given it knows when it holds everything the bookmark's writer saw.
   */
  private bookmark(): string {
    return `${BOOKMARK_PREFIX}${this.opts.db?.committedSeq ?? 0}`;
  }

  /**
   * Waits until this server holds every bookmark given (a replica applying its primary's
   * commits), within the transaction timeout the client gave, else the query time limit;
   * past it, a TransientError so that drivers retry. Bookmarks of other forms are ignored.
   */
  private async awaitBookmarks(extra: Meta): Promise<void> {
    const db = this.opts.db;
    const given = extra.get('bookmarks');
    if (db === undefined || !Array.isArray(given)) return;
    let wanted = 0;
    for (const b of given) {
      const m = typeof b === 'string' ? BOOKMARK.exec(b) : null;
      if (m) wanted = Math.max(wanted, Number(m[1]));
    }
    if (db.committedSeq >= wanted) return;
    const asked = extra.get('tx_timeout');
    const limit = typeof asked === 'number' && asked > 0 ? asked : typeof asked === 'bigint' && asked > 0n ? Number(asked) : this.opts.limits.queryTimeoutMs || BOOKMARK_WAIT_MS;
    const deadline = Date.now() + limit;
    while (db.committedSeq < wanted) {
      if (this.closed || this.resets > 0) throw new BoltFailure('Neo.TransientError.Transaction.Terminated', 'The wait for a bookmark was interrupted');
      if (Date.now() >= deadline) {
        throw new BoltFailure('Neo.TransientError.Transaction.BookmarkTimeout', `This server has applied changes up to ${db.committedSeq}, and did not reach the bookmark's ${wanted} within ${limit} ms (a replica behind its primary); retry, or read from the primary`);
      }
      await sleep(BOOKMARK_POLL_MS);
    }
  }

  private async begin(extra: Meta): Promise<void> {
    if (this.tx !== undefined) throw new ProtocolError('BEGIN inside a transaction');
    if (this.opts.db === undefined) throw new ProtocolError('This server does not offer explicit transactions');
    this.checkDb(extra);
    await this.awaitBookmarks(extra);
    const asked = extra.get('tx_timeout');
    this.txTimeoutMs = typeof asked === 'number' && asked > 0 ? asked : undefined;
    this.txStatements = 0;
    this.schemaOnly = false;
    this.tx = await this.opts.db.beginTransaction({ mode: extra.get('mode') === 'r' || this.readsOnly ? 'read' : 'write', timeoutMs: this.txTimeoutMs, allow: this.allow });
    await this.send(success());
  }

  private async commit(): Promise<void> {
    const tx = this.tx;
    if (tx === undefined) throw new ProtocolError('COMMIT without a transaction');
    this.tx = undefined;
    this.results.clear();
    this.txTimeoutMs = undefined;
    await tx.commit();
    await this.send(success(meta({ bookmark: this.bookmark(), db: 'neo4j' })));
  }

  private async rollback(): Promise<void> {
    const tx = this.tx;
    if (tx === undefined) throw new ProtocolError('ROLLBACK without a transaction');
    this.tx = undefined;
    this.results.clear();
    this.txTimeoutMs = undefined;
    await tx.rollback();
    await this.send(success());
  }

  /** This server's address as this client reached it. */
  private address(): string {
    const host = this.peer.localAddress ?? '127.0.0.1';
    return `${host.includes(':') ? `[${host}]` : host}:${this.peer.localPort ?? 7687}`;
  }

  /** A routing table naming this server (as the client reached it) for every role, and a primary's replicas as readers. */
  private async route(context: Meta, dbOrExtra: PackValue | undefined): Promise<void> {
    const given = context.get('address');
    const address = typeof given === 'string' && given !== '' ? given : this.address();
    // Bolt 4.4 sends the database name itself; 5.x a map holding it.
    const dbField = dbOrExtra instanceof Map ? dbOrExtra.get('db') : dbOrExtra;
    const db = typeof dbField === 'string' ? dbField : 'neo4j';
    // On a primary, the read replicas streaming from it (their Bolt doors) read too.
    const readers = this.opts.db?.replication?.boltReaders() ?? [];
    const servers = ['ROUTE', 'WRITE', 'READ'].map((role) => meta({ addresses: role === 'READ' ? [...readers, address] : [address], role }));
    await this.send(success(meta({ rt: meta({ ttl: ROUTING_TTL_SECONDS, db, servers }) })));
  }
}

function paramsOf(v: PackValue | undefined): QueryParams | undefined {
  if (v === undefined || v === null) return undefined;
  if (!(v instanceof Map)) throw new BoltValueError('RUN parameters must be a map');
  return fromPack(v) as Map<string, unknown>;
}

function queryType(r: OpenResult): string {
  if (!r.mutated) return 'r';
  return r.columns.length > 0 ? 'rw' : 'w';
}

const STAT_KEYS: readonly [keyof QueryStats, string][] = [
  ['nodesCreated', 'nodes-created'],
  ['nodesDeleted', 'nodes-deleted'],
  ['relationshipsCreated', 'relationships-created'],
  ['relationshipsDeleted', 'relationships-deleted'],
  ['propertiesSet', 'properties-set'],
  ['labelsAdded', 'labels-added'],
  ['labelsRemoved', 'labels-removed'],
];

/** Neo4j's counters: only those that are not zero (as Neo4j sends them). */
function statsOf(s: QueryStats, mutated: boolean): Meta | undefined {
  const m: Meta = new Map();
  for (const [k, name] of STAT_KEYS) if (s[k] > 0) m.set(name, s[k]);
  if (mutated && m.size === 0) m.set('contains-updates', true);
  return m.size === 0 ? undefined : m;
}
