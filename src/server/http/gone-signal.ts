/**
 * The HTTP door's "the client went away" signal, shared by the text and JSON query routes:
 * a query whose client disconnects (a closed tab, an aborted fetch, the console's Stop) is
 * stopped on its worker.
 */

import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/** Each connection's "the client went away" signal, made on its first query. */
const connectionGone = new WeakMap<Socket, AbortSignal>();

/**
 * Aborted when the request's connection closes: a client that goes away before its answer
 * stops its query (on a worker; one on the main thread runs on). One per connection, like the
 * TCP door's, rather than a controller and a close listener per request: those cost more than
 * a point lookup. (A connection's requests are answered in order; any of them still unanswered
 * when it closes has lost its client.)
 */
export function goneSignal(reply: FastifyReply): AbortSignal {
  return connectionGoneSignal(reply.raw.socket);
}

/** `goneSignal` for a request's socket (a node request the door answers without fastify: plain-query.ts). */
export function connectionGoneSignal(socket: Socket | null): AbortSignal {
  if (socket === null || socket.destroyed) return AbortSignal.abort();
  let signal = connectionGone.get(socket);
  if (signal === undefined) {
    const gone = new AbortController();
    // Pipelined requests each listen while they run: more than the default ten is no leak.
    setMaxListeners(0, gone.signal);
    socket.once('close', () => gone.abort());
    signal = gone.signal;
    connectionGone.set(socket, signal);
  }
  return signal;
}
