/**
 * CORS for the HTTP door (SPEC: `Access-Control-Allow-Origin: *` on every response, errors
 * included) and the answer to preflights: every OPTIONS request gets 204 with the allowed
 * methods, the headers the browser asked for, and a max age, before any other hook (so
 * before the key check: browsers never send credentials on a preflight).
 *
 * The same headers @fastify/cors sent with `origin: '*'` and non-strict preflights, set by one
 * hook of our own: the plugin copied its whole option object on every request, which cost
 * more than running a point lookup.
 */

import type { FastifyInstance } from 'fastify';

const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';
/** How long (seconds) a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE = '600';

/** Registers the CORS hook and the catch-all OPTIONS route (so that a preflight of any path is routed, and answered by the hook). */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Access-Control-Allow-Origin', '*');
    if (request.method !== 'OPTIONS') return done();
    reply.header('Access-Control-Allow-Methods', ALLOW_METHODS);
    reply.header('Vary', 'Access-Control-Request-Headers');
    const asked = request.headers['access-control-request-headers'];
    if (asked !== undefined) reply.header('Access-Control-Allow-Headers', asked);
    reply.header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
    // Safari waits for a body on a 204 without a length.
    reply.code(204).header('Content-Length', '0').send();
  });
  app.options('*', (_request, reply) => {
    reply.send();
  });
}
