/**
 * `graphdb --http <port> --serve <port> --pg <port>`: checks the server options, starts the
 * query worker threads (`--workers`, src/engine/workers) and every requested door on the one
 * Database, and keeps them running until SIGINT, SIGTERM
 * or SIGHUP, then closes them (within DRAIN_MS) and returns the exit status (the caller
 * then closes the database, so a durable store writes its final checkpoint). A door that cannot start
 * (port in use, no permission) stops the others and ends with status 1.
 */

import type { Database } from '../engine/database.js';
import type { QueryRouter } from '../engine/workers/query-router.js';
import type { QueryWorkerPool } from '../engine/workers/worker-pool.js';
import type { RunningServer } from '../server/running.js';
import { loadBoltDoor, loadHttpDoor, loadPgDoor, loadTcpDoor, loadWorkerParts } from './server-doors.js';
import { isLoopbackHost } from '../server/authorization.js';
import { EXIT_OK, EXIT_QUERY_FAILED } from './cli-error.js';
import { planServers, type ServerCliOptions, type ServerPlan } from './server-plan.js';
import { type CliIo, logLine } from './io.js';

/**
 * After a stop signal, how long the servers get to finish answering before they are
 * closed hard (sockets destroyed) and the process exits. A query running on the event loop
 * delays the signal handler itself until it stops, which the query time limit bounds.
 */
export const DRAIN_MS = 5000;

function startFailure(what: string, portNumber: number, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE' ? 'the address is already in use'
    : code === 'EACCES' ? 'permission denied (ports below 1024 need privileges)'
    : code === 'EADDRNOTAVAIL' ? 'the host address is not available on this machine'
    : err instanceof Error ? err.message : String(err);
  return `cannot start the ${what} on port ${portNumber}: ${why}`;
}

/** Resolves when the process is asked to stop. */
function untilStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const stop = (signal: NodeJS.Signals): void => {
      for (const s of signals) process.off(s, stop);
      resolve(signal);
    };
    for (const s of signals) process.on(s, stop);
  });
}

/** Starts the planned servers on `db` and serves until a stop signal; returns the exit status. */
export async function runServers(db: Database, options: ServerCliOptions, io: CliIo, exit: (status: number) => void = (s) => process.exit(s)): Promise<number> {
  const plan = planServers(options);
  const log = (line: string): void => logLine(io.stderr, line);
  const { defaultWorkers, QueryWorkerPool, QueryRouter } = await loadWorkerParts();
  let pool: QueryWorkerPool | undefined;
  let workers = plan.workers;
  if (options.workers === undefined && workers > 0) {
    const fit = defaultWorkers(db, workers);
    workers = fit.workers;
    if (fit.note !== undefined) log(fit.note);
  }
  if (workers > 0) {
    try {
      pool = await QueryWorkerPool.start(db, workers, log);
      log(`graphdb: ${workers} query worker thread${workers === 1 ? '' : 's'} (queries run there, reads in parallel and writes one at a time)`);
    } catch (err) {
      // Serving without workers beats not serving: every query then runs on the main thread.
      log(`graphdb: cannot start the query workers (${err instanceof Error ? err.message : String(err)}); every query runs on the main thread`);
    }
  }
  try {
    if (plan.workerDoors && pool === undefined) log('graphdb: --worker-doors needs query workers (--workers 1 or more); the main thread answers every request');
    return await serveUntilStopped(db, plan, new QueryRouter(db, pool), io, exit, plan.workerDoors ? pool : undefined);
  } finally {
    await pool?.close();
  }
}

