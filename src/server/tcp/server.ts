/**
 * Starts the TCP door (SPEC "TCP protocol"): one query per line in, one JSON line out,
 * each connection an independent `TcpSession`. Connections beyond the limit get one
 * error line and are closed. `close` stops accepting and ends every session.
 */

import { createServer, type Socket } from 'node:net';
import type { Database } from '../../engine/database.js';
import { type ServerLimits, resolveLimits } from '../limits.js';
import { errorBody } from '../wire-format.js';
import { hostForUrl, listenOn, type RunningServer, stderrLine } from '../running.js';
import { TcpSession } from './session.js';

export interface TcpServerOptions {
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  limits?: Partial<ServerLimits>;
  /** Where the start-up line goes (default: stderr). */
  log?: (line: string) => void;
}

export async function startTcpServer(db: Database, options: TcpServerOptions): Promise<RunningServer> {
  const limits = resolveLimits(options.limits);
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? stderrLine;
  const sessions = new Map<Socket, TcpSession>();

  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    if (sessions.size >= limits.maxTcpConnections) {
      socket.on('error', () => socket.destroy());
      // Read (and drop) whatever comes, so the peer's close is seen; cut off laggards.
      socket.resume();
      socket.end(JSON.stringify(errorBody('TOO_MANY_CONNECTIONS', `The server already has ${limits.maxTcpConnections} connections; try again later`)) + '\n');
      setTimeout(() => socket.destroy(), 2000).unref();
      return;
    }
    sessions.set(socket, new TcpSession(socket, db, limits));
    socket.on('close', () => sessions.delete(socket));
  });

  const port = await listenOn(server, options.port, host);
  log(`graphdb TCP server listening on ${hostForUrl(host)}:${port} (one query per line in, one JSON line out)`);

  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const [socket, session] of sessions) {
          session.shutdown();
          setTimeout(() => socket.destroy(), 2000).unref();
        }
      }),
  };
}
