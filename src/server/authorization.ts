/**
 * The one authorisation rule every network door applies (HTTP with its sync, replication and
 * MCP routes, line TCP, PostgreSQL wire): from what a door knows of its caller — whether the
 * server has a key and the caller gave it, whether the request comes from a web page (and
 * from an `--allow-origin` page), whether the peer is on this machine, whether the route
 * only reads — to what the caller may do, as the procedure access kinds of
 * procedures/registry.ts (`read`, `write`, `files`, `admin`). Doors pass the grant down with
 * the query (`QueryOptions.allow`); the engine refuses a procedure (or schema command)
 * outside it where it is invoked, so no query text can hide a call from the rule.
 *
 * | caller                                              | may do                    |
 * |-----------------------------------------------------|---------------------------|
 * | a read-only route (GET /query), anyone              | read                      |
 * | key set, key given                                  | read, write, files, admin |
 * | key set, key not given                              | nothing (the door refuses) |
 * | no key, web page of another origin                  | read                      |
 * | no key, the server's own page (its console, reached as localhost, 127.x or [::1]) | as the peer below: local or not |
 * | no key, web page of an `--allow-origin` origin      | read, write, files        |
 * | no key, not a web page, from another machine        | read, write, files        |
 * | no key, not a web page, from this machine (loopback) | read, write, files, admin |
 *
 * Administration (replication roles and routes, sync routes, skills, indexes, checkpoints,
 * configuration) thus needs the key, or, on a server without one, a local client that is
 * not a browser: a web page can reach a server on the user's machine, but it always says
 * where it comes from (`Origin`, `Sec-Fetch-Site`), and a remote host cannot claim loopback.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { ALL_ACCESS, type ProcedureAccess } from '../../procedures/registry.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult } from '../engine/types.js';

/**
 * Whether a request comes from a web page, and if so whether it is the server's own page
 * (`self`: the web console, served from this very origin), one the server allows to write, or
 * any other.
 */
export type PageOrigin = 'none' | 'self' | 'allowed' | 'foreign';

export interface Caller {
  /** The server requires a key (--api-key, or on PG a password). */
  keyRequired: boolean;
  /** The caller presented that key (or password). */
  keyGiven: boolean;
  page: PageOrigin;
  /** The peer's address is a loopback address (this machine). */
  local: boolean;
  /** The route only reads (GET /query): a link or an image tag can fetch it. */
  readOnlyRoute: boolean;
}

const READ_ONLY: readonly ProcedureAccess[] = Object.freeze(['read']);
const WORK: readonly ProcedureAccess[] = Object.freeze(['read', 'write', 'files']);
const NOTHING: readonly ProcedureAccess[] = Object.freeze([]);

/** What `caller` may do (the table above). */
export function grantFor(caller: Caller): readonly ProcedureAccess[] {
  if (caller.readOnlyRoute) return READ_ONLY;
  if (caller.keyRequired) return caller.keyGiven ? ALL_ACCESS : NOTHING;
  if (caller.page === 'foreign') return READ_ONLY;
  if (caller.page === 'allowed') return WORK;
  // The server's own page (the console) counts as the client that opened it.
  return caller.local ? ALL_ACCESS : WORK;
}

export function mayAdminister(caller: Caller): boolean {
  return grantFor(caller).includes('admin');
}

/** Whether `address` (a socket's remoteAddress) is this machine's loopback: 127.0.0.0/8, ::1, or either mapped into IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Whether `host` (a bind address) only listens on loopback. */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopback(host);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Whether an HTTP request comes from a web page: browsers send `Origin` on every cross-origin
 * request and on same-origin POSTs, and `Sec-Fetch-Site` (other than `none`, typed by the user)
 * on every request; clients that are not browsers send neither.
 */
export function pageOrigin(headers: IncomingHttpHeaders, allowOrigins: ReadonlySet<string>): PageOrigin {
  const origin = headerValue(headers, 'origin');
  const fetchSite = headerValue(headers, 'sec-fetch-site');
  if (origin === undefined && (fetchSite === undefined || fetchSite === 'none')) return 'none';
  if (origin === undefined) return 'foreign';
  if (isOwnLoopbackOrigin(origin, headerValue(headers, 'host'))) return 'self';
  return allowOrigins.has(origin.toLowerCase()) ? 'allowed' : 'foreign';
}

/**
 * Whether `origin` is this server's own origin reached by a loopback name: `http://` + the
 * request's Host, where that host is `localhost`, 127.x.y.z or [::1]. Only the server's own
 * pages (the web console) have it. A page of another site that rebinds its DNS name to
 * 127.0.0.1 still sends its own name as Host and Origin, which is no loopback name, so it stays
 * foreign; other local pages differ in port, hence in origin.
 */
function isOwnLoopbackOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || origin.toLowerCase() !== `http://${host.toLowerCase()}`) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(host.toLowerCase());
  if (!m) return false;
  const name = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  return name === 'localhost' || isLoopback(name);
}

/** `queries` with every query run under `allow` (for a door that hands an executor on, as the MCP route does). */
export function withGrant(queries: QueryExecutor, allow: readonly ProcedureAccess[]): QueryExecutor {
  return {
    execute: (query: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult> => queries.execute(query, params, { ...options, allow }),
  };
}