async function serveUntilStopped(db: Database, plan: ServerPlan, queries: QueryRouter, io: CliIo, exit: (status: number) => void, workerDoors: QueryWorkerPool | undefined): Promise<number> {
  const log = (line: string): void => logLine(io.stderr, line);
  const running: RunningServer[] = [];
  const starts: { what: string; port: number; start: () => Promise<RunningServer> }[] = [];
  if (plan.http !== undefined) {
    const p = plan.http;
    starts.push({ what: 'HTTP server', port: p, start: async () => (await loadHttpDoor())(db, { port: p, host: plan.host, apiKey: plan.apiKey, allowOrigins: plan.allowOrigins, limits: plan.limits, log, queries, workerDoors }) });
  }
  if (plan.serve !== undefined) {
    const p = plan.serve;
    starts.push({ what: 'TCP server', port: p, start: async () => (await loadTcpDoor())(queries, { port: p, host: plan.host, apiKey: plan.apiKey, limits: plan.limits, log, db }) });
  }
  if (plan.bolt !== undefined) {
    const p = plan.bolt;
    starts.push({
      what: 'Bolt server',
      port: p,
      start: async () => {
        const bolt = await (await loadBoltDoor())(queries, { port: p, host: plan.host, apiKey: plan.boltPassword, tls: plan.boltTls, limits: plan.limits, log, db });
        // A replica tells its primary where it serves Bolt (the primary's routing tables list it as a reader); a wildcard bind names no address.
        const host = plan.host ?? '127.0.0.1';
        if (host !== '0.0.0.0' && host !== '::') db.replication?.announceBolt(`${host.includes(':') ? `[${host}]` : host}:${bolt.port}`);
        return bolt;
      },
    });
  }
  if (plan.pg !== undefined) {
    const p = plan.pg;
    starts.push({
      what: 'PostgreSQL-wire server',
      port: p,
      start: async () =>
        (await loadPgDoor())(db, {
          port: p,
          host: plan.host,
          password: plan.pgPassword,
          apiKey: plan.apiKey,
          logQueries: plan.pgLogQueries,
          queryTimeoutMs: plan.limits.queryTimeoutMs,
          log,
          queries,
        }),
    });
  }
  const stopped = untilStopSignal();
  const open = openDoorsWarning(plan);
  if (open !== undefined) log(open);
  for (const s of starts) {
    try {
      running.push(await s.start());
    } catch (err) {
      log(`graphdb: ${startFailure(s.what, s.port, err)}`);
      await Promise.allSettled(running.map((r) => r.close()));
      return EXIT_QUERY_FAILED;
    }
  }
  log('graphdb: serving; stop with Ctrl+C (SIGINT) or SIGTERM');
  const signal = await stopped;
  log(`graphdb: ${signal} received, closing the servers (at most ${DRAIN_MS / 1000} s)`);
  await drain(running, log, exit);
  return EXIT_OK;
}

/** The start-up warning of a server that other machines can reach without a key, or undefined. */
export function openDoorsWarning(plan: Pick<ServerPlan, 'host' | 'apiKey' | 'pgPassword' | 'http' | 'serve' | 'pg'>): string | undefined {
  if (plan.apiKey !== undefined || isLoopbackHost(plan.host)) return undefined;
  const open = [
    plan.http !== undefined ? 'HTTP' : undefined,
    plan.serve !== undefined ? 'TCP' : undefined,
    plan.pg !== undefined && plan.pgPassword === undefined ? 'PostgreSQL wire' : undefined,
  ].filter((d): d is string => d !== undefined);
  if (open.length === 0) return undefined;
  return (
    `graphdb: WARNING: listening on ${plan.host} with no --api-key: anyone who can reach the ${open.join(', ')} port(s) from another machine can read, change and ` +
    'delete the whole graph and write export files (administration stays limited to this machine). Start with --api-key <key>, or --host 127.0.0.1.'
  );
}

/**
 * Closes the servers, giving work in flight DRAIN_MS; then stops waiting. A second stop
 * signal, or anything (a held connection) still keeping the process alive once the database
 * is closed, ends the process at once through `exit`.
 */
async function drain(running: readonly RunningServer[], log: (line: string) => void, exit: (status: number) => void): Promise<void> {
  const again = (signal: NodeJS.Signals): void => {
    log(`graphdb: ${signal} received again, exiting now`);
    exit(EXIT_OK);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.once(s, again);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), DRAIN_MS);
  });
  const closed = Promise.allSettled(running.map((r) => r.close())).then(() => false);
  const late = await Promise.race([closed, overdue]);
  clearTimeout(timer);
  if (late) log('graphdb: the drain period is over; closing the remaining connections');
  // Once the caller has closed the database, nothing may keep the process waiting.
  setTimeout(() => exit(process.exitCode === undefined ? EXIT_OK : Number(process.exitCode)), late ? 500 : DRAIN_MS).unref();
}
