/**
 * Starts the Bolt door (`graphdb --bolt <port>`, docs/BOLT.md): Neo4j's binary protocol, so
 * Neo4j's drivers and the tools built on them work against graphdb. Each connection is a
 * `BoltSession`; connections beyond the limit are closed at once (Bolt has no way to say why
 * before the handshake). `close` stops accepting and ends every session.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import { resolveLimits } from '../limits.js';
import { closeServer, type DoorOptions, hostForUrl, listenOn, type RunningServer, stderrLine, trackSockets } from '../running.js';
import { BoltSession } from './session.js';

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
  const sessions = new Map<Socket, BoltSession>();
  const db = options.db ?? (queries instanceof Database ? queries : undefined);

  const serve = (socket: Socket): void => {
    if (sessions.size >= limits.maxConnections) {
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    sessions.set(socket, new BoltSession(socket, { queries, db, limits, apiKey: options.apiKey }));
    socket.on('close', () => sessions.delete(socket));
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
        for (const session of sessions.values()) session.shutdown();
      }, 2000),
  };
}
