/**
 * One client connection of the PG server: cuts the byte stream into messages, runs the
 * start-up phase (SSL and GSS encryption refused with 'N', protocol version check,
 * cleartext password (--pg-password) or SCRAM-SHA-256 (the API key alone) when one is
 * configured, ParameterStatus, BackendKeyData) and then
 * hands every message to the query protocol, one at a time, in order.
 *
 * Whatever the client sends, the session answers with an error and/or closes its own
 * connection; it never throws out of its handlers, so other sessions keep being served.
 */

import type { Socket } from 'node:net';
import type { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import * as msg from './backend-messages.js';
import { PgError, PgProtocolError, SqlState, toPgError } from './errors.js';
import { FrameReader, type Frame } from './framing.js';
import { readSingleString, readStartupPacket } from './frontend-messages.js';
import { Output } from './output.js';
import { secretMatcher } from '../secret-compare.js';
import { escapeForLog } from '../log-text.js';
import { grantFor, isLoopback, withGrant } from '../authorization.js';
import { SCRAM_MECHANISM, ScramExchange, type ScramVerifier } from './scram.js';
import { QueryProtocol } from './query-protocol.js';
import { oneLine } from './query-text.js';

export interface SessionLimits {
  /** Largest message after start-up, in bytes. */
  maxMessageBytes: number;
  /** Time allowed from connecting to the end of authentication, in ms. */
  startupTimeoutMs: number;
  /** Most prepared statements / portals per connection. */
  maxPrepared: number;
  /** Most bytes of query text (prepared statements, portals, a transaction's buffered writes) one connection may hold. */
  maxSessionTextBytes: number;
  /** Longest query text in one Query or Parse message. */
  maxQueryBytes: number;
  /** A session with no message in progress for this long is closed with 57P05 (0: never). */
  idleTimeoutMs: number;
}

export interface SessionOptions {
  db: Database;
  /** Where statements outside a transaction block run (the database, or the query router). */
  queries: QueryExecutor;
  /** Delivers a CancelRequest (another connection's process id and secret key) to its session. */
  cancelRequest: (processId: number, secretKey: number) => void;
  /** Cleartext passwords a client may give (--pg-password, the API key); with neither these nor `scram`, none is asked and the client is trusted as the shared rule says (../authorization.ts). */
  passwords: readonly string[];
  /** When set, the client proves it knows the password by SCRAM-SHA-256 instead (scram.ts). */
  scram?: ScramVerifier;
  logQueries: boolean;
  /** Per-query time limit in ms; undefined: the database's own. */
  queryTimeoutMs?: number;
  engineVersion: string;
  processId: number;
  secretKey: number;
  limits: SessionLimits;
  /** Where query log lines go. */
  log: (line: string) => void;
}

type Phase = 'startup' | 'password' | 'ready' | 'closed';

/** Unread input beyond which the socket is paused until the session catches up. */
const INPUT_HIGH_WATER = 1024 * 1024;

export class PgSession {
  private phase: Phase = 'startup';
  private readonly reader: FrameReader;
  private readonly out: Output;
  private protocol?: QueryProtocol;
  private pumping = false;
  private user = '';
  private applicationName = '';
  private readonly startupTimer: NodeJS.Timeout;
  readonly clientAddress: string;
  /** Aborted (and replaced) to stop the statement now running. */
  private running = new AbortController();
  private sasl: ScramExchange | undefined;
  private saslStarted = false;

  constructor(
    private readonly socket: Socket,
    private readonly opts: SessionOptions,
  ) {
    this.clientAddress = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    this.reader = new FrameReader({ maxMessageBytes: opts.limits.maxMessageBytes, maxStartupBytes: 10_000 });
    this.out = new Output(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.closeNow());
    socket.on('end', () => this.closeNow());
    socket.on('close', () => this.closeNow());
    this.startupTimer = setTimeout(() => {
      if (this.phase === 'startup' || this.phase === 'password') {
        this.fail(new PgProtocolError('start-up was not completed in time', SqlState.invalidAuthorization));
      }
    }, opts.limits.startupTimeoutMs);
    this.startupTimer.unref();
    if (opts.limits.idleTimeoutMs > 0) {
      socket.setTimeout(opts.limits.idleTimeoutMs, () => {
        if (this.pumping) return;
        this.fail(new PgError('57P05', `terminating connection due to idle-session timeout (${opts.limits.idleTimeoutMs} ms)`, 'FATAL'));
      });
    }
  }

  get processId(): number {
    return this.opts.processId;
  }

  get secretKey(): number {
    return this.opts.secretKey;
  }

  /** Stops the statement now running, if any (a CancelRequest; the client gone); later ones run as usual. */
  cancelRunning(): void {
    this.running.abort();
    this.running = new AbortController();
  }

  /** Ends the session for a server shutdown. */
  shutdown(): void {
    if (this.phase === 'closed') return;
    this.fail(new PgError('57P01', 'terminating connection because the server is shutting down', 'FATAL'));
  }

  private closeNow(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.cancelRunning();
    // A transaction block left open rolls back with its connection.
    this.protocol?.end();
    clearTimeout(this.startupTimer);
    this.socket.destroy();
  }

  /** Reports an error as FATAL and closes the connection. */
  private fail(err: unknown): void {
    if (this.phase === 'closed') return;
    const e = toPgError(err);
    this.out.send(msg.errorResponse({ severity: 'FATAL', code: e.sqlState, message: e.message, detail: e.detail }));
    this.phase = 'closed';
    this.protocol?.end();
    clearTimeout(this.startupTimer);
    this.out.end();
  }

  private onData(chunk: Buffer): void {
    if (this.phase === 'closed') return;
    this.reader.push(chunk);
    if (this.reader.pendingBytes > INPUT_HIGH_WATER) this.socket.pause();
    void this.pump();
  }

  /** Handles buffered messages in order; only one pump runs at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        if (this.phase === 'closed') return;
        const frame = this.reader.next();
        if (!frame) break;
        await this.dispatch(frame);
      }
      this.out.flush();
    } catch (err) {
      this.fail(err);
    } finally {
      this.pumping = false;
      if (this.phase !== 'closed' && this.socket.isPaused()) this.socket.resume();
    }
  }

  private async dispatch(frame: Frame): Promise<void> {
    switch (this.phase) {
      case 'startup':
        return this.startup(frame.body);
      case 'password':
        return this.checkPassword(frame);
      case 'ready':
        if (frame.type === 'X') return this.closeNow();
        return (this.protocol as QueryProtocol).handle(frame.type as string, frame.body);
      default:
        return;
    }
  }

  // ---------------------------------------------------------------- start-up

  private startup(body: Buffer): void {
    const packet = readStartupPacket(body);
    switch (packet.kind) {
      case 'ssl':
      case 'gssenc':
        // Encryption is not offered: the client goes on in the clear (or gives up).
        this.out.send(Buffer.from('N'));
        this.out.flush();
        return;
      case 'cancel':
        // As in PostgreSQL, a cancel request gets no answer, whether or not it matched a session.
        this.opts.cancelRequest(packet.processId, packet.secretKey);
        this.closeNow();
        return;
      case 'startup':
        break;
    }
    if (packet.major !== 3) {
      throw new PgProtocolError(`unsupported frontend protocol ${packet.major}.${packet.minor}: server supports 3.0`, SqlState.featureNotSupported);
    }
    const unknownOptions = [...packet.params.keys()].filter((k) => k.startsWith('_pq_.'));
    if (packet.minor > 0 || unknownOptions.length > 0) this.out.send(msg.negotiateProtocolVersion(0, unknownOptions));
    const user = packet.params.get('user');
    if (!user) throw new PgProtocolError('no PostgreSQL user name specified in startup packet', SqlState.invalidAuthorization);
    this.user = user;
    this.applicationName = packet.params.get('application_name') ?? '';
    this.reader.typed = true;
    if (this.opts.scram !== undefined) {
      this.phase = 'password';
      this.sasl = new ScramExchange(this.opts.scram, user);
      this.out.send(msg.authenticationSasl([SCRAM_MECHANISM]));
      this.out.flush();
      return;
    }
    if (this.opts.passwords.length > 0) {
      this.phase = 'password';
      this.out.send(msg.authenticationCleartextPassword());
      this.out.flush();
      return;
    }
    this.completeStartup();
  }

  private checkPassword(frame: Frame): void {
    if (frame.type !== 'p') throw new PgProtocolError(`expected a password message, got message type '${frame.type ?? ''}'`);
    if (this.sasl !== undefined) return this.continueSasl(this.sasl, frame.body);
    const given = readSingleString(frame.body, 'PasswordMessage');
    // Every password is compared (in constant time), so which one matched is not told by timing.
    const matched = this.opts.passwords.map((p) => secretMatcher(p)(given));
    if (!matched.includes(true)) {
      throw new PgError(SqlState.invalidPassword, `password authentication failed for user "${this.user}"`, 'FATAL');
    }
    this.completeStartup();
  }

  /** A SASL step: the initial response gets the server-first message, the final one (proof checked) the server signature and start-up. */
  private continueSasl(sasl: ScramExchange, body: Buffer): void {
    if (!this.saslStarted) {
      this.saslStarted = true;
      this.out.send(msg.authenticationSaslContinue(sasl.first(body)));
      this.out.flush();
      return;
    }
    this.out.send(msg.authenticationSaslFinal(sasl.final(body)));
    this.completeStartup();
  }

  private completeStartup(): void {
    clearTimeout(this.startupTimer);
    const settings = new Map<string, string>([
      ['server_version', this.opts.engineVersion],
      ['server_encoding', 'UTF8'],
      ['client_encoding', 'UTF8'],
      ['DateStyle', 'ISO, MDY'],
      ['IntervalStyle', 'postgres'],
      ['TimeZone', 'UTC'],
      ['integer_datetimes', 'on'],
      ['standard_conforming_strings', 'on'],
      ['is_superuser', 'off'],
      ['session_authorization', this.user],
      ['application_name', this.applicationName],
    ]);
    this.out.send(msg.authenticationOk());
    for (const [name, value] of settings) this.out.send(msg.parameterStatus(name, value));
    this.out.send(msg.backendKeyData(this.opts.processId, this.opts.secretKey));
    this.out.send(msg.readyForQuery('I'));
    this.out.flush();
    const lowerSettings = new Map([...settings].map(([k, v]) => [k.toLowerCase(), v]));
    // Reaching this point with a password asked for means the right one was given.
    const asked = this.opts.passwords.length > 0 || this.opts.scram !== undefined;
    const allow = grantFor({
      keyRequired: asked,
      keyGiven: asked,
      page: 'none',
      local: isLoopback(this.socket.remoteAddress),
      readOnlyRoute: false,
    });
    this.protocol = new QueryProtocol(this.out, {
      db: this.opts.db,
      queries: withGrant(this.opts.queries, allow),
      allow,
      currentSignal: () => this.running.signal,
      timeoutMs: this.opts.queryTimeoutMs,
      shims: { engineVersion: this.opts.engineVersion, settings: lowerSettings },
      maxPrepared: this.opts.limits.maxPrepared,
      maxTextBytes: this.opts.limits.maxSessionTextBytes,
      maxQueryBytes: this.opts.limits.maxQueryBytes,
      onIdleInTransaction: () => this.fail(new PgError('25P03', 'terminating connection due to idle-in-transaction timeout', 'FATAL')),
      logQuery: this.opts.logQueries
        ? (text) => this.opts.log(`graphdb pg ${this.clientAddress} user=${escapeForLog(this.user)}: ${escapeForLog(oneLine(text))}`)
        : undefined,
    });
    this.phase = 'ready';
  }
}
