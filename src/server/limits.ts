/**
 * The explicit limits every network door applies to what a client sends, with their
 * defaults. A request beyond a limit gets a clear error in the door's own form instead of
 * tying up memory or the event loop.
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
  /** Most simultaneous TCP connections; further ones are refused. */
  maxTcpConnections: number;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxLineBytes: 1024 * 1024,
  queryTimeoutMs: 30_000,
  maxResultRows: 1_000_000,
  maxTcpConnections: 1024,
});

/** The defaults with `overrides` applied. */
export function resolveLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
