/**
 * Starts the TCP door (SPEC "TCP protocol"): one query per line in, one JSON line out,
 * each connection an independent `TcpSession`. Connections beyond the limit get one
 * error line and are closed. With an API key every session must authenticate first
 * (`AUTH <key>`, see session.ts). `close` stops accepting and ends every session.
 */

import { createServer, type Socket } from 'node:net';
import type { QueryExecutor } from '../../engine/types.js';
import { Database } from '../../engine/database.js';
import { resolveLimits } from '../limits.js';
import { errorBody } from '../wire-format.js';
import { closeServer, type DoorOptions, hostForUrl, listenOn, type RunningServer, stderrLine, trackSockets } from '../running.js';
import { TcpSession } from './session.js';

export interface TcpServerOptions extends DoorOptions {
  /** When set, each connection's first line must be `AUTH <apiKey>`. */
  apiKey?: string;
  /** The database explicit transactions (BEGIN … COMMIT lines) run on; default: `queries` when it is one. */
  db?: Database;
}

/** Starts the TCP door; queries run through `queries` (a Database, or the query router). */

export async function startTcpServer(queries: QueryExecutor, options: TcpServerOptions): Promise<RunningServer> {
  const limits = resolveLimits(options.limits);
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? stderrLine;
  const sessions = new Map<Socket, TcpSession>();
  const db = options.db ?? (queries instanceof Database ? queries : undefined);

  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    if (sessions.size >= limits.maxConnections) {
      socket.on('error', () => socket.destroy());
      // Read (and drop) whatever comes, so the peer's close is seen; cut off laggards.
      socket.resume();
      socket.end(JSON.stringify(errorBody('TOO_MANY_CONNECTIONS', `The server already has ${limits.maxConnections} connections; try again later`)) + '\n');
      setTimeout(() => socket.destroy(), 2000).unref();
      return;
    }
    sessions.set(socket, new TcpSession(socket, queries, limits, options.apiKey, db));
    socket.on('close', () => sessions.delete(socket));
  });

  const sockets = trackSockets(server);
  const port = await listenOn(server, options.port, host);
  log(`graphdb TCP server listening on ${hostForUrl(host)}:${port} (one query per line in, one JSON line out${options.apiKey !== undefined ? '; first line AUTH <key>' : ''})`);

  return {
    port,
    close: () =>
      closeServer(server, sockets, () => {
        for (const session of sessions.values()) session.shutdown();
      }, 2000),
  };
}
