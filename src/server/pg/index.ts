/**
 * The PostgreSQL wire server (`graphdb --pg <port>`): PostgreSQL clients — psql, drivers,
 * poolers, pgbench — send graph queries over protocol v3 and get typed rows back.
 *
 * Why this is written on `node:net` rather than on `pg-gateway` (which DESIGN names): we
 * tried pg-gateway 0.2.4, the current release, and it cannot meet SPEC or our robustness
 * rules. It buffers a message of whatever length the client announces before any hook
 * sees it (a 2 GB length field fills memory), its data handler is not serialised (a second
 * chunk arriving while a hook awaits is merged into a buffer the first call is still
 * reading), it swallows malformed input with `console.error` and leaves the connection
 * hanging, it sends ReadyForQuery right after AuthenticationOk so BackendKeyData and our
 * ParameterStatus set cannot come before it, it answers Simple Query with "not
 * implemented" (its `onQuery` hook is never called) and has no Extended Query support.
 * Those are the framing, start-up and both query sub-protocols — all of it — so this
 * module owns the protocol end to end, in small pieces:
 *
 * - framing.ts: bounded message framing; frontend-messages.ts / backend-messages.ts: codecs
 * - session.ts: one connection (start-up, password, dispatch)
 * - query-protocol.ts: Simple and Extended Query, statements, portals
 * - statements.ts, shims.ts: running graph queries and the SQL shims
 * - pg-types.ts: column type inference, cell and parameter encodings
 * - errors.ts: SQLSTATE mapping
 */

import { randomInt } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import { packageVersion } from '../../version.js';
import { resolveLimits, type ServerLimits } from '../limits.js';
import { closeServer, hostForUrl, listenOn, stderrLine, trackSockets } from '../running.js';
import * as msg from './backend-messages.js';
import { SqlState } from './errors.js';
import { PgSession, type SessionLimits } from './session.js';
import { scramVerifier } from './scram.js';

export interface PgServerOptions {
  /** TCP port; 0 picks a free one (returned). */
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** When set, clients must authenticate with this cleartext password (else 28P01). */
  password?: string;
  /** The server's API key (--api-key): when set, clients must give it as their password (any user name), or `password` when that is set too. */
  apiKey?: string;
  /** Log every query with the client's address to stderr. */
  logQueries?: boolean;
  /** Time limit of one query in ms (default 30 s; 0: none). Beyond it: SQLSTATE 57014. */
  queryTimeoutMs?: number;
  /** Largest message a client may send after start-up, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
  /** Most simultaneous connections (default: limits.maxConnections, 1024); more are refused with 53300. */
  maxConnections?: number;
  /** Most characters of statements and bytes of parameters one connection may hold (default 64 MiB). */
  maxSessionTextBytes?: number;
  /** Connection limits: maxConnections, idleTimeoutMs (idle sessions closed with 57P05), headersTimeoutMs (start-up and password). */
  limits?: Partial<ServerLimits>;
  /** Where the start-up line and query log go (default: stderr); `null` silences the start-up line. */
  log?: ((line: string) => void) | null;
  /** Where statements run (default: `db` itself): the query router sends reads to worker threads. */
  queries?: QueryExecutor;
}

export interface PgServer {
  port: number;
  close(): Promise<void>;
}

const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

function passwordWords(opts: PgServerOptions): string {
  if (opts.password !== undefined && opts.apiKey !== undefined) return 'cleartext password required: --pg-password or the API key';
  if (opts.password !== undefined) return 'cleartext password required';
  if (opts.apiKey !== undefined) return 'SCRAM-SHA-256 password required: the API key, any user name';
  return 'no password';
}

export async function startPgServer(db: Database, opts: PgServerOptions): Promise<PgServer> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? stderrLine;
  const serverLimits = resolveLimits(opts.limits);
  const maxConnections = opts.maxConnections ?? serverLimits.maxConnections;
  const limits: SessionLimits = {
    maxMessageBytes: opts.maxMessageBytes ?? 16 * 1024 * 1024,
    startupTimeoutMs: serverLimits.headersTimeoutMs,
    idleTimeoutMs: serverLimits.idleTimeoutMs,
    maxPrepared: 10_000,
    maxSessionTextBytes: opts.maxSessionTextBytes ?? 64 * 1024 * 1024,
    maxQueryBytes: serverLimits.maxBodyBytes,
  };
  const engineVersion = packageVersion();
  const sessions = new Map<Socket, PgSession>();
  // The API key alone is checked by SCRAM (it never crosses the wire); --pg-password keeps SPEC's cleartext exchange, and then the key is taken the same way.
  const scram = opts.apiKey !== undefined && opts.password === undefined ? scramVerifier(opts.apiKey) : undefined;
  const byProcessId = new Map<number, PgSession>();
  const cancelRequest = (processId: number, secretKey: number): void => {
    const target = byProcessId.get(processId);
    if (target !== undefined && target.secretKey === secretKey) target.cancelRunning();
  };
  let nextProcessId = 1000 + randomInt(1000);

  const server = createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => socket.destroy());
    if (sessions.size >= maxConnections) {
      // Drop whatever the peer sends so its close is seen, and cut off one that never closes.
      socket.resume();
      setTimeout(() => socket.destroy(), 2000).unref();
      socket.end(msg.errorResponse({ severity: 'FATAL', code: SqlState.tooManyConnections, message: 'sorry, too many clients already' }));
      return;
    }
    const session = new PgSession(socket, {
      db,
      queries: opts.queries ?? db,
      cancelRequest,
      passwords: scram !== undefined ? [] : [opts.password, opts.apiKey].filter((p): p is string => p !== undefined),
      scram,
      logQueries: opts.logQueries ?? false,
      queryTimeoutMs: opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      engineVersion,
      processId: nextProcessId++,
      secretKey: randomInt(2 ** 31),
      limits,
      log: opts.log ?? stderrLine,
    });
    sessions.set(socket, session);
    byProcessId.set(session.processId, session);
    socket.on('close', () => {
      sessions.delete(socket);
      byProcessId.delete(session.processId);
    });
  });

  const sockets = trackSockets(server);
  const port = await listenOn(server, opts.port, host);
  if (opts.log !== null) {
    log(
      `graphdb PostgreSQL wire server listening on ${hostForUrl(host)}:${port}` +
        ` (protocol 3.0, ${passwordWords(opts)}` +
        `${opts.logQueries ? ', logging queries' : ''})`,
    );
  }

  return {
    port,
    close: () =>
      closeServer(server, sockets, () => {
        for (const session of sessions.values()) session.shutdown();
      }, 1000),
  };
}
