/**
 * Starts the Bolt door (`graphdb --bolt <port>`, docs/BOLT.md): Neo4j's binary protocol, so
 * Neo4j's drivers and the tools built on them work against graphdb. Each connection is a
 * `BoltSession`, over the socket itself or, when it opens with an HTTP request, over a
 * WebSocket on it (./websocket.ts); connections beyond the limit are closed at once (Bolt
 * has no way to say why before the handshake). `close` stops accepting and ends every session.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import { resolveLimits } from '../limits.js';
import { closeServer, type DoorOptions, hostForUrl, listenOn, type RunningServer, stderrLine, trackSockets } from '../running.js';
import type { Duplex } from 'node:stream';
import { pageOrigin, type PageOrigin } from '../authorization.js';
import { BoltSession } from './session.js';
import { startsHttpRequest, webSocketDoor } from './websocket.js';

/** Bolt has no --allow-origin of its own: a page of another origin is read-only unless it logs on with the key. */
const NO_ALLOWED_ORIGINS: ReadonlySet<string> = new Set();

export interface BoltServerOptions extends DoorOptions {
  /** When set, clients authenticate with scheme `basic` and this key as the password. */
  apiKey?: string;
  /** The database explicit transactions (BEGIN) run on; default: `queries` when it is one. */
  db?: Database;
  /** PEM certificate chain and private key: the door then speaks TLS only (`bolt+s://`, `neo4j+s://`). */
  tls?: { cert: Buffer | string; key: Buffer | string };
}

export async function startBoltServer(queries: QueryExecutor, options: BoltServerOptions): Promise<RunningServer> {
  const limits = resolveLimits(options.limits);
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? stderrLine;
  const db = options.db ?? (queries instanceof Database ? queries : undefined);

  const sessions = new Map<Socket, BoltSession | undefined>();
  const begin = (link: Duplex, socket: Socket, page: PageOrigin, connectedAt: number): void => {
    if (socket.destroyed) return;
    sessions.set(socket, new BoltSession(link, socket, { queries, db, limits, apiKey: options.apiKey, page, connectedAt }));
  };
  const connectedAt = new WeakMap<Socket, number>();
  const websockets = webSocketDoor(limits, (link, socket, request) => {
    begin(link, socket, pageOrigin(request.headers, NO_ALLOWED_ORIGINS), connectedAt.get(socket) ?? Date.now());
  });

  const serve = (socket: Socket): void => {
    socket.on('error', () => undefined);
    // A slot is taken from the first byte on, whichever protocol follows.
    if (sessions.size >= limits.maxConnections) {
      socket.destroy();
      return;
    }
    sessions.set(socket, undefined);
    const at = Date.now();
    connectedAt.set(socket, at);
    // Until a session starts (Bolt at once, WebSocket after its upgrade) this bounds the wait.
    const timer = setTimeout(() => {
      if (sessions.get(socket) === undefined) socket.destroy();
    }, limits.headersTimeoutMs);
    timer.unref();
    socket.on('close', () => {
      clearTimeout(timer);
      sessions.delete(socket);
    });
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (startsHttpRequest(first)) {
        websockets.take(socket);
        return;
      }
      clearTimeout(timer);
      begin(socket, socket, 'none', at);
      socket.resume();
    });
  };
  let server: Server;
  if (options.tls === undefined) {
    server = createServer({ noDelay: true }, serve);
  } else {
    // A TLS handshake is bounded like the Bolt one; a client that fails it is dropped quietly.
    server = createTlsServer({ cert: options.tls.cert, key: options.tls.key, handshakeTimeout: limits.headersTimeoutMs }, serve);
    server.on('tlsClientError', (_err, socket) => socket.destroy());
  }

  const sockets = trackSockets(server);
  const port = await listenOn(server, options.port, host);
  const tls = options.tls !== undefined;
  log(`graphdb Bolt server listening on ${tls ? 'bolt+s' : 'bolt'}://${hostForUrl(host)}:${port} (Neo4j drivers: ${tls ? 'bolt+s:// or neo4j+s://' : 'bolt:// or neo4j://'}${options.apiKey !== undefined ? '; password: the API key' : ''})`);
  return {
    port,
    close: () =>
      closeServer(server, sockets, () => {
        websockets.close();
        for (const session of sessions.values()) session?.shutdown();
      }, 2000),
  };
}
