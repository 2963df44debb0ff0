/**
 * Bolt over WebSocket on the Bolt port (docs/BOLT.md): browser drivers and consoles open a
 * WebSocket to the same port and carry the Bolt byte stream in binary frames (a message may
 * span frames, a frame may hold several). The server tells the two apart by the first byte
 * of a connection: Bolt's preamble starts with 0x60, an HTTP request with a capital letter.
 * Such a socket goes to an HTTP server that listens nowhere, which parses the request; an
 * upgrade goes on to `ws`, whose frames become a byte stream for an ordinary Bolt session,
 * and anything else is answered 426. The door's limits stay: the caller's timer covers the
 * upgrade, and a frame larger than the message size limit (plus room for framing) closes the
 * WebSocket.
 */

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { ServerLimits } from '../limits.js';

/** Room above the message size limit for the chunk headers and a neighbouring message in the same frame. */
const FRAME_SLACK = 256 * 1024;

/** Whether the first byte of a connection starts an HTTP request rather than Bolt's preamble. */
export function startsHttpRequest(first: Buffer): boolean {
  return first.length > 0 && first[0] >= 0x41 && first[0] <= 0x5a;
}

export interface WebSocketDoor {
  /** Parses the HTTP request `socket` begins (its first bytes pushed back already) and upgrades it. */
  take(socket: Socket): void;
  close(): void;
}

/** `onOpen` gets each upgraded connection: the Bolt byte stream, its socket and the upgrade request. */
export function webSocketDoor(limits: ServerLimits, onOpen: (link: Duplex, socket: Socket, request: IncomingMessage) => void): WebSocketDoor {
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes + FRAME_SLACK, perMessageDeflate: false });
  const http: Server = createServer({ maxHeaderSize: 16 * 1024 }, (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', connection: 'close', upgrade: 'websocket' });
    res.end('This is a Bolt port: connect with a Neo4j driver (bolt:// or neo4j://), or a WebSocket for Bolt over WebSocket\n');
  });
  http.on('clientError', (_err, socket: Duplex) => socket.destroy());
  http.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      const link = createWebSocketStream(ws);
      onOpen(link, socket, request);
    });
  });
  return {
    take(socket) {
      http.emit('connection', socket);
      socket.resume();
    },
    close() {
      wss.close();
    },
  };
}
