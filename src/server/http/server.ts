/**
 * Starts the HTTP door: builds the app, listens, prints the start-up banner (address,
 * routes, whether a key is required) through the given logger, and hands back the bound
 * port and a `close` that stops accepting and lets requests in flight finish.
 */

import type { Database } from '../../engine/database.js';
import type { QueryExecutor } from '../../engine/types.js';
import { type ServerLimits, resolveLimits } from '../limits.js';
import { buildHttpApp } from './app.js';
import type { QueryWorkerPool } from '../../engine/workers/worker-pool.js';
import { openWorkerDoors } from './worker-doors.js';
import { bannerLines } from './routes.js';
import { syncBannerLines } from '../../sync/http-routes.js';
import { hostForUrl, LISTEN_BACKLOG, type RunningServer, stderrLine } from '../running.js';


export interface HttpServerOptions {
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  apiKey?: string;
  /** Browser origins allowed to write without the key (see write-guard.ts). */
  allowOrigins?: readonly string[];
  limits?: Partial<ServerLimits>;
  /** Where the start-up banner goes (default: stderr). */
  log?: (line: string) => void;
  /** Where queries run (default: `db`): the query router sends reads to worker threads. */
  queries?: QueryExecutor;
  /** The query workers that also accept connections on the port and answer reads themselves (`worker-doors.ts`). */
  workerDoors?: QueryWorkerPool;
}

export async function startHttpServer(db: Database, options: HttpServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? stderrLine;
  const limits = resolveLimits(options.limits);
  const pool = options.workerDoors;
  const app = await buildHttpApp(db, { apiKey: options.apiKey, allowOrigins: options.allowOrigins, limits, queries: options.queries, thread: pool === undefined ? undefined : 'main' });
  await app.listen({ port: options.port, host, backlog: LISTEN_BACKLOG });
  const doors = pool === undefined ? undefined : await openWorkerDoors(app.server, app.routing, pool, { apiKey: options.apiKey, allowOrigins: options.allowOrigins ?? [], limits, log });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  for (const line of bannerLines(`http://${hostForUrl(host)}:${port}`, options.apiKey !== undefined)) log(line);
  for (const line of syncBannerLines(db)) log(line);
  return {
    port,
    close: async () => {
      // Keep-alive and half-sent requests must not hold the close: in-flight answers get a moment, then sockets go.
      const cut = setTimeout(() => app.server.closeAllConnections(), 1000);
      cut.unref();
      // The workers first: their connections end, and each closes its own copy of the socket.
      await doors?.close();
      await app.close();
      clearTimeout(cut);
    },
  };
}
