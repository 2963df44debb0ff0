/**
 * The explicit limits every network door applies to what a client sends and how long it
 * may hold a connection, with their defaults. A request beyond a limit gets a clear error
 * in the door's own form instead of tying up memory, file descriptors or the event loop.
 */

export interface ServerLimits {
  /** Largest HTTP request body (the query text), in bytes. Beyond it: 413. */
  maxBodyBytes: number;
  /** Longest TCP line (one query), in bytes. Beyond it: an error line, then the connection closes. */
  maxLineBytes: number;
  /** Time limit of one query, in milliseconds (0: none). Beyond it the query stops with code TIMEOUT. */
  queryTimeoutMs: number;
  /** Most rows one result may carry; a larger result is refused with code LIMIT_EXCEEDED. */
  maxResultRows: number;
  /** Most simultaneous connections per door; further ones get a clear refusal and are closed. */
  maxConnections: number;
  /** A connection with no request in progress for this long is closed (ms). */
  idleTimeoutMs: number;
  /**
   * Time a new connection has to identify itself (ms): the HTTP request head, the TCP
   * `AUTH` line when a key is set, the PG start-up and password. Held half-requests end here.
   */
  headersTimeoutMs: number;
  /** Time to receive one whole HTTP request, body included (ms). */
  requestTimeoutMs: number;
  /** Largest Bolt message (a query with its parameters, such as a batch of embeddings), in bytes. Beyond it: FAILURE, then the connection closes. */
  maxMessageBytes: number;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxLineBytes: 1024 * 1024,
  queryTimeoutMs: 30_000,
  maxResultRows: 1_000_000,
  maxConnections: 1024,
  idleTimeoutMs: 300_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxMessageBytes: 16 * 1024 * 1024,
});

/** The defaults with `overrides` applied. */
export function resolveLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
