/**
 * The way from a query worker's HTTP door (`worker-door.ts`) to the main thread's app for
 * every request the worker does not answer itself (writes, transactions, the console, /mcp,
 * probes...): the request is relayed unchanged over a loopback connection to a listener of
 * the main thread's (`listenForRelays`), which hands it to the same fastify handler as its own
 * port, and the answer streams back as it comes (so event streams and long answers work). A
 * client that goes away ends the relayed request, which the app sees as its client gone.
 *
 * The main thread's app judges a caller partly by its address (a client on this machine may
 * administer a server without a key): the worker names the client's address in RELAY_PEER,
 * replacing any the client sent, and the relay listener, reachable from this machine only, takes
 * the address from there.
 */

import { Agent, createServer, type IncomingMessage, request as httpRequest, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { ServerLimits } from '../limits.js';
import { errorBody } from '../wire-format.js';
import { keepAliveMs } from './node-server.js';

/** The header naming the thread that answered (`main`, or `worker-<n>`), on every answer while workers serve the door. */
export const THREAD_HEADER = 'x-graphdb-thread';

/** On an answer a worker relayed from the main thread: the worker that accepted the connection. */
export const RELAYED_BY_HEADER = 'x-graphdb-relayed-by';

/** The header carrying a relayed request's client address. */
export const RELAY_PEER = 'x-graphdb-relay-peer';

/** Loopback connections one worker keeps to the relay listener (more requests at once wait for one). */
const RELAY_SOCKETS = 64;

/** Hop-by-hop headers: they describe one connection, not the request or answer. */
const HOP_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer'];

function withoutHops<T extends Record<string, unknown>>(headers: T): T {
  const out = { ...headers };
  for (const h of HOP_HEADERS) delete out[h];
  return out;
}

/** The worker's side: forwards requests to the main thread's relay listener at `port`. */
export class MainRelay {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: RELAY_SOCKETS });

  constructor(
    private readonly port: number,
    private readonly thread: string,
  ) {}

  /** Relays `req` (whose body is `body` when already read, else still to stream) and streams the answer to `res`. */
  forward(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
    const headers: OutgoingHttpHeaders = withoutHops({ ...req.headers });
    headers[RELAY_PEER] = req.socket.remoteAddress ?? '';
    if (body !== undefined) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    }
    const upstream = httpRequest({ host: '127.0.0.1', port: this.port, method: req.method, path: req.url, headers, agent: this.agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...withoutHops({ ...answer.headers }), [RELAYED_BY_HEADER]: this.thread });
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      const text = JSON.stringify(errorBody('UNAVAILABLE', 'The server is not answering this request now (it may be shutting down); try again'));
      res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
    // The client went away before the answer was whole: the app's request ends too (its query stops).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body !== undefined) upstream.end(body);
    else req.pipe(upstream);
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The main thread's side: a loopback listener handing relayed requests to `handler` (the app's), with the client's address restored. */
export async function listenForRelays(handler: (req: IncomingMessage, res: ServerResponse) => void, limits: ServerLimits): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer({ requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: keepAliveMs(limits) }, (req, res) => {
    const peer = req.headers[RELAY_PEER];
    delete req.headers[RELAY_PEER];
    // Only a worker reaches this listener with the header; a request without it is judged by its own (loopback) address.
    if (typeof peer === 'string') Object.defineProperty(req.socket, 'remoteAddress', { value: peer, configurable: true });
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
