/**
 * The node:http server under the fastify app, made with the door's limits: how long a
 * client may take to send a request head (held half-requests end there) and a whole
 * request, how long an idle keep-alive connection stays open, and how many connections
 * may be open at once — beyond the cap a new connection gets a 503 error object and is
 * closed, so nobody can exhaust the process's file descriptors through this door.
 *
 * Health probes are exempt: a small reserve of connections past the cap is kept for them. A
 * connection taken into the reserve may ask for /health, /livez, /ready or /readyz only
 * (anything else gets the same 503), is answered with `Connection: close`, and is dropped
 * after a few seconds whatever it does, so a client holding the cap's worth of sockets
 * cannot make the probes fail, and one holding the reserve too only holds it briefly.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ServerLimits } from '../limits.js';
import { errorBody } from '../wire-format.js';

/** How often node checks the head and request time limits (its default, 30 s, is too coarse). */
const CHECK_INTERVAL_MS = 1000;

/** Longest keep-alive idle time: a browser or client reconnects cheaply, an idle socket costs a slot. */
const MAX_KEEP_ALIVE_MS = 30_000;

export function keepAliveMs(limits: ServerLimits): number {
  return Math.min(limits.idleTimeoutMs, MAX_KEEP_ALIVE_MS);
}

function refusal(limit: number): string {
  const body = JSON.stringify(errorBody('TOO_MANY_CONNECTIONS', `The server already has ${limit} connections; try again later`));
  return (
    'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nAccess-Control-Allow-Origin: *\r\n' +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Connections past the cap kept for health probes, and how long one of them may live. */
export const PROBE_RESERVE = 16;
const PROBE_HOLD_MS = 5000;
const PROBE_PATHS: ReadonlySet<string> = new Set(['/health', '/livez', '/ready', '/readyz']);

function isProbe(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return PROBE_PATHS.has(q < 0 ? url : url.slice(0, q));
}

/** A fastify `serverFactory` applying `limits`. */
export function limitedServerFactory(limits: ServerLimits) {
  return (appHandler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const reserved = new WeakSet<Socket>();
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      if (!reserved.has(req.socket)) return appHandler(req, res);
      if (!isProbe(req)) {
        req.socket.end(refusal(limits.maxConnections));
        return;
      }
      res.shouldKeepAlive = false;
      appHandler(req, res);
    };
    const server = createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: keepAliveMs(limits),
        connectionsCheckingInterval: CHECK_INTERVAL_MS,
      },
      handler,
    );
    let open = 0;
    let probes = 0;
    // Runs before node's own connection handler, so a refused socket never reaches the parser.
    server.prependListener('connection', (socket: Socket) => {
      if (open >= limits.maxConnections && probes < PROBE_RESERVE) {
        probes++;
        reserved.add(socket);
        const drop = setTimeout(() => socket.destroy(), PROBE_HOLD_MS);
        drop.unref();
        socket.once('close', () => {
          probes--;
          clearTimeout(drop);
        });
        return;
      }
      if (open >= limits.maxConnections) {
        socket.on('error', () => socket.destroy());
        socket.end(refusal(limits.maxConnections));
        setTimeout(() => socket.destroy(), 1000).unref();
        socket.pause();
        return;
      }
      open++;
      socket.once('close', () => open--);
    });
    return server;
  };
}
