/**
 * The server options of the command line (`--http`, `--serve`, `--pg`, `--bolt` and their
 * companions) checked into a plan, and `--workers`: every command validates these, so they
 * live apart from serve.ts, which starts the servers and loads their code only when a
 * command serves.
 */

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ServerLimits } from '../server/limits.js';
import { CliUsageError } from './cli-error.js';
import { queryTimeoutMs } from './database-options.js';

/** The server options as commander gives them. */
export interface ServerCliOptions {
  http?: string;
  apiKey?: string;
  pg?: string;
  pgPassword?: string;
  pgLogQueries?: boolean;
  serve?: string;
  bolt?: string;
  boltPassword?: string;
  boltTlsCert?: string;
  boltTlsKey?: string;
  host?: string;
  queryTimeout?: string;
  allowOrigin?: string[];
  workers?: string;
  workerDoors?: boolean;
}

export interface ServerPlan {
  host: string;
  http?: number;
  apiKey?: string;
  pg?: number;
  pgPassword?: string;
  pgLogQueries: boolean;
  serve?: number;
  bolt?: number;
  /** What Bolt clients give as their password: --bolt-password, else the API key. */
  boltPassword?: string;
  boltTls?: { cert: Buffer; key: Buffer };
  /** Overrides of the default limits (the query time limit). */
  limits: Partial<ServerLimits>;
  allowOrigins: string[];
  /** Query worker threads (0: every query on the main thread). */
  workers: number;
  /** The query workers accept HTTP connections too (`--worker-doors`, src/server/http/worker-doors.ts). */
  workerDoors: boolean;
}

export function wantsServers(o: ServerCliOptions): boolean {
  return o.http !== undefined || o.pg !== undefined || o.serve !== undefined || o.bolt !== undefined;
}

function port(flag: string, text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new CliUsageError(`${flag} needs a port number from 0 to 65535, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function pemFile(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new CliUsageError(`${flag}: cannot read ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** Validates the options; companions without their server are usage errors. */
export function planServers(o: ServerCliOptions): ServerPlan {
  if (o.apiKey !== undefined && !wantsServers(o)) {
    throw new CliUsageError('--api-key applies to the servers (HTTP, TCP, PostgreSQL wire and Bolt): add --http, --serve, --pg or --bolt');
  }
  if (o.allowOrigin !== undefined && o.http === undefined) throw new CliUsageError('--allow-origin applies to the HTTP server: add --http <port>');
  for (const origin of o.allowOrigin ?? []) {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) {
      throw new CliUsageError(`--allow-origin needs an origin such as https://app.example or http://localhost:3000 (scheme, host, optional port), not ${JSON.stringify(origin)}`);
    }
  }
  if (o.apiKey === '') throw new CliUsageError('--api-key needs a non-empty key');
  if (o.pgPassword !== undefined && o.pg === undefined) throw new CliUsageError('--pg-password applies to the PostgreSQL-wire server: add --pg <port>');
  if (o.boltPassword !== undefined && o.bolt === undefined) throw new CliUsageError('--bolt-password applies to the Bolt server: add --bolt <port>');
  if (o.boltPassword === '') throw new CliUsageError('--bolt-password needs a non-empty password');
  if ((o.boltTlsCert !== undefined || o.boltTlsKey !== undefined) && o.bolt === undefined) throw new CliUsageError('--bolt-tls-cert and --bolt-tls-key apply to the Bolt server: add --bolt <port>');
  if ((o.boltTlsCert === undefined) !== (o.boltTlsKey === undefined)) throw new CliUsageError('--bolt-tls-cert and --bolt-tls-key go together: give both PEM files');
  if (o.pgLogQueries && o.pg === undefined) throw new CliUsageError('--pg-log-queries applies to the PostgreSQL-wire server: add --pg <port>');
  if (o.workerDoors === true && o.http === undefined) throw new CliUsageError('--worker-doors applies to the HTTP server: add --http <port>');
  if (o.host !== undefined && !wantsServers(o)) throw new CliUsageError('--host applies to the servers: add --http, --serve, --pg or --bolt');
  const plan: ServerPlan = {
    host: o.host ?? '127.0.0.1',
    http: o.http === undefined ? undefined : port('--http', o.http),
    apiKey: o.apiKey,
    pg: o.pg === undefined ? undefined : port('--pg', o.pg),
    pgPassword: o.pgPassword,
    pgLogQueries: o.pgLogQueries === true,
    serve: o.serve === undefined ? undefined : port('--serve', o.serve),
    bolt: o.bolt === undefined ? undefined : port('--bolt', o.bolt),
    boltPassword: o.boltPassword ?? o.apiKey,
    boltTls: o.boltTlsCert === undefined || o.boltTlsKey === undefined ? undefined : { cert: pemFile('--bolt-tls-cert', o.boltTlsCert), key: pemFile('--bolt-tls-key', o.boltTlsKey) },
    limits: limitOverrides(o),
    allowOrigins: (o.allowOrigin ?? []).map((origin) => origin.toLowerCase()),
    workers: workerCount(o.workers),
    workerDoors: o.workerDoors === true,
  };
  const ports = [plan.http, plan.pg, plan.serve, plan.bolt].filter((p): p is number => p !== undefined && p !== 0);
  if (new Set(ports).size !== ports.length) throw new CliUsageError('--http, --serve, --pg and --bolt need different ports');
  return plan;
}

/** Default query workers: one per core, at most this many (each holds a replica of the graph). */
const DEFAULT_MAX_WORKERS = 4;

/** `--workers N` (0 to 64); by default one per core the machine reports, at most DEFAULT_MAX_WORKERS. */
export function workerCount(text: string | undefined): number {
  if (text === undefined) return Math.min(availableParallelism(), DEFAULT_MAX_WORKERS);
  if (!/^\d{1,2}$/.test(text) || Number(text) > 64) throw new CliUsageError(`--workers needs a number of query threads from 0 to 64, not ${JSON.stringify(text)}`);
  return Number(text);
}

function limitOverrides(o: ServerCliOptions): Partial<ServerLimits> {
  const timeout = queryTimeoutMs(o);
  return timeout === undefined ? {} : { queryTimeoutMs: timeout };
}
