/**
 * What every network door's start function hands back, the default place their start-up
 * lines go, and the listening step the socket servers share.
 */

import { escapeForLog } from './log-text.js';
import type { Server, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServerLimits } from './limits.js';

export interface RunningServer {
  /** The port actually bound (useful when 0 asked for a free one). */
  port: number;
  /** Stops accepting, lets work in flight finish (briefly), resolves when closed. */
  close(): Promise<void>;
}

/**
 * The listen queue every door asks the kernel for (capped there by net.core.somaxconn). Node's
 * default, 511, overflows when one client opens the connection limit's worth (1 024) of
 * sockets at once: the kernel then drops new SYNs, and a health probe arriving meanwhile waits
 * for its retransmission, a second later (issue 26, found by the attack matrix).
 */
export const LISTEN_BACKLOG = 4096;

/** A host as it appears before `:port` (IPv6 addresses in brackets). */
export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Binds `server` and resolves with the port actually bound (port 0 picks a free one); a
 * bind failure rejects. Later server errors are ignored here — sessions handle their own.
 */
export async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', () => undefined);
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

/** Writes one line to stderr. */
export function stderrLine(line: string): void {
  process.stderr.write(escapeForLog(line) + '\n');
}

/**
 * Keeps every socket `server` accepts (sessions and refused ones alike), so a close can
 * reach connections whose peer never hangs up.
 */
export function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

/**
 * Stops accepting, asks each session to end (`shutdown`), and destroys whatever is still
 * open after `graceMs`; resolves once the listener has closed.
 */
export function closeServer(server: Server, sockets: Set<Socket>, shutdown: () => void, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    shutdown();
    const timer = setTimeout(() => {
      for (const socket of sockets) socket.destroy();
    }, graceMs);
    timer.unref();
    if (sockets.size === 0) clearTimeout(timer);
  });
}

/** Resolves once `socket` can take more (its 'drain') or is gone ('close'), whichever comes first. */
export function drainedOrClosed(socket: Duplex): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/** What the line TCP and Bolt doors are started with (the PostgreSQL wire door has options of its own). */
export interface DoorOptions {
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  limits?: Partial<ServerLimits>;
  /** Where the start-up line goes (default: stderr). */
  log?: (line: string) => void;
}
