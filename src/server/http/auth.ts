/**
 * Bearer-key checking for the HTTP door (SPEC "Authentication"): which routes need the key,
 * the Bearer header check (in constant time, see secret-compare.ts), and the request's
 * caller as the shared authorisation rule (../authorization.ts) sees it.
 */

import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProcedureAccess } from '../../../procedures/registry.js';
import { type Caller, grantFor, isLoopback, mayAdminister, pageOrigin } from '../authorization.js';
import { secretMatcher } from '../secret-compare.js';
import { type ErrorBody, errorBody } from '../wire-format.js';
import { crossSiteWriteRefusal, GET_WRITE_REFUSED } from './write-guard.js';
import { isConsolePath } from './console-routes.js';

/** Routes that answer without a key: the liveness and readiness probes (and the console's static files, which hold no data). */
const OPEN_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/livez', '/readyz']);

export const UNAUTHORIZED_BODY = Object.freeze({
  error: 'unauthorized',
  message: 'The API key is invalid or missing: send the header "Authorization: Bearer <API_KEY>"',
});

export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path) || isConsolePath(path);
}

/** A checker for `Authorization` header values against one configured key. */
export function bearerChecker(apiKey: string): (header: string | undefined) => boolean {
  const matches = secretMatcher(apiKey);
  return (header) => {
    if (header === undefined) return false;
    const match = /^Bearer[ \t]+(.*)$/i.exec(header.trim());
    if (!match) return false;
    return matches(match[1]);
  };
}

/** The HTTP door's side of the shared rule (../authorization.ts): who a request's caller is, and the administration check of the sync and replication routes. */
export interface HttpAuthorization {
  /** The request's caller; `readOnlyRoute` for routes a link can fetch (GET /query). */
  caller(request: CallerRequest, readOnlyRoute?: boolean): Caller;
  /** What the request may run. */
  grant(request: CallerRequest, readOnlyRoute?: boolean): readonly ProcedureAccess[];
  /** The grant as query options: without `write` the query runs read-only, and a write gets `writeRefused` (GET's 405, a web page's 403). */
  access(request: CallerRequest, readOnlyRoute?: boolean): QueryAccess;
  /** True when the request may administer; otherwise answers 403 FORBIDDEN itself and returns false. */
  requireAdmin(request: FastifyRequest, reply: FastifyReply, what: string): boolean;
}

/** What the caller is judged by: a fastify request, or a plain node one (a query worker's door, worker-door.ts). */
export interface CallerRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

export interface QueryAccess {
  allow: readonly ProcedureAccess[];
  readOnly: boolean;
  writeRefused: ErrorBody | undefined;
}

/** The caller of every request to a server with key `apiKey` (when set, the onRequest hook has refused requests without it). */
export function httpAuthorization(apiKey: string | undefined, allowOrigins: readonly string[] = []): HttpAuthorization {
  const allowed = new Set(allowOrigins.map((o) => o.toLowerCase()));
  const keyRequired = apiKey !== undefined;
  const caller = (request: CallerRequest, readOnlyRoute = false): Caller => ({
    keyRequired,
    keyGiven: keyRequired,
    page: pageOrigin(request.headers, allowed),
    local: isLoopback(request.socket.remoteAddress),
    readOnlyRoute,
  });
  return {
    caller,
    grant: (request, readOnlyRoute) => grantFor(caller(request, readOnlyRoute)),
    access: (request, readOnlyRoute = false) => {
      const allow = grantFor(caller(request, readOnlyRoute));
      const readOnly = !allow.includes('write');
      // Only a read-only route or a foreign web page is granted no write (a missing key never gets this far).
      const writeRefused = !readOnly ? undefined : readOnlyRoute ? GET_WRITE_REFUSED : crossSiteWriteRefusal(request.headers, keyRequired, allowed);
      return { allow, readOnly, writeRefused };
    },
    requireAdmin: (request, reply, what) => {
      if (mayAdminister(caller(request))) return true;
      void reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send(errorBody('FORBIDDEN', `${what} is administration: it needs the server's key (--api-key), or, on a server without one, a client on the same machine that is not a web page`));
      return false;
    },
  };
}
